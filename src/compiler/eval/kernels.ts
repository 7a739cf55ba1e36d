import { DT, allocData, readNumber, writeNumber, type ElemType, type NumericData } from '../../tensor/onnx-dtype.ts';
import { attrFloat, attrInt, attrInts, attrTensor, type Graph, type Node } from '../ir/graph.ts';
import { broadcastShapes, reshapeDims } from '../ir/shape-inference.ts';
import { numel, toIntArray, type ConstTensor } from '../ir/tensor.ts';

/**
 * A small reference evaluator for constant folding: the operators that shape computations and weight
 * preprocessing use (ONNX operator specs). Values are computed in float64 and written back in the output
 * element type; an operator it does not implement returns undefined and the node stays in the graph.
 */

type Num = ConstTensor & { readonly data: NumericData };

function isNum(t: ConstTensor | undefined): t is Num {
  return t !== undefined && !Array.isArray(t.data);
}

function values(t: Num): Float64Array {
  const out = new Float64Array(t.data.length);
  for (let i = 0; i < out.length; i++) out[i] = readNumber(t.elemType, t.data, i);
  return out;
}

function make(elemType: ElemType, dims: readonly number[], vals: ArrayLike<number>): Num {
  const data = allocData(elemType, vals.length);
  for (let i = 0; i < vals.length; i++) writeNumber(elemType, data, i, vals[i] ?? 0);
  return { elemType, dims: [...dims], data };
}

/** Same data, new dims (a view; the data is never mutated). */
function reshaped(t: Num, dims: readonly number[]): Num {
  return { elemType: t.elemType, dims: [...dims], data: t.data };
}

function strides(dims: readonly number[]): number[] {
  const s = new Array<number>(dims.length).fill(1);
  for (let i = dims.length - 2; i >= 0; i--) s[i] = (s[i + 1] ?? 1) * (dims[i + 1] ?? 1);
  return s;
}

/** Calls `f(outIndex, multiIndex)` for every element of `dims` in row-major order. */
function forEachIndex(dims: readonly number[], f: (flat: number, idx: number[]) => void): void {
  const total = numel(dims);
  const idx = new Array<number>(dims.length).fill(0);
  for (let flat = 0; flat < total; flat++) {
    f(flat, idx);
    for (let k = dims.length - 1; k >= 0; k--) {
      idx[k] = (idx[k] ?? 0) + 1;
      if ((idx[k] ?? 0) < (dims[k] ?? 1)) break;
      idx[k] = 0;
    }
  }
}

function broadcastIndexer(inDims: readonly number[], outDims: readonly number[]): (idx: number[]) => number {
  const st = strides(inDims);
  const off = outDims.length - inDims.length;
  return (idx) => {
    let p = 0;
    for (let k = 0; k < inDims.length; k++) {
      const d = inDims[k] ?? 1;
      if (d !== 1) p += (idx[k + off] ?? 0) * (st[k] ?? 0);
    }
    return p;
  };
}

function elementwise(inputs: readonly Num[], outType: ElemType, f: (xs: number[]) => number): Num | undefined {
  const shape = broadcastShapes(inputs.map((t) => t.dims));
  if (shape.some((d) => typeof d !== 'number')) return undefined;
  const outDims = shape as number[];
  const vals = inputs.map(values);
  const indexers = inputs.map((t) => broadcastIndexer(t.dims, outDims));
  const out = new Float64Array(numel(outDims));
  const args = new Array<number>(inputs.length).fill(0);
  forEachIndex(outDims, (flat, idx) => {
    for (let k = 0; k < inputs.length; k++) args[k] = vals[k]?.[indexers[k]?.(idx) ?? 0] ?? 0;
    out[flat] = f(args);
  });
  return make(outType, outDims, out);
}

function isIntType(t: ElemType): boolean {
  return t !== DT.FLOAT && t !== DT.DOUBLE && t !== DT.FLOAT16 && t !== DT.BFLOAT16;
}

const UNARY: Record<string, (x: number) => number> = {
  Neg: (x) => -x,
  Abs: Math.abs,
  Sqrt: Math.sqrt,
  Reciprocal: (x) => 1 / x,
  Exp: Math.exp,
  Log: Math.log,
  Floor: Math.floor,
  Ceil: Math.ceil,
  Relu: (x) => Math.max(0, x),
  Sigmoid: (x) => 1 / (1 + Math.exp(-x)),
  Tanh: Math.tanh,
  Sign: Math.sign,
  Round: roundHalfEven,
};

function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function binary(op: string, intMath: boolean): ((xs: number[]) => number) | undefined {
  const a = (xs: number[]): number => xs[0] ?? 0;
  const b = (xs: number[]): number => xs[1] ?? 0;
  switch (op) {
    case 'Add':
      return (xs) => a(xs) + b(xs);
    case 'Sub':
      return (xs) => a(xs) - b(xs);
    case 'Mul':
      return (xs) => a(xs) * b(xs);
    case 'Div':
      return intMath ? (xs) => Math.trunc(a(xs) / b(xs)) : (xs) => a(xs) / b(xs);
    case 'Pow':
      return (xs) => a(xs) ** b(xs);
    case 'Equal':
      return (xs) => (a(xs) === b(xs) ? 1 : 0);
    case 'Less':
      return (xs) => (a(xs) < b(xs) ? 1 : 0);
    case 'Greater':
      return (xs) => (a(xs) > b(xs) ? 1 : 0);
    case 'LessOrEqual':
      return (xs) => (a(xs) <= b(xs) ? 1 : 0);
    case 'GreaterOrEqual':
      return (xs) => (a(xs) >= b(xs) ? 1 : 0);
    case 'And':
      return (xs) => (a(xs) !== 0 && b(xs) !== 0 ? 1 : 0);
    case 'Or':
      return (xs) => (a(xs) !== 0 || b(xs) !== 0 ? 1 : 0);
    case 'Xor':
      return (xs) => ((a(xs) !== 0) !== (b(xs) !== 0) ? 1 : 0);
    case 'Max':
      return (xs) => Math.max(...xs);
    case 'Min':
      return (xs) => Math.min(...xs);
    case 'Sum':
      return (xs) => xs.reduce((s, x) => s + x, 0);
    case 'Mean':
      return (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
    default:
      return undefined;
  }
}

function normAxis(axis: number, rank: number): number {
  return axis < 0 ? axis + rank : axis;
}

function transpose(t: Num, perm: readonly number[]): Num {
  const inSt = strides(t.dims);
  const outDims = perm.map((p) => t.dims[p] ?? 1);
  const out = allocData(t.elemType, t.data.length);
  const src = t.data as ArrayLike<number | bigint> & { [i: number]: number | bigint };
  const dst = out as unknown as { [i: number]: number | bigint };
  forEachIndex(outDims, (flat, idx) => {
    let p = 0;
    for (let k = 0; k < perm.length; k++) p += (idx[k] ?? 0) * (inSt[perm[k] ?? 0] ?? 0);
    dst[flat] = src[p] ?? 0;
  });
  return { elemType: t.elemType, dims: outDims, data: out };
}

/** Copies elements selected by a per-output-index source function (gather, slice, concat, tile, expand). */
function select(t: Num, outDims: readonly number[], srcIndex: (idx: number[]) => number): Num {
  const out = allocData(t.elemType, numel(outDims));
  const src = t.data as unknown as { [i: number]: number | bigint };
  const dst = out as unknown as { [i: number]: number | bigint };
  forEachIndex(outDims, (flat, idx) => {
    dst[flat] = src[srcIndex(idx)] ?? 0;
  });
  return { elemType: t.elemType, dims: [...outDims], data: out };
}

function inputsConst(n: Node, inputs: readonly (ConstTensor | undefined)[]): inputs is readonly Num[] {
  for (let i = 0; i < n.inputs.length; i++) if (n.inputs[i] !== '' && !isNum(inputs[i])) return false;
  return true;
}

/**
 * Evaluates one node on constant inputs (aligned with `n.inputs`, undefined for omitted optional inputs);
 * undefined when it cannot (unknown op, unsupported type).
 */
export function evaluate(g: Graph, n: Node, inputs: readonly (ConstTensor | undefined)[]): ConstTensor[] | undefined {
  if (n.domain !== '') return undefined;
  const op = n.opType;
  const x = inputs[0];

  if (op === 'Constant') {
    const v = attrTensor(n, 'value');
    if (v !== undefined) return [v];
    const a = n.attrs.get('value_float') ?? n.attrs.get('value_floats') ?? n.attrs.get('value_int') ?? n.attrs.get('value_ints');
    if (a?.kind === 'float') return [make(DT.FLOAT, [], [a.value])];
    if (a?.kind === 'floats') return [make(DT.FLOAT, [a.value.length], a.value)];
    if (a?.kind === 'int') return [make(DT.INT64, [], [a.value])];
    if (a?.kind === 'ints') return [make(DT.INT64, [a.value.length], a.value)];
    return undefined;
  }
  // The caller folds a node only when every non-empty input is a constant.
  if (!inputsConst(n, inputs)) return undefined;

  switch (op) {
    case 'Identity':
      return x === undefined ? undefined : [x];
    case 'Cast': {
      if (!isNum(x)) return undefined;
      const to = attrInt(n, 'to', 0);
      if (to === DT.STRING || to === DT.UNDEFINED) return undefined;
      return [make(to, x.dims, values(x))];
    }
    case 'Shape': {
      if (!isNum(x)) return undefined;
      const r = x.dims.length;
      const clampAxis = (v: number): number => Math.min(Math.max(v < 0 ? v + r : v, 0), r);
      return [
        make(
          DT.INT64,
          [Math.max(0, clampAxis(attrInt(n, 'end', r)) - clampAxis(attrInt(n, 'start', 0)))],
          x.dims.slice(clampAxis(attrInt(n, 'start', 0)), clampAxis(attrInt(n, 'end', r))),
        ),
      ];
    }
    case 'Size':
      return isNum(x) ? [make(DT.INT64, [], [numel(x.dims)])] : undefined;
    case 'Reshape': {
      const shapeT = inputs[1];
      if (!isNum(x) || !isNum(shapeT)) return undefined;
      const dims = reshapeDims(x.dims, toIntArray(shapeT), attrInt(n, 'allowzero', 0) === 1);
      if (dims.some((d) => typeof d !== 'number') || numel(dims as number[]) !== x.data.length) return undefined;
      return [reshaped(x, dims as number[])];
    }
    case 'Flatten': {
      if (!isNum(x)) return undefined;
      const axis = normAxis(attrInt(n, 'axis', 1), x.dims.length);
      return [reshaped(x, [numel(x.dims.slice(0, axis)), numel(x.dims.slice(axis))])];
    }
    case 'Squeeze':
    case 'Unsqueeze': {
      if (!isNum(x)) return undefined;
      const axesT = inputs[1];
      const axes = attrInts(n, 'axes') ?? (isNum(axesT) ? toIntArray(axesT) : undefined);
      if (op === 'Squeeze') {
        const set = axes === undefined ? undefined : new Set(axes.map((a) => normAxis(a, x.dims.length)));
        return [
          reshaped(
            x,
            x.dims.filter((d, i) => (set === undefined ? d !== 1 : !set.has(i))),
          ),
        ];
      }
      if (axes === undefined) return undefined;
      const rank = x.dims.length + axes.length;
      const set = new Set(axes.map((a) => normAxis(a, rank)));
      const dims: number[] = [];
      let j = 0;
      for (let i = 0; i < rank; i++) dims.push(set.has(i) ? 1 : (x.dims[j++] ?? 1));
      return [reshaped(x, dims)];
    }
    case 'Concat': {
      const ts = inputs as readonly Num[];
      const first = ts[0];
      if (first === undefined) return undefined;
      const axis = normAxis(attrInt(n, 'axis', 0), first.dims.length);
      const outDims = [...first.dims];
      outDims[axis] = ts.reduce((s, t) => s + (t.dims[axis] ?? 0), 0);
      const out = allocData(first.elemType, numel(outDims));
      const dst = out as unknown as { [i: number]: number | bigint };
      const outer = numel(first.dims.slice(0, axis));
      let pos = 0;
      for (let o = 0; o < outer; o++) {
        for (const t of ts) {
          const block = numel(t.dims.slice(axis));
          const src = t.data as unknown as { [i: number]: number | bigint };
          for (let k = 0; k < block; k++) dst[pos++] = src[o * block + k] ?? 0;
        }
      }
      return [{ elemType: first.elemType, dims: outDims, data: out }];
    }
    case 'Gather': {
      const idxT = inputs[1];
      if (!isNum(x) || !isNum(idxT)) return undefined;
      const axis = normAxis(attrInt(n, 'axis', 0), x.dims.length);
      const idx = toIntArray(idxT).map((v) => (v < 0 ? v + (x.dims[axis] ?? 0) : v));
      if (idx.some((v) => v < 0 || v >= (x.dims[axis] ?? 0))) return undefined;
      const outDims = [...x.dims.slice(0, axis), ...idxT.dims, ...x.dims.slice(axis + 1)];
      const st = strides(x.dims);
      const ir = idxT.dims.length;
      const idxSt = strides(idxT.dims);
      return [
        select(x, outDims, (o) => {
          let p = 0;
          for (let k = 0; k < axis; k++) p += (o[k] ?? 0) * (st[k] ?? 0);
          let flatIdx = 0;
          for (let k = 0; k < ir; k++) flatIdx += (o[axis + k] ?? 0) * (idxSt[k] ?? 0);
          p += (idx[flatIdx] ?? 0) * (st[axis] ?? 0);
          for (let k = axis + 1; k < x.dims.length; k++) p += (o[k - 1 + ir] ?? 0) * (st[k] ?? 0);
          return p;
        }),
      ];
    }
    case 'Slice': {
      if (!isNum(x) || g.opset < 10) return undefined;
      const get = (i: number): number[] | undefined => {
        const t = inputs[i];
        return isNum(t) ? toIntArray(t) : undefined;
      };
      const starts = get(1);
      const ends = get(2);
      if (starts === undefined || ends === undefined) return undefined;
      const axes = get(3) ?? starts.map((_, i) => i);
      const steps = get(4) ?? starts.map(() => 1);
      const r = x.dims.length;
      const begin = new Array<number>(r).fill(0);
      const step = new Array<number>(r).fill(1);
      const outDims = [...x.dims];
      axes.forEach((a0, i) => {
        const a = normAxis(a0, r);
        const dim = x.dims[a] ?? 0;
        const s = steps[i] ?? 1;
        let st = starts[i] ?? 0;
        let en = ends[i] ?? dim;
        st = st < 0 ? st + dim : st;
        en = en < 0 ? en + dim : en;
        if (s > 0) {
          st = Math.min(Math.max(st, 0), dim);
          en = Math.min(Math.max(en, 0), dim);
        } else {
          st = Math.min(Math.max(st, -1), dim - 1);
          en = Math.min(Math.max(en, -1), dim - 1);
        }
        begin[a] = st;
        step[a] = s;
        outDims[a] = Math.max(0, Math.ceil((en - st) / s));
      });
      const st = strides(x.dims);
      return [
        select(x, outDims, (o) => {
          let p = 0;
          for (let k = 0; k < r; k++) p += ((begin[k] ?? 0) + (o[k] ?? 0) * (step[k] ?? 1)) * (st[k] ?? 0);
          return p;
        }),
      ];
    }
    case 'Transpose': {
      if (!isNum(x)) return undefined;
      const perm = attrInts(n, 'perm') ?? x.dims.map((_, i) => x.dims.length - 1 - i);
      return [transpose(x, perm)];
    }
    case 'ConstantOfShape': {
      const shapeT = inputs[0];
      if (!isNum(shapeT)) return undefined;
      const dims = toIntArray(shapeT);
      const v = attrTensor(n, 'value');
      const elemType = v?.elemType ?? DT.FLOAT;
      const fill = v !== undefined && isNum(v) ? readNumber(v.elemType, v.data, 0) : 0;
      return [make(elemType, dims, new Float64Array(numel(dims)).fill(fill))];
    }
    case 'Range': {
      const [s, l, d] = inputs;
      if (!isNum(s) || !isNum(l) || !isNum(d)) return undefined;
      const start = readNumber(s.elemType, s.data, 0);
      const limit = readNumber(l.elemType, l.data, 0);
      const delta = readNumber(d.elemType, d.data, 0);
      if (delta === 0) return undefined;
      const count = Math.max(Math.ceil((limit - start) / delta), 0);
      return [
        make(
          s.elemType,
          [count],
          Array.from({ length: count }, (_, i) => start + i * delta),
        ),
      ];
    }
    case 'Expand': {
      const shapeT = inputs[1];
      if (!isNum(x) || !isNum(shapeT)) return undefined;
      const outDims = broadcastShapes([x.dims, toIntArray(shapeT)]) as number[];
      const ix = broadcastIndexer(x.dims, outDims);
      return [select(x, outDims, ix)];
    }
    case 'Tile': {
      const repT = inputs[1];
      if (!isNum(x) || !isNum(repT)) return undefined;
      const reps = toIntArray(repT);
      const outDims = x.dims.map((d, i) => d * (reps[i] ?? 1));
      const st = strides(x.dims);
      return [select(x, outDims, (o) => o.reduce((p, v, k) => p + (v % (x.dims[k] ?? 1)) * (st[k] ?? 0), 0))];
    }
    case 'Where': {
      const ts = inputs as readonly Num[];
      const t1 = ts[1];
      if (ts.length !== 3 || t1 === undefined) return undefined;
      const r = elementwise(ts, t1.elemType, (v) => ((v[0] ?? 0) !== 0 ? (v[1] ?? 0) : (v[2] ?? 0)));
      return r === undefined ? undefined : [r];
    }
    case 'Clip': {
      if (!isNum(x)) return undefined;
      const lo = isNum(inputs[1]) ? readNumber(inputs[1].elemType, inputs[1].data, 0) : attrFloat(n, 'min', -Infinity);
      const hi = isNum(inputs[2]) ? readNumber(inputs[2].elemType, inputs[2].data, 0) : attrFloat(n, 'max', Infinity);
      return [
        make(
          x.elemType,
          x.dims,
          values(x).map((v) => Math.min(Math.max(v, lo), hi)),
        ),
      ];
    }
    default:
      break;
  }
  if (UNARY[op] !== undefined && isNum(x)) {
    const f = UNARY[op];
    const vals = values(x).map(f);
    return [make(x.elemType, x.dims, vals)];
  }
  if (op === 'Not' && isNum(x))
    return [
      make(
        DT.BOOL,
        x.dims,
        values(x).map((v) => (v === 0 ? 1 : 0)),
      ),
    ];
  const ts = inputs as readonly Num[];
  const t0 = ts[0];
  if (t0 !== undefined) {
    const f = binary(op, isIntType(t0.elemType));
    if (f !== undefined) {
      const boolOut = ['Equal', 'Less', 'Greater', 'LessOrEqual', 'GreaterOrEqual', 'And', 'Or', 'Xor'].includes(op);
      const r = elementwise(ts, boolOut ? DT.BOOL : t0.elemType, f);
      return r === undefined ? undefined : [r];
    }
  }
  if (op.startsWith('Reduce') && isNum(x)) return reduce(n, x, inputs[1]);
  return undefined;
}

function reduce(n: Node, x: Num, axesInput: ConstTensor | undefined): ConstTensor[] | undefined {
  const kinds: Record<string, [number, (acc: number, v: number) => number]> = {
    ReduceSum: [0, (a, v) => a + v],
    ReduceProd: [1, (a, v) => a * v],
    ReduceMax: [-Infinity, Math.max],
    ReduceMin: [Infinity, Math.min],
    ReduceMean: [0, (a, v) => a + v],
  };
  const k = kinds[n.opType];
  if (k === undefined) return undefined;
  let axes = attrInts(n, 'axes') ?? (isNum(axesInput) ? toIntArray(axesInput) : undefined);
  if (axes === undefined || axes.length === 0) {
    if (attrInt(n, 'noop_with_empty_axes', 0) === 1) return [x];
    axes = x.dims.map((_, i) => i);
  }
  const set = new Set(axes.map((a) => normAxis(a, x.dims.length)));
  const keep = attrInt(n, 'keepdims', 1) === 1;
  const keptDims = x.dims.map((d, i) => (set.has(i) ? 1 : d));
  const acc = new Float64Array(numel(keptDims)).fill(k[0]);
  const counts = new Float64Array(acc.length);
  const vals = values(x);
  const ost = strides(keptDims);
  forEachIndex(x.dims, (flat, idx) => {
    let p = 0;
    for (let i = 0; i < idx.length; i++) if (!set.has(i)) p += (idx[i] ?? 0) * (ost[i] ?? 0);
    acc[p] = k[1](acc[p] ?? 0, vals[flat] ?? 0);
    counts[p] = (counts[p] ?? 0) + 1;
  });
  if (n.opType === 'ReduceMean') for (let i = 0; i < acc.length; i++) acc[i] = (acc[i] ?? 0) / Math.max(1, counts[i] ?? 1);
  const outDims = keep ? keptDims : x.dims.filter((_, i) => !set.has(i));
  return [make(x.elemType, outDims, acc)];
}
