import { rtError } from '../../errors/registry.ts';
import { DT, type ElemType } from '../../tensor/onnx-dtype.ts';
import { attrInt, attrInts, attrString, attrTensor, type Dim, type Graph, type Node, type ValueType } from './graph.ts';
import { toIntArray, type ConstTensor } from './tensor.ts';
import { BROADCAST_BOOL, BROADCAST_SAME, REDUCE, SAME_AS_INPUT0 } from './op-classes.ts';

/**
 * Type and shape inference for the operators the compiler rewrites or has to see through (ONNX operator specs,
 * https://onnx.ai/onnx/operators/). An operator it does not know keeps whatever type the model's value_info
 * declared, or stays unknown; passes treat unknown types conservatively (no rewrite).
 */

function fail(n: Node, why: string): never {
  throw rtError('BAD_CONFIG', `node '${n.name}' (${n.opType}): ${why}`);
}

export function broadcastShapes(shapes: readonly (readonly Dim[])[], n?: Node): Dim[] {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  const out: Dim[] = [];
  for (let i = 0; i < rank; i++) {
    let d: Dim = 1;
    for (const s of shapes) {
      const x = s[s.length - rank + i];
      if (x === undefined) continue;
      if (x === 1) continue;
      if (d === 1) d = x;
      else if (typeof d === 'number' && typeof x === 'number') {
        if (d !== x) {
          if (n !== undefined) fail(n, `cannot broadcast shapes ${shapes.map((q) => `[${q.join(',')}]`).join(' and ')}`);
          d = null;
        }
      } else if (typeof d === 'number' && d > 1) {
        // a static dim > 1 wins over a symbolic one (which must then equal it or be 1)
      } else if (typeof x === 'number' && x > 1) d = x;
      else if (d !== x) d = null;
    }
    out.push(d);
  }
  return out;
}

function normAxis(axis: number, rank: number): number {
  return axis < 0 ? axis + rank : axis;
}

function prodDims(dims: readonly Dim[]): Dim {
  let p = 1;
  for (const d of dims) {
    if (typeof d !== 'number') return null;
    p *= d;
  }
  return p;
}

/** A convolution or pooling output size (ONNX Conv / MaxPool spec, including auto_pad and ceil_mode). */
function windowOut(n: Node, inShape: readonly Dim[], kernel: readonly number[], ceil: boolean): Dim[] {
  const spatial = inShape.length - 2;
  const strides = attrInts(n, 'strides') ?? new Array<number>(spatial).fill(1);
  const dilations = attrInts(n, 'dilations') ?? new Array<number>(spatial).fill(1);
  const pads = attrInts(n, 'pads') ?? new Array<number>(spatial * 2).fill(0);
  const autoPad = attrString(n, 'auto_pad', 'NOTSET');
  const out: Dim[] = [];
  for (let i = 0; i < spatial; i++) {
    const x = inShape[i + 2];
    const s = strides[i] ?? 1;
    if (typeof x !== 'number') {
      out.push(null);
      continue;
    }
    const k = ((kernel[i] ?? 1) - 1) * (dilations[i] ?? 1) + 1;
    if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') out.push(Math.ceil(x / s));
    else if (autoPad === 'VALID') out.push(Math.floor((x - k) / s) + 1);
    else {
      const total = x + (pads[i] ?? 0) + (pads[i + spatial] ?? 0) - k;
      out.push((ceil ? Math.ceil(total / s) : Math.floor(total / s)) + 1);
    }
  }
  return out;
}

/** Evaluates a Reshape target shape against the input shape (0 copies, -1 infers; allowzero keeps 0). */
export function reshapeDims(input: readonly Dim[] | null, target: readonly number[], allowZero: boolean): Dim[] {
  const copied = new Set<number>();
  const out: Dim[] = target.map((t, i) => {
    if (t === 0 && !allowZero) {
      copied.add(i);
      return input?.[i] ?? null;
    }
    return t;
  });
  const minus = out.indexOf(-1);
  if (minus >= 0) {
    // Dims copied at the same position cancel out, so a symbolic batch dim does not hide the -1's size.
    const rest = input === null ? null : prodDims(input.filter((_, i) => !copied.has(i)));
    const known = prodDims(out.filter((_, i) => i !== minus && !copied.has(i)));
    out[minus] = typeof rest === 'number' && typeof known === 'number' && known > 0 ? rest / known : null;
  }
  return out;
}

function constOf(g: Graph, name: string | undefined): ConstTensor | undefined {
  if (name === undefined || name === '') return undefined;
  return g.initializers.get(name);
}

function constInts(g: Graph, name: string | undefined): number[] | undefined {
  const t = constOf(g, name);
  return t === undefined ? undefined : toIntArray(t);
}

/** Axes from the attribute (older opsets) or the second input (newer opsets). */
function axesOf(g: Graph, n: Node, inputIndex: number): number[] | undefined {
  const a = attrInts(n, 'axes');
  if (a !== undefined) return [...a];
  return constInts(g, n.inputs[inputIndex]);
}

/** Infers the output types of one node; returns undefined entries for outputs it cannot tell. */
export function inferNode(g: Graph, n: Node): (ValueType | undefined)[] {
  const t = (i: number): ValueType | undefined => {
    const name = n.inputs[i];
    return name === undefined || name === '' ? undefined : g.typeOf(name);
  };
  const x = t(0);
  const xs = x?.shape ?? null;
  const et0 = x?.elemType ?? DT.UNDEFINED;
  const same = (shape: readonly Dim[] | null, elemType: ElemType = et0): ValueType | undefined =>
    elemType === DT.UNDEFINED ? undefined : { elemType, shape };
  const op = n.opType;
  const isMs = n.domain === 'com.microsoft';
  if (n.domain !== '' && !isMs) return [];

  if (op === 'Dropout') return [same(xs), { elemType: DT.BOOL, shape: xs }];
  if (op === 'BatchNormalization' || op === 'LayerNormalization') return [same(xs)];
  if (SAME_AS_INPUT0.has(op)) return [same(xs)];
  if (op === 'FusedConv' && isMs) return inferNode(g, { ...n, opType: 'Conv', domain: '' });
  if (op === 'FusedGemm' && isMs) return inferNode(g, { ...n, opType: 'Gemm', domain: '' });
  if (isMs) return [];
  if (BROADCAST_SAME.has(op) || BROADCAST_BOOL.has(op) || op === 'Where') {
    const types = n.inputs.map((_, i) => t(i));
    const elemType = op === 'Where' ? (types[1]?.elemType ?? DT.UNDEFINED) : BROADCAST_BOOL.has(op) ? DT.BOOL : et0;
    const shape = types.every((y) => y?.shape != null)
      ? broadcastShapes(
          types.map((y) => y?.shape ?? []),
          n,
        )
      : null;
    return [same(shape, elemType)];
  }
  if (op === 'IsNaN' || op === 'IsInf') return [{ elemType: DT.BOOL, shape: xs }];
  if (op === 'Cast') return [{ elemType: attrInt(n, 'to', DT.UNDEFINED), shape: xs }];
  if (op === 'CastLike') return [{ elemType: t(1)?.elemType ?? DT.UNDEFINED, shape: xs }];

  switch (op) {
    case 'Conv': {
      const w = t(1)?.shape ?? null;
      if (xs === null) return [same(null)];
      const kernel = attrInts(n, 'kernel_shape') ?? (w === null ? undefined : w.slice(2).map((d) => (typeof d === 'number' ? d : 1)));
      const m = w?.[0] ?? null;
      if (kernel === undefined) return [same([xs[0] ?? null, m, ...xs.slice(2).map(() => null)])];
      return [same([xs[0] ?? null, m, ...windowOut(n, xs, kernel, false)])];
    }
    case 'ConvTranspose': {
      const w = t(1)?.shape ?? null;
      const group = attrInt(n, 'group', 1);
      const m = typeof w?.[1] === 'number' ? w[1] * group : null;
      if (xs === null) return [same(null)];
      const outShape = attrInts(n, 'output_shape');
      if (outShape !== undefined) return [same([xs[0] ?? null, m, ...outShape])];
      const spatial = xs.length - 2;
      const strides = attrInts(n, 'strides') ?? new Array<number>(spatial).fill(1);
      const pads = attrInts(n, 'pads') ?? new Array<number>(spatial * 2).fill(0);
      const dil = attrInts(n, 'dilations') ?? new Array<number>(spatial).fill(1);
      const outPad = attrInts(n, 'output_padding') ?? new Array<number>(spatial).fill(0);
      const kernel = attrInts(n, 'kernel_shape') ?? w?.slice(2).map((d) => (typeof d === 'number' ? d : 1)) ?? [];
      const autoPad = attrString(n, 'auto_pad', 'NOTSET');
      const dims: Dim[] = [];
      for (let i = 0; i < spatial; i++) {
        const xi = xs[i + 2];
        if (typeof xi !== 'number' || kernel[i] === undefined) {
          dims.push(null);
          continue;
        }
        const s = strides[i] ?? 1;
        if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') dims.push(xi * s);
        else dims.push(s * (xi - 1) + (outPad[i] ?? 0) + ((kernel[i] ?? 1) - 1) * (dil[i] ?? 1) + 1 - (pads[i] ?? 0) - (pads[i + spatial] ?? 0));
      }
      return [same([xs[0] ?? null, m, ...dims])];
    }
    case 'MaxPool':
    case 'AveragePool':
    case 'LpPool': {
      if (xs === null) return [same(null), { elemType: DT.INT64, shape: null }];
      const kernel = attrInts(n, 'kernel_shape') ?? [];
      const s: Dim[] = [xs[0] ?? null, xs[1] ?? null, ...windowOut(n, xs, kernel, attrInt(n, 'ceil_mode', 0) === 1)];
      return [same(s), { elemType: DT.INT64, shape: s }];
    }
    case 'GlobalAveragePool':
    case 'GlobalMaxPool':
    case 'GlobalLpPool':
      return [same(xs === null ? null : [xs[0] ?? null, xs[1] ?? null, ...xs.slice(2).map(() => 1)])];
    case 'Gemm': {
      const b = t(1)?.shape ?? null;
      const ta = attrInt(n, 'transA', 0) === 1;
      const tb = attrInt(n, 'transB', 0) === 1;
      const mDim = xs === null ? null : ((ta ? xs[1] : xs[0]) ?? null);
      const nDim = b === null ? null : ((tb ? b[0] : b[1]) ?? null);
      return [same([mDim, nDim])];
    }
    case 'MatMul':
    case 'MatMulInteger': {
      const b = t(1)?.shape ?? null;
      const elemType = op === 'MatMulInteger' ? DT.INT32 : et0;
      if (xs === null || b === null) return [same(null, elemType)];
      const a2 = xs.length === 1 ? [1, xs[0] ?? null] : xs;
      const b2 = b.length === 1 ? [b[0] ?? null, 1] : b;
      const batch = broadcastShapes([a2.slice(0, -2), b2.slice(0, -2)], n);
      const out: Dim[] = [...batch];
      if (xs.length !== 1) out.push(a2[a2.length - 2] ?? null);
      if (b.length !== 1) out.push(b2[b2.length - 1] ?? null);
      return [same(out, elemType)];
    }
    case 'Flatten': {
      if (xs === null) return [same(null)];
      const axis = normAxis(attrInt(n, 'axis', 1), xs.length);
      return [same([prodDims(xs.slice(0, axis)), prodDims(xs.slice(axis))])];
    }
    case 'Reshape': {
      const target = constInts(g, n.inputs[1]);
      if (target === undefined) {
        const st = t(1)?.shape;
        const len = st?.[0];
        return [same(typeof len === 'number' ? new Array<Dim>(len).fill(null) : null)];
      }
      return [same(reshapeDims(xs, target, attrInt(n, 'allowzero', 0) === 1))];
    }
    case 'Transpose': {
      if (xs === null) return [same(null)];
      const perm = attrInts(n, 'perm') ?? xs.map((_, i) => xs.length - 1 - i);
      return [same(perm.map((p) => xs[p] ?? null))];
    }
    case 'Squeeze': {
      if (xs === null) return [same(null)];
      const axes = axesOf(g, n, 1);
      if (axes === undefined) {
        if (n.inputs.length > 1 && n.inputs[1] !== '') return [same(null)];
        if (xs.some((d) => typeof d !== 'number')) return [same(null)];
        return [same(xs.filter((d) => d !== 1))];
      }
      const norm = new Set(axes.map((a) => normAxis(a, xs.length)));
      return [same(xs.filter((_, i) => !norm.has(i)))];
    }
    case 'Unsqueeze': {
      const axes = axesOf(g, n, 1);
      if (xs === null || axes === undefined) return [same(null)];
      const rank = xs.length + axes.length;
      const norm = new Set(axes.map((a) => normAxis(a, rank)));
      const out: Dim[] = [];
      let j = 0;
      for (let i = 0; i < rank; i++) out.push(norm.has(i) ? 1 : (xs[j++] ?? null));
      return [same(out)];
    }
    case 'Concat': {
      const types = n.inputs.map((_, i) => t(i));
      const first = types.find((y) => y?.shape != null)?.shape;
      if (first == null) return [same(null, types[0]?.elemType ?? DT.UNDEFINED)];
      const axis = normAxis(attrInt(n, 'axis', 0), first.length);
      const out: Dim[] = [...first];
      let total: Dim = 0;
      for (const y of types) {
        const d = y?.shape?.[axis];
        total = typeof total === 'number' && typeof d === 'number' ? total + d : null;
      }
      out[axis] = total;
      return [same(out, types[0]?.elemType ?? DT.UNDEFINED)];
    }
    case 'Gather': {
      const idx = t(1)?.shape ?? null;
      if (xs === null || idx === null) return [same(null)];
      const axis = normAxis(attrInt(n, 'axis', 0), xs.length);
      return [same([...xs.slice(0, axis), ...idx, ...xs.slice(axis + 1)])];
    }
    case 'GatherElements':
      return [same(t(1)?.shape ?? null)];
    case 'Slice': {
      if (xs === null) return [same(null)];
      const old = g.opset < 10;
      const starts = old ? attrInts(n, 'starts') : constInts(g, n.inputs[1]);
      const ends = old ? attrInts(n, 'ends') : constInts(g, n.inputs[2]);
      const axes = old ? attrInts(n, 'axes') : n.inputs[3] !== undefined && n.inputs[3] !== '' ? constInts(g, n.inputs[3]) : undefined;
      const steps = old ? undefined : n.inputs[4] !== undefined && n.inputs[4] !== '' ? constInts(g, n.inputs[4]) : undefined;
      const hasAxes = old ? true : n.inputs[3] === undefined || n.inputs[3] === '' || axes !== undefined;
      const hasSteps = old ? true : n.inputs[4] === undefined || n.inputs[4] === '' || steps !== undefined;
      if (starts === undefined || ends === undefined || !hasAxes || !hasSteps) return [same(xs.map(() => null))];
      const out: Dim[] = [...xs];
      const ax = axes ?? starts.map((_, i) => i);
      ax.forEach((a, i) => {
        const k = normAxis(a, xs.length);
        const dim = xs[k];
        if (typeof dim !== 'number') {
          out[k] = null;
          return;
        }
        out[k] = sliceLength(dim, starts[i] ?? 0, ends[i] ?? dim, steps?.[i] ?? 1);
      });
      return [same(out)];
    }
    case 'Shape': {
      if (xs === null) return [{ elemType: DT.INT64, shape: [null] }];
      const r = xs.length;
      const clampAxis = (v: number): number => Math.min(Math.max(v < 0 ? v + r : v, 0), r);
      const start = clampAxis(attrInt(n, 'start', 0));
      const end = clampAxis(attrInt(n, 'end', r));
      return [{ elemType: DT.INT64, shape: [Math.max(0, end - start)] }];
    }
    case 'Size':
      return [{ elemType: DT.INT64, shape: [] }];
    case 'NonZero':
      return [{ elemType: DT.INT64, shape: xs === null ? null : [xs.length, null] }];
    case 'ConstantOfShape': {
      const v = attrTensor(n, 'value');
      const dims = constInts(g, n.inputs[0]);
      const len = t(0)?.shape?.[0];
      return [{ elemType: v?.elemType ?? DT.FLOAT, shape: dims ?? (typeof len === 'number' ? new Array<Dim>(len).fill(null) : null) }];
    }
    case 'Constant': {
      const v = attrTensor(n, 'value');
      if (v !== undefined) return [{ elemType: v.elemType, shape: [...v.dims] }];
      const a = n.attrs.get('value_float') ?? n.attrs.get('value_int') ?? n.attrs.get('value_floats') ?? n.attrs.get('value_ints');
      if (a?.kind === 'float') return [{ elemType: DT.FLOAT, shape: [] }];
      if (a?.kind === 'int') return [{ elemType: DT.INT64, shape: [] }];
      if (a?.kind === 'floats') return [{ elemType: DT.FLOAT, shape: [a.value.length] }];
      if (a?.kind === 'ints') return [{ elemType: DT.INT64, shape: [a.value.length] }];
      return [];
    }
    case 'Range':
      return [same([null])];
    case 'Expand': {
      const target = constInts(g, n.inputs[1]);
      if (xs === null || target === undefined) return [same(null)];
      return [same(broadcastShapes([xs, target], n))];
    }
    case 'Tile': {
      const reps = constInts(g, n.inputs[1]);
      if (xs === null || reps === undefined) return [same(xs === null ? null : xs.map(() => null))];
      return [same(xs.map((d, i) => (typeof d === 'number' ? d * (reps[i] ?? 1) : null)))];
    }
    case 'Pad': {
      if (xs === null) return [same(null)];
      const pads = g.opset < 11 ? attrInts(n, 'pads') : constInts(g, n.inputs[1]);
      const axesIn = g.opset >= 18 && n.inputs[3] !== undefined && n.inputs[3] !== '' ? constInts(g, n.inputs[3]) : undefined;
      if (pads === undefined || (g.opset >= 18 && n.inputs[3] !== undefined && n.inputs[3] !== '' && axesIn === undefined))
        return [same(xs.map(() => null))];
      const axes = axesIn?.map((a) => normAxis(a, xs.length)) ?? xs.map((_, i) => i);
      const out: Dim[] = [...xs];
      axes.forEach((a, i) => {
        const d = out[a];
        out[a] = typeof d === 'number' ? d + (pads[i] ?? 0) + (pads[i + axes.length] ?? 0) : null;
      });
      return [same(out)];
    }
    case 'ArgMax':
    case 'ArgMin': {
      if (xs === null) return [{ elemType: DT.INT64, shape: null }];
      const axis = normAxis(attrInt(n, 'axis', 0), xs.length);
      const keep = attrInt(n, 'keepdims', 1) === 1;
      return [{ elemType: DT.INT64, shape: keep ? xs.map((d, i) => (i === axis ? 1 : d)) : xs.filter((_, i) => i !== axis) }];
    }
    case 'Split': {
      if (xs === null) return n.outputs.map(() => same(null));
      const axis = normAxis(attrInt(n, 'axis', 0), xs.length);
      const split = attrInts(n, 'split') ?? constInts(g, n.inputs[1]);
      const dim = xs[axis];
      return n.outputs.map((_, i) => {
        let size: Dim = null;
        if (split !== undefined) size = split[i] ?? null;
        else if (typeof dim === 'number') {
          const parts = n.outputs.length;
          const chunk = Math.ceil(dim / parts);
          size = i < parts - 1 ? chunk : dim - chunk * (parts - 1);
        }
        return same(xs.map((d, k) => (k === axis ? size : d)));
      });
    }
    case 'TopK': {
      const k = constInts(g, n.inputs[1])?.[0] ?? null;
      const axis = xs === null ? 0 : normAxis(attrInt(n, 'axis', -1), xs.length);
      const shape = xs === null ? null : xs.map((d, i) => (i === axis ? k : d));
      return [same(shape), { elemType: DT.INT64, shape }];
    }
    case 'QuantizeLinear': {
      const zp = t(2);
      const elemType = zp?.elemType ?? (attrInt(n, 'output_dtype', 0) || DT.UINT8);
      return [{ elemType, shape: xs }];
    }
    case 'DequantizeLinear':
      return [{ elemType: t(1)?.elemType ?? DT.FLOAT, shape: xs }];
    case 'DepthToSpace':
    case 'SpaceToDepth': {
      if (xs === null || xs.length !== 4) return [same(null)];
      const b = attrInt(n, 'blocksize', 1);
      const [nn, c, h, w] = xs;
      const mul = (d: Dim | undefined, f: number): Dim => (typeof d === 'number' ? d * f : null);
      const div = (d: Dim | undefined, f: number): Dim => (typeof d === 'number' ? d / f : null);
      return op === 'DepthToSpace'
        ? [same([nn ?? null, div(c, b * b), mul(h, b), mul(w, b)])]
        : [same([nn ?? null, mul(c, b * b), div(h, b), div(w, b)])];
    }
    case 'Resize':
    case 'Upsample': {
      if (xs === null) return [same(null)];
      const sizes = op === 'Resize' ? constInts(g, n.inputs[3]) : undefined;
      if (sizes !== undefined && sizes.length === xs.length) return [same(sizes)];
      const scalesT = constOf(g, op === 'Resize' ? (g.opset >= 11 ? n.inputs[2] : n.inputs[1]) : n.inputs[1]);
      if (scalesT !== undefined && !Array.isArray(scalesT.data) && scalesT.data.length === xs.length) {
        const sc = Array.from(scalesT.data as Float32Array);
        return [same(xs.map((d, i) => (typeof d === 'number' ? Math.floor(d * (sc[i] ?? 1)) : null)))];
      }
      return [same(xs.map(() => null))];
    }
    case 'EyeLike':
      return [same(xs, attrInt(n, 'dtype', 0) || et0)];
    case 'OneHot':
      return [same(null, t(2)?.elemType ?? DT.UNDEFINED)];
    case 'Einsum':
    case 'GatherND':
    case 'NonMaxSuppression':
    case 'RoiAlign':
    case 'GridSample':
      return op === 'NonMaxSuppression' ? [{ elemType: DT.INT64, shape: [null, 3] }] : [same(null)];
    default:
      if (REDUCE.has(op)) {
        if (xs === null) return [same(null)];
        const keep = attrInt(n, 'keepdims', 1) === 1;
        const axesIdx = 1;
        let axes = axesOf(g, n, axesIdx);
        const hasAxesInput = n.inputs[axesIdx] !== undefined && n.inputs[axesIdx] !== '';
        if (axes === undefined && hasAxesInput) return [same(keep ? xs.map(() => null) : null)];
        if (axes === undefined || axes.length === 0) {
          if (attrInt(n, 'noop_with_empty_axes', 0) === 1) return [same(xs)];
          axes = xs.map((_, i) => i);
        }
        const set = new Set(axes.map((a) => normAxis(a, xs.length)));
        return [same(keep ? xs.map((d, i) => (set.has(i) ? 1 : d)) : xs.filter((_, i) => !set.has(i)))];
      }
      return [];
  }
}

export function sliceLength(dim: number, start: number, end: number, step: number): number {
  const clamp = (v: number, lo: number, hi: number): number => Math.min(Math.max(v, lo), hi);
  let s = start < 0 ? start + dim : start;
  let e = end < 0 ? end + dim : end;
  if (step > 0) {
    s = clamp(s, 0, dim);
    e = clamp(e, 0, dim);
    return Math.max(0, Math.ceil((e - s) / step));
  }
  s = clamp(s, -1, dim - 1);
  e = clamp(e, -1, dim - 1);
  return Math.max(0, Math.ceil((e - s) / step));
}

/**
 * Runs inference over the whole graph in order and records every output type it can tell in `g.valueTypes`
 * (an inferred type replaces a declared one only when it is at least as specific).
 */
export function inferShapes(g: Graph): void {
  g.valueTypes = new Map(g.declaredTypes);
  for (const n of g.nodes) {
    const types = inferNode(g, n);
    n.outputs.forEach((o, i) => {
      if (o === '') return;
      const ty = types[i];
      if (ty === undefined || ty.elemType === DT.UNDEFINED) return;
      const prev = g.valueTypes.get(o);
      if (prev !== undefined && prev.elemType === ty.elemType && prev.shape !== null) {
        if (ty.shape === null) return;
        // keep declared static dims where inference only knows less
        const merged = ty.shape.map((d, k) => (d === null ? (prev.shape?.[k] ?? null) : d));
        g.valueTypes.set(o, { elemType: ty.elemType, shape: ty.shape.length === prev.shape.length ? merged : ty.shape });
        return;
      }
      g.valueTypes.set(o, ty);
    });
  }
}
