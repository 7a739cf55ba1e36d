import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { buildPlan } from '../../../src/compiler/build.ts';
import { AccuracyGateError, type BuildOptions } from '../../../src/compiler/build-options.ts';
import { writeNpz } from '../../../src/compiler/data/npz.ts';
import { GraphBuilder } from '../../../src/compiler/ir/builder.ts';
import { summarizeModel } from '../../../src/compiler/inspect.ts';
import { DT } from '../../../src/tensor/onnx-dtype.ts';
import { loadModel } from '../../../src/compiler/ir/graph.ts';
import { inferShapes } from '../../../src/compiler/ir/shape-inference.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { checkPlanCompatibility } from '../../../src/plan/compatibility.ts';
import { readPlan } from '../../../src/plan/format.ts';
import { randn, rng, runBytes, runtime } from './helpers.ts';
import { tempDir, tinyConvNet, writeCalibration, writeModelFile } from './models.ts';

const model = tinyConvNet();

async function build(extra: Partial<BuildOptions>) {
  return buildPlan({ model, modelName: 'tiny.onnx', runtime, ...extra });
}

function rtErr(code: string, pattern: RegExp) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof RtError, `an RtError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    assert.match(e.message, pattern);
    return true;
  };
}

describe('buildPlan', () => {
  test('fp32: passes, profiles and the manifest; the payload computes what the source does', async () => {
    const stages: string[] = [];
    const profile = { input: 'x', min: [1, 3, 8, 8], opt: [4, 3, 8, 8], max: [16, 3, 8, 8] };
    const r = await buildPlan({ model, modelName: 'tiny.onnx', runtime, profiles: [profile] }, (e) => {
      if (e.state === 'done') stages.push(e.stage);
    });
    assert.deepEqual(stages, ['load', 'validate', 'passes', 'precision', 'ort-optimize', 'profiles', 'accuracy', 'write']);
    const { manifest, payload } = readPlan(r.plan);
    assert.equal(manifest.target, 'ort-cpu');
    assert.equal(manifest.precision, 'fp32');
    assert.equal(manifest.source.fileName, 'tiny.onnx');
    assert.deepEqual(manifest.profiles, [profile]);
    assert.equal(manifest.passes.find((p) => p.name === 'batchnorm-folding')?.changed, 2);
    assert.deepEqual(manifest.io.inputs, [{ name: 'x', datatype: 'FP32', shape: [-1, 3, 8, 8] }]);
    assert.deepEqual(
      manifest.io.outputs.map((o) => o.name),
      ['logits', 'probs'],
    );
    assert.equal(manifest.runtime?.name, 'onnxruntime-node');
    assert.equal(manifest.accuracy?.passed, true);
    assert.equal(manifest.accuracy?.dataSource, 'synthetic');
    assert.ok(r.report.warnings.some((w) => /synthetic/.test(w)));
    assert.ok(!loadModel(payload).nodes.some((n) => n.opType === 'BatchNormalization'));
    const x = { elemType: DT.FLOAT, dims: [2, 3, 8, 8], data: randn(rng(5), 384) };
    const ref = await runBytes(model, { x });
    const got = await runBytes(payload, { x }, 'all');
    const a = ref.logits?.data as Float32Array;
    const b = got.logits?.data as Float32Array;
    for (let i = 0; i < a.length; i++) assert.ok(Math.abs((a[i] ?? 0) - (b[i] ?? 0)) < 1e-4);
    checkPlanCompatibility(manifest, { targets: ['ort-cpu'], runtime: { name: runtime.name, version: runtime.version } });
    assert.throws(
      () => checkPlanCompatibility(manifest, { targets: ['ort-webgpu'], runtime: { name: runtime.name, version: runtime.version } }),
      (e: unknown) => e instanceof RtError && e.category === 'FAILED_PRECONDITION' && /built for target 'ort-cpu'/.test(e.message),
    );
  });

  test('fp16 keeps accuracy within its gate and halves the weights', async () => {
    const dir = await tempDir();
    const calibration = await writeCalibration(dir, 24);
    const fp32 = await build({ calibration });
    const fp16 = await build({
      precision: 'fp16',
      calibration,
      accuracyGates: [
        { metric: 'cosine', threshold: 0.999 },
        { metric: 'top1-agreement', threshold: 0.95 },
      ],
    });
    assert.equal(fp16.report.accuracy?.passed, true);
    assert.equal(fp16.report.accuracy?.dataSource, 'calibration-holdout');
    const w16 = summarizeModel(readPlan(fp16.plan).payload, 'fp16').weightBytes;
    const w32 = summarizeModel(readPlan(fp32.plan).payload, 'fp32').weightBytes;
    assert.ok(w16 <= w32 * 0.55, `${w16} vs ${w32} weight bytes`);
    const precisions = Object.values(fp16.manifest.nodePrecision);
    assert.ok(precisions.includes('fp16') && precisions.includes('fp32'));
  });

  test('int8 with calibration: gate passes, table stored, onnxruntime runs integer kernels', async () => {
    const dir = await tempDir();
    const calibration = await writeCalibration(dir, 40);
    const r = await build({
      precision: 'int8',
      calibration,
      calibrationMethod: 'percentile',
      accuracyGates: [{ metric: 'cosine', threshold: 0.99 }],
    });
    const { manifest, payload } = readPlan(r.plan);
    assert.equal(manifest.calibration?.method, 'percentile');
    assert.equal(manifest.calibration?.samples, 32, '20 % held out for validation');
    assert.equal(r.report.accuracy?.samples, 8);
    assert.ok(Object.values(manifest.nodePrecision).includes('int8'));
    assert.ok(loadModel(payload).nodes.some((n) => n.opType === 'QLinearConv'));
    assert.ok((r.report.accuracy?.outputs[0]?.cosine ?? 0) >= 0.99);
  });

  test('the bundled transformer encoder builds at fp32, fp16 and int8 within the default gates, with a sequence profile', async () => {
    const dir = await tempDir();
    const encoder = fileURLToPath(new URL('../../../models/encoder/1/model.onnx', import.meta.url));
    const calibration = await writeCalibration(dir, 40, 7, 'encoder.npy', [8, 128]);
    const profiles = [{ input: 'input', min: [1, 1, 128], opt: [4, 8, 128], max: [8, 64, 128] }];
    const plans = new Map<string, Awaited<ReturnType<typeof buildPlan>>>();
    for (const precision of ['fp32', 'fp16', 'int8'] as const) {
      const r = await buildPlan({ model: encoder, runtime, precision, calibration, profiles });
      assert.equal(r.report.accuracy?.passed, true, `${precision}: ${r.report.accuracy?.gates.map((x) => x.message).join('; ')}`);
      assert.deepEqual(
        r.report.accuracy?.outputs.map((o) => o.name),
        ['logits', 'hidden'],
      );
      assert.ok(r.report.stagesMs.profiles !== undefined, `${precision}: the profile's min, opt and max shapes ran`);
      plans.set(precision, r);
    }
    const kept = plans
      .get('fp16')
      ?.report.precisionReport.fp16?.keptFp32.map((k) => k.op)
      .sort();
    assert.deepEqual(kept, ['LayerNormalization', 'LayerNormalization', 'LayerNormalization', 'LayerNormalization', 'Softmax', 'Softmax']);
    // Six weight MatMuls per layer and the classifier Gemm get INT8 weights; the attention MatMuls of two activations do not.
    const int8 = plans.get('int8')?.report.precisionReport.int8;
    assert.equal(int8?.quantizedWeights, 13);
    const ops = new Set(loadModel(readPlan(plans.get('int8')?.plan ?? new Uint8Array()).payload).nodes.map((n) => n.opType));
    assert.ok(ops.has('MatMulIntegerToFloat') || ops.has('QLinearMatMul'), [...ops].join(', '));
    assert.ok((plans.get('int8')?.plan.byteLength ?? Infinity) < (plans.get('fp32')?.plan.byteLength ?? 0) * 0.35);
  });

  test('the calibration table is cached and reused; a cache for another model is refused', async () => {
    const dir = await tempDir();
    const calibration = await writeCalibration(dir, 20);
    const cache = join(dir, 'calib.json');
    const first = await build({ precision: 'int8', calibration, calibrationCache: cache });
    assert.equal(first.report.calibration?.fromCache, false);
    await stat(cache);
    const second = await build({ precision: 'int8', calibrationCache: cache, validation: calibration });
    assert.equal(second.report.calibration?.fromCache, true);
    assert.deepEqual(second.manifest.calibration, first.manifest.calibration);
    // a plan works as a cache too
    const planPath = join(dir, 'first.plan');
    await writeFile(planPath, first.plan);
    const third = await build({ precision: 'int8', calibrationCache: planPath });
    assert.equal(third.report.calibration?.fromCache, true);
    await assert.rejects(
      buildPlan({ model: tinyConvNet({ softmax: false }), runtime, precision: 'int8', calibrationCache: cache }),
      rtErr('BAD_CONFIG', /cannot be used: it was made for a different model.*--calibration/),
    );
  });

  test('mixed falls back to FP32 for the most sensitive layers until the gate holds', async () => {
    const dir = await tempDir();
    const calibration = await writeCalibration(dir, 30);
    const r = await build({ precision: 'mixed', calibration, accuracyGates: [{ metric: 'max-abs', threshold: 1e-3 }] });
    const fallback = r.report.precisionReport.int8?.fallbackFp32 ?? [];
    assert.ok(fallback.length >= 1);
    assert.equal(r.report.accuracy?.passed, true);
    const first = fallback[0]?.split(' ')[0] ?? '';
    assert.equal(r.manifest.nodePrecision[first], 'fp32');
  });

  test('an exceeded gate fails the build with the report attached', async () => {
    const dir = await tempDir();
    const calibration = await writeCalibration(dir, 20);
    await assert.rejects(build({ precision: 'int8', calibration, accuracyGates: [{ metric: 'max-abs', threshold: 0 }] }), (e: unknown) => {
      assert.ok(e instanceof AccuracyGateError);
      assert.match(e.message, /accuracy gate failed: max-abs of '(logits|probs)' is .* gate <= 0: FAILED/);
      assert.equal(e.report.accuracy?.passed, false);
      return true;
    });
  });

  test('top-1 accuracy against labels', async () => {
    const dir = await tempDir();
    const x = randn(rng(8), 10 * 192);
    // labels: the FP32 model's own predictions for half the samples, a wrong class for the rest
    const ref = await runBytes(model, { x: { elemType: DT.FLOAT, dims: [10, 3, 8, 8], data: x } });
    const logits = ref.logits?.data as Float32Array;
    const labels = BigInt64Array.from({ length: 10 }, (_, i) => {
      const row = [...logits.subarray(i * 5, i * 5 + 5)];
      const top = row.indexOf(Math.max(...row));
      return BigInt(i < 5 ? top : (top + 1) % 5);
    });
    const validation = join(dir, 'val.npz');
    await writeFile(
      validation,
      writeNpz({ x: { elemType: DT.FLOAT, dims: [10, 3, 8, 8], data: x }, labels: { elemType: DT.INT64, dims: [10], data: labels } }),
    );
    const r = await build({
      validation,
      accuracyGates: [
        { metric: 'accuracy-drop', threshold: 0.01 },
        { metric: 'top1-accuracy', threshold: 0.5 },
      ],
    });
    const logitsMetrics = r.report.accuracy?.outputs.find((o) => o.name === 'logits');
    assert.equal(logitsMetrics?.referenceAccuracy, 0.5);
    assert.equal(logitsMetrics?.planAccuracy, 0.5);
    assert.equal(r.report.accuracy?.passed, true);
  });
  test('ort-webgpu fp16: no CPU-only fusions, shader-f16 required, refused by a CPU-only engine', async () => {
    const r = await build({ target: 'ort-webgpu', precision: 'fp16' });
    const { manifest, payload } = readPlan(r.plan);
    // The CPU provider's offline optimization would wrap Conv and Gemm (no FP16 CPU kernels) in Casts to FP32.
    assert.equal(manifest.payload.ortOptimizationLevel, 'none');
    assert.ok(
      r.report.warnings.some((w) => /ort-optimize skipped for ort-webgpu: .* added \d+ Cast/.test(w)),
      r.report.warnings.join('; '),
    );
    const g = loadModel(payload);
    inferShapes(g);
    const compute = g.nodes.filter((n) => n.opType === 'Conv' || n.opType === 'Gemm');
    assert.equal(compute.length, 3);
    for (const n of compute) assert.equal(g.typeOf(n.outputs[0] ?? '')?.elemType, DT.FLOAT16, `${n.opType} '${n.name}' computes in FP16`);
    assert.equal(manifest.deviceRequirements.executionProvider, 'webgpu');
    assert.equal(manifest.deviceRequirements.shaderF16, true);
    assert.ok(!loadModel(payload).nodes.some((n) => n.domain === 'com.microsoft'));
    assert.match(r.report.accuracy?.measuredOn ?? '', /standing in for WebGPU/);
    assert.throws(
      () => checkPlanCompatibility(manifest, { targets: ['ort-cpu'], runtime: { name: runtime.name, version: runtime.version } }),
      (e: unknown) =>
        e instanceof RtError && e.code === 'ENGINE_UNAVAILABLE' && /built for target 'ort-webgpu' but this engine provides ort-cpu/.test(e.message),
    );
  });

  test('string inputs skip the run-based checks with a warning; explicit gates are refused', async () => {
    const b = new GraphBuilder();
    b.input('s', DT.STRING, ['N']);
    b.node('Identity', ['s'], ['t']);
    b.output('t', DT.STRING, ['N']);
    const r = await buildPlan({ model: b.bytes(), runtime });
    assert.equal(r.report.accuracy, null);
    assert.ok(r.report.warnings.some((w) => /accuracy gate skipped: 's' is a string tensor/.test(w)));
    await assert.rejects(
      buildPlan({ model: b.bytes(), runtime, accuracyGates: [{ metric: 'cosine', threshold: 0.9 }] }),
      rtErr('BAD_CONFIG', /accuracy gate cannot run/),
    );
  });
});

describe('buildPlan errors', () => {
  test('target cuda is unavailable', async () => {
    await assert.rejects(
      build({ target: 'cuda' }),
      (e: unknown) => e instanceof RtError && e.category === 'FAILED_PRECONDITION' && /target 'cuda' is unavailable/.test(e.message),
    );
  });

  test('an unsupported operator is named', async () => {
    const b = new GraphBuilder({ extraOpsets: { 'com.example': 1 } });
    b.input('x', DT.FLOAT, [1, 4]);
    b.node('Relu', ['x'], ['h']);
    b.node('FancyOp', ['h'], ['y'], {}, 'com.example');
    b.output('y');
    await assert.rejects(
      buildPlan({ model: b.bytes(), modelName: 'custom.onnx', runtime }),
      rtErr('UNSUPPORTED', /custom\.onnx: node 'FancyOp_1' uses operator 'FancyOp' from the custom domain 'com\.example'/),
    );
    const c = new GraphBuilder();
    c.input('x', DT.FLOAT, [1, 4]);
    c.node('Frobnicate', ['x'], ['y']);
    c.output('y');
    await assert.rejects(buildPlan({ model: c.bytes(), runtime }), rtErr('UNSUPPORTED', /operator 'Frobnicate', which is not an ONNX operator/));
  });

  test('a calibration file with the wrong shape', async () => {
    const dir = await tempDir();
    const calibration = await writeCalibration(dir, 4, 1, 'wrong.npy', [3, 16, 16]);
    await assert.rejects(
      build({ precision: 'int8', calibration }),
      rtErr('BAD_SHAPE', /calibration data for input 'x' has shape \[4,3,16,16\].*dimension 2 must be 8, got 16/),
    );
  });

  test('int8 without calibration data, a bad profile, a missing or corrupt model', async () => {
    await assert.rejects(build({ precision: 'int8' }), rtErr('BAD_CONFIG', /needs calibration data/));
    await assert.rejects(build({ profiles: [{ input: 'nope', min: [1], opt: [1], max: [1] }] }), rtErr('BAD_CONFIG', /no such input/));
    await assert.rejects(
      build({ profiles: [{ input: 'x', min: [1, 3, 8, 8], opt: [4, 3, 8, 8], max: [8, 3, 9, 8] }] }),
      rtErr('BAD_CONFIG', /dimension 2 is fixed to 8/),
    );
    await assert.rejects(buildPlan({ model: '/nonexistent/model.onnx', runtime }), rtErr('BAD_CONFIG', /cannot be read/));
    await assert.rejects(
      buildPlan({ model: Uint8Array.from([1, 2, 3, 4, 5]), modelName: 'junk.onnx', runtime }),
      rtErr('BAD_CONFIG', /junk\.onnx is not a valid ONNX model/),
    );
  });

  test('a plan given as the model is refused', async () => {
    const r = await build({ accuracyGates: [] });
    const dir = await tempDir();
    const p = await writeModelFile(dir, 'm.plan', r.plan);
    await assert.rejects(buildPlan({ model: p, runtime }), rtErr('BAD_CONFIG', /already a plan/));
    assert.ok((await readFile(p)).byteLength > 0);
  });
});
