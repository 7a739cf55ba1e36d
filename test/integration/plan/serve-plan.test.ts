import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeRepository, postJson, request, startTestServer } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { bundledModelRepository } from '../../../src/util/package-root.ts';
import { buildPlan } from '../../../src/compiler/build.ts';
import { writeNpy } from '../../../src/compiler/data/npy.ts';
import { createOfflineRunner } from '../../../src/engine/ort/offline-runner.ts';
import { floatT, randn, rng } from '../../unit/compiler/helpers.ts';

const mlpConfig = {
  max_batch_size: 64,
  input: [{ name: 'input', data_type: 'TYPE_FP32', dims: [64] }],
  output: [{ name: 'logits', data_type: 'TYPE_FP32', dims: [10] }],
  dynamic_batching: {},
};

function cosine(a: readonly number[], b: readonly number[]): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += (a[i] ?? 0) * (b[i] ?? 0);
    aa += (a[i] ?? 0) ** 2;
    bb += (b[i] ?? 0) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

describe('plans built by `rtserve build` serve exactly like ONNX models', () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  let reportCosine = 0;

  before(async () => {
    const repo = await makeRepository({ mlp_fp32: { from: 'mlp', config: mlpConfig } });
    cleanup = repo.cleanup;
    const runtime = createOfflineRunner();
    const calib = join(repo.dir, 'calib.npy');
    await writeFile(calib, writeNpy(floatT(randn(rng(7), 256 * 64), [256, 64])));
    const source = join(bundledModelRepository(), 'mlp', '1', 'model.onnx');
    const int8 = await buildPlan({
      model: source,
      precision: 'int8',
      calibration: calib,
      runtime,
      profiles: [{ input: 'input', min: [1, 64], opt: [8, 64], max: [32, 64] }],
    });
    reportCosine = Math.min(...(int8.report.accuracy?.outputs ?? []).map((o) => o.cosine));
    await mkdir(join(repo.dir, 'mlp_int8', '1'), { recursive: true });
    await writeFile(join(repo.dir, 'mlp_int8', '1', 'model.plan'), int8.plan);
    await writeFile(join(repo.dir, 'mlp_int8', 'config.json'), JSON.stringify({ name: 'mlp_int8', ...mlpConfig }));
    // A plan built for the WebGPU target must be refused by a CPU-only model with the reason.
    const webgpu = await buildPlan({ model: source, target: 'ort-webgpu', precision: 'fp32', runtime, accuracyGates: [] });
    await mkdir(join(repo.dir, 'mlp_webgpu', '1'), { recursive: true });
    await writeFile(join(repo.dir, 'mlp_webgpu', '1', 'model.plan'), webgpu.plan);
    // A damaged plan is refused with a clear reason too.
    await mkdir(join(repo.dir, 'mlp_damaged', '1'), { recursive: true });
    await writeFile(join(repo.dir, 'mlp_damaged', '1', 'model.plan'), int8.plan.subarray(0, int8.plan.byteLength - 100));
    server = await startTestServer({ modelRepository: [repo.dir], strictReadiness: false });
  });
  after(async () => {
    await server?.close();
    await cleanup?.();
  });

  test('the INT8 plan answers over REST and agrees with FP32 as closely as its build report says', async () => {
    assert.ok(reportCosine > 0.99, `report cosine ${reportCosine}`);
    const x = Array.from(randn(rng(99), 4 * 64));
    const body = { inputs: [{ name: 'input', shape: [4, 64], datatype: 'FP32', data: x }] };
    const [a, b] = await Promise.all([
      postJson(`${server.httpUrl}/v2/models/mlp_fp32/infer`, body),
      postJson(`${server.httpUrl}/v2/models/mlp_int8/infer`, body),
    ]);
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    const fp32 = (a.json() as { outputs: { data: number[] }[] }).outputs[0]?.data ?? [];
    const int8 = (b.json() as { outputs: { data: number[] }[] }).outputs[0]?.data ?? [];
    assert.equal(int8.length, 40);
    // The report's cosine is a mean over the validation set; allow a little slack for four fresh samples.
    assert.ok(cosine(fp32, int8) > reportCosine - 0.01, `served cosine ${cosine(fp32, int8)} vs report ${reportCosine}`);
  });

  test('a request outside the plan profile is refused with the input and the range', async () => {
    const body = { inputs: [{ name: 'input', shape: [40, 64], datatype: 'FP32', data: new Array(40 * 64).fill(0) }] };
    const r = await postJson(`${server.httpUrl}/v2/models/mlp_int8/infer`, body);
    assert.equal(r.status, 400);
    const msg = (r.json() as { error: string }).error;
    assert.match(msg, /input/);
    assert.match(msg, /32/);
  });

  test('plans for another target, and damaged plans, leave the model unavailable with the reason', async () => {
    const idx = (await postJson(`${server.httpUrl}/v2/repository/index`, {})).json() as { name: string; state: string; reason: string }[];
    const webgpu = idx.find((m) => m.name === 'mlp_webgpu');
    assert.equal(webgpu?.state, 'UNAVAILABLE');
    assert.match(webgpu?.reason ?? '', /webgpu/i);
    const damaged = idx.find((m) => m.name === 'mlp_damaged');
    assert.equal(damaged?.state, 'UNAVAILABLE');
    assert.ok((damaged?.reason ?? '').length > 10, damaged?.reason);
    const r = await request(`${server.httpUrl}/v2/models/mlp_webgpu/ready`);
    assert.equal(r.status, 400);
  });
});
