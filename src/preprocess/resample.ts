/**
 * The GPU image path's resampling, written out on the CPU (issue #19): the same arithmetic as the preprocess kernel
 * (native/src/image-preprocess.cu), one output pixel at a time. It is the reference the GPU kernel is checked
 * against on the GPU machine, and it is checked against sharp (the CPU path, libvips) in CI: together they show the
 * GPU rows match what the CPU path makes from the same pixels.
 *
 * Resize as libvips reduces: a separable filter whose support grows with the reduction factor (antialiasing), the
 * weights of each output pixel normalized, the result rounded to 8 bits; then the pad / crop of the resize mode.
 */
import type { ImageSpec } from '../config/image-spec.ts';

export type ResampleKernel = ImageSpec['kernel'];

/** Where the source goes in the target (from planResize): resized size and the offset of its top-left corner. */
export interface Placement {
  readonly resizeWidth: number;
  readonly resizeHeight: number;
  readonly offsetX: number;
  readonly offsetY: number;
}

function sinc(x: number): number {
  if (Math.abs(x) < 1e-6) return 1;
  const p = Math.PI * x;
  return Math.sin(p) / p;
}

/** The filters of the kernel names in the config (libvips' definitions), as functions of the distance in filter units. */
function filterOf(kernel: ResampleKernel): { readonly f: (x: number) => number; readonly support: number } {
  switch (kernel) {
    case 'linear':
      return { f: (x) => (Math.abs(x) < 1 ? 1 - Math.abs(x) : 0), support: 1 };
    case 'cubic':
      return {
        f: (x) => {
          const a = -0.5;
          const t = Math.abs(x);
          if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
          if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
          return 0;
        },
        support: 2,
      };
    case 'mitchell':
      return {
        f: (x) => {
          const B = 1 / 3;
          const C = 1 / 3;
          const t = Math.abs(x);
          if (t < 1) return ((12 - 9 * B - 6 * C) * t ** 3 + (-18 + 12 * B + 6 * C) * t * t + (6 - 2 * B)) / 6;
          if (t < 2) return ((-B - 6 * C) * t ** 3 + (6 * B + 30 * C) * t * t + (-12 * B - 48 * C) * t + (8 * B + 24 * C)) / 6;
          return 0;
        },
        support: 2,
      };
    case 'lanczos2':
      return { f: (x) => (Math.abs(x) < 2 ? sinc(x) * sinc(x / 2) : 0), support: 2 };
    default:
      return { f: (x) => (Math.abs(x) < 3 ? sinc(x) * sinc(x / 3) : 0), support: 3 };
  }
}

/** Normalized taps of every output coordinate along one axis: first source index and weights. */
function axisTaps(kernel: ResampleKernel, srcN: number, dstN: number): { lo: number; w: Float64Array }[] {
  const { f, support } = filterOf(kernel);
  const scale = srcN / dstN;
  const fs = Math.max(scale, 1);
  const out: { lo: number; w: Float64Array }[] = [];
  for (let u = 0; u < dstN; u++) {
    const center = (u + 0.5) * scale;
    const lo = Math.max(0, Math.floor(center - support * fs + 0.5));
    let hi = Math.min(srcN, Math.floor(center + support * fs + 0.5));
    if (hi <= lo) hi = Math.min(srcN, lo + 1);
    const w = new Float64Array(hi - lo);
    let sum = 0;
    for (let i = lo; i < hi; i++) {
      const v = f((i - center + 0.5) / fs);
      w[i - lo] = v;
      sum += v;
    }
    if (sum !== 0) for (let i = 0; i < w.length; i++) w[i] = (w[i] as number) / sum;
    out.push({ lo, w });
  }
  return out;
}

/**
 * Interleaved RGB pixels (`srcW`×`srcH`) → the target's `width`×`height` interleaved RGB pixels: resized into
 * `place`, the rest the pad colour (per channel, 0..255).
 */
export function resampleRgb(
  src: Uint8Array,
  srcW: number,
  srcH: number,
  place: Placement,
  target: { readonly width: number; readonly height: number; readonly kernel: ResampleKernel; readonly padValue: readonly number[] },
): Uint8Array {
  const { width: W, height: H } = target;
  const out = new Uint8Array(W * H * 3);
  const pad = [0, 1, 2].map((c) => Math.round(target.padValue[target.padValue.length === 3 ? c : 0] ?? 0));
  const nearest = target.kernel === 'nearest';
  const tx = nearest ? [] : axisTaps(target.kernel, srcW, place.resizeWidth);
  const ty = nearest ? [] : axisTaps(target.kernel, srcH, place.resizeHeight);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 3;
      const u = x - place.offsetX;
      const v = y - place.offsetY;
      if (u < 0 || v < 0 || u >= place.resizeWidth || v >= place.resizeHeight) {
        out[o] = pad[0] as number;
        out[o + 1] = pad[1] as number;
        out[o + 2] = pad[2] as number;
        continue;
      }
      if (nearest) {
        const sx = Math.min(srcW - 1, Math.floor(((u + 0.5) * srcW) / place.resizeWidth));
        const sy = Math.min(srcH - 1, Math.floor(((v + 0.5) * srcH) / place.resizeHeight));
        const q = (sy * srcW + sx) * 3;
        out[o] = src[q] as number;
        out[o + 1] = src[q + 1] as number;
        out[o + 2] = src[q + 2] as number;
        continue;
      }
      const a = tx[u] as { lo: number; w: Float64Array };
      const b = ty[v] as { lo: number; w: Float64Array };
      let r = 0;
      let g = 0;
      let bl = 0;
      for (let j = 0; j < b.w.length; j++) {
        const wy = b.w[j] as number;
        const row = (b.lo + j) * srcW;
        for (let i = 0; i < a.w.length; i++) {
          const w = wy * (a.w[i] as number);
          const q = (row + a.lo + i) * 3;
          r += w * (src[q] as number);
          g += w * (src[q + 1] as number);
          bl += w * (src[q + 2] as number);
        }
      }
      out[o] = Math.min(255, Math.max(0, Math.round(r)));
      out[o + 1] = Math.min(255, Math.max(0, Math.round(g)));
      out[o + 2] = Math.min(255, Math.max(0, Math.round(bl)));
    }
  }
  return out;
}
