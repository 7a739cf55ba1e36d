/**
 * charlm served with `generate.engine: onnx-paged` (the paged scheduler over the host TokenEngine) and a KV cache
 * small enough that concurrent requests are chunked and preempted: the OpenAI completions route, SSE
 * generate_stream and the WebSocket protocol give the text of a direct step-by-step onnxruntime decode, and
 * /metrics shows the paged series (KV blocks, prefix-cache hits, preemptions).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { postJson } from '../../helpers/server.ts';
import { BOS, DirectDecoder, decodeBytes, startCharlmServer, utf8 } from './charlm-helpers.ts';

const BLOCKS = 24;
let direct: DirectDecoder;
let server: RunningServer;
let cleanup: () => Promise<void>;

before(async () => {
  direct = await DirectDecoder.open();
  // 24 blocks of 8 = 192 positions, 16 tokens a step: four requests of ~70 positions do not fit together.
  ({ server, cleanup } = await startCharlmServer({}, { engine: 'onnx-paged', kv_cache: { block_tokens: 8, blocks: BLOCKS, max_step_tokens: 16 } }));
});
after(async () => {
  await cleanup();
  await direct.close();
});

const PROMPTS = ['def read_config(path):\n', 'import os\nimport sys\n\n', 'class Foo:\n    def __init__(self', '# Copyright'];
const MAX_TOKENS = 48;

async function metric(series: string): Promise<number> {
  const text = await (await fetch(`${server.metricsUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? Number.NaN : Number(line.slice(series.length + 1));
}

const expectedText = async (prompt: string): Promise<string> => decodeBytes(await direct.greedy([BOS, ...utf8(prompt)], MAX_TOKENS));

describe('charlm on the paged scheduler (generate.engine onnx-paged)', () => {
  test('/v1/completions: concurrent requests under a tiny KV cache give the direct decode, with preemptions counted', async () => {
    const want = await Promise.all(PROMPTS.map(expectedText));
    const preemptionsBefore = (await metric('rtserve_generate_preemptions_total{model="charlm"}')) || 0;
    const answers = await Promise.all(
      PROMPTS.map((prompt) => postJson(`${server.httpUrl}/v1/completions`, { model: 'charlm', prompt, max_tokens: MAX_TOKENS, temperature: 0 })),
    );
    answers.forEach((res, i) => {
      assert.equal(res.status, 200);
      const body = res.json() as { choices: { text: string }[]; usage: { prompt_tokens: number } };
      assert.equal(body.choices[0]?.text, want[i], `prompt ${i}`);
      assert.equal(body.usage.prompt_tokens, utf8(PROMPTS[i] as string).length + 1);
    });
    assert.ok((await metric('rtserve_generate_preemptions_total{model="charlm"}')) > preemptionsBefore, 'preemptions on /metrics');
    assert.equal(await metric('rtserve_generate_kv_blocks{model="charlm",state="free"}'), BLOCKS, 'every block free again');
    assert.equal(await metric('rtserve_generate_kv_blocks{model="charlm",state="used"}'), 0);
  });

  test('SSE generate_stream: the streamed text is the direct decode; the prompt again hits the prefix cache', async () => {
    const prompt = PROMPTS[1] as string;
    const want = await expectedText(prompt);
    const hits = (): Promise<number> => metric('rtserve_generate_prefix_cache_hits_total{model="charlm"}');
    const hitsBefore = (await hits()) || 0;
    for (const round of [1, 2]) {
      const res = await fetch(`${server.httpUrl}/v2/models/charlm/generate_stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text_input: prompt, parameters: { max_tokens: MAX_TOKENS, temperature: 0 } }),
      });
      assert.equal(res.status, 200);
      const events = (await res.text()).split('\n\n').filter((b) => b.includes('data: '));
      const text = events
        .filter((b) => !b.includes('event: '))
        .map((b) => (JSON.parse(b.slice(b.indexOf('data: ') + 6)) as { text_output: string }).text_output)
        .join('');
      assert.equal(text, want, `round ${round}`);
      assert.ok(events.at(-1)?.includes('event: done'), 'the stream ends with done');
    }
    // BOS and 21 bytes: two full blocks of 8, cached by the first round.
    assert.equal((await hits()) - hitsBefore, 2, 'prefix-cache hits on /metrics');
  });

  test('WebSocket infer stream: the deltas join to the direct decode', async () => {
    const prompt = PROMPTS[2] as string;
    const ws = new WebSocket(`${server.httpUrl.replace(/^http/, 'ws')}/v2/ws`, ['rtserve.v1']);
    type Event = { type: string; id?: string; outputs?: { data: string[] }[] };
    const got: Event[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('message', (data, isBinary) => {
        if (isBinary) return;
        const e = JSON.parse(data.toString()) as Event;
        if (e.type === 'session.created') {
          ws.send(
            JSON.stringify({
              type: 'infer',
              id: 'r1',
              model: 'charlm',
              inputs: [{ name: 'text_input', datatype: 'BYTES', shape: [1, 1], data: [prompt] }],
              parameters: { max_tokens: MAX_TOKENS, temperature: 0 },
              stream: true,
            }),
          );
        } else if (e.id === 'r1') {
          got.push(e);
          if (e.type !== 'delta') resolve();
        }
      });
      ws.once('error', reject);
    });
    ws.close();
    assert.equal(got.at(-1)?.type, 'done');
    const text = got
      .filter((e) => e.type === 'delta')
      .map((e) => e.outputs?.[0]?.data[0] ?? '')
      .join('');
    assert.equal(text, await expectedText(prompt));
    assert.ok((await metric('rtserve_generate_time_to_first_token_seconds_count{model="charlm"}')) >= 1, 'TTFT observed');
  });
});
