import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { modelConfigSchema, type ModelConfigInput } from '../../../src/config/model-config.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { decodeImage, planResize } from '../../../src/preprocess/decode.ts';
import { imageSpecOf, type ImageSpec } from '../../../src/config/image-spec.ts';
import { sniffImageFormat } from '../../../src/preprocess/sniff.ts';
import { boxToSource } from '../../../src/postprocess/geometry.ts';

function specOf(w: number, h: number, preprocess: NonNullable<ModelConfigInput['preprocess']>, channels = 3): ImageSpec {
  const s = imageSpecOf(
    modelConfigSchema.parse({
      name: 'm',
      max_batch_size: 1,
      input: [{ name: 'x', data_type: 'TYPE_UINT8', dims: [h, w, channels], format: 'FORMAT_NHWC' }],
      preprocess,
    }),
  );
  assert.ok(s !== undefined);
  return s;
}

/** A raw RGB image where every pixel encodes its own coordinates: (x, y, 7). */
async function coordinateImage(w: number, h: number, format: 'png' | 'webp' = 'png'): Promise<Buffer> {
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) raw.set([x, y, 7], (y * w + x) * 3);
  const img = sharp(raw, { raw: { width: w, height: h, channels: 3 } });
  return format === 'png' ? img.png().toBuffer() : img.webp({ lossless: true }).toBuffer();
}

const px = (d: { pixels: Uint8Array; width: number; channels: number }, x: number, y: number): number[] => [
  ...d.pixels.subarray((y * d.width + x) * d.channels, (y * d.width + x + 1) * d.channels),
];

const badData =
  (pattern: RegExp) =>
  (err: unknown): boolean =>
    err instanceof RtError && err.code === 'BAD_DATA' && pattern.test(err.message);

describe('planResize', () => {
  test('fill stretches each axis on its own', () => {
    const p = planResize(640, 480, { width: 160, height: 160, mode: 'fill' });
    assert.deepEqual([p.resizeWidth, p.resizeHeight], [160, 160]);
    assert.equal(p.transform.scaleX, 0.25);
    assert.equal(p.transform.scaleY, 1 / 3);
  });
  test('letterbox keeps the aspect ratio and centres the image in padding', () => {
    const p = planResize(640, 480, { width: 160, height: 160, mode: 'letterbox' });
    assert.deepEqual([p.resizeWidth, p.resizeHeight], [160, 120]);
    assert.deepEqual(p.extend, { top: 20, bottom: 20, left: 0, right: 0 });
    assert.deepEqual(boxToSource([0, 20, 160, 140], p.transform), [0, 0, 640, 480]);
  });
  test('cover fills the target and crops the centre', () => {
    const p = planResize(640, 480, { width: 160, height: 160, mode: 'cover' });
    assert.deepEqual([p.resizeWidth, p.resizeHeight], [213, 160]);
    assert.deepEqual(p.extract, { left: 26, top: 0, width: 160, height: 160 });
    const [x1, , x2] = boxToSource([0, 0, 160, 160], p.transform);
    assert.ok(Math.abs(x1 - 26 * (640 / 213)) < 1e-9 && Math.abs(x2 - 186 * (640 / 213)) < 1e-9);
  });
  test('fit scales into the box and has no padding', () => {
    const p = planResize(1000, 500, { width: 300, height: 300, mode: 'fit' });
    assert.deepEqual([p.resizeWidth, p.resizeHeight, p.transform.targetWidth, p.transform.targetHeight], [300, 150, 300, 150]);
  });
});

describe('decodeImage', () => {
  test('fill with the nearest kernel samples the source pixels it should (PNG and WebP)', async () => {
    for (const format of ['png', 'webp'] as const) {
      const d = await decodeImage(await coordinateImage(40, 20, format), specOf(20, 10, { resize: { kernel: 'nearest' } }));
      assert.equal(d.format, format);
      assert.deepEqual([d.width, d.height, d.channels], [20, 10, 3]);
      // libvips samples at pixel centres: target pixel i reads source pixel floor((i + 0.5) · 2); the WebP loader
      // shrinks while decoding and may land one source pixel earlier.
      const near = (got: number[], want: number[]): void =>
        assert.ok(
          got.every((v, i) => Math.abs(v - (want[i] as number)) <= (format === 'png' ? 0 : 1)),
          `${format}: ${got.join(',')} vs ${want.join(',')}`,
        );
      near(px(d, 0, 0), [1, 1, 7]);
      near(px(d, 19, 9), [39, 19, 7]);
      assert.deepEqual([d.transform.sourceWidth, d.transform.sourceHeight], [40, 20]);
    }
  });

  test('letterbox pads with the pad value and puts the image in the middle', async () => {
    const d = await decodeImage(
      await coordinateImage(40, 20),
      specOf(20, 20, { resize: { mode: 'letterbox', kernel: 'nearest', pad_value: [9, 8, 7] } }),
    );
    assert.deepEqual(px(d, 0, 0), [9, 8, 7]);
    assert.deepEqual(px(d, 19, 4), [9, 8, 7]);
    assert.deepEqual(px(d, 0, 5), [1, 1, 7]);
    assert.deepEqual(px(d, 19, 14), [39, 19, 7]);
    assert.deepEqual(px(d, 0, 15), [9, 8, 7]);
    assert.equal(d.transform.offsetY, 5);
  });

  test('cover crops the centre', async () => {
    const d = await decodeImage(await coordinateImage(40, 20), specOf(10, 10, { resize: { mode: 'cover', kernel: 'nearest' } }));
    // 40x20 → 20x10, then columns 5..14 are kept
    assert.deepEqual(px(d, 0, 0), [11, 1, 7]);
    assert.deepEqual(px(d, 9, 9), [29, 19, 7]);
  });

  test('gray output has one channel; RGB output from a gray PNG has three', async () => {
    const gray = await sharp(Buffer.alloc(8 * 8, 200), { raw: { width: 8, height: 8, channels: 1 } })
      .png()
      .toBuffer();
    const g = await decodeImage(gray, specOf(4, 4, { color: 'gray' }, 1));
    assert.equal(g.channels, 1);
    assert.deepEqual([...g.pixels], new Array(16).fill(200));
    const c = await decodeImage(gray, specOf(4, 4, {}));
    assert.equal(c.channels, 3);
    assert.deepEqual(px(c, 1, 1), [200, 200, 200]);
  });

  test('transparent pixels become black rather than their stored colour', async () => {
    const rgba = Buffer.alloc(4 * 4 * 4);
    for (let i = 0; i < 16; i++) rgba.set([255, 255, 255, 0], i * 4);
    const d = await decodeImage(
      await sharp(rgba, { raw: { width: 4, height: 4, channels: 4 } })
        .png()
        .toBuffer(),
      specOf(4, 4, {}),
    );
    assert.deepEqual([...d.pixels], new Array(48).fill(0));
  });

  test('EXIF orientation is applied before resizing (the transform uses the upright size)', async () => {
    const jpeg = await sharp(await coordinateImage(40, 20))
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const d = await decodeImage(jpeg, specOf(10, 20, { resize: { kernel: 'nearest' } }));
    assert.deepEqual([d.transform.sourceWidth, d.transform.sourceHeight], [20, 40]);
  });

  test('corrupt, truncated, unsupported, empty and oversized images are BAD_DATA naming the problem', async () => {
    const spec = specOf(8, 8, {});
    const jpeg = await sharp(await coordinateImage(64, 64))
      .jpeg()
      .toBuffer();
    await assert.rejects(decodeImage(jpeg.subarray(0, jpeg.length / 2), spec), badData(/^corrupt jpeg image: .+/));
    await assert.rejects(decodeImage(Buffer.from([0xff, 0xd8, 0xff, 0, 1, 2, 3]), spec), badData(/^corrupt jpeg image/));
    const png = await coordinateImage(8, 8);
    const broken = Buffer.from(png);
    broken.fill(0, 40, 60);
    await assert.rejects(decodeImage(broken, spec), badData(/^corrupt png image/));
    await assert.rejects(
      decodeImage(Buffer.from('GIF89a\x01\x00\x01\x00'), spec),
      badData(/unsupported image format 'gif' \(model 'm' accepts jpeg, png, webp\)/),
    );
    await assert.rejects(decodeImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), spec), badData(/unsupported image format 'svg'/));
    await assert.rejects(decodeImage(Buffer.from('hello, world'), spec), badData(/not a supported image: unrecognised bytes/));
    await assert.rejects(decodeImage(new Uint8Array(0), spec), badData(/empty/));
    await assert.rejects(decodeImage(png, specOf(8, 8, { formats: ['jpeg'] })), badData(/unsupported image format 'png' \(model 'm' accepts jpeg\)/));
    await assert.rejects(
      decodeImage(await coordinateImage(100, 100), specOf(8, 8, { max_pixels: 5000 })),
      badData(/100x100 = 10000 pixels, over the limit of 5000/),
    );
  });
});

describe('sniffImageFormat', () => {
  test('recognises formats by their signatures', () => {
    assert.equal(sniffImageFormat(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), 'jpeg');
    assert.equal(sniffImageFormat(Buffer.from('\x89PNG\r\n\x1a\n....', 'latin1')), 'png');
    assert.equal(sniffImageFormat(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), 'webp');
    assert.equal(sniffImageFormat(Buffer.from('\0\0\0\x1cftypavif')), 'avif');
    assert.equal(sniffImageFormat(Buffer.from('\0\0\0\x1cftypheic')), 'heif');
    assert.equal(sniffImageFormat(Buffer.from('II*\0')), 'tiff');
    assert.equal(sniffImageFormat(Buffer.from('BM....')), 'bmp');
    assert.equal(sniffImageFormat(Buffer.from('%PDF-1.7')), 'pdf');
    assert.equal(sniffImageFormat(Buffer.from('  <?xml version="1.0"?><svg>')), 'svg');
    assert.equal(sniffImageFormat(Buffer.from('RIFF\0\0\0\0WAVE')), undefined);
    assert.equal(sniffImageFormat(new Uint8Array(0)), undefined);
  });
});
