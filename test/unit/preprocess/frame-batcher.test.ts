/**
 * The frame batcher (issue #19) over the CPU reference decoder, the same contract the GPU decoder implements: what
 * goes to the device, what falls back to the CPU path, what is refused, and how frames form one decode batch.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { imageSpecOf, type ImageSpec } from '../../../src/config/image-spec.ts';
import { modelConfigSchema } from '../../../src/config/model-config.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { FrameBatcher } from '../../../src/preprocess/frame-batcher.ts';
import { referenceFrameDecoder, type FrameDecoder, type FrameItem } from '../../../src/preprocess/frame-decoder.ts';
import { imageToTensor, type ImageTensor } from '../../../src/preprocess/image-pipeline.ts';

function specOf(pre: Record<string, unknown> = {}): ImageSpec {
  return imageSpecOf(
    modelConfigSchema.parse({
      name: 'cam',
      max_batch_size: 8,
      input: [{ name: 'image', data_type: 'TYPE_FP32', dims: [3, 48, 64] }],
      output: [{ name: 'y', data_type: 'TYPE_FP32', dims: [2] }],
      preprocess: { resize: { mode: 'fill' }, ...pre },
    }),
  ) as ImageSpec;
}

function pixels(w: number, h: number, seed: number): Buffer {
  return Buffer.from(Uint8Array.from({ length: w * h * 3 }, (_, i) => Math.round(127 + 100 * Math.sin(i / (50 + seed)))));
}
const raw = (w: number, h: number, seed = 1) => sharp(pixels(w, h, seed), { raw: { width: w, height: h, channels: 3 } });

/** The reference decoder, with the batches it was given recorded. */
function recording(): { decoder: FrameDecoder; batches: FrameItem[][] } {
  const batches: FrameItem[][] = [];
  return {
    batches,
    decoder: {
      name: 'recorded',
      decodesJpeg: true,
      decode: (items, spec) => {
        batches.push([...items]);
        return referenceFrameDecoder.decode(items, spec);
      },
    },
  };
}

const cpuCalls: string[] = [];
const cpu = (bytes: Uint8Array, spec: ImageSpec) => {
  cpuCalls.push(String(bytes.length));
  return imageToTensor(bytes, spec);
};

describe('FrameBatcher', () => {
  test('frames submitted in one turn form one decode batch; each gets its own row as a [1, C, H, W] tensor', async () => {
    const { decoder, batches } = recording();
    const batcher = new FrameBatcher(decoder, { cpu });
    const spec = specOf();
    const jpegs = await Promise.all(
      [1, 2, 3, 4, 5].map((s) =>
        raw(160 + s * 8, 120, s)
          .jpeg({ quality: 90 })
          .toBuffer(),
      ),
    );
    const out = await Promise.all(jpegs.map((j) => batcher.toTensor(j, spec, 'cam', undefined) as Promise<unknown>));
    assert.equal(batches.length, 1);
    assert.equal(batches[0]?.length, 5);
    for (const [i, r] of (out as { tensor: { shape: number[]; data: Float32Array }; image: { width: number; format: string } }[]).entries()) {
      assert.deepEqual(r.tensor.shape, [1, 3, 48, 64]);
      assert.equal(r.tensor.data.length, 3 * 48 * 64);
      assert.deepEqual([r.image.width, r.image.format], [160 + (i + 1) * 8, 'jpeg']);
    }
    // The rows are the reference decode of each frame alone.
    const alone = await referenceFrameDecoder.decode([batches[0]?.[2] as FrameItem], spec);
    assert.deepEqual((out[2] as { tensor: { data: Float32Array } }).tensor.data, alone.rows);
  });

  test('maxBatch splits a burst; frames queued while batches are in flight join the next one', async () => {
    const { decoder, batches } = recording();
    const batcher = new FrameBatcher(decoder, { cpu, maxBatch: 3, maxInFlight: 1 });
    const spec = specOf();
    const jpeg = await raw(64, 48).jpeg().toBuffer();
    await Promise.all(Array.from({ length: 7 }, () => batcher.toTensor(jpeg, spec, 'cam', undefined)));
    assert.deepEqual(
      batches.map((b) => b.length),
      [3, 3, 1],
    );
  });

  test('per frame: PNG, grayscale and rotated JPEGs take the CPU path; corrupt, truncated and oversized ones are refused; the rest of the batch is answered', async () => {
    const { decoder, batches } = recording();
    const batcher = new FrameBatcher(decoder, { cpu });
    const spec = specOf({ max_pixels: 100_000 });
    const good = await raw(80, 60).jpeg().toBuffer();
    const png = await raw(80, 60).png().toBuffer();
    const gray = await raw(80, 60).toColourspace('b-w').jpeg().toBuffer();
    const rotated = await raw(80, 60).jpeg().withMetadata({ orientation: 8 }).toBuffer();
    const big = await raw(400, 300).jpeg().toBuffer();
    const cut = good.subarray(0, 40);
    // Headers intact, entropy-coded data cut short: the decoder itself reports it.
    const badData = Buffer.concat([good.subarray(0, good.length - 200)]);
    cpuCalls.length = 0;
    const settled = await Promise.allSettled(
      [good, png, gray, rotated, big, cut, badData, good].map((b) => batcher.toTensor(b, spec, 'cam', undefined) as Promise<unknown>),
    );
    assert.deepEqual(
      settled.map((s) => s.status),
      ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled'],
    );
    const why = (i: number): string => {
      const e = (settled[i] as PromiseRejectedResult).reason;
      assert.ok(e instanceof RtError && e.code === 'BAD_DATA', String(e));
      return e.message;
    };
    assert.match(why(4), /400x300 = 120000 pixels, over the limit of 100000/);
    assert.match(why(5), /corrupt jpeg image: truncated JPEG/);
    assert.match(why(6), /corrupt jpeg image: /);
    assert.equal(cpuCalls.length, 3, 'PNG, grayscale and rotated frames went to the CPU path');
    assert.deepEqual(
      batches.map((b) => b.length),
      [3],
      'the good frames and the one with broken data formed one device batch',
    );
    assert.deepEqual(batcher.counts, { device: 2, cpu: 3, refused: 3, batches: 1, largestBatch: 3 });
  });

  test('models the batcher is not for, and 1-channel models, are left to the CPU path (toTensor gives undefined)', async () => {
    const batcher = new FrameBatcher(referenceFrameDecoder, { cpu, useFor: (m) => m !== 'other' });
    const jpeg = await raw(32, 32).jpeg().toBuffer();
    assert.equal(batcher.toTensor(jpeg, specOf(), 'other', undefined), undefined);
    const graySpec = imageSpecOf(
      modelConfigSchema.parse({
        name: 'g',
        max_batch_size: 1,
        input: [{ name: 'image', data_type: 'TYPE_FP32', dims: [1, 28, 28] }],
        output: [{ name: 'y', data_type: 'TYPE_FP32', dims: [10] }],
        preprocess: { color: 'gray', resize: { mode: 'fill' } },
      }),
    ) as ImageSpec;
    assert.equal(batcher.toTensor(jpeg, graySpec, 'g', undefined), undefined);
  });

  test('a device that fails the whole call: its frames are answered by the CPU path', async () => {
    const lost: FrameDecoder = { name: 'lost', decodesJpeg: true, decode: () => Promise.reject(new Error('device lost')) };
    const batcher = new FrameBatcher(lost, { cpu });
    const spec = specOf();
    cpuCalls.length = 0;
    const jpeg = await raw(64, 48).jpeg().toBuffer();
    const out = await Promise.all([jpeg, jpeg].map((j) => batcher.toTensor(j, spec, 'cam', undefined)));
    assert.equal(out.length, 2);
    assert.equal(cpuCalls.length, 2);
  });

  test('raw RGB frames take the same path; a frame of the wrong size is refused', async () => {
    const { decoder, batches } = recording();
    const batcher = new FrameBatcher(decoder, { cpu });
    const spec = specOf({ resize: { mode: 'letterbox', pad_value: [114] } });
    const frame = new Uint8Array(pixels(100, 40, 3));
    const r = (await batcher.rawToTensor(frame, 100, 40, spec, 'cam', undefined)) as ImageTensor;
    assert.deepEqual(r.tensor.shape, [1, 3, 48, 64]);
    assert.deepEqual(r.transform.offsetY, 11, 'letterboxed: 100x40 scaled to 64x26, centred');
    assert.equal(batches[0]?.[0]?.encoded, false);
    await assert.rejects(batcher.rawToTensor(frame.subarray(1), 100, 40, spec, 'cam', undefined) as Promise<unknown>, /holds 12000 bytes, got 11999/);
  });
});
