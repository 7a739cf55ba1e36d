import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { makeRepository, request, startTestServer, slowMlpConfig } from '../../helpers/server.ts';
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
  const enc = encodeInferRequest([{ name: 'input', datatype: 'FP32', shape: [1, 64], data: x }], { binary: true, parameters: { binary_data_output: true } });
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
      for (let k = 0; k < 10; k++) assert.ok(Math.abs((g[k] ?? NaN) - (e[k] ?? NaN)) <= 1e-4 * Math.max(1, Math.abs(e[k] ?? 0)), `request ${i} logit ${k}: ${g[k]} vs ${e[k]}`);
    }
  });
});

describe('REST: a client that disconnects cancels its queued request', () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  before(async () => {
    // Partial batches are held for 5 s, so an aborted request is certainly still queued when its client leaves.
    const repo = await makeRepository({
      mlp_slow: slowMlpConfig(5_000_000),
    });
    cleanup = repo.cleanup;
    server = await startTestServer({ modelRepository: [repo.dir] });
  });
  after(async () => {
    await server.close();
    await cleanup();
  });

  test('the queued request leaves the queue and is never executed', async () => {
    const pending = async (): Promise<number> => {
      const text = await (await fetch(`${server.httpUrl}/metrics`)).text();
      const m = /nv_inference_pending_request_count\{model="mlp_slow",version="1"\} (\d+)/.exec(text);
      return Number(m?.[1] ?? -1);
    };
    const controller = new AbortController();
    const enc = JSON.stringify({ inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array(64).fill(0) }] });
    const aborted = fetch(`${server.httpUrl}/v2/models/mlp_slow/infer`, { method: 'POST', body: enc, signal: controller.signal, headers: { 'content-type': 'application/json' } });
    for (let i = 0; i < 100 && (await pending()) !== 1; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(await pending(), 1, 'request is queued');
    controller.abort();
    await assert.rejects(aborted);
    for (let i = 0; i < 100 && (await pending()) !== 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(await pending(), 0, 'the cancelled request left the queue');
    const stats = (await request(`${server.httpUrl}/v2/models/mlp_slow/stats`)).json() as { model_stats: { execution_count: number; inference_stats: { fail: { count: number } } }[] };
    assert.equal(stats.model_stats[0]?.execution_count, 0, 'nothing was executed');
    assert.equal(stats.model_stats[0]?.inference_stats.fail.count, 1, 'the cancellation is counted as a failure');
  });
});
