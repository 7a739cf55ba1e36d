import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { halfBitsToFloat } from '../../../src/tensor/half.ts';
import { convertPixels, stopPixelWorker } from '../../../src/preprocess/pixel-pool.ts';
import { INLINE_ELEMENT_LIMIT, pixelsToTensor, type PixelConversion } from '../../../src/preprocess/to-tensor.ts';

// 2x2 RGB image: pixel p has channels (10p + 1, 10p + 2, 10p + 3).
const pixels = Uint8Array.from([1, 2, 3, 11, 12, 13, 21, 22, 23, 31, 32, 33]);
const conv = (over: Partial<PixelConversion>): PixelConversion => ({
  width: 2,
  height: 2,
  channels: 3,
  layout: 'NCHW',
  dtype: 'FP32',
  bgr: false,
  scale: 1,
  mean: [0, 0, 0],
  std: [1, 1, 1],
  ...over,
});

after(() => stopPixelWorker());

describe('pixelsToTensor', () => {
  test('NCHW puts each channel in its own plane; NHWC keeps pixels interleaved', () => {
    assert.deepEqual([...pixelsToTensor(pixels, conv({}))], [1, 11, 21, 31, 2, 12, 22, 32, 3, 13, 23, 33]);
    assert.deepEqual([...pixelsToTensor(pixels, conv({ layout: 'NHWC' }))], [...pixels]);
  });

  test('BGR reverses the channel order in either layout', () => {
    assert.deepEqual([...pixelsToTensor(pixels, conv({ bgr: true }))], [3, 13, 23, 33, 2, 12, 22, 32, 1, 11, 21, 31]);
    assert.deepEqual([...pixelsToTensor(pixels, conv({ bgr: true, layout: 'NHWC' }))], [3, 2, 1, 13, 12, 11, 23, 22, 21, 33, 32, 31]);
  });

  test('normalizes as (pixel · scale − mean[c]) / std[c], with mean and std in the output channel order', () => {
    const out = pixelsToTensor(pixels, conv({ scale: 1 / 255, mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] }));
    assert.ok(out instanceof Float32Array);
    const want = (v: number, c: number): number => (v / 255 - [0.485, 0.456, 0.406][c]!) / [0.229, 0.224, 0.225][c]!;
    assert.ok(Math.abs(out[0]! - want(1, 0)) < 1e-6);
    assert.ok(Math.abs(out[4]! - want(2, 1)) < 1e-6);
    assert.ok(Math.abs(out[11]! - want(33, 2)) < 1e-6);
    // BGR: the first plane is the blue channel, normalized with mean[0] / std[0] of the output order
    const bgr = pixelsToTensor(pixels, conv({ bgr: true, scale: 1, mean: [100, 0, 0], std: [2, 1, 1] }));
    assert.equal(bgr[0], (3 - 100) / 2);
  });

  test('FP16 holds the same values as half-precision bits; UINT8 passes pixels through', () => {
    const half = pixelsToTensor(pixels, conv({ dtype: 'FP16', scale: 1 / 255 }));
    assert.ok(half instanceof Uint16Array);
    assert.ok(Math.abs(halfBitsToFloat(half[1]!) - 11 / 255) < 1e-3);
    const u8 = pixelsToTensor(pixels, conv({ dtype: 'UINT8' }));
    assert.ok(u8 instanceof Uint8Array);
    assert.deepEqual([...u8], [1, 11, 21, 31, 2, 12, 22, 32, 3, 13, 23, 33]);
  });

  test('gray images have one plane', () => {
    assert.deepEqual(
      [...pixelsToTensor(Uint8Array.from([0, 255]), conv({ width: 2, height: 1, channels: 1, scale: 1 / 255, mean: [0], std: [1] }))],
      [0, 1],
    );
  });

  test('a pixel buffer of the wrong size is refused', () => {
    assert.throws(() => pixelsToTensor(pixels.subarray(1), conv({})), RangeError);
  });
});

describe('convertPixels', () => {
  test('large images are converted in the worker with the same result as inline', async () => {
    const w = 512;
    const h = 256;
    assert.ok(w * h * 3 > INLINE_ELEMENT_LIMIT);
    const big = Uint8Array.from({ length: w * h * 3 }, (_, i) => (i * 7) % 256);
    const c = conv({ width: w, height: h, scale: 1 / 255, mean: [0.5, 0.4, 0.3], std: [0.2, 0.3, 0.4] });
    const want = pixelsToTensor(big, c);
    const got = await convertPixels(big.slice(), c);
    assert.ok(got instanceof Float32Array);
    assert.deepEqual(got, want);
    // several at once
    const many = await Promise.all([1, 2, 3].map(() => convertPixels(big.slice(), c)));
    for (const m of many) assert.deepEqual(m, want);
  });

  test('small images are converted inline', async () => {
    assert.deepEqual([...(await convertPixels(pixels, conv({})))], [1, 11, 21, 31, 2, 12, 22, 32, 3, 13, 23, 33]);
  });
});
