/**
 * Detectors on the CUDA target without a GPU: the bundled `shapes` detector (CenterNet decode: Resize, Slice,
 * MaxPool peak test, TopK, integer arithmetic, GatherElements, an INT32 output) and a YOLO-style network (SiLU,
 * Pad, C2f splits, SPPF, nearest and bilinear Resize, head Reshape/Concat/Transpose, box decode) are lowered and
 * their programs run through the CPU reference of the kernels against onnxruntime FP32.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildCudaPlan, type CudaBuildReport } from '../../../../src/compiler/cuda/build-cuda.ts';
import { runReference } from '../../../../src/compiler/cuda/reference.ts';
import { writeNpy } from '../../../../src/compiler/data/npy.ts';
import { GraphBuilder, attr } from '../../../../src/compiler/ir/builder.ts';
import type { CudaNetwork } from '../../../../src/plan/cuda-network.ts';
import type { CudaTuner } from '../../../../src/plan/cuda-tuning.ts';
import type { OfflineRuntime } from '../../../../src/plan/runtime.ts';
import { decodeCudaPayload } from '../../../../src/engine/cuda/payload.ts';
import { readPlan } from '../../../../src/plan/format.ts';
import { DT } from '../../../../src/tensor/onnx-dtype.ts';
import { randn, rng, runBytes, runtime } from '../helpers.ts';
import { maxRelError, missingDetections, shapesSceneBatch, yoloStyleNet } from '../detector-models.ts';

const fakeTuner: CudaTuner = {
  device: { name: 'reference', cc: [9, 0], sms: 1, memoryBytes: 0, cudaRuntime: 0, cudaDriver: 0, cudnn: 0, cublasLt: 0 },
  tune: (layer) => ({ candidates: [], notes: [], best: layer.kind === 'conv' ? { impl: 'direct' } : { impl: 'naive' }, bestUs: 1, fallback: null }),
};

async function build(model: Uint8Array, batches: readonly number[]): Promise<{ network: CudaNetwork; weights: Uint8Array }> {
  const r = await buildCudaPlan({ model, precision: 'fp16' }, () => {}, { tuner: fakeTuner, batches });
  const decoded = decodeCudaPayload(readPlan(r.plan).payload);
  assert.ok(decoded !== undefined);
  return { network: decoded.network, weights: decoded.weights };
}

const kinds = (n: CudaNetwork): Set<string> => new Set(n.programs.flatMap((p) => p.layers.map((l) => l.kind)));

describe('detectors on the cuda target (CPU reference of the kernels vs onnxruntime)', () => {
  test('the bundled shapes detector compiles whole and finds the same objects', async () => {
    const model = new Uint8Array(await readFile(fileURLToPath(new URL('../../../../models/shapes/1/model.onnx', import.meta.url))));
    const { network, weights } = await build(model, [1, 2]);
    for (const kind of ['resize', 'gather', 'topk', 'ew', 'gather_elements']) assert.ok(kinds(network).has(kind), `a ${kind} layer`);
    assert.deepEqual(
      network.outputs.map((o) => o.datatype),
      ['FP32', 'FP32', 'INT32'],
    );
    const data = shapesSceneBatch([3, 8]);
    const [boxes, scores, classes] = runReference(network, weights, 2, 2, [data]) as [Float32Array, Float32Array, Int32Array];
    const ref = await runBytes(model, { image: { elemType: DT.FLOAT, dims: [2, 3, 120, 160], data } });
    const expected = { boxes: ref.boxes?.data as Float32Array, scores: ref.scores?.data as Float32Array, classes: ref.classes?.data as Int32Array };
    assert.ok(maxRelError(scores, expected.scores) < 2e-2, `scores: ${maxRelError(scores, expected.scores)}`);
    const { checked, missing } = missingDetections({ boxes, scores, classes }, expected, 2);
    assert.deepEqual(missing, []);
    assert.ok(checked >= 2, `the scenes hold objects (${checked} detections over 0.3)`);
  });

  test("the build's accuracy stage on the shapes detector: program checks and gates on the scores, not on the TopK-ranked boxes", async () => {
    const model = new Uint8Array(await readFile(fileURLToPath(new URL('../../../../models/shapes/1/model.onnx', import.meta.url))));
    // the plan side is the CPU reference of the kernels, the FP32 side onnxruntime
    const referenceRuntime: OfflineRuntime = {
      name: 'cuda-reference',
      version: '0',
      runnableTargets: ['cuda', 'ort-cpu'],
      optimize: (m, o) => runtime.optimize(m, o),
      async createSession(bytes, options) {
        if (options.target !== 'cuda') return runtime.createSession(bytes, options);
        const decoded = decodeCudaPayload(bytes);
        assert.ok(decoded !== undefined);
        const { network, weights } = decoded;
        return {
          inputNames: network.inputs.map((i) => i.name),
          outputNames: network.outputs.map((o) => o.name),
          async run(feeds) {
            const rows = feeds[network.inputs[0]?.name ?? '']?.dims[0] ?? 1;
            const batch = network.batches.find((b) => b >= rows) ?? network.maxBatch;
            const outs = runReference(
              network,
              weights,
              batch,
              rows,
              network.inputs.map((i) => Float32Array.from(feeds[i.name]?.data as Float32Array)),
            );
            const result: Record<string, { elemType: number; dims: number[]; data: Float32Array | Int32Array }> = {};
            network.outputs.forEach((o, k) => {
              result[o.name] = {
                elemType: o.datatype === 'INT32' ? DT.INT32 : DT.FLOAT,
                dims: [rows, ...o.rowShape],
                data: outs[k] as Float32Array | Int32Array,
              };
            });
            return result;
          },
          async release() {},
        };
      },
    };
    // real scenes as --validation (as on the CPU path). Checked element by element, the boxes of the 50 best
    // candidates gave cosine 0.963 here: FP16 swaps the ranks of nearly equal low-score candidates
    const dir = await mkdtemp(join(tmpdir(), 'rtserve-det-'));
    const validation = join(dir, 'scenes.npy');
    await writeFile(validation, writeNpy({ elemType: DT.FLOAT, dims: [4, 3, 120, 160], data: shapesSceneBatch([11, 12, 13, 14]) }));
    const r = await buildCudaPlan({ model, precision: 'fp16', validation }, () => {}, {
      tuner: fakeTuner,
      batches: [1, 2],
      accuracyRuntime: referenceRuntime,
    }).finally(() => rm(dir, { recursive: true, force: true }));
    assert.ok(
      r.report.warnings.some((w) => /boxes, classes are ranked by a TopK: the accuracy checks compare scores/.test(w)),
      r.report.warnings.join('\n'),
    );
    const checks = (r.report as CudaBuildReport).cuda.programChecks ?? [];
    assert.deepEqual(
      checks.map((c) => c.batch),
      [1, 2],
    );
    assert.ok(
      checks.every((c) => !c.outlier && c.relMaxError < 1e-2),
      JSON.stringify(checks),
    );
    assert.ok(r.report.accuracy?.passed === true, JSON.stringify(r.report.accuracy?.gates));
    assert.equal(r.report.accuracy?.dataSource, 'validation');
  });

  test('a YOLO-style network (SiLU, Pad, C2f, SPPF, nearest + bilinear Resize, heads, box decode)', async () => {
    const model = yoloStyleNet({ height: 64, width: 96, channels: 4, classes: 3 });
    const { network, weights } = await build(model, [1, 2]);
    for (const kind of ['resize', 'copy2d']) assert.ok(kinds(network).has(kind), `a ${kind} layer`);
    const layers = network.programs[0]?.layers ?? [];
    assert.ok(!layers.some((l) => l.kind === 'unary' && l.act.kind === 5), 'every SiLU is fused into its convolution');
    assert.ok(!kinds(network).has('pad'), 'the zero Pad is absorbed by the convolution after it');
    assert.ok(
      layers.some((l) => l.kind === 'conv' && l.pads.join(',') === '1,1,1,1' && l.strides[0] === 2 && l.r === 3 && l.c === 4),
      'that convolution pads by itself',
    );
    const data = randn(rng(5), 2 * 3 * 64 * 96, 1);
    const [got] = runReference(network, weights, 2, 2, [data]);
    const ref = await runBytes(model, { images: { elemType: DT.FLOAT, dims: [2, 3, 64, 96], data } });
    const e = ref.detections?.data as Float32Array;
    assert.ok(maxRelError(got as Float32Array, e) < 1e-2, `detections: ${maxRelError(got as Float32Array, e)}`);
  });

  test('a value computed from shapes and read as data is refused with its name', async () => {
    const b = new GraphBuilder({ opset: 17 });
    b.input('x', DT.FLOAT, ['N', 4]);
    b.init('zero', { elemType: DT.INT64, dims: [], data: BigInt64Array.of(0n) });
    b.node('Shape', ['x'], ['s']);
    b.node('Gather', ['s', 'zero'], ['n']);
    b.node('Cast', ['n'], ['nf'], { to: attr.int(DT.FLOAT) });
    b.node('Mul', ['x', 'nf'], ['y']);
    b.output('y', DT.FLOAT, ['N', 4]);
    await assert.rejects(build(b.bytes(), [1, 2]), /'nf' is computed from tensor shapes and read as data/);
  });

  test('Resize modes, Slice with steps, constant Pad, TopK, GatherElements, integer arithmetic and comparisons', async () => {
    const r = rng(21);
    const b = new GraphBuilder({ opset: 17 });
    b.input('x', DT.FLOAT, ['N', 4, 5, 6]);
    const f = (dims: number[], v: number[]) => ({ elemType: DT.FLOAT, dims, data: Float32Array.from(v) });
    const i64 = (v: number[], dims = [v.length]) => ({ elemType: DT.INT64, dims, data: BigInt64Array.from(v.map(BigInt)) });
    b.init('sc', f([4], [1, 1, 1.5, 2])).init('sc2', f([4], [1, 1, 2, 0.5]));
    b.node('Resize', ['x', '', 'sc'], ['r1'], { mode: attr.string('nearest') });
    b.node('Resize', ['x', '', 'sc'], ['r2'], { mode: attr.string('linear'), coordinate_transformation_mode: attr.string('align_corners') });
    b.node('Resize', ['x', '', 'sc2'], ['r3'], { mode: attr.string('linear'), coordinate_transformation_mode: attr.string('pytorch_half_pixel') });
    b.node('Resize', ['x', '', 'sc'], ['r4'], { mode: attr.string('nearest'), nearest_mode: attr.string('round_prefer_ceil') });
    b.output('r1', DT.FLOAT, ['N', 4, 7, 12])
      .output('r2', DT.FLOAT, ['N', 4, 7, 12])
      .output('r3', DT.FLOAT, ['N', 4, 10, 3])
      .output('r4', DT.FLOAT, ['N', 4, 7, 12]);
    b.init('s0', i64([-1, 1]))
      .init('s1', i64([-100, 6]))
      .init('sa', i64([3, 1]))
      .init('ss', i64([-2, 2]));
    b.node('Slice', ['x', 's0', 's1', 'sa', 'ss'], ['sl']);
    b.output('sl', DT.FLOAT, ['N', 3, 5, 3]);
    b.init('pd', i64([0, 1, 0, 2, 0, 0, 2, 1])).init('pv', f([], [0.25]));
    b.node('Pad', ['x', 'pd', 'pv'], ['pad']);
    b.output('pad', DT.FLOAT, ['N', 5, 7, 9]);
    b.init('flatShape', i64([0, -1])).init('k', i64([7]));
    b.node('Reshape', ['x', 'flatShape'], ['flat']);
    b.node('TopK', ['flat', 'k'], ['tv', 'ti']);
    b.node('TopK', ['flat', 'k'], ['bv', 'bi'], { largest: attr.int(0) });
    b.init('d', i64([6], [])).init('one', i64([1], []));
    b.node('Div', ['ti', 'd'], ['q']);
    b.node('Mod', ['ti', 'd'], ['m']);
    b.node('Greater', ['q', 'm'], ['gt']);
    b.node('Sub', ['m', 'one'], ['m1']);
    b.node('Where', ['gt', 'q', 'm1'], ['w']);
    b.node('Not', ['gt'], ['ng']);
    b.node('Cast', ['ng'], ['ngf'], { to: attr.int(DT.FLOAT) });
    b.node('Add', ['tv', 'ngf'], ['tvs']);
    b.node('Cast', ['w'], ['w32'], { to: attr.int(DT.INT32) });
    b.node('Unsqueeze', ['bi', 'one'], ['bi3']);
    b.node('Reshape', ['x', 'flatShape'], ['flat2']);
    b.node('Unsqueeze', ['flat2', 'one'], ['flat3']);
    b.node('GatherElements', ['flat3', 'bi3'], ['ge'], { axis: attr.int(2) });
    b.output('tvs', DT.FLOAT, ['N', 7]).output('bv', DT.FLOAT, ['N', 7]).output('w32', DT.INT32, ['N', 7]).output('ge', DT.FLOAT, ['N', 1, 7]);
    b.output('w', DT.INT64, ['N', 7]);
    const model = b.bytes();
    const { network, weights } = await build(model, [1, 3]);
    assert.equal(network.outputs.find((o) => o.name === 'w')?.datatype, 'INT32', 'an INT64 output is answered as INT32');
    const data = randn(r, 3 * 4 * 5 * 6, 1);
    const got = runReference(network, weights, 3, 3, [data]);
    const ref = await runBytes(model, { x: { elemType: DT.FLOAT, dims: [3, 4, 5, 6], data } });
    network.outputs.forEach((io, i) => {
      const e = ref[io.name]?.data as Float32Array | Int32Array | BigInt64Array;
      const a = got[i] as Float32Array | Int32Array;
      assert.equal(a.length, e.length, io.name);
      if (io.datatype === 'INT32') assert.deepEqual([...a].map(Number), [...e].map(Number), io.name);
      else if (e instanceof BigInt64Array) assert.fail(`${io.name}: INT64 reference for a float output`);
      else assert.ok(maxRelError(a, e) < 2e-3, `${io.name}: ${maxRelError(a, e)}`);
    });
  });
});
