/**
 * Detectors on the native CUDA engine (GPU machine only; skipped with the reason elsewhere): the bundled `shapes`
 * detector and a YOLO-style network at 640×480 are built with the real tuner and every batch program runs in
 * served order (the largest first, then the smaller ones) against onnxruntime CPU FP32.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { buildCudaPlan } from '../../../../src/compiler/cuda/build-cuda.ts';
import { loadCudaSession } from '../../../../src/engine/cuda/cuda-engine.ts';
import { loadCudaAddon } from '../../../../src/engine/cuda/addon.ts';
import type { CudaSession } from '../../../../src/engine/cuda/cuda-session.ts';
import { createCudaTuner } from '../../../../src/engine/cuda/tuner.ts';
import { readPlan } from '../../../../src/plan/format.ts';
import { DT } from '../../../../src/tensor/onnx-dtype.ts';
import { randn, rng, runBytes } from '../../compiler/helpers.ts';
import { maxRelError, missingDetections, shapesSceneBatch, yoloStyleNet, type Detections } from '../../compiler/detector-models.ts';
import { meanAveragePrecision, type ScoredBox } from '../../../../src/postprocess/average-precision.ts';
import { postprocessDetections } from '../../../../src/postprocess/detection.ts';
import { generateScene, sceneObjects } from '../../../../models/train/shapes-scene.ts';

const status = loadCudaAddon();
const skip = status.available ? false : `needs the native CUDA engine and a GPU: ${status.reason}`;

/** The `shapes` config's postprocess (class-aware NMS at 0.5, at most 50) at score 0.05: the whole precision-recall curve. */
function scoredBoxes(seeds: readonly number[], d: Detections): ScoredBox[] {
  const K = 50;
  const identity = { sourceWidth: 160, sourceHeight: 120, targetWidth: 160, targetHeight: 120, scaleX: 1, scaleY: 1, offsetX: 0, offsetY: 0 };
  const options = { boxFormat: 'xyxy' as const, normalized: false, scoreThreshold: 0.05, iouThreshold: 0.5, maxDetections: K, classAware: true };
  return seeds.flatMap((seed, b) => {
    const row = {
      boxes: Array.from(d.boxes).slice(b * K * 4, (b + 1) * K * 4),
      scores: Array.from(d.scores).slice(b * K, (b + 1) * K),
      classes: Array.from(d.classes).slice(b * K, (b + 1) * K),
      count: K,
    };
    return postprocessDetections(row, identity, options).map((x) => ({ image: seed, classId: x.classId, score: x.score, box: x.box }));
  });
}

async function build(model: Uint8Array, batches: number[], name: string): Promise<CudaSession> {
  const { tuner } = createCudaTuner();
  assert.ok(tuner !== undefined);
  const built = await buildCudaPlan({ model, precision: 'fp16' }, () => {}, { tuner, batches, tuneBudgetMs: 30_000 });
  return loadCudaSession(readPlan(built.plan).payload, name);
}

describe('detectors on the CUDA engine on the GPU', { skip }, () => {
  describe('shapes (CenterNet decode)', () => {
    let session: CudaSession;
    let model: Uint8Array;
    before(async () => {
      model = new Uint8Array(await readFile(fileURLToPath(new URL('../../../../models/shapes/1/model.onnx', import.meta.url))));
      session = await build(model, [1, 2, 4, 8, 16], 'shapes');
    });
    after(async () => {
      await session?.close();
    });

    test('every batch size, in served order, finds what onnxruntime FP32 finds', async () => {
      for (const n of [16, 1, 3, 8, 2, 16, 5]) {
        const data = shapesSceneBatch([...new Array<number>(n).keys()].map((b) => 100 + n * 17 + b));
        const got = await session.run([{ name: 'image', datatype: 'FP32', shape: [n, 3, 120, 160], data }], []);
        const ref = await runBytes(model, { image: { elemType: DT.FLOAT, dims: [n, 3, 120, 160], data } });
        const by = (name: string) => got.find((t) => t.name === name)?.data as Float32Array | Int32Array;
        assert.ok(by('classes') instanceof Int32Array, 'classes are INT32');
        const expected = {
          boxes: ref.boxes?.data as Float32Array,
          scores: ref.scores?.data as Float32Array,
          classes: ref.classes?.data as Int32Array,
        };
        const { missing } = missingDetections({ boxes: by('boxes'), scores: by('scores'), classes: by('classes') }, expected, n);
        assert.deepEqual(missing, [], `batch ${n}`);
      }
    });

    test('mAP@0.5 on the held-out check set (seeds 1..150) equals onnxruntime FP32 within 0.005', async () => {
      const seeds = Array.from({ length: 150 }, (_, i) => i + 1);
      const truths = seeds.flatMap((seed) => sceneObjects(generateScene(seed)).map((o) => ({ image: seed, classId: o.cls, box: o.box })));
      const gpu: ScoredBox[] = [];
      const cpu: ScoredBox[] = [];
      for (let from = 0; from < seeds.length; from += 16) {
        const part = seeds.slice(from, from + 16);
        const data = shapesSceneBatch(part);
        const input = { name: 'image', datatype: 'FP32' as const, shape: [part.length, 3, 120, 160], data };
        const got = await session.run([input], []);
        const ref = await runBytes(model, { image: { elemType: DT.FLOAT, dims: input.shape, data } });
        const by = (name: string) => got.find((t) => t.name === name)?.data as ArrayLike<number>;
        gpu.push(...scoredBoxes(part, { boxes: by('boxes'), scores: by('scores'), classes: by('classes') }));
        cpu.push(
          ...scoredBoxes(part, {
            boxes: ref.boxes?.data as Float32Array,
            scores: ref.scores?.data as Float32Array,
            classes: ref.classes?.data as Int32Array,
          }),
        );
      }
      const onGpu = meanAveragePrecision(gpu, truths, 0.5).map;
      const onCpu = meanAveragePrecision(cpu, truths, 0.5).map;
      console.log(`shapes mAP@0.5, 150 held-out scenes at 160x120: CUDA FP16 plan ${onGpu.toFixed(4)}, onnxruntime CPU FP32 ${onCpu.toFixed(4)}`);
      assert.ok(Math.abs(onGpu - onCpu) <= 0.005, `CUDA ${onGpu} vs onnxruntime ${onCpu}`);
      assert.ok(onCpu >= 0.98, `the reference itself: ${onCpu}`);
    });
  });

  describe('YOLO-style network at 640×480', () => {
    let session: CudaSession;
    const model = yoloStyleNet({ height: 480, width: 640, channels: 16, classes: 3 });
    before(async () => {
      session = await build(model, [1, 2, 4, 8], 'yolo-style');
    });
    after(async () => {
      await session?.close();
    });

    test('matches onnxruntime FP32 within 1e-2 at every batch size, in served order', async () => {
      for (const n of [8, 1, 3, 4, 2, 8]) {
        const data = randn(rng(500 + n), n * 3 * 480 * 640, 1);
        const [got] = await session.run([{ name: 'images', datatype: 'FP32', shape: [n, 3, 480, 640], data }], []);
        const ref = await runBytes(model, { images: { elemType: DT.FLOAT, dims: [n, 3, 480, 640], data } });
        const e = ref.detections?.data as Float32Array;
        const err = maxRelError(got?.data as Float32Array, e);
        assert.ok(err <= 1e-2, `batch ${n}: relative max error ${err}`);
      }
    });
  });
});
