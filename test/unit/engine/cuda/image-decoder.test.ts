/**
 * The GPU image path (issue #19) on the GPU: nvJPEG batched decode and the preprocess kernel, checked against the CPU
 * reference (src/preprocess/resample.ts, the same arithmetic; itself checked against sharp in CI) and against PIL's
 * decode of the same JPEGs (fixtures written on the GPU machine by bench/cuda/jpeg_fixtures.py, RTSERVE_JPEG_FIXTURES).
 * Skipped with the reason where the addon or a GPU is missing (CI); on the GPU machine every test must run.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildCudaPlan } from '../../../../src/compiler/cuda/build-cuda.ts';
import { imageSpecOf, type ImageSpec } from '../../../../src/config/image-spec.ts';
import { modelConfigSchema } from '../../../../src/config/model-config.ts';
import { loadCudaAddon } from '../../../../src/engine/cuda/addon.ts';
import { loadCudaSession } from '../../../../src/engine/cuda/cuda-engine.ts';
import type { CudaSession } from '../../../../src/engine/cuda/cuda-session.ts';
import { CudaFrameDecoder, type GpuFrame } from '../../../../src/engine/cuda/image-decoder.ts';
import { runFramesOnSession } from '../../../../src/engine/cuda/image-run.ts';
import { createCudaTuner } from '../../../../src/engine/cuda/tuner.ts';
import type { CudaTuner } from '../../../../src/plan/cuda-tuning.ts';
import { readPlan } from '../../../../src/plan/format.ts';
import { planResize } from '../../../../src/preprocess/decode.ts';
import { referenceFrameDecoder } from '../../../../src/preprocess/frame-decoder.ts';
import { FrameBatcher } from '../../../../src/preprocess/frame-batcher.ts';
import { RtError } from '../../../../src/errors/registry.ts';
import { halfBitsToFloat } from '../../../../src/tensor/half.ts';
import { tinyConvNet } from '../../compiler/models.ts';

const status = loadCudaAddon();
const skip = !status.available
  ? `needs the native CUDA engine and a GPU: ${status.reason}`
  : status.addon.decodeImages === undefined
    ? 'this build of the CUDA addon has no image path'
    : false;
const fixtures = process.env.RTSERVE_JPEG_FIXTURES;

/** An image spec from a minimal model config (the way the server compiles one). */
function specFor(pre: Record<string, unknown>, dims: number[], dataType = 'TYPE_FP32', format?: string): ImageSpec {
  const config = modelConfigSchema.parse({
    name: 'm',
    max_batch_size: 8,
    input: [{ name: 'x', data_type: dataType, dims, ...(format === undefined ? {} : { format }) }],
    output: [{ name: 'y', data_type: 'TYPE_FP32', dims: [5] }],
    preprocess: pre,
  });
  return imageSpecOf(config) as ImageSpec;
}

function frame(bytes: Uint8Array, encoded: boolean, w: number, h: number, spec: ImageSpec): GpuFrame {
  const p = planResize(w, h, spec);
  return {
    bytes,
    encoded,
    width: w,
    height: h,
    place: { resizeWidth: p.resizeWidth, resizeHeight: p.resizeHeight, offsetX: p.transform.offsetX, offsetY: p.transform.offsetY },
  };
}

/** Smooth colour fields plus noise: what cameras see, with edges the filters must agree on. */
function rawFrame(w: number, h: number, seed: number): Uint8Array {
  const a = new Uint8Array(w * h * 3);
  let s = seed;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < 3; c++) {
        s = (s * 1103515245 + 12345) & 0x7fffffff;
        const base = 127.5 + 100 * Math.sin(x / (5 + 4 * c)) * Math.cos(y / (7 + c));
        a[(y * w + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(base + ((s >> 16) % 41) - 20)));
      }
    }
  }
  return a;
}

function values(data: ArrayLike<number>, dtype: string): Float64Array {
  const out = new Float64Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = dtype === 'FP16' ? halfBitsToFloat(data[i] as number) : (data[i] as number);
  return out;
}

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): { max: number; mean: number } {
  assert.equal(a.length, b.length);
  let max = 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs((a[i] as number) - (b[i] as number));
    max = Math.max(max, d);
    sum += d;
  }
  return { max, mean: sum / a.length };
}

describe('GPU image path on the GPU', { skip }, () => {
  let decoder: CudaFrameDecoder;
  before(() => {
    if (!status.available) return;
    decoder = CudaFrameDecoder.create(status.addon);
    console.log('decoder', JSON.stringify(decoder.info));
  });

  test('raw frames: the kernel gives the CPU reference rows (every resize mode, kernel, layout, dtype, colour order)', async () => {
    const cases: { pre: Record<string, unknown>; dims: number[]; type?: string; format?: string }[] = [
      { pre: { resize: { mode: 'fill' }, mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] }, dims: [3, 224, 224] },
      { pre: { resize: { mode: 'letterbox', pad_value: [114] } }, dims: [3, 64, 64] },
      { pre: { resize: { mode: 'cover', kernel: 'cubic' }, color: 'bgr' }, dims: [3, 48, 40], type: 'TYPE_FP16' },
      { pre: { resize: { mode: 'fill', kernel: 'nearest' } }, dims: [40, 56, 3], type: 'TYPE_UINT8', format: 'FORMAT_NHWC' },
      { pre: { resize: { mode: 'fill', kernel: 'lanczos3' }, scale: 1, mean: [100], std: [50] }, dims: [32, 32, 3], format: 'FORMAT_NHWC' },
      { pre: { resize: { mode: 'letterbox', kernel: 'mitchell', pad_value: [1, 2, 3] } }, dims: [3, 100, 300], type: 'TYPE_FP16' },
    ];
    for (const c of cases) {
      const spec = specFor(c.pre, c.dims, c.type, c.format);
      const frames = [
        frame(rawFrame(640, 480, 1), false, 640, 480, spec),
        frame(rawFrame(97, 53, 2), false, 97, 53, spec),
        frame(rawFrame(320, 240, 3), false, 320, 240, spec),
      ];
      const gpu = await decoder.decode(frames, spec);
      const ref = await referenceFrameDecoder.decode(frames, spec);
      assert.ok(
        gpu.statuses.every((s) => s.ok && s.backend === 'raw'),
        JSON.stringify(gpu.statuses),
      );
      const d = maxDiff(values(gpu.rows, spec.dtype), values(ref.rows, spec.dtype));
      // One 8-bit step of the resized pixel (float summation order), through the normalization, plus FP16 rounding.
      const step =
        (spec.dtype === 'UINT8' ? 1 : spec.scale / Math.min(...spec.std)) +
        (spec.dtype === 'FP16' ? 4e-3 * Math.max(1, Math.abs(255 * spec.scale)) : 1e-5);
      console.log(
        `raw ${JSON.stringify(c.pre)} ${spec.dtype} ${spec.layout}: max ${d.max.toExponential(3)} mean ${d.mean.toExponential(3)} (bound ${step.toExponential(3)})`,
      );
      assert.ok(d.max <= step, `max diff ${d.max} > ${step}`);
    }
  });

  test('a large batch (rows over 4 MiB come back through pinned memory on several threads) gives every row right', async () => {
    const spec = specFor({ resize: { mode: 'fill' }, mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] }, [3, 224, 224]);
    const frames = Array.from({ length: 48 }, (_, i) => frame(rawFrame(160 + i, 120, 10 + i), false, 160 + i, 120, spec));
    const gpu = await decoder.decode(frames, spec);
    assert.ok(gpu.rows.byteLength > 4 << 20);
    const per = 3 * 224 * 224;
    for (const i of [0, 17, 47]) {
      const ref = await referenceFrameDecoder.decode([frames[i] as GpuFrame], spec);
      const d = maxDiff(gpu.rows.subarray(i * per, (i + 1) * per), ref.rows);
      assert.ok(d.max <= 1 / 255 / 0.224 + 1e-5, `row ${i}: ${d.max}`);
    }
  });

  test('a batch keeps going past bad frames: each gets its own status', async () => {
    const spec = specFor({ resize: { mode: 'fill' }, max_pixels: 100_000 }, [3, 32, 32]);
    const good = rawFrame(64, 48, 5);
    const frames = [
      frame(good, false, 64, 48, spec),
      frame(new Uint8Array(10), false, 64, 48, spec), // wrong size
      frame(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]), true, 64, 48, spec), // not a JPEG nvJPEG can read
      frame(rawFrame(400, 300, 6), false, 400, 300, spec), // over max_pixels
      frame(good, false, 64, 48, spec),
    ];
    const gpu = await decoder.decode(frames, spec);
    assert.deepEqual(
      gpu.statuses.map((s) => (s.ok ? 'ok' : s.code === 'unsupported' ? 'corrupt' : s.code)),
      ['ok', 'corrupt', 'corrupt', 'too-large', 'ok'],
      JSON.stringify(gpu.statuses),
    );
    const ref = await referenceFrameDecoder.decode([frames[0] as GpuFrame], spec);
    const per = 3 * 32 * 32;
    assert.ok(maxDiff(gpu.rows.subarray(0, per), ref.rows).max <= 1 / 255 + 1e-6);
    assert.ok(maxDiff(gpu.rows.subarray(4 * per, 5 * per), ref.rows).max <= 1 / 255 + 1e-6);
  });

  describe('JPEG fixtures (bench/cuda/jpeg_fixtures.py)', { skip: fixtures === undefined ? 'RTSERVE_JPEG_FIXTURES is not set' : false }, () => {
    const dir = fixtures ?? '';
    const index = (): { frames: { name: string; kind: string; width: number; height: number; ref?: string; subsampling?: string }[] } =>
      JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
    const bytesOf = (name: string): Uint8Array => new Uint8Array(readFileSync(join(dir, `${name}.jpg`)));

    test('nvJPEG decodes baseline and progressive JPEGs as libjpeg-turbo (PIL) does, in one batch', async () => {
      const list = index().frames.filter((f) => f.ref !== undefined && f.kind !== 'grayscale');
      for (const f of list) {
        const spec = specFor({ resize: { mode: 'fill' }, scale: 1 }, [f.height, f.width, 3], 'TYPE_UINT8', 'FORMAT_NHWC');
        const got = await decoder.decode([frame(bytesOf(f.name), true, f.width, f.height, spec)], spec);
        const s = got.statuses[0];
        assert.ok(s?.ok, `${f.name}: ${JSON.stringify(s)}`);
        const ref = new Uint8Array(readFileSync(join(dir, f.ref as string)));
        const d = maxDiff(got.rows, ref);
        console.log(`decode ${f.name} (${f.kind}, ${f.subsampling}) via ${s?.backend}: max ${d.max} mean ${d.mean.toFixed(3)}`);
        if (f.subsampling === '444') assert.ok(d.max <= 2, `${f.name}: max diff ${d.max} from libjpeg-turbo`);
        // Chroma upsampling of 4:2:0 differs between decoders at colour edges; smooth frames must agree on average.
        if (!f.name.startsWith('texture')) assert.ok(d.mean <= 1.5, `${f.name}: mean diff ${d.mean} from libjpeg-turbo`);
      }
      // All of them in one batch: the same pixels as one by one.
      const spec = specFor({ resize: { mode: 'fill' } }, [3, 224, 224]);
      const frames = list.map((f) => frame(bytesOf(f.name), true, f.width, f.height, spec));
      const batch = await decoder.decode(frames, spec);
      for (const [i, f] of frames.entries()) {
        const one = await decoder.decode([f], spec);
        const per = 3 * 224 * 224;
        assert.ok(maxDiff(batch.rows.subarray(i * per, (i + 1) * per), one.rows).max <= 2 / 255 + 1e-6, `frame ${i} differs batched`);
      }
      console.log('batched backends', batch.statuses.map((s) => s.backend).join(','));
    });

    test('JPEG → 224×224 on the GPU matches the CPU arithmetic on libjpeg-turbo pixels within 2/255 before normalization', async () => {
      const spec = specFor({ resize: { mode: 'fill' }, scale: 1 }, [224, 224, 3], 'TYPE_UINT8', 'FORMAT_NHWC');
      for (const f of index().frames.filter((x) => x.ref !== undefined && x.kind !== 'grayscale')) {
        const fr = frame(bytesOf(f.name), true, f.width, f.height, spec);
        const gpu = await decoder.decode([fr], spec);
        const pixels = new Uint8Array(readFileSync(join(dir, f.ref as string)));
        const ref = await referenceFrameDecoder.decode([{ ...fr, bytes: pixels, encoded: false }], spec);
        const d = maxDiff(gpu.rows, ref.rows);
        console.log(`resize ${f.name} ${f.width}x${f.height} → 224x224: max ${d.max} mean ${d.mean.toFixed(3)}`);
        if (f.subsampling === '444') assert.ok(d.max <= 2, `${f.name}: ${d.max}`);
        if (!f.name.startsWith('texture')) assert.ok(d.mean <= 1, `${f.name}: mean ${d.mean}`);
      }
    });

    test('bad and unusual JPEGs: per-frame statuses in a batch, the good frames decoded; the frame batcher routes and refuses per frame', async () => {
      const all = index().frames;
      const spec = specFor({ resize: { mode: 'fill' } }, [3, 64, 64]);
      const frames = all.map((f) => frame(bytesOf(f.name), true, f.width || 1, f.height || 1, spec));
      const got = await decoder.decode(frames, spec);
      const by = new Map(all.map((f, i) => [f.name, got.statuses[i]]));
      console.log('statuses', JSON.stringify(Object.fromEntries(by)));
      assert.equal(by.get('cmyk')?.code, 'unsupported');
      assert.equal(by.get('corrupt')?.ok, false);
      for (const name of ['smooth-444', 'smooth-420', 'progressive-420', 'texture-420-224', 'odd-size']) assert.ok(by.get(name)?.ok, name);
      assert.equal(by.get('progressive-420')?.backend, 'gpu');

      const batcher = new FrameBatcher(decoder, { cpu: () => Promise.reject(new Error('CPU path called')) });
      const results = await Promise.allSettled(
        ['smooth-420', 'corrupt', 'progressive-420', 'smooth-444'].map((n) => batcher.toTensor(bytesOf(n), spec, 'm', undefined) as Promise<unknown>),
      );
      assert.deepEqual(
        results.map((r) => r.status),
        ['fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
      );
      const err = (results[1] as PromiseRejectedResult).reason;
      assert.ok(err instanceof RtError && err.code === 'BAD_DATA', String(err));
      assert.equal(batcher.counts.largestBatch, 3, 'the three decodable frames formed one decode batch');
    });
  });

  describe('frames straight into a CUDA plan (runImages)', () => {
    let session: CudaSession;
    before(async () => {
      const { tuner } = createCudaTuner();
      assert.ok(tuner !== undefined);
      const built = await buildCudaPlan({ model: tinyConvNet(), precision: 'fp16' }, () => {}, { tuner, batches: [1, 2, 4, 8] });
      session = await loadCudaSession(readPlan(built.plan).payload, 'tiny conv net');
    });
    after(async () => {
      await session?.close();
    });

    test('decoded into the arena, the plan gives what it gives for the CPU reference rows', async () => {
      const spec = specFor({ input: 'x', resize: { mode: 'letterbox', pad_value: [114] }, mean: [0.5], std: [0.25] }, [3, 8, 8]);
      const frames = [1, 2, 3, 4, 5].map((i) => frame(rawFrame(40 + 7 * i, 30 + 3 * i, i), false, 40 + 7 * i, 30 + 3 * i, spec));
      const direct = await runFramesOnSession(session, decoder, frames, spec);
      assert.ok(direct.statuses.every((s) => s.ok));
      const ref = await referenceFrameDecoder.decode(frames, spec);
      const [viaHost] = await session.run([{ name: 'x', datatype: 'FP32', shape: [5, 3, 8, 8], data: ref.rows as Float32Array }], ['logits']);
      const got = direct.outputs.find((o) => o.name === 'logits');
      const d = maxDiff(got?.data as Float32Array, viaHost?.data as Float32Array);
      let mag = 0;
      for (const v of viaHost?.data as Float32Array) mag = Math.max(mag, Math.abs(v));
      console.log(`runImages vs run(reference rows): max ${d.max.toExponential(3)} of ${mag.toExponential(3)}`);
      assert.ok(d.max <= 1e-2 * Math.max(mag, 1e-3));
    });

    test('a session loaded with its image spec takes encoded frames (frameInput, runFrames): rows as runImages gives, a corrupt frame fails only its row', async (t) => {
      if (fixtures === undefined) return t.skip('RTSERVE_JPEG_FIXTURES is not set');
      const spec = specFor({ input: 'x', resize: { mode: 'letterbox', pad_value: [114] }, mean: [0.5], std: [0.25] }, [3, 8, 8]);
      const built = await buildCudaPlan({ model: tinyConvNet(), precision: 'fp16' }, () => {}, {
        tuner: createCudaTuner().tuner as CudaTuner,
        batches: [1, 2, 4, 8],
      });
      const withSpec = await loadCudaSession(readPlan(built.plan).payload, 'tiny conv net', 0, spec);
      try {
        assert.equal(withSpec.frameInput, 'x');
        const list = (
          JSON.parse(readFileSync(join(fixtures, 'index.json'), 'utf8')) as {
            frames: { name: string; kind: string; width: number; height: number }[];
          }
        ).frames
          .filter((f) => f.kind === 'baseline')
          .slice(0, 3);
        assert.ok(list.length >= 2, 'baseline fixtures');
        const jpegs = list.map((f) => new Uint8Array(readFileSync(join(fixtures, `${f.name}.jpg`))));
        const gpu = list.map((f, i) => frame(jpegs[i] as Uint8Array, true, f.width, f.height, spec));
        const corrupt = frame(new Uint8Array(readFileSync(join(fixtures, 'corrupt.jpg'))), true, 1, 1, spec);
        const encoded = [...gpu, corrupt].map((f) => ({ ...f.place, width: f.width, height: f.height, bytes: f.bytes }));
        const run = await withSpec.runFrames(encoded, ['logits']);
        assert.deepEqual(
          run.failures.map((f) => f?.code ?? 'ok'),
          [...gpu.map(() => 'ok'), 'corrupt'],
        );
        const direct = await runFramesOnSession(withSpec, decoder, gpu, spec);
        const got = run.outputs.find((o) => o.name === 'logits')?.data as Float32Array;
        const want = direct.outputs.find((o) => o.name === 'logits')?.data as Float32Array;
        assert.equal(maxDiff(got.subarray(0, want.length), want).max, 0);
      } finally {
        await withSpec.close();
      }
    });
  });
});
