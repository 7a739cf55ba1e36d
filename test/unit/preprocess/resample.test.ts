/**
 * The GPU kernel's resampling, written out in TypeScript (src/preprocess/resample.ts), against the CPU path (sharp)
 * on the same pixels: on the GPU machine the kernel matches this reference to one 8-bit step
 * (test/unit/engine/cuda/image-decoder.test.ts), so these bounds are how far GPU preprocessing is from the CPU path.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { planResize } from '../../../src/preprocess/decode.ts';
import { resampleRgb, type ResampleKernel } from '../../../src/preprocess/resample.ts';

function smooth(w: number, h: number): Uint8Array {
  const a = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let c = 0; c < 3; c++) a[(y * w + x) * 3 + c] = Math.round(127.5 + 120 * Math.sin(x / (7 + c * 3)) * Math.cos(y / (11 + c)));
  return a;
}

async function viaSharp(
  src: Uint8Array,
  w: number,
  h: number,
  W: number,
  H: number,
  mode: 'fill' | 'letterbox' | 'cover',
  kernel: ResampleKernel,
  pad: number,
) {
  const plan = planResize(w, h, { width: W, height: H, mode });
  let p = sharp(Buffer.from(src), { raw: { width: w, height: h, channels: 3 } }).resize(plan.resizeWidth, plan.resizeHeight, { fit: 'fill', kernel });
  const background = { r: pad, g: pad, b: pad };
  if (plan.extend !== undefined) p = p.extend({ ...plan.extend, background });
  if (plan.extract !== undefined) p = p.extract(plan.extract);
  const ref = new Uint8Array(await p.raw().toBuffer());
  const t = plan.transform;
  const mine = resampleRgb(
    src,
    w,
    h,
    { resizeWidth: plan.resizeWidth, resizeHeight: plan.resizeHeight, offsetX: t.offsetX, offsetY: t.offsetY },
    { width: W, height: H, kernel, padValue: [pad] },
  );
  assert.equal(mine.length, ref.length);
  let max = 0;
  let sum = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = Math.abs((ref[i] as number) - (mine[i] as number));
    max = Math.max(max, d);
    sum += d;
  }
  return { max, mean: sum / ref.length };
}

describe('resampleRgb (the GPU kernel arithmetic) against sharp', () => {
  test('camera-size downscales with every filtering kernel: within 3 levels, 0.25 on average', async () => {
    for (const [w, h] of [
      [640, 480],
      [320, 240],
      [500, 375],
    ] as const) {
      for (const kernel of ['linear', 'cubic', 'mitchell', 'lanczos3'] as const) {
        for (const mode of ['fill', 'cover'] as const) {
          const d = await viaSharp(smooth(w, h), w, h, 224, 224, mode, kernel, 0);
          assert.ok(d.max <= 3 && d.mean <= 0.25, `${w}x${h} ${mode} ${kernel}: max ${d.max} mean ${d.mean}`);
        }
      }
    }
  });

  test('letterbox of a 640×480 frame into 640×640: the pad bands and the frame exactly as sharp makes them', async () => {
    for (const kernel of ['linear', 'nearest', 'lanczos3'] as const) {
      const d = await viaSharp(smooth(640, 480), 640, 480, 640, 640, 'letterbox', kernel, 114);
      assert.equal(d.max, 0, kernel);
    }
  });
});
