/**
 * The contract between the image pipeline and a device that decodes and preprocesses frames in batches (issue #19):
 * the CUDA addon's nvJPEG path implements it (src/engine/cuda/image-decoder.ts); `referenceFrameDecoder` implements
 * it on the CPU with the same arithmetic (the accuracy reference, and what CPU-only machines test the batching with).
 */
import sharp from 'sharp';
import { rtError } from '../errors/registry.ts';
import type { FrameStatus, ImageSpec } from '../config/image-spec.ts';
import { resampleRgb, type Placement } from './resample.ts';
import { conversionOf, pixelsToTensor, type PixelTensorData } from './to-tensor.ts';

/** One frame: encoded JPEG bytes or raw interleaved RGB pixels, its size, and where it goes in the target. */
export interface FrameItem {
  readonly bytes: Uint8Array;
  readonly encoded: boolean;
  readonly width: number;
  readonly height: number;
  readonly place: Placement;
}

export type { FrameStatus } from '../config/image-spec.ts';

export interface DecodedFrames {
  /** `items.length` rows of the model's input for `spec` (dtype, layout, normalization), back to back. */
  readonly rows: PixelTensorData;
  readonly statuses: readonly FrameStatus[];
}

export interface FrameDecoder {
  /** For logs and statistics: "cuda-nvjpeg", "cpu-reference". */
  readonly name: string;
  /** Whether encoded JPEGs can be given (a build without nvJPEG takes raw frames only). */
  readonly decodesJpeg: boolean;
  decode(items: readonly FrameItem[], spec: ImageSpec): Promise<DecodedFrames>;
}

/** Elements of one row for `spec` (3 channels). */
export function rowElements(spec: Pick<ImageSpec, 'width' | 'height'>): number {
  return spec.width * spec.height * 3;
}

/** Allocates `n` rows of `spec`'s dtype. */
export function allocateRows(spec: Pick<ImageSpec, 'width' | 'height' | 'dtype'>, n: number): PixelTensorData {
  const count = rowElements(spec) * n;
  return spec.dtype === 'FP32' ? new Float32Array(count) : spec.dtype === 'FP16' ? new Uint16Array(count) : new Uint8Array(count);
}

/** Raw RGB pixels of a JPEG, decoded by sharp (libjpeg-turbo) at full size; undefined with the reason when it cannot. */
async function cpuPixels(bytes: Uint8Array): Promise<{ pixels: Uint8Array; width: number; height: number } | string> {
  try {
    const { data, info } = await sharp(bytes, { failOn: 'warning' }).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) return `decoded to ${info.channels} channels`;
    return { pixels: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
  } catch (e) {
    return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? 'decode failed';
  }
}

/**
 * The CPU reference: every frame through resample.ts and to-tensor.ts, exactly the arithmetic of the GPU kernel (JPEGs
 * decoded by sharp at full size first). What CPU-only machines check the frame batcher with, and what the GPU
 * kernel's rows are compared with on the GPU machine.
 */
export const referenceFrameDecoder: FrameDecoder = {
  name: 'cpu-reference',
  decodesJpeg: true,
  async decode(items: readonly FrameItem[], spec: ImageSpec): Promise<DecodedFrames> {
    if (spec.channels !== 3) throw rtError('INTERNAL', 'the frame decoder takes 3-channel models only');
    const rows = allocateRows(spec, items.length);
    const per = rowElements(spec);
    const statuses: FrameStatus[] = [];
    for (const [i, it] of items.entries()) {
      const bad = (code: 'corrupt' | 'too-large', message: string): void => {
        statuses.push({ ok: false, width: it.width, height: it.height, code, message });
      };
      let pixels = it.bytes;
      if (it.encoded) {
        const got = await cpuPixels(it.bytes);
        if (typeof got === 'string') {
          bad('corrupt', got);
          continue;
        }
        if (got.width !== it.width || got.height !== it.height) {
          bad('corrupt', `decoded ${got.width}x${got.height}, the frame header says ${it.width}x${it.height}`);
          continue;
        }
        pixels = got.pixels;
      } else if (it.bytes.length !== it.width * it.height * 3) {
        bad('corrupt', `raw frame of ${it.width}x${it.height}x3 holds ${it.bytes.length} bytes`);
        continue;
      }
      if (it.width * it.height > spec.maxPixels) {
        bad('too-large', `the image is ${it.width}x${it.height} pixels, over the limit of ${spec.maxPixels}`);
        continue;
      }
      const row = pixelsToTensor(resampleRgb(pixels, it.width, it.height, it.place, spec), conversionOf(spec, spec.width, spec.height, 3));
      (rows as Uint8Array).set(row as Uint8Array, i * per);
      statuses.push({ ok: true, width: it.width, height: it.height, backend: 'cpu-reference' });
    }
    return { rows, statuses };
  },
};
