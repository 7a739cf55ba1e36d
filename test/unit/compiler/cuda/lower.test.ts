/**
 * `rtserve build --target cuda` on a machine without a GPU: the lowering (fusion, NHWC, FP16 weights, memory
 * plan, per-batch programs, payload) is checked by running the built programs through the CPU reference of the
 * kernels (src/compiler/cuda/reference.ts) against onnxruntime FP32 on random inputs. Tactic selection needs
 * the device: a stand-in tuner assigns the engine's own kernels here.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildCudaPlan, profileBatches } from '../../../../src/compiler/cuda/build-cuda.ts';
import type { CudaTuner } from '../../../../src/plan/cuda-tuning.ts';
import { lowerGraph } from '../../../../src/compiler/cuda/lower.ts';
import { planArena } from '../../../../src/compiler/cuda/memory.ts';
import type { ConvLayer, CudaNetwork } from '../../../../src/plan/cuda-network.ts';
import { runReference } from '../../../../src/compiler/cuda/reference.ts';
import { GraphBuilder, attr } from '../../../../src/compiler/ir/builder.ts';
import { DT } from '../../../../src/tensor/onnx-dtype.ts';
import { loadModel } from '../../../../src/compiler/ir/graph.ts';
import { inferShapes } from '../../../../src/compiler/ir/shape-inference.ts';
import { decodeCudaPayload } from '../../../../src/engine/cuda/payload.ts';
import { readPlan } from '../../../../src/plan/format.ts';
import { RtError } from '../../../../src/errors/registry.ts';
import { f32, randn, rng, runBytes } from '../helpers.ts';
import { tinyConvNet } from '../models.ts';

const fakeTuner: CudaTuner = {
  device: { name: 'reference', cc: [9, 0], sms: 1, memoryBytes: 0, cudaRuntime: 0, cudaDriver: 0, cudnn: 0, cublasLt: 0 },
  tune: (layer) => ({ candidates: [], notes: [], best: layer.kind === 'conv' ? { impl: 'direct' } : { impl: 'naive' }, bestUs: 1, fallback: null }),
};

async function build(model: Uint8Array, batches: readonly number[]): Promise<{ network: CudaNetwork; weights: Uint8Array }> {
  const r = await buildCudaPlan({ model, precision: 'fp16' }, () => {}, { tuner: fakeTuner, batches });
  const { payload } = readPlan(r.plan);
  const decoded = decodeCudaPayload(payload);
  assert.ok(decoded !== undefined, 'the payload decodes as a CUDA payload');
  return { network: decoded.network, weights: decoded.weights };
}

/** Runs the plan's program for the smallest batch >= rows on the CPU reference and onnxruntime; compares. */
async function compare(model: Uint8Array, batches: readonly number[], rowsList: readonly number[], tolerance = 2e-2): Promise<CudaNetwork> {
  const { network, weights } = await build(model, batches);
  const g = loadModel(model);
  for (const rows of rowsList) {
    const rand = rng(100 + rows);
    const feeds: Record<string, { elemType: number; dims: number[]; data: Float32Array }> = {};
    const inputs: Float32Array[] = [];
    for (const io of network.inputs) {
      const dims = [rows, ...io.rowShape];
      const data = randn(
        rand,
        dims.reduce((a, b) => a * b, 1),
      );
      feeds[io.name] = { elemType: DT.FLOAT, dims, data };
      inputs.push(data);
    }
    const batch = network.batches.find((b) => b >= rows) ?? network.maxBatch;
    const got = runReference(network, weights, batch, rows, inputs);
    const ref = await runBytes(model, feeds);
    network.outputs.forEach((io, i) => {
      const a = got[i] as Float32Array;
      const e = ref[io.name]?.data as Float32Array;
      assert.equal(a.length, e.length, `${io.name}: element count`);
      let maxErr = 0;
      let maxRef = 0;
      for (let k = 0; k < e.length; k++) {
        maxErr = Math.max(maxErr, Math.abs((a[k] ?? 0) - (e[k] ?? 0)));
        maxRef = Math.max(maxRef, Math.abs(e[k] ?? 0));
      }
      assert.ok(
        Number.isFinite(maxErr) && maxErr <= tolerance * Math.max(1, maxRef),
        `${io.name} at ${rows} rows (program ${batch}): max abs error ${maxErr} vs max |ref| ${maxRef} (graph ${g.meta.graphName})`,
      );
    });
  }
  return network;
}

describe('cuda lowering against onnxruntime (CPU reference of the kernels)', () => {
  test('residual conv net: BN folded, conv + bias + residual + relu fused, NHWC, padded stem, pooling, Gemm, Softmax', async () => {
    const model = tinyConvNet();
    const network = await compare(model, [1, 2, 4], [1, 3, 4]);
    const layers = network.programs[0]?.layers ?? [];
    const convs = layers.filter((l): l is ConvLayer => l.kind === 'conv');
    assert.equal(convs.length, 2);
    assert.equal(convs[0]?.c, 8, 'the 3-channel image is padded to 8 channels for tensor cores');
    assert.ok(
      convs.some((c) => c.z !== null && c.act.kind === 1),
      'one convolution absorbs the residual Add and the Relu',
    );
    assert.ok(!layers.some((l) => l.kind === 'affine' || l.kind === 'binary' || l.kind === 'unary'), 'no separate BN, Add or Relu layers remain');
    assert.deepEqual(network.batches, [1, 2, 4]);
  });

  test('conv variants: groups, dilation, asymmetric and SAME pads, strides, SiLU, Clip, LeakyRelu, HardSwish, Tanh, Gelu', async () => {
    const r = rng(7);
    const b = new GraphBuilder({ opset: 20 });
    b.input('x', DT.FLOAT, ['N', 4, 9, 11]);
    b.init('w1', f32(r, [8, 2, 3, 3], 0.3)).init('b1', f32(r, [8], 0.1));
    b.init('w2', f32(r, [8, 8, 3, 2], 0.2));
    b.init('w3', f32(r, [6, 8, 3, 3], 0.2));
    b.init('w4', f32(r, [6, 1, 3, 3], 0.3));
    b.init('lo', { elemType: DT.FLOAT, dims: [], data: Float32Array.of(-0.5) }).init('hi', {
      elemType: DT.FLOAT,
      dims: [],
      data: Float32Array.of(0.7),
    });
    b.node('Conv', ['x', 'w1', 'b1'], ['c1'], { group: attr.int(2), pads: attr.ints([1, 1, 1, 1]) });
    b.node('Sigmoid', ['c1'], ['s1']);
    b.node('Mul', ['c1', 's1'], ['a1']);
    b.node('Conv', ['a1', 'w2'], ['c2'], { dilations: attr.ints([2, 1]), pads: attr.ints([0, 1, 2, 0]) });
    b.node('Clip', ['c2', 'lo', 'hi'], ['a2']);
    b.node('Conv', ['a2', 'w3'], ['c3'], { auto_pad: attr.string('SAME_UPPER'), strides: attr.ints([2, 2]) });
    b.node('LeakyRelu', ['c3'], ['a3'], { alpha: attr.float(0.1) });
    b.node('Conv', ['a3', 'w4'], ['c4'], { group: attr.int(6), pads: attr.ints([1, 1, 1, 1]) });
    b.node('HardSwish', ['c4'], ['a4']);
    b.node('Tanh', ['a4'], ['t4']);
    b.node('Gelu', ['t4'], ['y']);
    b.output('y', DT.FLOAT, ['N', 6, 5, 6]);
    await compare(b.bytes(), [1, 2], [1, 2]);
  });

  test('elementwise broadcasting, standalone BatchNormalization, AveragePool, Concat in NHWC, Transpose, Reshape', async () => {
    const r = rng(9);
    const b = new GraphBuilder({ opset: 17 });
    b.input('x', DT.FLOAT, ['N', 3, 8, 8]);
    b.init('w1', f32(r, [8, 3, 3, 3], 0.3)).init('w2', f32(r, [8, 3, 1, 1], 0.3));
    b.init('scale', f32(r, [8, 1, 1], 0.5, 1)).init('div', { elemType: DT.FLOAT, dims: [1], data: Float32Array.of(2) });
    b.init('g', f32(r, [8], 0.1, 1))
      .init('be', f32(r, [8], 0.1))
      .init('m', f32(r, [8], 0.1));
    b.init('v', { elemType: DT.FLOAT, dims: [8], data: Float32Array.from({ length: 8 }, () => 0.5 + r()) });
    b.init('shape', { elemType: DT.INT64, dims: [3], data: BigInt64Array.of(0n, 16n, -1n) });
    b.node('Conv', ['x', 'w1'], ['c1'], { pads: attr.ints([1, 1, 1, 1]) });
    b.node('Conv', ['x', 'w2'], ['c2']);
    b.node('Mul', ['c1', 'scale'], ['m1']);
    b.node('Sub', ['m1', 'c2'], ['d1']);
    b.node('BatchNormalization', ['d1', 'g', 'be', 'm', 'v'], ['bn']);
    b.node('Relu', ['bn'], ['r1']);
    b.node('Div', ['r1', 'div'], ['h1']);
    b.node('AveragePool', ['h1'], ['p1'], {
      kernel_shape: attr.ints([3, 3]),
      strides: attr.ints([2, 2]),
      pads: attr.ints([1, 1, 1, 1]),
      count_include_pad: attr.int(1),
    });
    b.node('MaxPool', ['h1'], ['p2'], { kernel_shape: attr.ints([3, 3]), strides: attr.ints([2, 2]), pads: attr.ints([1, 1, 1, 1]) });
    b.node('Concat', ['p1', 'p2'], ['cat'], { axis: attr.int(1) });
    b.node('Transpose', ['cat'], ['tr'], { perm: attr.ints([0, 2, 3, 1]) });
    b.node('Reshape', ['tr', 'shape'], ['y']);
    b.output('y', DT.FLOAT, ['N', 16, 16]);
    await compare(b.bytes(), [1, 3], [1, 2, 3]);
  });

  test('MatMul: constant weights on a rank-3 input, activation x activation batched, broadcast Add, Softmax over the last axis', async () => {
    const r = rng(11);
    const b = new GraphBuilder({ opset: 17 });
    b.input('x', DT.FLOAT, ['N', 4, 8]);
    b.init('wq', f32(r, [8, 6], 0.4))
      .init('wk', f32(r, [8, 6], 0.4))
      .init('bias', f32(r, [4], 0.2));
    b.node('MatMul', ['x', 'wq'], ['q']);
    b.node('MatMul', ['x', 'wk'], ['k']);
    b.node('Transpose', ['k'], ['kt'], { perm: attr.ints([0, 2, 1]) });
    b.node('MatMul', ['q', 'kt'], ['s']);
    b.node('Add', ['s', 'bias'], ['sb']);
    b.node('Softmax', ['sb'], ['p'], { axis: attr.int(-1) });
    b.node('MatMul', ['p', 'q'], ['y']);
    b.output('y', DT.FLOAT, ['N', 4, 6]);
    b.output('p', DT.FLOAT, ['N', 4, 4]);
    await compare(b.bytes(), [1, 2, 4], [1, 3, 4]);
  });

  test('the bundled resnet_tiny model', async () => {
    const bytes = new Uint8Array(await readFile(fileURLToPath(new URL('../../../../models/resnet_tiny/1/model.onnx', import.meta.url))));
    await compare(bytes, [1, 2], [2]);
  });
});

describe('cuda build: errors and planning', () => {
  test('an unsupported operator fails the build and names it', async () => {
    const b = new GraphBuilder({ opset: 17 });
    b.input('x', DT.FLOAT, ['N', 4]);
    b.node('Relu', ['x'], ['r']);
    b.node('Erf', ['r'], ['e']);
    b.node('LRN', ['e'], ['y'], { size: attr.int(3) });
    b.output('y', DT.FLOAT, ['N', 4]);
    await assert.rejects(
      buildCudaPlan({ model: b.bytes(), precision: 'fp16' }, () => {}, { tuner: fakeTuner, batches: [1] }),
      (e: unknown) => {
        assert.ok(e instanceof RtError && e.code === 'UNSUPPORTED');
        assert.match(e.message, /Erf \(node 'Erf_1'\)/);
        assert.match(e.message, /LRN/);
        return true;
      },
    );
  });

  test('without the native engine the CUDA target says it is unavailable and why', async () => {
    await assert.rejects(
      buildCudaPlan({ model: tinyConvNet(), precision: 'fp16' }, () => {}, { unavailable: 'the native CUDA engine is not built (test)' }),
      (e: unknown) =>
        e instanceof RtError &&
        e.code === 'ENGINE_UNAVAILABLE' &&
        /target 'cuda' is unavailable: the native CUDA engine is not built/.test(e.message),
    );
  });

  test('the CUDA target needs --precision fp16', async () => {
    await assert.rejects(
      buildCudaPlan({ model: tinyConvNet(), precision: 'fp32' }, () => {}, { tuner: fakeTuner }),
      /pass --precision fp16/,
    );
  });

  test('batch sizes: min, opt, max and the powers of two between', () => {
    const inputs = [{ name: 'x', type: { elemType: DT.FLOAT, shape: ['N', 3, 8, 8] } }];
    const w: string[] = [];
    assert.deepEqual(
      profileBatches(inputs, [{ input: 'x', min: [1, 3, 8, 8], opt: [24, 3, 8, 8], max: [256, 3, 8, 8] }], w),
      [1, 2, 4, 8, 16, 24, 32, 64, 128, 256],
    );
    assert.deepEqual(profileBatches(inputs, [{ input: 'x', min: [3, 3, 8, 8], opt: [3, 3, 8, 8], max: [10, 3, 8, 8] }], w), [3, 4, 8, 10]);
    assert.deepEqual(profileBatches([{ name: 'x', type: { elemType: DT.FLOAT, shape: [4, 3] } }], [], w), [4]);
  });

  test('the arena never gives two live tensors overlapping bytes, and reuses memory', () => {
    const g = loadModel(tinyConvNet());
    inferShapes(g);
    const lowered = lowerGraph(g, [1, 8]);
    const plan = planArena(lowered, [1, 8]);
    for (const a of plan.lives) {
      for (const b of plan.lives) {
        if (a === b || a.last < b.first || b.last < a.first) continue;
        const oa = plan.offsets.get(a.storage) ?? 0;
        const ob = plan.offsets.get(b.storage) ?? 0;
        assert.ok(oa + a.bytes <= ob || ob + b.bytes <= oa, `storages ${a.storage} and ${b.storage} overlap while both live`);
      }
    }
    assert.ok(plan.arenaBytes < plan.unpackedBytes, `packed ${plan.arenaBytes} < unpacked ${plan.unpackedBytes}`);
  });
});
