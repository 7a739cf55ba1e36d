/**
 * The OpenAI-compatible routes through front-end workers (docs/workers.md): a worker's routes generate in the engine
 * owner's GenerateService over the worker channel. With the bundled charlm at temperature 0, /v1/completions and
 * /v1/chat/completions, streamed and not, with stop sequences and usage, answer the same through `--workers 2` as
 * through one process; a client that disconnects mid-stream cancels its generation in the owner.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { until } from '../../helpers/until.ts';
import { parseSamples, scrape, valueOf } from '../ops/helpers.ts';
import { startCharlmServer } from '../generate/charlm-helpers.ts';

type Json = Record<string, unknown>;

/** The answer without what differs between any two answers (the generation's id, the second it was created). */
function comparable(body: Json): Json {
  const { id: _id, created: _created, ...rest } = body;
  return rest;
}

/** One request on a connection of its own (node:cluster hands each new connection to the next worker). */
async function post(base: string, path: string, body: Json): Promise<{ status: number; body: Json[] | Json }> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (body['stream'] !== true) return { status: res.status, body: comparable(JSON.parse(text) as Json) };
  // SSE: `data: <chunk>` events, then `data: [DONE]` (kept as a string so its presence is compared too).
  const events = text
    .split('\n\n')
    .filter((e) => e.trim() !== '')
    .map((e) => e.replace(/^data: /, ''));
  return { status: res.status, body: events.map((d) => (d === '[DONE]' ? { done: true } : comparable(JSON.parse(d) as Json))) };
}

describe('OpenAI-compatible routes through two workers', () => {
  let one: { server: RunningServer; cleanup: () => Promise<void> };
  let two: { server: RunningServer; cleanup: () => Promise<void> };
  before(async () => {
    one = await startCharlmServer();
    two = await startCharlmServer({ workers: 2 });
  });
  after(async () => {
    await two?.cleanup();
    await one?.cleanup();
  });

  test('completions and chat completions, stream and not, answer as one process does', async () => {
    const prompt = { model: 'charlm', prompt: 'import os\nimport ', max_tokens: 40, temperature: 0 };
    const full = (await post(one.server.httpUrl, '/v1/completions', prompt)).body as { choices: { text: string }[] };
    const text = full.choices[0]?.text ?? '';
    assert.ok(text.length > 6, `charlm wrote ${JSON.stringify(text)}`);
    // A stop sequence from the middle of the output: the answers end before it, with finish reason "stop".
    const stop = text.slice(4, 6);
    const chat = {
      model: 'charlm',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'sort a list' },
      ],
      max_tokens: 24,
      temperature: 0,
    };
    const cases: [string, Json][] = [
      ['/v1/completions', prompt],
      ['/v1/completions', { ...prompt, stop: [stop] }],
      ['/v1/completions', { ...prompt, prompt: 'def parse(', echo: true }],
      ['/v1/chat/completions', chat],
      ['/v1/chat/completions', { ...chat, stop: ['\n'] }],
    ];
    for (const [path, body] of cases) {
      for (const stream of [{}, { stream: true }, { stream: true, stream_options: { include_usage: true } }]) {
        const req = { ...body, ...stream };
        const expected = await post(one.server.httpUrl, path, req);
        assert.equal(expected.status, 200, JSON.stringify(expected.body));
        // Twice: through each worker.
        for (let i = 0; i < 2; i++) assert.deepEqual(await post(two.server.httpUrl, path, req), expected, `${path} ${JSON.stringify(req)}`);
      }
    }
    const cut = (await post(two.server.httpUrl, '/v1/completions', { ...prompt, stop: [stop] })).body as {
      choices: { text: string; finish_reason: string }[];
    };
    assert.deepEqual(cut.choices[0], { index: 0, text: text.slice(0, text.indexOf(stop)), logprobs: null, finish_reason: 'stop' });
  });

  test('GET /v1/models lists the generative models through every worker (from the owner’s mirror)', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${two.server.httpUrl}/v1/models`, { headers: { connection: 'close' } });
      const body = (await res.json()) as { data: { id: string }[] };
      assert.deepEqual(
        body.data.map((m) => m.id),
        ['charlm'],
      );
      assert.equal((await fetch(`${two.server.httpUrl}/v1/models/charlm`, { headers: { connection: 'close' } })).status, 200);
      assert.equal((await fetch(`${two.server.httpUrl}/v1/models/nope`, { headers: { connection: 'close' } })).status, 404);
    }
  });

  test('errors are the same: unknown model, bad parameters', async () => {
    for (const [path, body] of [
      ['/v1/completions', { model: 'nope', prompt: 'x' }],
      ['/v1/chat/completions', { model: 'nope', messages: [{ role: 'user', content: 'x' }] }],
      ['/v1/completions', { model: 'charlm', prompt: 'x', max_tokens: 0 }],
      ['/v1/completions', { model: 'charlm', prompt: 'x', n: 2 }],
    ] as [string, Json][]) {
      const expected = await post(one.server.httpUrl, path, body);
      assert.ok(expected.status >= 400, JSON.stringify(expected));
      assert.deepEqual(await post(two.server.httpUrl, path, body), expected, path);
    }
  });

  test('a client that disconnects mid-stream cancels its generation in the owner', async () => {
    const server = two.server;
    const metricsUrl = server.metricsUrl ?? '';
    const cancelled = async (): Promise<number> =>
      valueOf(parseSamples(await scrape(`${metricsUrl}/metrics`)), 'rtserve_generate_requests_total', {
        model: 'charlm',
        finish_reason: 'cancelled',
      }) ?? 0;
    const before = await cancelled();
    const controller = new AbortController();
    const res = await fetch(`${server.httpUrl}/v1/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify({ model: 'charlm', prompt: 'class ', max_tokens: 400, temperature: 0, stream: true }),
      signal: controller.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /^data: /);
    const running = (): number => server.generate.load().reduce((n, l) => n + l.running + l.queued, 0);
    assert.equal(running(), 1, 'the generation runs in the owner (this process)');
    controller.abort();
    await until(() => running() === 0, 'the generation ended in the owner');
    assert.equal(await cancelled(), before + 1, 'it ended as cancelled, not at its 400 tokens');
  });
});
