import { floatToHalf, halfToFloat } from '../../tensor/onnx-dtype.ts';
import { EWOP, type CudaLayer, type OperandRef, type StoreType } from '../../plan/cuda-network.ts';

/**
 * The CPU reference (reference.ts) of the typed and indexing layers: `ew`, `gather`, `gather_elements`, `topk`,
 * `resize`, `pad`, with the kernels' semantics (native/src/index-kernels.cu): FP16 values rounded on every write,
 * integers held exactly in FP32.
 */

export interface RefMemory {
  readonly arena: ArrayBuffer;
  readonly weights: ArrayBuffer;
}

function view(m: RefMemory, r: OperandRef, elem: 2 | 4, int32 = false): Uint16Array | Float32Array | Int32Array {
  const [buf, off] = 'woff' in r ? [m.weights, r.woff] : [m.arena, r.off];
  if (elem === 2) return new Uint16Array(buf, off, r.bytes / 2);
  return int32 ? new Int32Array(buf, off, r.bytes / 4) : new Float32Array(buf, off, r.bytes / 4);
}

const reader = (m: RefMemory, r: OperandRef | null, t: StoreType): ((i: number) => number) => {
  if (r === null) return () => 0;
  const v = view(m, r, t === 'f16' ? 2 : 4);
  return t === 'f16' ? (i) => halfToFloat(v[i] ?? 0) : (i) => v[i] ?? 0;
};

function ewOp(op: number, a: number, b: number, c: number, int: boolean): number {
  switch (op) {
    case EWOP.add:
      return a + b;
    case EWOP.sub:
      return a - b;
    case EWOP.mul:
      return a * b;
    case EWOP.div:
      return int ? (b === 0 ? 0 : Math.trunc(a / b)) : a / b;
    case EWOP.mod: {
      if (!int) return a % b;
      if (b === 0) return 0;
      const r = a % b;
      return r !== 0 && r < 0 !== b < 0 ? r + b : r;
    }
    case EWOP.less:
      return a < b ? 1 : 0;
    case EWOP.greater:
      return a > b ? 1 : 0;
    case EWOP.lessOrEqual:
      return a <= b ? 1 : 0;
    case EWOP.greaterOrEqual:
      return a >= b ? 1 : 0;
    case EWOP.equal:
      return a === b ? 1 : 0;
    case EWOP.and:
      return a !== 0 && b !== 0 ? 1 : 0;
    case EWOP.or:
      return a !== 0 || b !== 0 ? 1 : 0;
    case EWOP.xor:
      return (a !== 0) !== (b !== 0) ? 1 : 0;
    case EWOP.not:
      return a === 0 ? 1 : 0;
    case EWOP.where:
      return a !== 0 ? b : c;
    case EWOP.min:
      return Math.min(a, b);
    case EWOP.max:
      return Math.max(a, b);
    default:
      return int ? Math.trunc(a) : a;
  }
}

/** Offsets of output element i in each strided operand. */
export function* strided(dims: readonly number[], strides: readonly (readonly number[])[], xOff = 0): Generator<number[]> {
  const total = dims.reduce((p, d) => p * d, 1);
  for (let i = 0; i < total; i++) {
    let rem = i;
    const off = strides.map(() => xOff);
    for (let d = dims.length - 1; d >= 0; d--) {
      const dim = dims[d] ?? 1;
      const idx = rem % dim;
      rem = Math.floor(rem / dim);
      strides.forEach((s, k) => {
        off[k] = (off[k] ?? 0) + idx * (s[d] ?? 0);
      });
    }
    yield off;
  }
}

/** Runs one layer of these kinds; false for any other kind. */
export function runIndexingLayer(m: RefMemory, l: CudaLayer): boolean {
  switch (l.kind) {
    case 'ew': {
      const A = reader(m, l.a, l.ta);
      const B = reader(m, l.b, l.tb);
      const C = reader(m, l.c, l.tc);
      const y = view(m, l.y, l.ty === 'f16' ? 2 : 4, l.ty === 'i32');
      let i = 0;
      for (const [ia = 0, ib = 0, ic = 0] of strided(l.dims, [l.sa, l.sb, l.sc])) {
        let v = ewOp(l.op, A(ia), B(ib), C(ic), l.int === 1);
        if (l.ty === 'f16') v = floatToHalf(v);
        else if (l.ty === 'i32') v = Math.trunc(v);
        else v = Math.fround(v);
        y[i++] = v;
      }
      return true;
    }
    case 'gather': {
      const x = view(m, l.x, l.elem);
      const y = view(m, l.y, l.elem);
      let i = 0;
      for (const [o = 0] of strided(l.dims, [l.inStrides], l.xOff)) y[i++] = x[o] ?? 0;
      return true;
    }
    case 'gather_elements': {
      const x = view(m, l.x, l.elem);
      const idx = view(m, l.idx, 4);
      const y = view(m, l.y, l.elem);
      const total = l.dims.reduce((p, d) => p * d, 1);
      for (let i = 0; i < total; i++) {
        let rem = i;
        let src = 0;
        for (let d = l.dims.length - 1; d >= 0; d--) {
          const dim = l.dims[d] ?? 1;
          let c = rem % dim;
          rem = Math.floor(rem / dim);
          if (d === l.axis) {
            c = Math.trunc(idx[i] ?? 0);
            if (c < 0) c += l.axisLen;
          }
          src += c * (l.xStrides[d] ?? 0);
        }
        y[i] = x[src] ?? 0;
      }
      return true;
    }
    case 'topk': {
      const x = view(m, l.x, 2);
      const vals = view(m, l.values, 2);
      const inds = view(m, l.indices, 4);
      for (let o = 0; o < l.outer; o++)
        for (let inn = 0; inn < l.inner; inn++) {
          const base = o * l.len * l.inner + inn;
          const order = [...new Array<number>(l.len).keys()].map((j) => ({ j, v: halfToFloat(x[base + j * l.inner] ?? 0) }));
          order.sort((p, q) => (p.v !== q.v ? (l.largest === 1 ? q.v - p.v : p.v - q.v) : p.j - q.j));
          for (let r = 0; r < l.k; r++) {
            const e = order[r];
            const oi = (o * l.k + r) * l.inner + inn;
            vals[oi] = floatToHalf(e?.v ?? 0);
            inds[oi] = e?.j ?? 0;
          }
        }
      return true;
    }
    case 'resize': {
      const x = view(m, l.x, 2);
      const y = view(m, l.y, 2);
      const src = (o: number, scale: number, inLen: number, outLen: number): number => {
        switch (l.coord) {
          case 1:
            return o / scale;
          case 2:
            return outLen === 1 ? 0 : (o * (inLen - 1)) / (outLen - 1);
          case 3:
            return outLen === 1 ? 0 : (o + 0.5) / scale - 0.5;
          default:
            return (o + 0.5) / scale - 0.5;
        }
      };
      const near = (v: number, len: number): number => {
        const f = Math.floor(v);
        let r: number;
        if (l.nearest === 2) r = f;
        else if (l.nearest === 3) r = Math.ceil(v);
        else if (v - f === 0.5) r = l.nearest === 1 ? f + 1 : f;
        else r = Math.round(v);
        return Math.min(Math.max(r, 0), len - 1);
      };
      const px = (b: number, yy: number, xx: number, ch: number): number => halfToFloat(x[((b * l.h + yy) * l.w + xx) * l.c + ch] ?? 0);
      for (let b = 0; b < l.n; b++)
        for (let oy = 0; oy < l.oh; oy++)
          for (let ox = 0; ox < l.ow; ox++) {
            const sy = src(oy, l.scaleH, l.h, l.oh);
            const sx = src(ox, l.scaleW, l.w, l.ow);
            for (let ch = 0; ch < l.c; ch++) {
              let v: number;
              if (l.linear === 0) v = px(b, near(sy, l.h), near(sx, l.w), ch);
              else {
                const cy = Math.min(Math.max(sy, 0), l.h - 1);
                const cx = Math.min(Math.max(sx, 0), l.w - 1);
                const y0 = Math.floor(cy);
                const x0 = Math.floor(cx);
                const y1 = Math.min(y0 + 1, l.h - 1);
                const x1 = Math.min(x0 + 1, l.w - 1);
                const fy = cy - y0;
                const fx = cx - x0;
                v = (1 - fy) * ((1 - fx) * px(b, y0, x0, ch) + fx * px(b, y0, x1, ch)) + fy * ((1 - fx) * px(b, y1, x0, ch) + fx * px(b, y1, x1, ch));
              }
              y[((b * l.oh + oy) * l.ow + ox) * l.c + ch] = floatToHalf(v);
            }
          }
      return true;
    }
    case 'pad': {
      const x = view(m, l.x, l.elem);
      const y = view(m, l.y, l.elem);
      const fill = l.elem === 2 ? floatToHalf(l.value) : l.value;
      const total = l.dims.reduce((p, d) => p * d, 1);
      for (let i = 0; i < total; i++) {
        let rem = i;
        let src = 0;
        let mul = 1;
        let inside = true;
        for (let d = l.dims.length - 1; d >= 0; d--) {
          const dim = l.dims[d] ?? 1;
          const c = (rem % dim) - (l.before[d] ?? 0);
          rem = Math.floor(rem / dim);
          const inDim = l.inDims[d] ?? 1;
          if (c < 0 || c >= inDim) inside = false;
          src += c * mul;
          mul *= inDim;
        }
        y[i] = inside ? (x[src] ?? 0) : fill;
      }
      return true;
    }
    default:
      return false;
  }
}
