/**
 * ONNX models compiled to CUDA plans at load, on the GPU (skipped elsewhere, as the other GPU suites; the CPU side is
 * compile-at-load.test.ts): a model is compiled once, cached under its key, served on the native engine close to
 * onnxruntime FP32, and a second server loads the cached plan; a model the compiler cannot take is served on
 * onnxruntime with the reason logged.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningServer } from '../../../../src/app/rtserve-server.ts';
import { loadCudaAddon } from '../../../../src/engine/cuda/addon.ts';
import { cudaPlanCacheKey } from '../../../../src/engine/cuda/compile-at-load.ts';
import { RTSERVE_VERSION } from '../../../../src/util/version.ts';
import { randn, rng, runBytes } from '../../compiler/helpers.ts';
import { tinyConvNet } from '../../compiler/models.ts';
import { SIMPLE_CONFIG, TENSORRT, compileFailures, inferSimple, serverWithLogs, simpleRepository } from './compile-at-load-helpers.ts';

const status = loadCudaAddon();
const gpuSkip = status.available ? false : `needs the native CUDA engine and a GPU: ${status.reason}`;

describe('compile at load on the GPU', { skip: gpuSkip }, () => {
  let dir: string;
  let cache: string;
  const model = tinyConvNet();
  const CONV_CONFIG = `name: "conv"
max_batch_size: 8
input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, 8, 8 ] } ]
output [ { name: "logits" data_type: TYPE_FP32 dims: [ 5 ] }, { name: "probs" data_type: TYPE_FP32 dims: [ 5 ] } ]
${TENSORRT}
`;
  before(async () => {
    dir = await simpleRepository({ simple_trt: SIMPLE_CONFIG('simple_trt', TENSORRT) });
    await mkdir(join(dir, 'conv', '1'), { recursive: true });
    await writeFile(join(dir, 'conv', '1', 'model.onnx'), model);
    await writeFile(join(dir, 'conv', 'config.pbtxt'), CONV_CONFIG);
    cache = await mkdtemp(join(tmpdir(), 'rtserve-plan-cache-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(cache, { recursive: true, force: true });
  });

  async function inferConv(server: RunningServer, n: number): Promise<void> {
    const data = randn(rng(70 + n), n * 3 * 8 * 8);
    const body = { inputs: [{ name: 'x', shape: [n, 3, 8, 8], datatype: 'FP32', data: [...data] }], outputs: [{ name: 'logits' }] };
    const r = await fetch(`${server.httpUrl}/v2/models/conv/infer`, { method: 'POST', body: JSON.stringify(body) });
    assert.equal(r.status, 200, await r.clone().text());
    const got = ((await r.json()) as { outputs: { data: number[] }[] }).outputs[0]?.data ?? [];
    const ref = (await runBytes(model, { x: { elemType: 1, dims: [n, 3, 8, 8], data } }))['logits']?.data as Float32Array;
    let err = 0;
    let mag = 0;
    ref.forEach((e, i) => {
      err = Math.max(err, Math.abs((got[i] ?? Number.NaN) - e));
      mag = Math.max(mag, Math.abs(e));
    });
    assert.equal(got.length, n * 5);
    assert.ok(err <= 1e-2 * Math.max(mag, 1e-3), `batch ${n}: max abs error ${err}, max |ref| ${mag}`);
  }

  test('compiled once under its cache key, served on the native engine; a second server loads the cached plan', async () => {
    if (!status.available) return;
    const first = await serverWithLogs({ modelRepository: [dir], cudaPlanCache: cache });
    const compiled = (logs: readonly Record<string, unknown>[]) =>
      logs.filter((l) => l['msg'] === 'ONNX model compiled to a CUDA plan at load' && String(l['modelPath']).includes('/conv/'));
    try {
      // The first instance compiles; any further instance of the model loads the plan it cached.
      const fromCache = compiled(first.logs).map((l) => l['fromCache']);
      assert.deepEqual(fromCache.slice(0, 1), [false], JSON.stringify(first.logs.filter((l) => Number(l['level']) >= 40)));
      assert.ok(
        fromCache.slice(1).every((c) => c === true),
        JSON.stringify(fromCache),
      );
      assert.equal(first.server.repository.get('conv').provider, 'cuda');
      for (const n of [1, 3, 8]) await inferConv(first.server, n);
    } finally {
      await first.server.close();
    }
    const key = cudaPlanCacheKey({
      modelSha256: createHash('sha256').update(model).digest('hex'),
      device: status.devices[0] ?? status.device,
      maxBatchSize: 8,
      rtserveVersion: RTSERVE_VERSION,
      addonAbi: status.addon.abiVersion,
    });
    assert.deepEqual(await readdir(cache), [`${key}.plan`], 'one plan, named by the model, GPU and tool versions');
    const second = await serverWithLogs({ modelRepository: [dir], cudaPlanCache: cache });
    try {
      const fromCache = compiled(second.logs).map((l) => l['fromCache']);
      assert.ok(fromCache.length >= 1 && fromCache.every((c) => c === true), JSON.stringify(fromCache));
      assert.equal(second.server.repository.get('conv').provider, 'cuda');
      await inferConv(second.server, 2);
    } finally {
      await second.server.close();
    }
  });

  test('a model the CUDA compiler cannot take is served on onnxruntime, with the reason logged', async () => {
    const { server, logs } = await serverWithLogs({ modelRepository: [dir], cudaPlanCache: cache });
    try {
      const failures = compileFailures(logs, 'simple_trt');
      assert.ok(failures.length >= 1, JSON.stringify(logs.filter((l) => Number(l['level']) >= 40)));
      assert.ok(String(failures[0]?.['reason']).length > 0);
      process.stdout.write(`# simple_trt compile failure reason: ${String(failures[0]?.['reason'])}\n`);
      assert.equal(server.repository.get('simple_trt').provider, 'cpu');
      assert.equal((await inferSimple(server, 'simple_trt')).length, 16);
    } finally {
      await server.close();
    }
  });
});
