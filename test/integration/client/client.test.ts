/**
 * The TypeScript client SDK against a real server over its transports (REST, WebSocket, SSE): typed arrays in
 * and out, metadata and health, errors, streams, cancellation, frame streams, and reconnect + resume after the
 * socket is cut.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type WebSocket from 'ws';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { createNodeClient } from '../../../src/client/node.ts';
import { RtserveError } from '../../../packages/client/src/errors.ts';
import type { RtserveClient, FrameOutcome, TransportKind } from '../../../packages/client/src/rtserve-client.ts';
import { startFrontEnd, type TestFrontEnd } from '../ws/front-end.ts';
import { Gate, startGatedServer } from '../ws/gated-engine.ts';
import { Ticker, withStream } from '../ws/stream-api.ts';

const IN0 = Int32Array.from({ length: 16 }, (_, i) => i);
const IN1 = Int32Array.from({ length: 16 }, () => 5);
const simpleInputs = { INPUT0: { shape: [1, 16], data: IN0 }, INPUT1: { shape: [1, 16], data: IN1 } };
const mlpInputs = { input: { shape: [1, 64], data: new Float32Array(64).fill(0.5) } };

/** identity_all with every input; datatypes inferred from the arrays except FP16 and UINT16 (Uint16Array). */
const identityInputs = {
  IN_BOOL: { shape: [1, 2], data: [true, false] },
  IN_UINT8: { shape: [1, 2], data: Uint8Array.of(0, 255) },
  IN_UINT16: { shape: [1, 1], data: Uint16Array.of(65535) },
  IN_UINT32: { shape: [1, 1], data: Uint32Array.of(4_000_000_000) },
  IN_UINT64: { shape: [1, 1], data: BigUint64Array.of(2n ** 63n) },
  IN_INT8: { shape: [1, 1], data: Int8Array.of(-128) },
  IN_INT16: { shape: [1, 1], data: Int16Array.of(-300) },
  IN_INT32: { shape: [1, 1], data: Int32Array.of(-7) },
  IN_INT64: { shape: [1, 2], data: BigInt64Array.of(-(2n ** 40n), 3n) },
  IN_FP16: { shape: [1, 1], data: Uint16Array.of(0x3c00), datatype: 'FP16' as const },
  IN_FP32: { shape: [1, 1], data: Float32Array.of(1.5) },
  IN_FP64: { shape: [1, 1], data: Float64Array.of(Math.E) },
  IN_BYTES: { shape: [1, 2], data: ['héllo', ''] },
};

describe('client SDK', () => {
  const gate = new Gate();
  const ticker = new Ticker();
  let server: RunningServer;
  let streaming: TestFrontEnd;
  let client: RtserveClient;
  before(async () => {
    server = await startGatedServer(gate, { wsResumeWindowMs: 60000 });
    streaming = await startFrontEnd(withStream(server.api, ticker), { wsResumeWindowMs: 60000 });
    client = createNodeClient({ url: server.httpUrl, grpcAddress: server.grpcAddress!, reconnect: { initialDelayMs: 20 } });
  });
  after(async () => {
    gate.release('mlp');
    ticker.end();
    client.close();
    await streaming.close();
    await server.close();
  });

  test('health and metadata', async () => {
    assert.equal(await client.isServerLive(), true);
    assert.equal(await client.isServerReady(), true);
    assert.equal(await client.isModelReady('simple'), true);
    assert.equal((await client.serverMetadata()).name, 'rtserve');
    const meta = await client.modelMetadata('mlp');
    assert.deepEqual(meta.inputs, [{ name: 'input', datatype: 'FP32', shape: [-1, 64] }]);
    assert.equal((await client.modelConfig('simple')).max_batch_size, 8);
    assert.ok((await client.repositoryIndex()).some((m) => m.name === 'simple' && m.state === 'READY'));
    await assert.rejects(client.modelMetadata('nope'), (e: unknown) => e instanceof RtserveError && e.code === 'MODEL_NOT_FOUND' && e.status === 404);
  });

  for (const transport of ['rest', 'ws', 'grpc'] as TransportKind[]) {
    test(`${transport}: typed arrays in, typed arrays out`, async () => {
      const r = await client.infer('simple', simpleInputs, { transport, id: 'typed' });
      assert.equal(r.modelName, 'simple');
      assert.equal(r.modelVersion, '1');
      assert.equal(r.id, 'typed');
      const out0 = r.data('OUTPUT0');
      assert.ok(out0 instanceof Int32Array);
      assert.deepEqual(
        [...out0],
        [...IN0].map((v) => v + 5),
      );
      assert.deepEqual(r.output('OUTPUT1').shape, [1, 16]);
      const logits = (await client.infer('mlp', mlpInputs, { transport })).data('logits');
      assert.ok(logits instanceof Float32Array);
      assert.equal(logits.length, 10);
    });

    test(`${transport}: every datatype round-trips through identity_all`, async () => {
      const r = await client.infer('identity_all', identityInputs, {
        transport,
        outputs: Object.keys(identityInputs).map((n) => n.replace('IN_', 'OUT_')),
      });
      assert.deepEqual([...(r.data('OUT_BOOL') as Uint8Array)], [1, 0]);
      assert.ok(r.data('OUT_UINT64') instanceof BigUint64Array);
      assert.deepEqual([...(r.data('OUT_UINT64') as BigUint64Array)], [2n ** 63n]);
      assert.deepEqual([...(r.data('OUT_INT64') as BigInt64Array)], [-(2n ** 40n), 3n]);
      assert.deepEqual([...(r.data('OUT_UINT32') as Uint32Array)], [4_000_000_000]);
      assert.equal(r.output('OUT_FP16').datatype, 'FP16');
      assert.deepEqual([...(r.data('OUT_FP16') as Uint16Array)], [0x3c00]);
      assert.deepEqual([...(r.data('OUT_FP64') as Float64Array)], [Math.E]);
      assert.deepEqual(r.strings('OUT_BYTES'), ['héllo', '']);
    });

    test(`${transport}: errors are RtserveError with the registry code and category`, async () => {
      await assert.rejects(client.infer('nope', simpleInputs, { transport }), (e: unknown) => {
        assert.ok(e instanceof RtserveError);
        assert.equal(e.code, 'MODEL_NOT_FOUND');
        assert.equal(e.category, 'NOT_FOUND');
        assert.equal(e.retryable, false);
        return true;
      });
      await assert.rejects(
        client.infer('simple', { INPUT0: { shape: [1, 16], data: new Float32Array(16) }, INPUT1: simpleInputs.INPUT1 }, { transport }),
        (e: unknown) => {
          assert.ok(e instanceof RtserveError);
          assert.equal(e.code, 'BAD_DATATYPE');
          assert.match(e.message, /INPUT0.*INT32.*FP32|INPUT0.*FP32.*INT32/);
          return true;
        },
      );
    });

    test(`${transport}: stream yields every response of an ordinary model (one)`, async () => {
      const results = [];
      for await (const r of client.stream('simple', simpleInputs, { transport })) results.push(r);
      assert.equal(results.length, 1);
      assert.deepEqual(
        [...(results[0]!.data('OUTPUT1') as Int32Array)],
        [...IN0].map((v) => v - 5),
      );
    });

    test(`${transport}: aborting the signal cancels a request the model holds`, async () => {
      const done = async (): Promise<number> => {
        const s = (
          (await (await fetch(`${server.httpUrl}/v2/models/mlp/stats`)).json()) as {
            model_stats: { inference_stats: { success: { count: number }; fail: { count: number } } }[];
          }
        ).model_stats[0]!.inference_stats;
        return s.success.count + s.fail.count;
      };
      const before = await done();
      const runs = gate.runs('mlp');
      gate.hold('mlp');
      const controller = new AbortController();
      const pending = client.infer('mlp', mlpInputs, { transport, signal: controller.signal });
      await gate.untilRuns('mlp', runs + 1);
      controller.abort();
      await assert.rejects(pending, (e: unknown) => e instanceof RtserveError && e.code === 'CANCELLED');
      gate.release('mlp');
      // Let the server finish with the request, so that no connection is left busy at shutdown.
      while ((await done()) === before) await new Promise((r) => setTimeout(r, 5));
    });
  }

  test('ws: many requests in flight on one socket, answers matched by id', async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, k) =>
        client.infer('simple', { INPUT0: { shape: [1, 16], data: IN0.map((v) => v + k) }, INPUT1: simpleInputs.INPUT1 }, { transport: 'ws' }),
      ),
    );
    results.forEach((r, k) => assert.equal((r.data('OUTPUT0') as Int32Array)[0], k + 5));
    assert.equal(client.ws.inFlight, 0);
  });

  test('frame stream: every frame one outcome, superseded frames reported', async () => {
    const runs = gate.runs('mlp');
    gate.hold('mlp');
    const fs = client.frameStream('mlp', 'cam');
    const first = fs.send(mlpInputs);
    await gate.untilRuns('mlp', runs + 1);
    const later = [1, 2, 3, 4, 5].map(() => fs.send(mlpInputs));
    // Wait until the four superseded frames are reported before releasing the model.
    const outcomes: FrameOutcome[] = [];
    const iterate = (async () => {
      for await (const o of fs) outcomes.push(o);
    })();
    while (fs.stats.dropped < 4) await new Promise((r) => setTimeout(r, 5));
    gate.release('mlp');
    fs.close();
    await iterate;
    assert.deepEqual(fs.stats, { sent: 6, results: 2, dropped: 4, errors: 0 });
    assert.deepEqual(
      outcomes
        .filter((o) => o.kind === 'result')
        .map((o) => o.id)
        .sort(),
      [first, later[4]].sort(),
    );
    assert.deepEqual(
      outcomes.filter((o) => o.kind === 'dropped').map((o) => (o as { supersededBy: string }).supersededBy),
      later.slice(1, 5),
    );
    assert.equal(fs.pending, 0);
  });

  test('ws: the socket is cut while a request runs; the client reconnects, resumes, and gets the answer once', async () => {
    const c = createNodeClient({ url: server.httpUrl, transport: 'ws', reconnect: { initialDelayMs: 20 } });
    try {
      await c.infer('simple', simpleInputs);
      const session = c.ws.sessionId;
      const runs = gate.runs('mlp');
      gate.hold('mlp');
      const pending = c.infer('mlp', mlpInputs);
      await gate.untilRuns('mlp', runs + 1);
      (c.ws.currentSocket as unknown as WebSocket).terminate();
      gate.release('mlp');
      const r = await pending;
      assert.equal((r.data('logits') as Float32Array).length, 10);
      assert.equal(c.ws.connections, 2);
      assert.equal(c.ws.sessionId, session, 'the session was resumed, not replaced');
      // The resumed socket keeps serving.
      assert.equal(((await c.infer('simple', simpleInputs)).data('OUTPUT0') as Int32Array)[1], 6);
    } finally {
      gate.release('mlp');
      c.close();
    }
  });

  test('ws: a streamed generation survives a cut socket: every token exactly once', async () => {
    const c = createNodeClient({ url: streaming.url, transport: 'ws', reconnect: { initialDelayMs: 20 } });
    try {
      ticker.reset();
      const base = ticker.produced;
      const tokens: number[] = [];
      const consume = (async () => {
        for await (const r of c.stream('simple', simpleInputs, { parameters: { tokens: true } })) {
          tokens.push((r.data('TOKEN') as Int32Array)[0]!);
          if (tokens.length === 2) {
            (c.ws.currentSocket as unknown as WebSocket).terminate();
            ticker.emit(3);
            ticker.end();
          }
        }
      })();
      ticker.emit(2);
      await consume;
      assert.deepEqual(
        tokens,
        [1, 2, 3, 4, 5].map((k) => base + k),
      );
      assert.equal(c.ws.connections, 2);
    } finally {
      c.close();
    }
  });

  test('ws: a request sent while the socket is down waits for the reconnect', async () => {
    const c = createNodeClient({ url: server.httpUrl, transport: 'ws', reconnect: { initialDelayMs: 20 } });
    try {
      await c.infer('simple', simpleInputs);
      const runs = gate.runs('mlp');
      gate.hold('mlp');
      const held = c.infer('mlp', mlpInputs);
      await gate.untilRuns('mlp', runs + 1);
      (c.ws.currentSocket as unknown as WebSocket).terminate();
      const queued = c.infer('simple', simpleInputs);
      gate.release('mlp');
      const [a, b] = await Promise.all([held, queued]);
      assert.equal((a.data('logits') as Float32Array).length, 10);
      assert.equal((b.data('OUTPUT0') as Int32Array)[0], 5);
    } finally {
      gate.release('mlp');
      c.close();
    }
  });
});
