/**
 * Interleaved 8-bit pixels → the model's input tensor data: channel order (RGB/BGR), layout (NCHW/NHWC), dtype
 * (FP32/FP16/UINT8) and normalization ((pixel · scale − mean) / std). One pass over the pixels; small images are
 * converted inline (well under a millisecond), large ones in a worker thread (pixel-worker.ts) so the event loop
 * stays free.
 */
import { floatToHalfBits } from '../tensor/half.ts';
import type { ImageDtype, ImageSpec } from '../config/image-spec.ts';

export interface PixelConversion {
  readonly width: number;
  readonly height: number;
  readonly channels: number;
  readonly layout: 'NCHW' | 'NHWC';
  readonly dtype: ImageDtype;
  /** Reverse the channel order (RGB → BGR). */
  readonly bgr: boolean;
  readonly scale: number;
  readonly mean: readonly number[];
  readonly std: readonly number[];
}

export type PixelTensorData = Float32Array | Uint16Array | Uint8Array;

/** The conversion a model's image spec asks for, of pixels `width` × `height` × `channels`. */
export function conversionOf(spec: ImageSpec, width: number, height: number, channels: number): PixelConversion {
  const { layout, dtype, scale, mean, std } = spec;
  return { width, height, channels, layout, dtype, bgr: spec.color === 'bgr', scale, mean, std };
}

/** Above this many elements the conversion runs in the worker (~0.5 ms of JavaScript on a slow core). */
export const INLINE_ELEMENT_LIMIT = 1 << 18;

export function pixelsToTensor(pixels: Uint8Array, c: PixelConversion): PixelTensorData {
  const { width: W, height: H, channels: C } = c;
  const plane = W * H;
  const n = plane * C;
  if (pixels.length !== n) throw new RangeError(`expected ${n} pixel bytes, got ${pixels.length}`);
  const nchw = c.layout === 'NCHW';
  // dst index of (pixel p, source channel s): channel d = bgr ? C-1-s : s.
  const dstIndex = (p: number, s: number): number => {
    const d = c.bgr ? C - 1 - s : s;
    return nchw ? d * plane + p : p * C + d;
  };
  if (c.dtype === 'UINT8') {
    if (nchw === false && !c.bgr) return Uint8Array.from(pixels);
    const out = new Uint8Array(n);
    for (let p = 0; p < plane; p++) for (let s = 0; s < C; s++) out[dstIndex(p, s)] = pixels[p * C + s] as number;
    return out;
  }
  // Per channel: v · a + b with a = scale / std, b = −mean / std; a 256-entry table per channel avoids the math.
  const tables: Float32Array[] = [];
  for (let s = 0; s < C; s++) {
    const d = c.bgr ? C - 1 - s : s;
    const a = c.scale / (c.std[d] ?? 1);
    const b = -(c.mean[d] ?? 0) / (c.std[d] ?? 1);
    const t = new Float32Array(256);
    for (let v = 0; v < 256; v++) t[v] = v * a + b;
    tables.push(t);
  }
  if (c.dtype === 'FP32') {
    const out = new Float32Array(n);
    for (let p = 0; p < plane; p++) {
      for (let s = 0; s < C; s++) out[dstIndex(p, s)] = (tables[s] as Float32Array)[pixels[p * C + s] as number] as number;
    }
    return out;
  }
  const halfTables = tables.map((t) => Uint16Array.from(t, (v) => floatToHalfBits(v)));
  const out = new Uint16Array(n);
  for (let p = 0; p < plane; p++) {
    for (let s = 0; s < C; s++) out[dstIndex(p, s)] = (halfTables[s] as Uint16Array)[pixels[p * C + s] as number] as number;
  }
  return out;
}
