/**
 * The native CUDA engine behind the Engine contract. The first group runs everywhere (no addon, no GPU: clear
 * reasons, fallback to the other engine). The second needs the addon and a GPU and is skipped with the reason
 * elsewhere (CI and development machines have neither): on the GPU machine it builds a plan with the real
 * tuner and checks the engine against onnxruntime CPU FP32 at every batch size of the profile.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildCudaPlan } from '../../../../src/compiler/cuda/build-cuda.ts';
import type { Tensor } from '../../../../src/tensor/tensor.ts';
import { createCudaEngine, loadCudaSession } from '../../../../src/engine/cuda/cuda-engine.ts';
import { loadCudaAddon, resetCudaAddonCache } from '../../../../src/engine/cuda/addon.ts';
import type { CudaSession } from '../../../../src/engine/cuda/cuda-session.ts';
import { createCudaTuner } from '../../../../src/engine/cuda/tuner.ts';
import { mappedRegionOpener } from '../../../../src/engine/cuda/shm-opener.ts';
import { isMapped } from '../../../../src/tensor/exclusive-buffers.ts';
import type { Engine, EngineSession } from '../../../../src/engine/engine.ts';
import { RtError } from '../../../../src/errors/registry.ts';
import { openShmFile } from '../../../../src/shm/system-shared-memory.ts';
import { readPlan } from '../../../../src/plan/format.ts';
import { makeRepository, startTestServer } from '../../../helpers/server.ts';
import { randn, rng, runBytes } from '../../compiler/helpers.ts';
import { tinyConvNet } from '../../compiler/models.ts';

const fakeTuner = {
  device: { name: 'reference', cc: [9, 0], sms: 1, memoryBytes: 0, cudaRuntime: 0, cudaDriver: 0, cudnn: 0, cublasLt: 0 },
  tune: (layer: { kind: string }) => ({
    candidates: [],
    notes: [],
    best: layer.kind === 'conv' ? { impl: 'direct' } : { impl: 'naive' },
    bestUs: 1,
    fallback: null,
  }),
};

describe('CUDA engine without the addon or a GPU', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rtserve-cuda-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    resetCudaAddonCache();
  });

  test('a missing addon is reported with the reason, never thrown', () => {
    const saved = process.env.RTSERVE_CUDA_ADDON;
    process.env.RTSERVE_CUDA_ADDON = join(dir, 'nope.node');
    resetCudaAddonCache();
    try {
      const s = loadCudaAddon();
      assert.equal(s.available, false);
      assert.match(s.available ? '' : s.reason, /not built .*nope\.node is missing.*native\/build\.sh/);
    } finally {
      if (saved === undefined) delete process.env.RTSERVE_CUDA_ADDON;
      else process.env.RTSERVE_CUDA_ADDON = saved;
      resetCudaAddonCache();
    }
  });

  test('a CUDA plan payload on a machine without the engine fails to load with ENGINE_UNAVAILABLE and why; other models go to the fallback', async () => {
    const saved = process.env.RTSERVE_CUDA_ADDON;
    process.env.RTSERVE_CUDA_ADDON = join(dir, 'nope.node');
    resetCudaAddonCache();
    try {
      const built = await buildCudaPlan({ model: tinyConvNet(), precision: 'fp16' }, () => {}, { tuner: fakeTuner, batches: [1, 2] });
      const payloadPath = join(dir, 'payload.onnx');
      await writeFile(payloadPath, readPlan(built.plan).payload);
      const onnxPath = join(dir, 'model.onnx');
      await writeFile(onnxPath, tinyConvNet());
      const loaded: string[] = [];
      const fallback: Engine = {
        name: 'fake',
        load: async (p) => {
          loaded.push(p);
          return {} as EngineSession;
        },
        planRuntime: () => ({ targets: ['ort-cpu'], runtime: { name: 'fake-runtime', version: '1.0.0' } }),
      };
      const engine = createCudaEngine({ fallback });
      await assert.rejects(
        engine.load(payloadPath, { providers: [{ name: 'cpu' }] }),
        (e: unknown) =>
          e instanceof RtError &&
          e.code === 'ENGINE_UNAVAILABLE' &&
          /needs the native CUDA engine, which is unavailable here: .*not built/.test(e.message),
      );
      assert.deepEqual(loaded, []);
      await engine.load(onnxPath, { providers: [{ name: 'cpu' }] });
      assert.deepEqual(loaded, [onnxPath]);
      assert.deepEqual(engine.planRuntime?.([{ name: 'cpu' }]).targets, ['ort-cpu', 'cuda']);
      assert.equal(engine.planRuntime?.([{ name: 'cpu' }]).runtime?.name, 'fake-runtime');
    } finally {
      if (saved === undefined) delete process.env.RTSERVE_CUDA_ADDON;
      else process.env.RTSERVE_CUDA_ADDON = saved;
      resetCudaAddonCache();
    }
  });
});

describe('a repository with a CUDA plan on a machine without the engine', () => {
  test('that model is UNAVAILABLE with the reason and the others are served', async () => {
    const saved = process.env.RTSERVE_CUDA_ADDON;
    process.env.RTSERVE_CUDA_ADDON = join(tmpdir(), 'rtserve-no-such-addon.node');
    resetCudaAddonCache();
    const repo = await makeRepository({ mlp: { from: 'mlp' } });
    const server = await (async () => {
      const built = await buildCudaPlan({ model: tinyConvNet(), precision: 'fp16' }, () => {}, { tuner: fakeTuner, batches: [1, 2] });
      await mkdir(join(repo.dir, 'tiny_cuda', '1'), { recursive: true });
      await writeFile(join(repo.dir, 'tiny_cuda', '1', 'model.plan'), built.plan);
      return startTestServer({ modelRepository: [repo.dir], strictReadiness: false });
    })();
    try {
      const idx = (await (await fetch(`${server.httpUrl}/v2/repository/index`, { method: 'POST', body: '{}' })).json()) as {
        name: string;
        state: string;
        reason: string;
      }[];
      const cuda = idx.find((m) => m.name === 'tiny_cuda');
      assert.equal(cuda?.state, 'UNAVAILABLE');
      assert.match(cuda?.reason ?? '', /native CUDA engine.*unavailable here: .*not built/);
      assert.equal(idx.find((m) => m.name === 'mlp')?.state, 'READY');
    } finally {
      await server.close();
      await repo.cleanup();
      if (saved === undefined) delete process.env.RTSERVE_CUDA_ADDON;
      else process.env.RTSERVE_CUDA_ADDON = saved;
      resetCudaAddonCache();
    }
  });
});

const status = loadCudaAddon();
const skip = status.available ? false : `needs the native CUDA engine and a GPU: ${status.reason}`;

describe('CUDA engine on the GPU', { skip }, () => {
  let session: CudaSession;
  const batches = [1, 2, 4, 8];
  const model = tinyConvNet();

  before(async () => {
    const { tuner } = createCudaTuner();
    assert.ok(tuner !== undefined);
    const built = await buildCudaPlan({ model, precision: 'fp16' }, () => {}, { tuner, batches });
    session = await loadCudaSession(readPlan(built.plan).payload, 'tiny conv net');
  });
  after(async () => {
    await session?.close();
  });

  const feedsFor = (n: number, seed: number): { tensors: Tensor[]; data: Float32Array } => {
    const data = randn(rng(seed), n * 3 * 8 * 8);
    return { tensors: [{ name: 'x', datatype: 'FP32', shape: [n, 3, 8, 8], data }], data };
  };

  test('matches onnxruntime CPU FP32 within 1e-2 relative at every batch size of the profile (and between them)', async () => {
    for (const n of [1, 2, 3, 4, 5, 8]) {
      const { tensors, data } = feedsFor(n, 50 + n);
      const got = await session.run(tensors, ['logits', 'probs']);
      const ref = await runBytes(model, { x: { elemType: 1, dims: [n, 3, 8, 8], data } });
      for (const t of got) {
        const e = ref[t.name]?.data as Float32Array;
        const a = t.data as Float32Array;
        let err = 0;
        let mag = 0;
        for (let i = 0; i < e.length; i++) {
          err = Math.max(err, Math.abs((a[i] ?? 0) - (e[i] ?? 0)));
          mag = Math.max(mag, Math.abs(e[i] ?? 0));
        }
        assert.deepEqual(t.shape, [n, 5]);
        assert.ok(err <= 1e-2 * Math.max(mag, 1e-3), `${t.name} batch ${n}: max abs error ${err}, max |ref| ${mag}`);
      }
    }
  });

  test('CUDA graphs are captured for every batch size; concurrent runs are queued per instance; bad input is refused', async () => {
    const d = session.nativeDescription();
    assert.deepEqual(
      d.programs.map((p) => p.batch),
      batches,
    );
    assert.ok(
      d.programs.every((p) => p.graph),
      JSON.stringify(d.programs.map((p) => p.captureError)),
    );
    const runs = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => session.run(feedsFor(n, n).tensors, ['probs'])));
    runs.forEach((r, i) => assert.deepEqual(r[0]?.shape, [i + 1, 5]));
    await assert.rejects(session.run([{ name: 'x', datatype: 'FP32', shape: [1, 3, 8, 9], data: new Float32Array(216) }], []), /BAD_SHAPE|shape/);
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(session.run(feedsFor(1, 1).tensors, [], ac.signal), (e: unknown) => e instanceof RtError && e.code === 'CANCELLED');
    const big = await session.run(feedsFor(19, 3).tensors, ['probs']);
    assert.deepEqual(big[0]?.shape, [19, 5], 'a batch beyond the largest program runs in chunks');
  });

  test("a batch given as the requests' pieces, gathered natively, gives exactly what the joined batch gives", async () => {
    const parts = [feedsFor(1, 71), feedsFor(3, 72), feedsFor(2, 73)];
    const joined = new Float32Array(parts.reduce((a, p) => a + p.data.length, 0));
    let at = 0;
    for (const p of parts) {
      joined.set(p.data, at);
      at += p.data.length;
    }
    const whole = await session.run([{ name: 'x', datatype: 'FP32', shape: [6, 3, 8, 8], data: joined }], ['logits']);
    const pieces = await session.runBatch([{ name: 'x', datatype: 'FP32', shape: [6, 3, 8, 8], parts: parts.flatMap((p) => p.tensors) }], ['logits']);
    assert.deepEqual([...(pieces[0]?.data as Float32Array)], [...(whole[0]?.data as Float32Array)]);
  });

  test('mapShm maps a /dev/shm object shared: the engine reads what was written there, writes reach the file', async (t) => {
    if (!existsSync('/dev/shm')) return t.skip('no /dev/shm here');
    const path = join('/dev/shm', `rtserve-test-${process.pid}`);
    const { data } = feedsFor(2, 74);
    const offset = 4096 + 64;
    await writeFile(path, Buffer.concat([Buffer.alloc(offset), Buffer.from(data.buffer, data.byteOffset, data.byteLength), Buffer.alloc(100)]));
    try {
      const addon = loadCudaAddon();
      assert.ok(addon.available);
      const mapped = addon.addon.mapShm(path, offset, data.byteLength);
      assert.equal(mapped.byteLength, data.byteLength);
      const view = new Float32Array(mapped);
      assert.deepEqual([...view], [...data]);
      const fromShm = await session.run([{ name: 'x', datatype: 'FP32', shape: [2, 3, 8, 8], data: view }], ['logits']);
      const fromHeap = await session.run([{ name: 'x', datatype: 'FP32', shape: [2, 3, 8, 8], data: Float32Array.from(data) }], ['logits']);
      assert.deepEqual([...(fromShm[0]?.data as Float32Array)], [...(fromHeap[0]?.data as Float32Array)]);
      view[0] = 1234.5;
      const file = await readFile(path);
      assert.equal(file.readFloatLE(offset), 1234.5, 'a write through the mapping is in the shared object');
      assert.throws(() => addon.addon.mapShm(join('/dev/shm', 'rtserve-no-such-object'), 0, 16), /cannot open .*rtserve-no-such-object/);
    } finally {
      await rm(path, { force: true });
    }
  });

  test('the mapped region opener reads views of the shared object and writes into it; its memory is never transferred', async (t) => {
    if (!existsSync('/dev/shm')) return t.skip('no /dev/shm here');
    const path = join('/dev/shm', `rtserve-test-opener-${process.pid}`);
    await writeFile(path, Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    try {
      const addon = loadCudaAddon();
      assert.ok(addon.available);
      // Mapped through the descriptor the manager opened and checked (O_NOFOLLOW, fstat), not the name.
      const region = await mappedRegionOpener(addon.addon)(await openShmFile(path, 8, 'the test object'), 2, 6);
      const view = await region.read(1, 3);
      assert.deepEqual([...view], [3, 4, 5]);
      assert.ok(isMapped(view.buffer));
      await region.write(0, Uint8Array.of(42));
      assert.equal((await readFile(path))[2], 42);
      await assert.rejects(region.read(4, 3), (e: unknown) => e instanceof RtError && e.code === 'SHM_OUT_OF_RANGE');
      await region.close();
    } finally {
      await rm(path, { force: true });
    }
  });
});
