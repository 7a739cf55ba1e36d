import { rtError } from '../../errors/registry.ts';
import { floatToHalf, halfToFloat } from '../../tensor/onnx-dtype.ts';
import { runIndexingLayer, strided } from './reference-indexing.ts';
import { ACT, type ActSpec, type CudaLayer, type CudaNetwork, type OperandRef } from '../../plan/cuda-network.ts';

/**
 * A CPU interpreter of CUDA programs with the kernels' exact semantics: FP16 storage (every value written is
 * rounded to half), float arithmetic, the same index math, layouts and broadcasting strides. Tests run it on
 * machines without a GPU to check the lowering (fusion, NHWC, weights, memory plan) against onnxruntime; the
 * GPU run then only has to show that the kernels match it.
 */

function act(x: number, a: ActSpec): number {
  switch (a.kind) {
    case ACT.relu:
      // biome-ignore lint/complexity/useMathMinMax: NaN gives 0 here, as the device's fmaxf does; Math.max gives NaN.
      return x > 0 ? x : 0;
    case ACT.clip:
      return Math.min(Math.max(x, a.p0), a.p1);
    case ACT.sigmoid:
      return 1 / (1 + Math.exp(-x));
    case ACT.tanh:
      return Math.tanh(x);
    case ACT.silu:
      return x / (1 + Math.exp(-x));
    case ACT.geluErf:
      return 0.5 * x * (1 + erf(x * Math.SQRT1_2));
    case ACT.geluTanh:
      return 0.5 * x * (1 + Math.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
    case ACT.leakyRelu:
      return x >= 0 ? x : x * a.p0;
    case ACT.hardSigmoid:
      return Math.min(Math.max(a.p0 * x + a.p1, 0), 1);
    case ACT.hardSwish:
      return x * Math.min(Math.max(x / 6 + 0.5, 0), 1);
    default:
      return x;
  }
}

/** Abramowitz–Stegun 7.1.26 is too coarse for checks; this series/continued-fraction pair is within 1e-7. */
function erf(x: number): number {
  const s = Math.sign(x);
  const ax = Math.abs(x);
  if (ax < 2.5) {
    let sum = ax;
    let term = ax;
    for (let n = 1; n < 60; n++) {
      term *= (-ax * ax) / n;
      sum += term / (2 * n + 1);
    }
    return (s * 2 * sum) / Math.sqrt(Math.PI);
  }
  let f = 0;
  for (let n = 60; n >= 1; n--) f = n / 2 / (ax + f);
  return s * (1 - Math.exp(-ax * ax) / (Math.sqrt(Math.PI) * (ax + f)));
}

class Memory {
  readonly arena: ArrayBuffer;
  readonly weights: ArrayBuffer;
  constructor(arenaBytes: number, weights: Uint8Array) {
    this.arena = new ArrayBuffer(Math.max(arenaBytes, 256));
    // a copy: a Node Buffer's slice() is a view, and its .buffer the whole pool (woff offsets would be off)
    this.weights = new Uint8Array(weights).buffer;
  }
  half(r: OperandRef): Uint16Array {
    return 'woff' in r ? new Uint16Array(this.weights, r.woff, r.bytes / 2) : new Uint16Array(this.arena, r.off, r.bytes / 2);
  }
  halfOpt(r: OperandRef | null): Uint16Array | null {
    return r === null ? null : this.half(r);
  }
  f32(r: OperandRef): Float32Array {
    if ('woff' in r) throw rtError('INTERNAL', 'reference: f32 weights');
    return new Float32Array(this.arena, r.off, r.bytes / 4);
  }
}

// Decoding a half is a table lookup: the interpreter decodes every operand of every multiply-add.
const HALF_TABLE = (() => {
  const t = new Float32Array(65536);
  for (let i = 0; i < 65536; i++) t[i] = halfToFloat(i);
  return t;
})();
const H = (h: number): number => HALF_TABLE[h] ?? 0;
const F = floatToHalf;

function runLayer(m: Memory, l: CudaLayer): void {
  if (runIndexingLayer(m, l)) return;
  switch (l.kind) {
    case 'convert_in': {
      const y = m.half(l.y);
      const src = l.srcType === 'f32' ? m.f32(l.x) : m.half(l.x);
      const read = (i: number): number => (l.srcType === 'f32' ? (src[i] ?? 0) : H(src[i] ?? 0));
      if (l.layout === 'nhwc') {
        const { n, c, h, w, cp } = l;
        for (let b = 0; b < n; b++)
          for (let yy = 0; yy < h; yy++)
            for (let x = 0; x < w; x++)
              for (let ch = 0; ch < cp; ch++) {
                y[((b * h + yy) * w + x) * cp + ch] = F(ch < c ? read(((b * c + ch) * h + yy) * w + x) : 0);
              }
      } else {
        const total = l.n * l.c * l.h * l.w;
        for (let i = 0; i < total; i++) y[i] = F(read(i));
      }
      return;
    }
    case 'convert_out': {
      const x = m.half(l.x);
      const { n, c, h, w } = l;
      const total = n * c * h * w;
      const out = l.dstType === 'f32' ? m.f32(l.y) : m.half(l.y);
      for (let i = 0; i < total; i++) {
        let si = i;
        if (l.layout === 'nhwc') {
          const xx = i % w;
          const yy = Math.floor(i / w) % h;
          const ch = Math.floor(i / (w * h)) % c;
          const b = Math.floor(i / (w * h * c));
          si = ((b * h + yy) * w + xx) * c + ch;
        }
        const v = H(x[si] ?? 0);
        out[i] = l.dstType === 'f32' ? v : F(v);
      }
      return;
    }
    case 'conv': {
      const x = m.half(l.x);
      const wt = m.half(l.w);
      const bias = m.half(l.b);
      const z = m.halfOpt(l.z);
      const y = m.half(l.y);
      const { n, c, h, k, r, s, oh, ow, groups } = l;
      const wd = l.w_;
      const [pt = 0, pl = 0] = l.pads;
      const [sh = 1, sw = 1] = l.strides;
      const [dh = 1, dw = 1] = l.dil;
      const cg = c / groups;
      const kg = k / groups;
      for (let b = 0; b < n; b++)
        for (let oy = 0; oy < oh; oy++)
          for (let ox = 0; ox < ow; ox++)
            for (let oc = 0; oc < k; oc++) {
              const g = Math.floor(oc / kg);
              let acc = 0;
              for (let ky = 0; ky < r; ky++) {
                const iy = oy * sh - pt + ky * dh;
                if (iy < 0 || iy >= h) continue;
                for (let kx = 0; kx < s; kx++) {
                  const ix = ox * sw - pl + kx * dw;
                  if (ix < 0 || ix >= wd) continue;
                  const xb = ((b * h + iy) * wd + ix) * c + g * cg;
                  const wb = ((oc * r + ky) * s + kx) * cg;
                  for (let ci = 0; ci < cg; ci++) acc += H(x[xb + ci] ?? 0) * H(wt[wb + ci] ?? 0);
                }
              }
              const i = ((b * oh + oy) * ow + ox) * k + oc;
              acc += H(bias[oc] ?? 0);
              if (z !== null) acc += H(z[i] ?? 0);
              y[i] = F(act(acc, l.act));
            }
      return;
    }
    case 'gemm': {
      const a = m.half(l.x);
      const w = m.half(l.w);
      const bias = m.halfOpt(l.b);
      const z = m.halfOpt(l.z);
      const y = m.half(l.y);
      const { batch, m: rows, n, k, strideA, strideB, strideY } = l;
      for (let bi = 0; bi < batch; bi++)
        for (let row = 0; row < rows; row++)
          for (let col = 0; col < n; col++) {
            let acc = 0;
            for (let kk = 0; kk < k; kk++) {
              const bv = l.bNK === 1 ? w[bi * strideB + col * k + kk] : w[bi * strideB + kk * n + col];
              acc += H(a[bi * strideA + row * k + kk] ?? 0) * H(bv ?? 0);
            }
            const i = bi * strideY + row * n + col;
            if (bias !== null) acc += H(bias[col] ?? 0);
            if (z !== null) acc += H(z[i] ?? 0);
            y[i] = F(act(acc, l.act));
          }
      return;
    }
    case 'unary': {
      const x = m.half(l.x);
      const y = m.half(l.y);
      for (let i = 0; i < l.count; i++) y[i] = F(act(H(x[i] ?? 0), l.act));
      return;
    }
    case 'affine': {
      const x = m.half(l.x);
      const y = m.half(l.y);
      const sc = m.halfOpt(l.scale);
      const sh = m.halfOpt(l.shift);
      const z = m.halfOpt(l.z);
      for (let i = 0; i < l.count; i++) {
        const ch = Math.floor(i / l.inner) % l.channels;
        let v = H(x[i] ?? 0);
        if (sc !== null) v *= H(sc[ch] ?? 0);
        if (sh !== null) v += H(sh[ch] ?? 0);
        if (z !== null) v += H(z[i] ?? 0);
        y[i] = F(act(v, l.act));
      }
      return;
    }
    case 'binary': {
      const a = m.half(l.a);
      const b = m.half(l.b);
      const y = m.half(l.y);
      const total = l.dims.reduce((p, d) => p * d, 1);
      const rank = l.dims.length;
      for (let i = 0; i < total; i++) {
        let rem = i;
        let ia = 0;
        let ib = 0;
        for (let d = rank - 1; d >= 0; d--) {
          const dim = l.dims[d] ?? 1;
          const idx = rem % dim;
          rem = Math.floor(rem / dim);
          ia += idx * (l.sa[d] ?? 0);
          ib += idx * (l.sb[d] ?? 0);
        }
        const va = H(a[ia] ?? 0);
        const vb = H(b[ib] ?? 0);
        const v = l.op === 1 ? va - vb : l.op === 2 ? va * vb : l.op === 3 ? va / vb : va + vb;
        y[i] = F(act(v, l.act));
      }
      return;
    }
    case 'pool': {
      const x = m.half(l.x);
      const y = m.half(l.y);
      const { n, c, h, w, oh, ow } = l;
      const [kh = 1, kw = 1] = l.kernel;
      const [sh = 1, sw = 1] = l.strides;
      const [pt = 0, pl = 0, pb = 0, pr = 0] = l.pads;
      const [dh = 1, dw = 1] = l.dil;
      const isMax = l.mode === 'max';
      for (let b = 0; b < n; b++)
        for (let oy = 0; oy < oh; oy++)
          for (let ox = 0; ox < ow; ox++)
            for (let ch = 0; ch < c; ch++) {
              let acc = isMax ? -Infinity : 0;
              let cnt = 0;
              for (let ky = 0; ky < kh; ky++) {
                const iy = oy * sh - pt + ky * dh;
                for (let kx = 0; kx < kw; kx++) {
                  const ix = ox * sw - pl + kx * dw;
                  if (iy >= 0 && iy < h && ix >= 0 && ix < w) {
                    const v = H(x[((b * h + iy) * w + ix) * c + ch] ?? 0);
                    acc = isMax ? Math.max(acc, v) : acc + v;
                    cnt++;
                  } else if (l.countIncludePad === 1 && iy >= -pt && iy < h + pb && ix >= -pl && ix < w + pr) {
                    cnt++;
                  }
                }
              }
              y[((b * oh + oy) * ow + ox) * c + ch] = F(isMax ? acc : cnt > 0 ? acc / cnt : 0);
            }
      return;
    }
    case 'global_pool': {
      const x = m.half(l.x);
      const y = m.half(l.y);
      const isMax = l.mode === 'max';
      for (let b = 0; b < l.n; b++)
        for (let ch = 0; ch < l.c; ch++) {
          let acc = isMax ? -Infinity : 0;
          for (let j = 0; j < l.hw; j++) {
            const v = H(x[l.layout === 'nhwc' ? (b * l.hw + j) * l.c + ch : (b * l.c + ch) * l.hw + j] ?? 0);
            acc = isMax ? Math.max(acc, v) : acc + v;
          }
          y[b * l.c + ch] = F(isMax ? acc : acc / l.hw);
        }
      return;
    }
    case 'softmax': {
      const x = m.half(l.x);
      const y = m.half(l.y);
      for (let o = 0; o < l.outer; o++)
        for (let inn = 0; inn < l.inner; inn++) {
          const base = o * l.len * l.inner + inn;
          let mx = -Infinity;
          for (let j = 0; j < l.len; j++) mx = Math.max(mx, H(x[base + j * l.inner] ?? 0));
          let sum = 0;
          for (let j = 0; j < l.len; j++) sum += Math.exp(H(x[base + j * l.inner] ?? 0) - mx);
          for (let j = 0; j < l.len; j++) {
            const v = H(x[base + j * l.inner] ?? 0) - mx;
            y[base + j * l.inner] = F(l.log === 1 ? v - Math.log(sum) : Math.exp(v) / sum);
          }
        }
      return;
    }
    case 'transpose': {
      const x = m.half(l.x);
      const y = m.half(l.y);
      let i = 0;
      for (const [src = 0] of strided(l.dims, [l.inStrides])) y[i++] = x[src] ?? 0;
      return;
    }
    case 'copy2d': {
      const x = m.half(l.x);
      const y = m.half(l.y);
      for (let r = 0; r < l.rows; r++)
        for (let e = 0; e < l.rowElems; e++) y[l.dstOff + r * l.dstStride + e] = x[l.srcOff + r * l.srcStride + e] ?? 0;
      return;
    }
  }
}

/**
 * Runs the program for `batch` on `rows` rows of host inputs (FP32 as Float32Array, FP16 as Uint16Array bits),
 * as the addon's `run` does: inputs into the arena, every layer, outputs out.
 */
export function runReference(
  network: CudaNetwork,
  weights: Uint8Array,
  batch: number,
  rows: number,
  inputs: readonly (Float32Array | Uint16Array)[],
): (Float32Array | Uint16Array | Int32Array)[] {
  const program = network.programs.find((p) => p.batch === batch);
  if (program === undefined) throw rtError('INTERNAL', `reference: no program for batch ${batch}`);
  const m = new Memory(network.arenaBytes, weights);
  network.inputs.forEach((io, i) => {
    const src = inputs[i];
    if (src === undefined) throw rtError('INTERNAL', `reference: missing input '${io.name}'`);
    new Uint8Array(m.arena, io.off, io.rowBytes * rows).set(new Uint8Array(src.buffer, src.byteOffset, io.rowBytes * rows));
  });
  for (const l of program.layers) runLayer(m, l);
  return network.outputs.map((io) => {
    const bytes = new Uint8Array(m.arena, io.off, io.rowBytes * rows).slice();
    if (io.datatype === 'INT32') return new Int32Array(bytes.buffer);
    return io.datatype === 'FP32' ? new Float32Array(bytes.buffer) : new Uint16Array(bytes.buffer);
  });
}
