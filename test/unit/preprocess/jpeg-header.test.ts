import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { readJpegHeader, routeJpeg } from '../../../src/preprocess/jpeg-header.ts';

const rgb = (w: number, h: number): Buffer => Buffer.from(Uint8Array.from({ length: w * h * 3 }, (_, i) => (i * 37) % 256));
const raw = (w: number, h: number) => sharp(rgb(w, h), { raw: { width: w, height: h, channels: 3 } });

describe('readJpegHeader / routeJpeg', () => {
  test('baseline and progressive YCbCr JPEGs go to the GPU with their size', async () => {
    for (const progressive of [false, true]) {
      const jpeg = await raw(37, 21).jpeg({ progressive }).toBuffer();
      const r = routeJpeg(jpeg);
      assert.equal(r.to, 'gpu');
      const h = r.to === 'gpu' ? r.header : undefined;
      assert.deepEqual(
        [h?.width, h?.height, h?.components, h?.precision, h?.process, h?.orientation],
        [37, 21, 3, 8, progressive ? 'progressive' : 'baseline', 1],
      );
    }
  });

  test('grayscale, CMYK and EXIF-rotated JPEGs go to the CPU decoder, saying why', async () => {
    const gray = await raw(16, 16).toColourspace('b-w').jpeg().toBuffer();
    const cmyk = await raw(16, 16).toColourspace('cmyk').jpeg().toBuffer();
    const rotated = await raw(30, 20).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    assert.deepEqual(routeJpeg(gray), { to: 'cpu', why: 'grayscale' });
    const c = routeJpeg(cmyk);
    assert.equal(c.to, 'cpu');
    assert.match(c.to === 'cpu' ? c.why : '', /4 components/);
    assert.deepEqual(routeJpeg(rotated), { to: 'cpu', why: 'EXIF orientation 6' });
    const h = readJpegHeader(rotated);
    assert.ok(h.ok && h.header.orientation === 6 && h.header.width === 30);
  });

  test('broken streams are refused with the reason, never thrown', async () => {
    const jpeg = await raw(40, 30).jpeg().toBuffer();
    const cut = jpeg.subarray(0, 30); // inside the headers, before the frame header
    assert.deepEqual(routeJpeg(cut), { to: 'error', message: 'truncated JPEG: the data ends before the frame header' });
    assert.deepEqual(routeJpeg(new Uint8Array([1, 2, 3, 4])), { to: 'error', message: 'not a JPEG (no start-of-image marker)' });
    const garbage = new Uint8Array([0xff, 0xd8, 0x12, 0x34, 0x56]);
    assert.equal(routeJpeg(garbage).to, 'error');
    assert.match(readJpegHeader(new Uint8Array([0xff, 0xd8, 0xff, 0xd9])).ok ? '' : 'end of image', /end of image/);
    const zeroSize = Buffer.from(jpeg);
    const sof = zeroSize.indexOf(Buffer.from([0xff, 0xc0]));
    zeroSize.writeUInt16BE(0, sof + 5); // height 0
    const z = routeJpeg(zeroSize);
    assert.equal(z.to, 'error');
    assert.match(z.to === 'error' ? z.message : '', /frame header says 40x0/);
  });
});
