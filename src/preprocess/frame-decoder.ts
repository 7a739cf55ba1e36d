/**
 * The contract between the image pipeline and a device that decodes and preprocesses frames in batches (issue #19):
 * the CUDA addon's nvJPEG path implements it (src/engine/cuda/image-decoder.ts); `referenceFrameDecoder` implements
 * it on the CPU with the same arithmetic (the accuracy reference, and what CPU-only machines test the batching with).
 */
import { rtError } from '../errors/registry.ts';
import type { ImageSpec } from '../config/image-spec.ts';
import { resampleRgb, type Placement } from './resample.ts';
import { pixelsToTensor, type PixelTensorData } from './to-tensor.ts';

/** One frame: encoded JPEG bytes or raw interleaved RGB pixels, its size, and where it goes in the target. */
export interface FrameItem {
  readonly bytes: Uint8Array;
  readonly encoded: boolean;
  readonly width: number;
  readonly height: number;
  readonly place: Placement;
}

/** Per frame: decoded, or why not ("unsupported": decode it on the CPU instead; "corrupt" / "too-large": refuse it). */
export interface FrameStatus {
  readonly ok: boolean;
  readonly width: number;
  readonly height: number;
  /** Which decoder took it: hardware, gpu-hybrid, gpu (nvJPEG), raw, cpu-reference. */
  readonly backend?: string;
  readonly code?: 'unsupported' | 'corrupt' | 'too-large';
  readonly message?: string;
}

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

/**
 * The CPU reference: raw frames through resample.ts and to-tensor.ts, exactly the arithmetic of the GPU kernel. It
 * decodes no JPEG (that is the GPU's or sharp's job): encoded frames are reported "unsupported".
 */
export const referenceFrameDecoder: FrameDecoder = {
  name: 'cpu-reference',
  decodesJpeg: false,
  decode(items: readonly FrameItem[], spec: ImageSpec): Promise<DecodedFrames> {
    if (spec.channels !== 3) return Promise.reject(rtError('INTERNAL', 'the frame decoder takes 3-channel models only'));
    const rows = allocateRows(spec, items.length);
    const per = rowElements(spec);
    const statuses = items.map((it, i): FrameStatus => {
      if (it.encoded) return { ok: false, width: it.width, height: it.height, code: 'unsupported', message: 'the CPU reference decodes raw frames only' };
      if (it.bytes.length !== it.width * it.height * 3) {
        return { ok: false, width: it.width, height: it.height, code: 'corrupt', message: `raw frame of ${it.width}x${it.height}x3 holds ${it.bytes.length} bytes` };
      }
      const pixels = resampleRgb(it.bytes, it.width, it.height, it.place, spec);
      const row = pixelsToTensor(pixels, {
        width: spec.width,
        height: spec.height,
        channels: 3,
        layout: spec.layout,
        dtype: spec.dtype,
        bgr: spec.color === 'bgr',
        scale: spec.scale,
        mean: spec.mean,
        std: spec.std,
      });
      (rows as Uint8Array).set(row as Uint8Array, i * per);
      return { ok: true, width: it.width, height: it.height, backend: 'cpu-reference' };
    });
    return Promise.resolve({ rows, statuses });
  },
};
