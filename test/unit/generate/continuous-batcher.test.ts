import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { GenerateService } from '../../../src/generate/generate-service.ts';
import type { BatcherLimits } from '../../../src/generate/continuous-batcher.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { FakeDecoderSession, fakeConfig, fakeReference } from './fake-decoder.ts';
import { fuzzParams } from '../../helpers/fuzz.ts';

function serviceWith(
  session: FakeDecoderSession,
  limits: Partial<BatcherLimits> = {},
  configOverrides: Record<string, unknown> = {},
): GenerateService {
  const config = fakeConfig(configOverrides);
  return new GenerateService({ resolve: () => ({ name: 'fake', version: '1', config, session }), limits });
}

/** Holds every engine run until released, so a test can act between steps. */
function gated(session: FakeDecoderSession): { release: (n?: number) => Promise<void>; free: () => void; waiting: () => number } {
  const pending: (() => void)[] = [];
  let open = false;
  session.gate = () => (open ? Promise.resolve() : new Promise<void>((resolve) => pending.push(resolve)));
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    async release(n = 1) {
      for (let i = 0; i < n; i++) {
        for (let spins = 0; pending.length === 0 && spins < 100; spins++) await settle();
        pending.shift()?.();
        await settle();
      }
    },
    free() {
      open = true;
      for (const p of pending.splice(0)) p();
    },
    waiting: () => pending.length,
  };
}

const bytes = (s: string): number[] => [...new TextEncoder().encode(s)];

describe('continuous batching (fake decoder with exact KV semantics)', () => {
  test('every sequence gets the tokens it gets alone, while sequences join and leave mid-flight', async () => {
    const session = new FakeDecoderSession();
    const service = serviceWith(session, { maxSequences: 4 });
    const prompts = ['a', 'hello', 'def f(x):', 'zz', 'import os', 'q', 'class A:', 'return 1', 'x = [', 'while True', 'pass', '#'];
    const gens = prompts.map((p, i) => service.start({ model: 'fake', prompt: p, maxTokens: 5 + ((i * 7) % 30), greedy: true }));
    const results = await Promise.all(gens.map((g) => g.result));
    results.forEach((r, i) => {
      const expected = fakeReference(bytes(prompts[i] as string), 5 + ((i * 7) % 30));
      assert.deepEqual(r.tokens, expected, `prompt ${JSON.stringify(prompts[i])}`);
    });
    const decodeRows = session.calls.filter((c) => c.newTokens === 1).map((c) => c.rows);
    assert.ok(Math.max(...decodeRows) > 1, 'decode steps ran several sequences at once');
    assert.ok(Math.max(...decodeRows) <= 4, 'never more rows than maxSequences');
    // Joining at step boundaries: prefill runs happened between decode steps, not only at the start.
    const firstDecode = session.calls.findIndex((c) => c.newTokens === 1);
    assert.ok(
      session.calls.slice(firstDecode).some((c) => c.newTokens > 1 || c.rows > 1),
      'sequences joined after decoding had started',
    );
    assert.equal(service.batcher('fake').running, 0);
    assert.equal(service.batcher('fake').queued, 0);
  });

  test('property: arbitrary prompts, lengths, limits and arrival times give the solo tokens', async (t) => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            prompt: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 12 }),
            maxTokens: fc.integer({ min: 1, max: 24 }),
            delaySteps: fc.integer({ min: 0, max: 6 }),
          }),
          { minLength: 1, maxLength: 10 },
        ),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 64 }),
        async (reqs, maxSequences, maxPrefillTokens) => {
          const session = new FakeDecoderSession();
          const service = serviceWith(session, { maxSequences, maxPrefillTokens });
          const gate = gated(session);
          const started: { req: (typeof reqs)[number]; result: Promise<{ tokens: readonly number[] }> }[] = [];
          const byDelay = [...reqs].sort((a, b) => a.delaySteps - b.delaySteps);
          let step = 0;
          for (const r of byDelay) {
            while (step < r.delaySteps) {
              await gate.release();
              step++;
            }
            started.push({ req: r, result: service.start({ model: 'fake', promptTokens: r.prompt, maxTokens: r.maxTokens, greedy: true }).result });
          }
          gate.free();
          for (const s of started) assert.deepEqual((await s.result).tokens, fakeReference(s.req.prompt, s.req.maxTokens));
        },
      ),
      fuzzParams(t, { numRuns: 40 }),
    );
  });

  test('cancelling a running sequence ends its stream and frees its slot for a queued one', async () => {
    const session = new FakeDecoderSession();
    const service = serviceWith(session, { maxSequences: 1 });
    const gate = gated(session);
    const a = service.start({ model: 'fake', prompt: 'long one', maxTokens: 60, greedy: true });
    const b = service.start({ model: 'fake', prompt: 'next', maxTokens: 6, greedy: true });
    await gate.release(3); // prefill of A, then two decode steps
    const batcher = service.batcher('fake');
    assert.equal(batcher.running, 1);
    assert.equal(batcher.queued, 1, 'B waits: one slot only');
    a.cancel();
    const ra = await a.result;
    assert.equal(ra.finishReason, 'cancelled');
    assert.ok(ra.tokens.length >= 1 && ra.tokens.length < 60);
    gate.free();
    const rb = await b.result;
    assert.deepEqual(rb.tokens, fakeReference(bytes('next'), 6));
    assert.equal(batcher.running, 0);
    // The cancelled stream ended with exactly one terminal event, seq numbers without gaps.
    const seqs: number[] = [];
    for await (const e of a.events()) seqs.push(e.seq);
    assert.deepEqual(
      seqs,
      Array.from({ length: seqs.length }, (_, i) => i + 1),
    );
  });

  test('an aborted signal removes a queued request at once', async () => {
    const session = new FakeDecoderSession();
    const service = serviceWith(session, { maxSequences: 1 });
    const gate = gated(session);
    const a = service.start({ model: 'fake', prompt: 'a', maxTokens: 10, greedy: true });
    const controller = new AbortController();
    const b = service.start({ model: 'fake', prompt: 'b', maxTokens: 10, greedy: true, signal: controller.signal });
    assert.equal(service.batcher('fake').queued, 1);
    controller.abort();
    assert.equal(service.batcher('fake').queued, 0);
    assert.equal((await b.result).finishReason, 'cancelled');
    assert.deepEqual((await b.result).tokens, []);
    gate.free();
    await a.result;
  });

  test('beyond the queue bound a request is refused with QUEUE_FULL (RESOURCE_EXHAUSTED, retryable)', async () => {
    const session = new FakeDecoderSession();
    const service = serviceWith(session, { maxSequences: 1, maxQueue: 1 });
    const gate = gated(session);
    const a = service.start({ model: 'fake', prompt: 'a', maxTokens: 5, greedy: true });
    await gate.release(1);
    const b = service.start({ model: 'fake', prompt: 'b', maxTokens: 5, greedy: true });
    assert.throws(
      () => service.start({ model: 'fake', prompt: 'c', maxTokens: 5, greedy: true }),
      (err: unknown) =>
        err instanceof RtError &&
        err.code === 'QUEUE_FULL' &&
        err.category === 'RESOURCE_EXHAUSTED' &&
        err.retryable &&
        err.retryAfterMs !== undefined,
    );
    gate.free();
    await Promise.all([a.result, b.result]);
  });

  test('the tokens-in-flight bound holds a request back until enough tokens are free', async () => {
    const session = new FakeDecoderSession();
    const service = serviceWith(session, { maxSequences: 8, maxTokensInFlight: 30 });
    const gate = gated(session);
    const a = service.start({ model: 'fake', prompt: 'abcde', maxTokens: 20, greedy: true }); // reserves 25
    const b = service.start({ model: 'fake', prompt: 'fghij', maxTokens: 20, greedy: true }); // 25 more: must wait
    await gate.release(2);
    assert.equal(service.batcher('fake').running, 1);
    assert.equal(service.batcher('fake').queued, 1);
    gate.free();
    const [ra, rb] = await Promise.all([a.result, b.result]);
    assert.deepEqual(ra.tokens, fakeReference(bytes('abcde'), 20));
    assert.deepEqual(rb.tokens, fakeReference(bytes('fghij'), 20));
    assert.throws(
      () => service.start({ model: 'fake', prompt: 'x', maxTokens: 40, greedy: true }),
      (e: unknown) => e instanceof RtError && e.code === 'BAD_REQUEST',
    );
  });

  test('max_tokens is clamped to the context; a prompt that fills the context is refused', async () => {
    const session = new FakeDecoderSession();
    const service = serviceWith(session);
    const prompt = Array.from({ length: 60 }, (_, i) => 97 + (i % 26));
    const g = service.start({ model: 'fake', promptTokens: prompt, maxTokens: 50, greedy: true });
    assert.equal(g.maxTokens, 4);
    const r = await g.result;
    assert.ok(r.tokens.length <= 4);
    if (r.tokens.at(-1) !== 256) assert.equal(r.finishReason, 'length');
    assert.throws(
      () => service.start({ model: 'fake', promptTokens: Array(64).fill(97), greedy: true }),
      (e: unknown) => e instanceof RtError && e.code === 'BAD_REQUEST',
    );
  });

  test('stop sequences cut the text before the stop string; usage counts prompt and sampled tokens', async () => {
    const session = new FakeDecoderSession();
    const service = serviceWith(session);
    const full = await service.start({ model: 'fake', prompt: 'stop test', maxTokens: 30, greedy: true }).result;
    assert.ok(full.text.length >= 10, `reference text long enough: ${JSON.stringify(full.text)}`);
    const stop = full.text.slice(6, 9);
    const cut = await service.start({ model: 'fake', prompt: 'stop test', maxTokens: 30, greedy: true, stop: [stop] }).result;
    assert.equal(cut.finishReason, 'stop');
    assert.equal(cut.text, full.text.slice(0, full.text.indexOf(stop)));
    assert.deepEqual(cut.usage, { promptTokens: 9, completionTokens: cut.tokens.length, totalTokens: 9 + cut.tokens.length });
  });

  test('an engine failure ends the running sequences with an error event; the batcher keeps serving', async () => {
    const session = new FakeDecoderSession();
    const service = serviceWith(session);
    let fail = true;
    session.gate = async () => {
      if (fail && session.calls.length >= 2) {
        fail = false;
        throw new Error('boom');
      }
    };
    const g = service.start({ model: 'fake', prompt: 'abc', maxTokens: 20, greedy: true });
    await assert.rejects(g.result, (e: unknown) => e instanceof RtError && e.category === 'INTERNAL');
    const last: string[] = [];
    for await (const e of g.events()) last.push(e.type);
    assert.equal(last.at(-1), 'error');
    const again = await service.start({ model: 'fake', prompt: 'abc', maxTokens: 5, greedy: true }).result;
    assert.deepEqual(again.tokens, fakeReference(bytes('abc'), 5));
  });

  test('a bos_token_id is prepended to every prompt', async () => {
    const session = new FakeDecoderSession();
    const service = serviceWith(session, {}, { bos_token_id: 256 });
    const g = service.start({ model: 'fake', prompt: 'hi', maxTokens: 8, greedy: true });
    assert.equal(g.promptTokens, 3);
    assert.deepEqual((await g.result).tokens, fakeReference([256, ...bytes('hi')], 8));
  });

  test('drain refuses new requests with SERVER_DRAINING and waits for running ones', async () => {
    const session = new FakeDecoderSession();
    const service = serviceWith(session);
    const g = service.start({ model: 'fake', prompt: 'abc', maxTokens: 10, greedy: true });
    const drained = service.drain(10_000);
    assert.throws(
      () => service.start({ model: 'fake', prompt: 'x', greedy: true }),
      (e: unknown) => e instanceof RtError && e.code === 'SERVER_DRAINING',
    );
    assert.equal(await drained, true);
    assert.ok(g.finished);
  });
});

test('a tokenizer that throws on one sequence ends that sequence with an error; the others finish', async () => {
  const session = new FakeDecoderSession();
  const config = fakeConfig({ tokenizer: 'huggingface' });
  const utf8 = new TextDecoder();
  // A checkpoint tokenizer stand-in: bytes, except that decoding a token after the prompt 'bad' throws.
  let poisoned = false;
  const text = {
    tokenizer: {
      encode: (s: string) => {
        if (s === 'bad') poisoned = true;
        return bytes(s);
      },
      decoder: () => {
        const mine = poisoned;
        poisoned = false;
        return {
          push: (t: number) => {
            if (mine) throw new Error('broken vocabulary entry');
            return utf8.decode(Uint8Array.of(t));
          },
          flush: () => '',
        };
      },
    },
    renderChat: undefined,
    stopTokenIds: [],
  };
  const service = new GenerateService({ resolve: () => ({ name: 'fake', version: '1', config, session, text }) });
  const good = service.start({ model: 'fake', prompt: 'hello', maxTokens: 6, greedy: true });
  const bad = service.start({ model: 'fake', prompt: 'bad', maxTokens: 6, greedy: true });
  const other = service.start({ model: 'fake', prompt: 'def f', maxTokens: 6, greedy: true });
  await assert.rejects(bad.result, /internal server error|broken vocabulary entry/);
  assert.deepEqual((await good.result).tokens, fakeReference(bytes('hello'), 6));
  assert.deepEqual((await other.result).tokens, fakeReference(bytes('def f'), 6));
});
