/**
 * Instances of a CUDA plan placed on GPUs by instance_group (src/repository/instance-placement.ts) and run by the
 * native engine on their own device. Needs the addon and a GPU (skipped elsewhere, as the other GPU suites): on one
 * GPU the two "devices" are the same GPU listed twice (gpus: [0, 0]); on a machine with two or more, GPUs 0 and 1.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { buildCudaPlan } from '../../../../src/compiler/cuda/build-cuda.ts';
import { loadCudaAddon } from '../../../../src/engine/cuda/addon.ts';
import { createCudaTuner } from '../../../../src/engine/cuda/tuner.ts';
import type { ModelStatsSnapshot } from '../../../../src/observability/model-stats.ts';
import { makeRepository, startTestServer } from '../../../helpers/server.ts';
import { randn, rng, runBytes } from '../../compiler/helpers.ts';
import { tinyConvNet } from '../../compiler/models.ts';

const status = loadCudaAddon();
const skip = status.available ? false : `needs the native CUDA engine and a GPU: ${status.reason}`;

describe('CUDA instances placed on GPUs by instance_group', { skip }, () => {
  test('every visible device is described; deviceInfo of a device that does not exist throws', () => {
    if (!status.available) return;
    const count = status.addon.deviceCount();
    assert.ok(count >= 1);
    assert.equal(status.devices.length, count);
    for (const d of status.devices) assert.ok(d.name.length > 0 && d.cc.length === 2, JSON.stringify(d));
    assert.throws(() => status.addon.deviceInfo(count), /no CUDA device/);
  });

  test('requests spread over the instances of both placements, each answer is right, statistics split per device', async () => {
    if (!status.available) return;
    const visible = status.devices.length;
    const gpus = visible >= 2 ? [0, 1] : [0, 0];
    const model = tinyConvNet();
    const { tuner } = createCudaTuner();
    assert.ok(tuner !== undefined);
    const built = await buildCudaPlan({ model, precision: 'fp16' }, () => {}, { tuner, batches: [1, 2, 4, 8] });
    const repo = await makeRepository({});
    await mkdir(join(repo.dir, 'tiny', '1'), { recursive: true });
    await writeFile(join(repo.dir, 'tiny', '1', 'model.plan'), built.plan);
    await writeFile(
      join(repo.dir, 'tiny', 'config.pbtxt'),
      `max_batch_size: 8\ndynamic_batching { }\ninstance_group [ { count: 2 kind: KIND_GPU gpus: [ ${gpus.join(', ')} ] } ]\n`,
    );
    const server = await startTestServer({ modelRepository: [repo.dir] });
    try {
      const N = 96;
      const inputs = Array.from({ length: N }, (_, i) => randn(rng(1000 + i), 3 * 8 * 8));
      const answers = await Promise.all(
        inputs.map(async (data) => {
          const r = await fetch(`${server.httpUrl}/v2/models/tiny/infer`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ inputs: [{ name: 'x', shape: [1, 3, 8, 8], datatype: 'FP32', data: [...data] }], outputs: [{ name: 'logits' }] }),
          });
          assert.equal(r.status, 200, await r.clone().text());
          const body = (await r.json()) as { outputs: { name: string; data: number[] }[] };
          return body.outputs[0]?.data ?? [];
        }),
      );
      for (let i = 0; i < N; i++) {
        const ref = await runBytes(model, { x: { elemType: 1, dims: [1, 3, 8, 8], data: inputs[i] as Float32Array } });
        const e = ref['logits']?.data as Float32Array;
        const a = answers[i] as number[];
        let err = 0;
        let mag = 0;
        for (let k = 0; k < e.length; k++) {
          err = Math.max(err, Math.abs((a[k] ?? 0) - (e[k] ?? 0)));
          mag = Math.max(mag, Math.abs(e[k] ?? 0));
        }
        assert.ok(err <= 1e-2 * Math.max(mag, 1e-3), `request ${i}: max abs error ${err}`);
      }
      const stats = (await (await fetch(`${server.httpUrl}/v2/models/tiny/stats`)).json()) as { model_stats: ModelStatsSnapshot[] };
      const s = stats.model_stats[0];
      assert.ok(s !== undefined);
      const perDevice = s.device_stats ?? [];
      assert.deepEqual(
        perDevice.map((d) => d.device),
        [...new Set(gpus)],
      );
      assert.equal(
        perDevice.reduce((n, d) => n + d.execution_count, 0),
        s.execution_count,
      );
      assert.equal(
        perDevice.reduce((n, d) => n + d.inference_count, 0),
        N,
      );
      const metrics = await (await fetch(`${server.metricsUrl ?? server.httpUrl}/metrics`)).text();
      assert.match(metrics, /rtserve_device_exec_count\{model="tiny",version="1",device="0"\} [1-9]/);
    } finally {
      await server.close();
      await repo.cleanup();
    }
  });

  test('a GPU the process does not see: the model is UNAVAILABLE with a reason naming the GPU and what is visible', async () => {
    if (!status.available) return;
    const visible = status.devices.length;
    const built = await buildCudaPlan({ model: tinyConvNet(), precision: 'fp16' }, () => {}, {
      tuner: (createCudaTuner().tuner ?? assert.fail('no tuner')) as never,
      batches: [1],
    });
    const repo = await makeRepository({});
    await mkdir(join(repo.dir, 'far', '1'), { recursive: true });
    await writeFile(join(repo.dir, 'far', '1', 'model.plan'), built.plan);
    await writeFile(join(repo.dir, 'far', 'config.pbtxt'), `max_batch_size: 1\ninstance_group [ { kind: KIND_GPU gpus: [ ${visible} ] } ]\n`);
    const server = await startTestServer({ modelRepository: [repo.dir], strictReadiness: false });
    try {
      const idx = (await (await fetch(`${server.httpUrl}/v2/repository/index`, { method: 'POST', body: '{}' })).json()) as {
        name: string;
        state: string;
        reason: string;
      }[];
      const far = idx.find((m) => m.name === 'far');
      assert.equal(far?.state, 'UNAVAILABLE');
      assert.match(far?.reason ?? '', new RegExp(`lists GPU ${visible}, but ${visible} GPU`));
    } finally {
      await server.close();
      await repo.cleanup();
    }
  });
});
