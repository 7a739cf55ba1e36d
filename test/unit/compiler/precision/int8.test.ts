import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { holdOut } from '../../../../src/compiler/data/dataset.ts';
import { syntheticDataset } from '../../../../src/compiler/data/dataset.ts';
import { DT } from '../../../../src/tensor/onnx-dtype.ts';
import { loadModel, saveModel } from '../../../../src/compiler/ir/graph.ts';
import { DEFAULT_PASSES, runPasses } from '../../../../src/compiler/passes/index.ts';
import { HISTOGRAM_BINS, calibrate, entropyBin, percentileBin } from '../../../../src/compiler/precision/calibration.ts';
import { activationParams, quantizeInt8, quantizeWeights } from '../../../../src/compiler/precision/int8.ts';
import { planQuantization } from '../../../../src/compiler/precision/quant-plan.ts';
import { randomFeeds, runBytes, runGraph, runtime } from '../helpers.ts';
import { tinyConvNet } from '../models.ts';

describe('quantization arithmetic', () => {
  test('per-channel symmetric weights: scale = max|w|/127, error <= scale/2', () => {
    const w = { elemType: DT.FLOAT, dims: [2, 3], data: Float32Array.from([0.5, -1.27, 0.01, 10, -2, 3]) };
    const { q, scales } = quantizeWeights(w, 0, true);
    assert.ok(Math.abs((scales[0] ?? 0) - 1.27 / 127) < 1e-9);
    assert.ok(Math.abs((scales[1] ?? 0) - 10 / 127) < 1e-7);
    assert.equal(q[1], -127);
    assert.equal(q[3], 127);
    for (let i = 0; i < 6; i++) {
      const s = scales[Math.floor(i / 3)] ?? 1;
      assert.ok(Math.abs((q[i] ?? 0) * s - (w.data[i] ?? 0)) <= s / 2 + 1e-9);
    }
    const axis1 = quantizeWeights(w, 1, true);
    assert.equal(axis1.scales.length, 3);
    assert.equal(quantizeWeights(w, 0, false).scales.length, 1);
  });

  test('UINT8 activation parameters keep 0 exact', () => {
    const relu = activationParams(0, 2.55);
    assert.equal(relu.zeroPoint, 0);
    assert.ok(Math.abs(relu.scale - 0.01) < 1e-12);
    const p = activationParams(-1, 1);
    assert.equal(p.zeroPoint, 128);
    assert.deepEqual(activationParams(0.5, 2), { scale: 2 / 255, zeroPoint: 0 });
    assert.deepEqual(activationParams(0, 0), { scale: 1, zeroPoint: 0 });
  });

  test('percentile and entropy thresholds ignore a lone outlier', () => {
    const hist = new Float64Array(HISTOGRAM_BINS);
    for (let i = 0; i < 1024; i++) hist[i] = 1000 - i * 0.5;
    hist[HISTOGRAM_BINS - 1] = 1;
    const p = percentileBin(hist, 99.99);
    assert.ok(p > 900 && p <= 1024, `percentile bin ${p}`);
    const e = entropyBin(hist, 128);
    assert.ok(e >= 128 && e < 1300, `entropy bin ${e}`);
    assert.equal(percentileBin(hist, 100), HISTOGRAM_BINS);
  });
});

describe('QDQ rewrite', () => {
  async function quantized(method: 'minmax' | 'percentile' | 'entropy') {
    const before = tinyConvNet({ softmax: false });
    const g = loadModel(before);
    runPasses(g, DEFAULT_PASSES, { target: 'ort-cpu', precision: 'int8' });
    const plan = planQuantization(g);
    const data = holdOut(syntheticDataset(g.inputs, 40, 3), 0.2).train;
    const table = await calibrate(runtime, g, plan.calibrationTensors, data, { method, target: 'ort-cpu', graphSha256: 'test' });
    const result = quantizeInt8(g, plan, table, { perChannel: true });
    return { before, g, plan, table, result };
  }

  test('Conv/Gemm get INT8 weights, Relus fold into the quantizer, outputs stay close', async () => {
    const { before, g, plan, table, result } = await quantized('minmax');
    assert.equal(result.quantizedWeights, 3);
    assert.equal(result.removedActivations, 2);
    assert.ok(!g.nodes.some((n) => n.opType === 'Relu'));
    assert.ok(plan.calibrationTensors.every((t) => table.tensors[t] !== undefined));
    assert.ok([...g.initializers.values()].some((t) => t.elemType === DT.INT8));
    assert.ok(
      [...g.initializers.values()].some((t) => t.elemType === DT.INT32),
      'INT32 biases',
    );
    const feeds = randomFeeds(g, 17, 16);
    const ref = await runBytes(before, feeds);
    const got = await runGraph(g, feeds, 'all');
    const a = ref.logits?.data as Float32Array;
    const b = got.logits?.data as Float32Array;
    let dot = 0,
      na = 0,
      nb = 0;
    for (let i = 0; i < a.length; i++) {
      dot += (a[i] ?? 0) * (b[i] ?? 0);
      na += (a[i] ?? 0) ** 2;
      nb += (b[i] ?? 0) ** 2;
    }
    assert.ok(dot / Math.sqrt(na * nb) > 0.99, `cosine ${dot / Math.sqrt(na * nb)}`);
  });

  test('onnxruntime turns the QDQ graph into integer kernels', async () => {
    const { g } = await quantized('minmax');
    const optimized = loadModel(await runtime.optimize(saveModel(g), { target: 'ort-cpu', level: 'extended' }));
    const ops = new Set(optimized.nodes.map((n) => n.opType));
    assert.ok(ops.has('QLinearConv'), [...ops].join(','));
    assert.ok(!ops.has('Conv'));
  });

  test('percentile and entropy ranges never exceed the observed range', async () => {
    for (const method of ['percentile', 'entropy'] as const) {
      const { table } = await quantized(method);
      for (const r of Object.values(table.tensors)) {
        assert.ok(r.max <= Math.max(0, r.observedMax) + 1e-6 && r.min >= Math.min(0, r.observedMin) - 1e-6);
        assert.ok(r.min <= 0 && r.max >= 0);
      }
    }
  });

  test('an excluded node keeps FP32 weights', () => {
    const g = loadModel(tinyConvNet({ softmax: false }));
    runPasses(g, DEFAULT_PASSES, { target: 'ort-cpu', precision: 'int8' });
    const gemm = g.nodes.find((n) => n.opType === 'Gemm')?.name ?? '';
    const plan = planQuantization(g, { excludeNodes: new Set([gemm]) });
    assert.ok(![...plan.weightNodes].some((n) => n.name === gemm));
    assert.equal(plan.weightNodes.size, 2);
  });

  test('models below opset 13 are refused for INT8 with the reason', async () => {
    const g = loadModel(tinyConvNet({ opset: 11, softmax: false }));
    runPasses(g, DEFAULT_PASSES, { target: 'ort-cpu', precision: 'int8' });
    const plan = planQuantization(g);
    const table = { version: 1 as const, method: 'minmax' as const, graphSha256: '', dataSha256: '', samples: 0, tensors: {} };
    assert.throws(() => quantizeInt8(g, plan, table, { perChannel: true }), /opset 13 or newer.*opset 11/);
  });
});
