/**
 * Hugging Face checkpoints served for real: a repository with a tiny Qwen2 checkpoint (no rtserve config at all:
 * detected by its files) and a tiny Llama one (config.pbtxt with backend "huggingface"), both written by code.
 * Checked against an independent greedy decode (onnxruntime-node on the built graph, the prompt rendered with
 * @huggingface/jinja and tokenized with @huggingface/tokenizers in the test): /v1/chat/completions with the chat
 * template applied, streaming over SSE, the same prompt over WebSocket, SSE generate_stream and gRPC
 * ModelStreamInfer, stop sequences,
 * end-of-sequence ids from generation_config.json, and cancellation freeing the slot.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from '@huggingface/jinja';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import WebSocket from 'ws';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import type { ContinuousBatcher } from '../../../src/generate/continuous-batcher.ts';
import { loadHfDecoder } from '../../../src/hf/checkpoint.ts';
import { FAMILY_TEXT, tinyModel, writeCheckpoint, type Family } from '../../helpers/hf-checkpoint.ts';
import { postJson, startTestServer } from '../../helpers/server.ts';
import { fromRaw, inferenceClient, type ModelInferResponse, type ModelStreamInferResponse } from '../grpc/grpc-test-client.ts';
import { until } from '../../helpers/until.ts';

let server: RunningServer;
let repo: string;

const MODELS: Readonly<Record<string, Family>> = { qwen: 'qwen2', llama: 'llama' };
const MESSAGES = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Hello there, how are you today?' },
];
const MAX_TOKENS = 12;

interface Expected {
  readonly promptTokens: number;
  readonly tokens: number[];
  readonly text: string;
  readonly prompt: string;
}
const expected = new Map<string, Expected>();

/** Greedy decode of `prompt` on the graph, batch 1, the KV cache fed back: the answer the server must give. */
async function greedy(
  dir: string,
  cache: string,
  family: Family,
  messages: readonly { role: string; content: string }[] = MESSAGES,
): Promise<Expected> {
  const tj = JSON.parse(await readFile(join(dir, 'tokenizer.json'), 'utf8')) as object;
  const tc = JSON.parse(await readFile(join(dir, 'tokenizer_config.json'), 'utf8')) as Record<string, string>;
  const gen = JSON.parse(await readFile(join(dir, 'generation_config.json'), 'utf8')) as { eos_token_id: number[] };
  const tok = new Tokenizer(tj, tc);
  const prompt = new Template(tc['chat_template'] as string).render({
    messages,
    add_generation_prompt: true,
    bos_token: FAMILY_TEXT[family].bos ?? '',
    eos_token: FAMILY_TEXT[family].eos,
  });
  // The template carries the BOS itself; nothing is added on top (transformers' apply_chat_template).
  const ids: number[] = tok.encode(prompt, { add_special_tokens: false }).ids;
  const built = await loadHfDecoder(dir, { cacheRoot: cache });
  const { numLayers: L, numKvHeads: kvH, headDim: D, vocabSize: V } = built.arch;
  const session = await ort.InferenceSession.create(built.onnxPath, { intraOpNumThreads: 1 });
  const i64 = (v: number[], dims: number[]) => new ort.Tensor('int64', BigInt64Array.from(v.map(BigInt)), dims);
  const feeds: Record<string, ort.Tensor> = {
    input_ids: i64(ids, [1, ids.length]),
    position_ids: i64(
      ids.map((_, i) => i),
      [1, ids.length],
    ),
    attention_mask: i64(
      ids.map(() => 1),
      [1, ids.length],
    ),
    logits_index: i64([ids.length - 1], [1]),
  };
  for (let l = 0; l < L; l++)
    for (const kv of ['key', 'value']) feeds[`past_key_values.${l}.${kv}`] = new ort.Tensor('float32', new Float32Array(0), [1, kvH, 0, D]);
  const tokens: number[] = [];
  let pos = ids.length;
  for (;;) {
    const out = await session.run(feeds);
    const logits = out['logits']?.data as Float32Array;
    const last = logits.subarray(0, V);
    let best = 0;
    for (let i = 1; i < V; i++) if ((last[i] as number) > (last[best] as number)) best = i;
    tokens.push(best);
    if (gen.eos_token_id.includes(best) || tokens.length >= MAX_TOKENS) break;
    feeds['input_ids'] = i64([best], [1, 1]);
    feeds['position_ids'] = i64([pos], [1, 1]);
    feeds['logits_index'] = i64([0], [1]);
    feeds['attention_mask'] = i64(
      Array.from({ length: pos + 1 }, () => 1),
      [1, pos + 1],
    );
    for (let l = 0; l < L; l++) {
      feeds[`past_key_values.${l}.key`] = out[`present.${l}.key`] as ort.Tensor;
      feeds[`past_key_values.${l}.value`] = out[`present.${l}.value`] as ort.Tensor;
    }
    pos++;
  }
  await session.release();
  const text = tok.decode(
    tokens.filter((t) => !gen.eos_token_id.includes(t)),
    { skip_special_tokens: true },
  );
  return { promptTokens: ids.length, tokens, text, prompt };
}

before(async () => {
  repo = await mkdtemp(join(tmpdir(), 'rtserve-hf-serve-'));
  for (const [name, family] of Object.entries(MODELS)) {
    const dir = join(repo, name, '1');
    await writeCheckpoint(dir, tinyModel(family, { seed: family === 'qwen2' ? 5 : 9 }), {
      dtype: family === 'llama' ? 'BF16' : 'F32',
      shards: family === 'llama' ? 2 : 1,
    });
    expected.set(name, await greedy(dir, join(repo, '.cache'), family));
  }
  await writeFile(join(repo, 'llama', 'config.pbtxt'), 'backend: "huggingface"\nmax_batch_size: 8\n');
  // The ONNX path on every machine (a GPU host would otherwise serve these through the CUDA decoder: generate.engine auto).
  server = await startTestServer({ modelRepository: [repo] }, { tokenEngineFactory: null });
});
after(async () => {
  await server?.close();
  await rm(repo, { recursive: true, force: true });
});

type Json = Record<string, unknown>;
const chat = (model: string, extra: Json = {}) => ({ model, messages: MESSAGES, max_tokens: MAX_TOKENS, temperature: 0, ...extra });

async function sseChunks(res: Response): Promise<Json[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((e) => e.startsWith('data: ') && e !== 'data: [DONE]')
    .map((e) => JSON.parse(e.slice(6)) as Json);
}

for (const model of Object.keys(MODELS)) {
  describe(`${model} (${MODELS[model]}) over the front ends`, () => {
    test('the model is ready and listed by /v1/models', async () => {
      const body = (await (await fetch(`${server.httpUrl}/v1/models`)).json()) as { data: { id: string }[] };
      assert.ok(body.data.some((m) => m.id === model));
    });

    test('/v1/chat/completions applies the chat template and answers the greedy tokens', async () => {
      const want = expected.get(model) as Expected;
      const res = await postJson(`${server.httpUrl}/v1/chat/completions`, chat(model));
      assert.equal(res.status, 200, new TextDecoder().decode(res.body));
      const body = res.json() as {
        choices: { message: { content: string }; finish_reason: string }[];
        usage: { prompt_tokens: number; completion_tokens: number };
      };
      assert.equal(body.usage.prompt_tokens, want.promptTokens, 'prompt tokens: the template rendered and tokenized once (no second BOS)');
      assert.equal(body.usage.completion_tokens, want.tokens.length);
      assert.equal(body.choices[0]?.message.content, want.text);
      assert.equal(body.choices[0]?.finish_reason, want.tokens.length < MAX_TOKENS ? 'stop' : 'length');
    });

    test('streaming chat over SSE gives the same text, piece by piece', async () => {
      const want = expected.get(model) as Expected;
      const res = await fetch(`${server.httpUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(chat(model, { stream: true })),
      });
      assert.equal(res.status, 200);
      const chunks = await sseChunks(res);
      const text = chunks.map((c) => ((c['choices'] as { delta: { content?: string } }[])[0]?.delta.content ?? '') as string).join('');
      assert.equal(text, want.text);
      assert.ok(chunks.length >= 2);
    });

    test('a stop sequence ends the answer before it', async () => {
      const want = expected.get(model) as Expected;
      assert.ok(want.text.length >= 6, `the fixture's answer is long enough to cut: ${JSON.stringify(want.text)}`);
      const stop = want.text.slice(3, 5);
      const res = await postJson(`${server.httpUrl}/v1/chat/completions`, chat(model, { stop: [stop] }));
      const body = res.json() as { choices: { message: { content: string }; finish_reason: string }[] };
      assert.equal(body.choices[0]?.message.content, want.text.slice(0, want.text.indexOf(stop)));
      assert.equal(body.choices[0]?.finish_reason, 'stop');
    });

    test('the rendered prompt over SSE generate_stream and the WebSocket gives the same text', async () => {
      const want = expected.get(model) as Expected;
      const params = { max_tokens: MAX_TOKENS, temperature: 0 };
      const sse = await fetch(`${server.httpUrl}/v2/models/${model}/generate_stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text_input: want.prompt, parameters: params }),
      });
      const events = (await sse.text()).split('\n\n').filter((b) => b.includes('data: '));
      const sseText = events
        .map((b) => b.split('\n').find((l) => l.startsWith('data: ')) as string)
        .map((l) => (JSON.parse(l.slice(6)) as { text_output?: string }).text_output ?? '')
        .join('');
      assert.equal(sseText, want.text);

      const ws = new WebSocket(`${server.httpUrl.replace(/^http/, 'ws')}/v2/ws`, ['rtserve.v1']);
      const pieces: string[] = [];
      const done = new Promise<string>((resolve, reject) => {
        ws.on('message', (data, isBinary) => {
          if (isBinary) return;
          const e = JSON.parse(data.toString()) as { type: string; id?: string; outputs?: { data: string[] }[] };
          if (e.type === 'session.created') {
            ws.send(
              JSON.stringify({
                type: 'infer',
                id: 'r1',
                model,
                inputs: [{ name: 'text_input', datatype: 'BYTES', shape: [1, 1], data: [want.prompt] }],
                parameters: params,
                stream: true,
              }),
            );
          } else if (e.id === 'r1') {
            pieces.push(e.outputs?.[0]?.data[0] ?? '');
            if (e.type !== 'delta') resolve(e.type);
          }
        });
        ws.once('error', reject);
      });
      assert.equal(await done, 'done');
      ws.close();
      assert.equal(pieces.join(''), want.text);
    });
  });
}

test('gRPC ModelStreamInfer streams the same text for the rendered prompt', async () => {
  const want = expected.get('llama') as Expected;
  const client = inferenceClient(server.grpcAddress as string);
  try {
    const stream = client.ModelStreamInfer();
    const pieces: string[] = [];
    await new Promise<void>((resolve, reject) => {
      stream.on('data', (r: ModelStreamInferResponse) => {
        if (r.error_message !== '') {
          reject(new Error(r.error_message));
          return;
        }
        const res = r.infer_response as ModelInferResponse & { parameters?: Record<string, { bool_param?: boolean }> };
        const data = fromRaw('BYTES', res.raw_output_contents[0] ?? Buffer.alloc(0)) as Uint8Array[];
        pieces.push(new TextDecoder().decode(data[0]));
        if (res.parameters?.['triton_final_response']?.bool_param === true) resolve();
      });
      stream.on('error', reject);
      stream.write({
        model_name: 'llama',
        id: 'g1',
        parameters: { max_tokens: { int64_param: MAX_TOKENS }, temperature: { double_param: 0 } },
        inputs: [{ name: 'text_input', datatype: 'BYTES', shape: [1, 1], contents: { bytes_contents: [Buffer.from(want.prompt)] } }],
        outputs: [],
        raw_input_contents: [],
      });
    });
    stream.end();
    assert.equal(pieces.join(''), want.text);
  } finally {
    client.close();
  }
});

test('concurrent chats of different lengths, batched together, each answer their own greedy tokens', async () => {
  const conversations = [
    [{ role: 'user', content: 'Hi' }],
    [{ role: 'user', content: 'The quick brown fox jumps over the lazy dog. The dog sleeps.' }],
    [
      { role: 'user', content: 'for i in range(10):' },
      { role: 'assistant', content: 'print(i)' },
      { role: 'user', content: 'Hello world! ✓ 日本語' },
    ],
  ];
  const dir = join(repo, 'qwen', '1');
  const want = await Promise.all(conversations.map((c) => greedy(dir, join(repo, '.cache'), 'qwen2', c)));
  const answers = await Promise.all(
    conversations.map((messages) =>
      postJson(`${server.httpUrl}/v1/chat/completions`, { model: 'qwen', messages, max_tokens: MAX_TOKENS, temperature: 0 }),
    ),
  );
  answers.forEach((res, i) => {
    const body = res.json() as { choices: { message: { content: string } }[]; usage: { prompt_tokens: number } };
    assert.equal(body.usage.prompt_tokens, want[i]?.promptTokens);
    assert.equal(body.choices[0]?.message.content, want[i]?.text, `conversation ${i}`);
  });
  // Started in one tick: the first is prefilled alone (the loop starts at once), the other two together in one
  // right-padded prefill, then all three decode in the same steps.
  const batcher = server.generate.batcher('qwen') as ContinuousBatcher;
  const prefillsBefore = batcher.runs.prefill;
  const gens = want.map((w) => server.generate.start({ model: 'qwen', prompt: w.prompt, maxTokens: MAX_TOKENS, temperature: 0 }));
  const results = await Promise.all(gens.map((g) => g.result));
  results.forEach((r, i) => assert.equal(r.text, want[i]?.text, `batched conversation ${i}`));
  assert.equal(batcher.runs.prefill - prefillsBefore, 2);
});

test('a client that disconnects mid-stream frees its slot', async () => {
  const ac = new AbortController();
  const res = await fetch(`${server.httpUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // ignore_eos is not supported; a long answer with a stop id far away is enough: max_tokens bounds it.
    body: JSON.stringify(chat('qwen', { stream: true, max_tokens: 60, temperature: 1, seed: 1 })),
    signal: ac.signal,
  });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  ac.abort();
  await until(() => server.generate.load().every((l) => l.running === 0 && l.queued === 0), 'the cancelled generation to leave the batch');
});
