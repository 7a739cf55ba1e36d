import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { makeRepository, request, startTestServer, slowMlpConfig } from '../../helpers/server.ts';
import { pendingCount, until } from '../../helpers/until.ts';
import { Gate, startGatedServer } from '../ws/gated-engine.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { bundledModelRepository } from '../../../src/util/package-root.ts';
import { openInProcessOrtSession } from '../../../src/engine/ort/index.ts';
import { decodeInferResponse, encodeInferRequest } from '../../../src/codec/kserve-client-codec.ts';

/** Seeded inputs so each request is distinguishable and the test is reproducible. */
function inputFor(i: number): Float32Array {
  const x = new Float32Array(64);
  let s = (i + 1) * 2654435761;
  for (let k = 0; k < 64; k++) {
    s = (s * 1103515245 + 12345) >>> 0;
    x[k] = (s / 2 ** 32) * 2 - 1;
  }
  return x;
}

async function inferBinary(base: string, x: Float32Array, init: RequestInit = {}): Promise<Float32Array> {
  const enc = encodeInferRequest([{ name: 'input', datatype: 'FP32', shape: [1, 64], data: x }], {
    binary: true,
    parameters: { binary_data_output: true },
  });
  const res = await fetch(`${base}/v2/models/mlp/infer`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(enc.headerLength) },
    body: enc.body,
    ...init,
  });
  const body = new Uint8Array(await res.arrayBuffer());
  assert.equal(res.status, 200, new TextDecoder().decode(body.subarray(0, 200)));
  const out = decodeInferResponse(body, Number(res.headers.get('inference-header-content-length'))).outputs[0];
  assert.ok(out !== undefined && out.data instanceof Float32Array);
  return out.data;
}

describe('REST under concurrency', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  test('200 simultaneous requests each get their own answer, equal to a direct engine run', async () => {
    const n = 200;
    const inputs = Array.from({ length: n }, (_, i) => inputFor(i));
    const direct = await openInProcessOrtSession(join(bundledModelRepository(), 'mlp', '1', 'model.onnx'), { providers: [{ name: 'cpu' }] });
    const expected: Float32Array[] = [];
    try {
      for (const x of inputs) {
        const [y] = await direct.run([{ name: 'input', datatype: 'FP32', shape: [1, 64], data: x.slice() }], ['logits']);
        assert.ok(y !== undefined && y.data instanceof Float32Array);
        expected.push(y.data);
      }
    } finally {
      await direct.close();
    }
    const got = await Promise.all(inputs.map((x) => inferBinary(server.httpUrl, x)));
    for (let i = 0; i < n; i++) {
      const g = got[i];
      const e = expected[i];
      assert.ok(g !== undefined && e !== undefined);
      assert.equal(g.length, 10);
      for (let k = 0; k < 10; k++)
        assert.ok(Math.abs((g[k] ?? NaN) - (e[k] ?? NaN)) <= 1e-4 * Math.max(1, Math.abs(e[k] ?? 0)), `request ${i} logit ${k}: ${g[k]} vs ${e[k]}`);
    }
  });
});

describe('REST: a client that disconnects cancels its queued request', () => {
  // The model's runs wait at a gate: a first request holds the one instance, so the second is certainly queued
  // when its client leaves (no queue-delay window to race).
  const gate = new Gate();
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  before(async () => {
    const repo = await makeRepository({
      mlp_slow: slowMlpConfig(0),
    });
    cleanup = repo.cleanup;
    server = await startGatedServer(gate, { modelRepository: [repo.dir] });
  });
  after(async () => {
    gate.release('mlp_slow');
    await server.close();
    await cleanup();
  });

  test('the queued request leaves the queue and is never executed', async () => {
    const url = `${server.httpUrl}/v2/models/mlp_slow/infer`;
    const enc = JSON.stringify({ inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array(64).fill(0) }] });
    const post = (signal?: AbortSignal) =>
      fetch(url, { method: 'POST', body: enc, headers: { 'content-type': 'application/json' }, ...(signal === undefined ? {} : { signal }) });
    const runsBefore = gate.runs('mlp_slow'); // the load-time runs
    gate.hold('mlp_slow');
    const running = post();
    await gate.untilRuns('mlp_slow', runsBefore + 1);
    const controller = new AbortController();
    const aborted = post(controller.signal);
    await until(async () => (await pendingCount(server.httpUrl, 'mlp_slow')) === 1, 'the second request in the queue');
    controller.abort();
    await assert.rejects(aborted);
    await until(async () => (await pendingCount(server.httpUrl, 'mlp_slow')) === 0, 'the cancelled request to leave the queue');
    gate.release('mlp_slow');
    assert.equal((await running).status, 200);
    const stats = (await request(`${server.httpUrl}/v2/models/mlp_slow/stats`)).json() as {
      model_stats: { execution_count: number; inference_stats: { success: { count: number }; fail: { count: number } } }[];
    };
    assert.equal(stats.model_stats[0]?.execution_count, 1, 'one run: the first request only');
    assert.equal(gate.runs('mlp_slow'), runsBefore + 1, 'the cancelled request never reached the engine');
    assert.equal(stats.model_stats[0]?.inference_stats.success.count, 1);
    assert.equal(stats.model_stats[0]?.inference_stats.fail.count, 1, 'the cancellation is counted as a failure');
  });
});
