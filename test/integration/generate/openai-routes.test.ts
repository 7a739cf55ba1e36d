/**
 * The OpenAI-compatible routes over a real server with the bundled charlm model: plain fetch for every shape
 * (completions and chat, stream and not, usage chunk, [DONE], errors), then the `openai` npm SDK unchanged when it
 * is installed, then cancellation (a client that disconnects frees its slot) and the queue bound (429).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { postJson } from '../../helpers/server.ts';
import { startCharlmServer } from './charlm-helpers.ts';
import { until } from '../../helpers/until.ts';

type Json = Record<string, unknown>;

/** Splits an SSE body into its `data:` payloads (OpenAI streams use data lines only). */
function sseData(text: string): string[] {
  return text
    .split('\n\n')
    .filter((e) => e.trim() !== '')
    .map((e) => {
      assert.ok(e.startsWith('data: '), `an SSE event of data lines only: ${JSON.stringify(e.slice(0, 80))}`);
      return e.slice('data: '.length);
    });
}

async function streamChunks(url: string, body: unknown): Promise<{ status: number; type: string | null; chunks: Json[]; done: boolean }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const data = sseData(await res.text());
  const done = data.at(-1) === '[DONE]';
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    chunks: (done ? data.slice(0, -1) : data).map((d) => JSON.parse(d) as Json),
    done,
  };
}

const errorOf = (body: unknown) => (body as { error: { message: string; type: string; code: string; param: unknown } }).error;

let server: RunningServer;
let cleanup: () => Promise<void>;
let url: string;

before(async () => {
  ({ server, cleanup } = await startCharlmServer());
  url = server.httpUrl;
});
after(async () => cleanup());

describe('OpenAI-compatible routes (fetch)', () => {
  test('GET /v1/models lists the generative models', async () => {
    const body = (await (await fetch(`${url}/v1/models`)).json()) as { object: string; data: { id: string; object: string }[] };
    assert.equal(body.object, 'list');
    assert.deepEqual(
      body.data.map((m) => [m.id, m.object]),
      [['charlm', 'model']],
    );
    assert.equal((await fetch(`${url}/v1/models/charlm`)).status, 200);
    assert.equal((await fetch(`${url}/v1/models/nope`)).status, 404);
  });

  test('completions: non-stream and stream give the same text; the stream ends with a finish chunk, usage and [DONE]', async () => {
    const req = { model: 'charlm', prompt: 'def parse(', max_tokens: 40, temperature: 0 };
    const res = await postJson(`${url}/v1/completions`, req);
    assert.equal(res.status, 200);
    const whole = res.json() as {
      id: string;
      object: string;
      model: string;
      choices: { index: number; text: string; finish_reason: string }[];
      usage: Json;
    };
    assert.equal(whole.object, 'text_completion');
    assert.match(whole.id, /^cmpl-/);
    assert.equal(whole.model, 'charlm');
    assert.equal(whole.choices.length, 1);
    assert.ok(['stop', 'length'].includes(whole.choices[0]?.finish_reason as string));
    assert.deepEqual(Object.keys(whole.usage).sort(), ['completion_tokens', 'prompt_tokens', 'total_tokens']);

    const s = await streamChunks(`${url}/v1/completions`, { ...req, stream: true, stream_options: { include_usage: true } });
    assert.equal(s.status, 200);
    assert.match(s.type ?? '', /^text\/event-stream/);
    assert.ok(s.done, 'ends with data: [DONE]');
    const usageChunk = s.chunks.at(-1) as Json;
    assert.deepEqual(usageChunk['choices'], []);
    assert.deepEqual(usageChunk['usage'], whole.usage);
    const pieces = s.chunks.slice(0, -1) as { object: string; choices: { text: string; finish_reason: string | null }[]; usage: unknown }[];
    assert.ok(
      pieces.every((c) => c.object === 'text_completion' && c.usage === null),
      'with include_usage, other chunks carry usage: null',
    );
    assert.equal(pieces.map((c) => c.choices[0]?.text).join(''), whole.choices[0]?.text);
    const finishes = pieces.map((c) => c.choices[0]?.finish_reason).filter((f) => f !== null);
    assert.deepEqual(finishes, [whole.choices[0]?.finish_reason], 'exactly one chunk has the finish reason');

    const plain = await streamChunks(`${url}/v1/completions`, { ...req, stream: true });
    assert.ok(
      plain.chunks.every((c) => !('usage' in c)),
      'no usage fields without include_usage',
    );
  });

  test('chat completions: the role comes first, then content; non-stream is the same message', async () => {
    const req = {
      model: 'charlm',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: [{ type: 'text', text: 'sort a list' }] },
      ],
      max_tokens: 24,
      temperature: 0,
    };
    const res = await postJson(`${url}/v1/chat/completions`, req);
    assert.equal(res.status, 200);
    const whole = res.json() as {
      object: string;
      choices: { message: { role: string; content: string }; finish_reason: string }[];
      usage: { prompt_tokens: number };
    };
    assert.equal(whole.object, 'chat.completion');
    assert.equal(whole.choices[0]?.message.role, 'assistant');
    // The template renders "# system: ...\n# user: ...\n# assistant: " (plus the BOS token).
    assert.equal(whole.usage.prompt_tokens, new TextEncoder().encode('# system: be brief\n# user: sort a list\n# assistant: ').length + 1);
    const s = await streamChunks(`${url}/v1/chat/completions`, { ...req, stream: true });
    assert.ok(s.done);
    const chunks = s.chunks as { object: string; choices: { delta: { role?: string; content?: string }; finish_reason: string | null }[] }[];
    assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk'));
    assert.equal(chunks[0]?.choices[0]?.delta.role, 'assistant');
    assert.equal(chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''), whole.choices[0]?.message.content);
    assert.deepEqual(chunks.at(-1)?.choices[0], { index: 0, delta: {}, logprobs: null, finish_reason: whole.choices[0]?.finish_reason });
  });

  test('stop sequences, seeds and max_tokens behave as the OpenAI API documents', async () => {
    const base = { model: 'charlm', prompt: 'import os\nimport ', max_tokens: 60, temperature: 0 };
    const full = (await postJson(`${url}/v1/completions`, base)).json() as { choices: { text: string }[] };
    const text = full.choices[0]?.text as string;
    const stop = text.includes('\n') ? '\n' : text.slice(3, 5);
    const cut = (await postJson(`${url}/v1/completions`, { ...base, stop: [stop] })).json() as { choices: { text: string; finish_reason: string }[] };
    assert.equal(cut.choices[0]?.text, text.slice(0, text.indexOf(stop)));
    assert.equal(cut.choices[0]?.finish_reason, 'stop');
    const sampled = async (seed: number) =>
      ((await postJson(`${url}/v1/completions`, { ...base, temperature: 0.9, top_p: 0.95, seed })).json() as { choices: { text: string }[] })
        .choices[0]?.text;
    assert.equal(await sampled(11), await sampled(11), 'the same seed gives the same text');
    const short = (await postJson(`${url}/v1/completions`, { ...base, max_tokens: 3 })).json() as {
      choices: { finish_reason: string }[];
      usage: { completion_tokens: number };
    };
    assert.equal(short.usage.completion_tokens, 3);
    assert.equal(short.choices[0]?.finish_reason, 'length');
  });

  test('errors are OpenAI error objects with the registry status', async () => {
    const cases: [unknown, number, string][] = [
      [{ model: 'nope', prompt: 'x' }, 404, 'model_not_found'],
      [{ model: 'charlm', prompt: 'x', temperature: -1 }, 400, 'bad_parameter'],
      [{ model: 'charlm', prompt: 'x', n: 2 }, 400, 'unsupported_parameter'],
      [{ model: 'charlm', prompt: 5 }, 400, 'bad_parameter'],
      [{ model: 'charlm', prompt: 'x'.repeat(600) }, 400, 'bad_request'],
      [{ prompt: 'x' }, 400, 'bad_parameter'],
    ];
    for (const [body, status, code] of cases) {
      const res = await postJson(`${url}/v1/completions`, body);
      assert.equal(res.status, status, JSON.stringify(body).slice(0, 60));
      const e = errorOf(res.json());
      assert.equal(e.code, code);
      assert.equal(typeof e.message, 'string');
      assert.equal(e.type, 'invalid_request_error', 'OpenAI answers an unknown model 404 invalid_request_error too');
    }
    const broken = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":' });
    assert.equal(broken.status, 400);
    assert.equal(errorOf(await broken.json()).code, 'bad_json');
  });
});

describe('OpenAI-compatible routes (the openai npm SDK, unchanged)', () => {
  interface OpenAiLike {
    completions: { create(body: Json): Promise<unknown> };
    chat: { completions: { create(body: Json): Promise<unknown> } };
    models: { list(): Promise<unknown> };
  }

  test('the SDK lists models, completes, streams and reports usage', async (t) => {
    let OpenAI: new (options: Json) => OpenAiLike;
    try {
      // Imported by a computed name: the package is optional (not a dependency), and type-checking must not need it.
      const specifier = 'openai';
      OpenAI = ((await import(specifier)) as { default: new (options: Json) => OpenAiLike }).default;
    } catch {
      t.skip('the `openai` package is not installed (add it as a devDependency to run this test: npm i -D openai)');
      return;
    }
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'not-needed', maxRetries: 0 });
    const models = (await client.models.list()) as { data: { id: string }[] };
    assert.deepEqual(
      models.data.map((m) => m.id),
      ['charlm'],
    );
    const c = (await client.completions.create({ model: 'charlm', prompt: 'def ', max_tokens: 20, temperature: 0 })) as {
      choices: { text: string }[];
      usage: { completion_tokens: number };
    };
    assert.equal(c.usage.completion_tokens, 20);
    const stream = (await client.chat.completions.create({
      model: 'charlm',
      messages: [{ role: 'user', content: 'hello' }],
      max_tokens: 16,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
    })) as AsyncIterable<{ choices: { delta: { content?: string } }[]; usage?: { completion_tokens: number } | null }>;
    let text = '';
    let usage: { completion_tokens: number } | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    assert.equal(usage?.completion_tokens, 16);
    const whole = (await client.chat.completions.create({
      model: 'charlm',
      messages: [{ role: 'user', content: 'hello' }],
      max_tokens: 16,
      temperature: 0,
    })) as {
      choices: { message: { content: string } }[];
    };
    assert.equal(text, whole.choices[0]?.message.content);
    await assert.rejects(client.completions.create({ model: 'nope', prompt: 'x' }), (e: unknown) => (e as { status?: number }).status === 404);
  });
});

describe('slots and bounds', () => {
  let limited: RunningServer;
  let cleanupLimited: () => Promise<void>;
  before(async () => {
    ({ server: limited, cleanup: cleanupLimited } = await startCharlmServer({ generateMaxSequences: 1, generateMaxQueue: 1 }));
  });
  after(async () => cleanupLimited());

  test('a client that disconnects mid-stream frees its slot; beyond the queue bound requests get 429', async () => {
    const base = limited.httpUrl;
    const controller = new AbortController();
    const res = await fetch(`${base}/v1/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'charlm', prompt: 'class ', max_tokens: 400, temperature: 0, stream: true }),
      signal: controller.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /^data: /);
    const load = () => limited.generate.load()[0] ?? { running: 0, queued: 0 };
    assert.equal(load().running, 1);

    // The one slot is taken: the next request waits in the queue, the one after is refused.
    const queued = postJson(`${base}/v1/completions`, { model: 'charlm', prompt: 'x', max_tokens: 5, temperature: 0 });
    await until(() => load().queued === 1, 'the second request in the generation queue');
    const refused = await postJson(`${base}/v1/completions`, { model: 'charlm', prompt: 'y', max_tokens: 5 });
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(errorOf(refused.json()).type, 'rate_limit_error');

    controller.abort();
    const done = await queued;
    assert.equal(done.status, 200, 'the queued request ran once the disconnected stream left its slot');
    assert.equal((done.json() as { usage: { completion_tokens: number } }).usage.completion_tokens, 5);
    const metrics = await (await fetch(`${limited.metricsUrl}/metrics`)).text();
    assert.match(metrics, /rtserve_generate_requests_total\{model="charlm",finish_reason="cancelled"\} 1/);
    await until(() => load().running === 0 && load().queued === 0, 'every sequence to end');
  });
});
