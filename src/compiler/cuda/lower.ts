import { rtError } from '../../errors/registry.ts';
import { DT } from '../../tensor/onnx-dtype.ts';
import { attrFloat, attrInt, attrInts, attrString, type Graph, type Node } from '../ir/graph.ts';
import { inferShapes } from '../ir/shape-inference.ts';
import { toFloat32, type ConstTensor } from '../ir/tensor.ts';
import { ACT, BINOP, NO_ACT, type ActSpec, type CudaLayer, type OperandRef } from '../../plan/cuda-network.ts';
import { WeightBlob, oihwToOhwi, transpose2d } from './weights.ts';

/**
 * Lowers the compiler's optimized graph (after BatchNormalization folding and bias fusion) to the CUDA engine's
 * steps: Conv/Gemm + bias + activation (+ residual Add) fusion, NHWC layout for convolutions and pooling (with
 * layout conversions inserted only where an operator needs the other layout), FP16 weights in the layout each
 * kernel reads. Steps are batch-independent; `emit(b)` gives the concrete layer for one batch size.
 */

export type Layout = 'nhwc' | 'plain';

export interface LTensor {
  readonly id: number;
  readonly name: string;
  readonly layout: Layout;
  readonly dtype: 'f16' | 'f32';
  /** Storage id: aliases (Reshape, Flatten, layout relabels of 1x1 maps) share one. */
  readonly storage: number;
  /** Logical (ONNX, NCHW) shape at batch size b. */
  shape(b: number): number[];
}

export type RefOf = (t: LTensor, b: number) => OperandRef;

export interface Step {
  readonly name: string;
  /** ONNX operators this step computes (fused ones included). */
  readonly ops: readonly string[];
  readonly reads: readonly LTensor[];
  readonly writes: readonly LTensor[];
  emit(b: number, ref: RefOf): CudaLayer[];
}

export interface LoweredIo {
  readonly name: string;
  readonly raw: LTensor;
  readonly datatype: 'FP32' | 'FP16';
}

export interface Lowered {
  readonly tensors: readonly LTensor[];
  readonly steps: readonly Step[];
  readonly weights: WeightBlob;
  readonly inputs: readonly LoweredIo[];
  readonly outputs: readonly LoweredIo[];
  readonly notes: readonly string[];
  /** Source node name → the step that computes it (for the manifest's nodePrecision). */
  readonly nodeSteps: ReadonlyMap<string, string>;
}

/** Operators this milestone lowers (docs/cuda-engine.md). */
export const CUDA_SUPPORTED_OPS = [
  'Conv', 'Gemm', 'MatMul', 'BatchNormalization', 'Relu', 'Clip', 'Sigmoid', 'Tanh', 'Gelu', 'LeakyRelu', 'HardSigmoid', 'HardSwish',
  'Add', 'Sub', 'Mul', 'Div', 'MaxPool', 'AveragePool', 'GlobalAveragePool', 'GlobalMaxPool', 'Flatten', 'Reshape', 'Squeeze',
  'Unsqueeze', 'Transpose', 'Concat', 'Softmax', 'LogSoftmax', 'Identity', 'Dropout', 'Cast',
] as const;

const ACT_OPS = new Set(['Relu', 'Clip', 'Sigmoid', 'Tanh', 'Gelu', 'LeakyRelu', 'HardSigmoid', 'HardSwish']);
const BIN_OPS: Readonly<Record<string, number>> = { Add: BINOP.Add, Sub: BINOP.Sub, Mul: BINOP.Mul, Div: BINOP.Div };
const ALIAS_OPS = new Set(['Flatten', 'Reshape', 'Squeeze', 'Unsqueeze', 'Identity', 'Dropout', 'Cast']);

const prod = (xs: readonly number[]): number => xs.reduce((a, b) => a * b, 1);
const rowMajorStrides = (dims: readonly number[]): number[] => {
  const s = new Array<number>(dims.length).fill(1);
  for (let i = dims.length - 2; i >= 0; i--) s[i] = (s[i + 1] ?? 1) * (dims[i + 1] ?? 1);
  return s;
};
/** Element strides that address logical index (n, c, h, w) in an NHWC buffer. */
const nhwcStrides = (d: readonly number[]): number[] => {
  const [, c = 1, h = 1, w = 1] = d;
  return [h * w * c, 1, w * c, c];
};
/** Physical order of the logical dims for a layout. */
const PERM_NHWC = [0, 2, 3, 1];

/** Concrete shapes of every value, per batch size (the model's input batch dimension set to b). */
export function shapesPerBatch(
  g: Graph, batches: readonly number[], rowShapes: ReadonlyMap<string, readonly number[]> = new Map(),
): Map<number, Map<string, number[]>> {
  const out = new Map<number, Map<string, number[]>>();
  for (const b of batches) {
    const c = g.clone();
    c.declaredTypes = new Map();
    c.inputs = c.inputs.map((i) => {
      const s = i.type.shape;
      if (s === null) throw rtError('UNSUPPORTED', `input '${i.name}' has an unknown rank; the CUDA engine needs ranked inputs`);
      const row = rowShapes.get(i.name);
      return { name: i.name, type: { elemType: i.type.elemType, shape: s.map((d, k) => (k === 0 ? b : (row?.[k - 1] ?? d))) } };
    });
    inferShapes(c);
    const m = new Map<string, number[]>();
    for (const i of c.inputs) m.set(i.name, (i.type.shape ?? []).map((d) => (typeof d === 'number' ? d : -1)));
    for (const [name, t] of c.valueTypes) {
      if (t.shape !== null && t.shape.every((d) => typeof d === 'number')) m.set(name, t.shape as number[]);
    }
    out.set(b, m);
  }
  return out;
}

interface ActMatch {
  readonly act: ActSpec;
  readonly nodes: readonly Node[];
  readonly out: string;
}

export function lowerGraph(g: Graph, batches: readonly number[], rowShapes: ReadonlyMap<string, readonly number[]> = new Map()): Lowered {
  if (batches.length === 0) throw rtError('BAD_CONFIG', 'the CUDA target needs at least one batch size');
  const maxB = Math.max(...batches);
  const shapes = shapesPerBatch(g, batches, rowShapes);
  const shapeOf = (value: string, b: number): number[] => {
    const s = shapes.get(b)?.get(value);
    if (s === undefined || s.some((d) => d < 0)) {
      throw rtError('UNSUPPORTED', `the CUDA target cannot tell the shape of '${value}' at batch ${b}: every dimension must be static once the batch is known`);
    }
    return s;
  };
  const consumers = g.consumers();
  const weights = new WeightBlob();
  const tensors: LTensor[] = [];
  const steps: Step[] = [];
  const notes: string[] = [];
  const nodeSteps = new Map<string, string>();
  let storageCounter = 0;

  const newTensor = (name: string, layout: Layout, shape: (b: number) => number[], storage?: number, dtype: 'f16' | 'f32' = 'f16'): LTensor => {
    const t: LTensor = { id: tensors.length, name, layout, dtype, storage: storage ?? storageCounter++, shape };
    tensors.push(t);
    return t;
  };
  const addStep = (s: Step, sourceNodes: readonly Node[]): void => {
    steps.push(s);
    for (const n of sourceNodes) nodeSteps.set(n.name, s.name);
  };

  // ---- values → tensors, with layout conversions on demand -------------------------------------------------
  const valueTensor = new Map<string, LTensor>();
  const converted = new Map<string, LTensor>();
  const constOf = (name: string | undefined): ConstTensor | undefined => (name === undefined || name === '' ? undefined : g.initializers.get(name));
  const tensorOf = (value: string): LTensor => {
    const t = valueTensor.get(value);
    if (t === undefined) throw rtError('INTERNAL', `cuda lowering: '${value}' is used before it is computed`);
    return t;
  };
  const spatialIsOne = (t: LTensor): boolean => batches.every((b) => {
    const s = t.shape(b);
    return s.length === 4 && s[2] === 1 && s[3] === 1;
  });
  const need = (value: string, layout: Layout): LTensor => {
    const t = tensorOf(value);
    if (t.layout === layout || t.shape(maxB).length !== 4) return t;
    const key = `${t.id}|${layout}`;
    const hit = converted.get(key);
    if (hit !== undefined) return hit;
    let out: LTensor;
    if (spatialIsOne(t)) {
      // [N, C, 1, 1] is the same bytes in NCHW and NHWC: relabel, no copy
      out = newTensor(`${t.name}__${layout}`, layout, t.shape, t.storage);
    } else {
      out = newTensor(`${t.name}__${layout}`, layout, t.shape);
      const src = t;
      const dst = out;
      addStep({
        name: `${src.name}__to_${layout}`,
        ops: ['LayoutConversion'],
        reads: [src],
        writes: [dst],
        emit(b, ref) {
          const d = src.shape(b);
          const phys = layout === 'nhwc' ? PERM_NHWC.map((p) => d[p] ?? 1) : d;
          const srcStrides = src.layout === 'nhwc' ? nhwcStrides(d) : rowMajorStrides(d);
          const inStrides = layout === 'nhwc' ? PERM_NHWC.map((p) => srcStrides[p] ?? 0) : srcStrides;
          return [{ kind: 'transpose', name: this.name, x: ref(src, b), y: ref(dst, b), dims: phys, inStrides }];
        },
      }, []);
    }
    converted.set(key, out);
    return out;
  };
  const valueName = (v: string): string => (g.isGraphOutput(v) ? `${v}__f16` : v);
  const defineValue = (value: string, layout: Layout, storage?: number): LTensor => {
    const t = newTensor(valueName(value), layout, (b) => shapeOf(value, b), storage);
    valueTensor.set(value, t);
    return t;
  };

  // ---- activation and residual matching ---------------------------------------------------------------------
  const clipBounds = (n: Node): [number, number] | undefined => {
    if (g.opset >= 11) {
      const lo = n.inputs[1] !== undefined && n.inputs[1] !== '' ? constOf(n.inputs[1]) : undefined;
      const hi = n.inputs[2] !== undefined && n.inputs[2] !== '' ? constOf(n.inputs[2]) : undefined;
      if ((n.inputs[1] ?? '') !== '' && lo === undefined) return undefined;
      if ((n.inputs[2] ?? '') !== '' && hi === undefined) return undefined;
      return [lo === undefined ? -65504 : (toFloat32(lo)[0] ?? 0), hi === undefined ? 65504 : (toFloat32(hi)[0] ?? 0)];
    }
    return [attrFloat(n, 'min', -65504), attrFloat(n, 'max', 65504)];
  };
  const actOfNode = (n: Node): ActSpec | undefined => {
    if (n.domain !== '') return undefined;
    switch (n.opType) {
      case 'Relu': return { kind: ACT.relu, p0: 0, p1: 0 };
      case 'Sigmoid': return { kind: ACT.sigmoid, p0: 0, p1: 0 };
      case 'Tanh': return { kind: ACT.tanh, p0: 0, p1: 0 };
      case 'LeakyRelu': return { kind: ACT.leakyRelu, p0: attrFloat(n, 'alpha', 0.01), p1: 0 };
      case 'HardSigmoid': return { kind: ACT.hardSigmoid, p0: attrFloat(n, 'alpha', 0.2), p1: attrFloat(n, 'beta', 0.5) };
      case 'HardSwish': return { kind: ACT.hardSwish, p0: 0, p1: 0 };
      case 'Gelu': return { kind: attrString(n, 'approximate', 'none') === 'tanh' ? ACT.geluTanh : ACT.geluErf, p0: 0, p1: 0 };
      case 'Clip': {
        const b = clipBounds(n);
        return b === undefined ? undefined : { kind: ACT.clip, p0: b[0], p1: b[1] };
      }
      default: return undefined;
    }
  };
  /** x·sigmoid(x) as two nodes (what torch exports for SiLU): the Mul's other input is Sigmoid(x). */
  const siluPair = (value: string): { s: Node; m: Node } | undefined => {
    const cs = consumers.get(value) ?? [];
    const s = cs.find((c) => c.opType === 'Sigmoid' && c.domain === '' && c.inputs[0] === value);
    if (s === undefined) return undefined;
    const sOut = s.outputs[0] ?? '';
    const sc = consumers.get(sOut) ?? [];
    const m = sc[0];
    if (sc.length !== 1 || m === undefined || m.opType !== 'Mul' || m.domain !== '' || g.isGraphOutput(sOut)) return undefined;
    const ins = [...m.inputs].sort();
    if (ins.length !== 2 || ins.join('\u0000') !== [value, sOut].sort().join('\u0000')) return undefined;
    return { s, m };
  };
  const matchActivation = (value: string): ActMatch | undefined => {
    if (g.isGraphOutput(value)) return undefined;
    const cs = consumers.get(value) ?? [];
    if (cs.some((c) => fused.has(c))) return undefined;
    if (cs.length === 1) {
      const c = cs[0] as Node;
      if (c.inputs[0] !== value || c.inputs.filter((i) => i === value).length !== 1) return undefined;
      const act = actOfNode(c);
      return act === undefined ? undefined : { act, nodes: [c], out: c.outputs[0] ?? '' };
    }
    if (cs.length === 2) {
      const p = siluPair(value);
      if (p !== undefined) return { act: { kind: ACT.silu, p0: 0, p1: 0 }, nodes: [p.s, p.m], out: p.m.outputs[0] ?? '' };
    }
    return undefined;
  };
  const sameShapeAllBatches = (a: string, b: string): boolean =>
    batches.every((x) => shapeOf(a, x).join(',') === shapeOf(b, x).join(','));
  /** The only consumer of `value` is Add(value, other) with a computed `other` of the same shape. */
  const matchResidual = (value: string): { node: Node; other: string; out: string } | undefined => {
    if (g.isGraphOutput(value)) return undefined;
    const cs = consumers.get(value) ?? [];
    const c = cs[0];
    if (cs.length !== 1 || c === undefined || fused.has(c) || c.opType !== 'Add' || c.domain !== '' || c.inputs.length !== 2) return undefined;
    const other = c.inputs[0] === value ? c.inputs[1] : c.inputs[0];
    if (other === undefined || other === value || constOf(other) !== undefined) return undefined;
    if (!sameShapeAllBatches(other, value)) return undefined;
    return { node: c, other, out: c.outputs[0] ?? '' };
  };

  const fused = new Set<Node>();
  /** Steps whose execution waits for the last node they absorbed (a residual's producer may come later). */
  const deferred = new Map<Node, () => void>();

  /** Conv/Gemm/Binary chains: [+ residual Add] [+ activation]. */
  const epilogue = (out: string, allowResidual: boolean): { z?: string; act: ActSpec; final: string; nodes: Node[] } => {
    let final = out;
    const nodes: Node[] = [];
    let z: string | undefined;
    if (allowResidual) {
      const r = matchResidual(final);
      if (r !== undefined) {
        z = r.other;
        nodes.push(r.node);
        final = r.out;
      }
    }
    const a = matchActivation(final);
    if (a !== undefined) {
      nodes.push(...a.nodes);
      final = a.out;
    }
    return { ...(z !== undefined ? { z } : {}), act: a?.act ?? NO_ACT, final, nodes };
  };
  const schedule = (n: Node, absorbed: readonly Node[], run: () => void): void => {
    for (const x of absorbed) fused.add(x);
    // Run where the chain's last absorbed node stood: every input of the chain exists by then.
    let last: Node = n;
    let lastIdx = g.nodes.indexOf(n);
    for (const x of absorbed) {
      const i = g.nodes.indexOf(x);
      if (i > lastIdx) { last = x; lastIdx = i; }
    }
    if (last === n) run();
    else deferred.set(last, run);
  };

  // ---- graph inputs --------------------------------------------------------------------------------------------
  const inputs: LoweredIo[] = [];
  for (const inp of g.inputs) {
    const et = inp.type.elemType;
    if (et !== DT.FLOAT && et !== DT.FLOAT16) {
      throw rtError('UNSUPPORTED', `input '${inp.name}' is ${et === DT.INT64 ? 'int64' : `element type ${et}`}; the CUDA target takes FP32 or FP16 inputs`);
    }
    for (const b of batches) {
      if (shapeOf(inp.name, b)[0] !== b) throw rtError('UNSUPPORTED', `input '${inp.name}': the CUDA engine needs the batch as the first dimension`);
    }
    const raw = newTensor(inp.name, 'plain', (b) => shapeOf(inp.name, b), undefined, et === DT.FLOAT ? 'f32' : 'f16');
    const cons = consumers.get(inp.name) ?? [];
    const rank = shapeOf(inp.name, maxB).length;
    const wantsNhwc = rank === 4 && cons.some((c) => c.opType === 'Conv' || c.opType === 'MaxPool' || c.opType === 'AveragePool');
    const channels = rank === 4 ? (shapeOf(inp.name, maxB)[1] ?? 1) : 1;
    // Tensor cores want 8 FP16 channels (16 bytes): pad the image's 3 channels when only convolutions read it.
    const padTo = wantsNhwc && channels < 8 && cons.length > 0 && cons.every((c) => c.opType === 'Conv' && attrInt(c, 'group', 1) === 1) ? 8 : channels;
    const internal = newTensor(`${inp.name}__f16`, wantsNhwc ? 'nhwc' : 'plain', (b) => {
      const s = [...shapeOf(inp.name, b)];
      if (padTo !== channels) s[1] = padTo;
      return s;
    });
    valueTensor.set(inp.name, internal);
    if (padTo !== channels) notes.push(`input '${inp.name}': channels padded ${channels} → ${padTo} for tensor-core convolutions`);
    addStep({
      name: `${inp.name}__convert_in`,
      ops: ['InputConversion'],
      reads: [raw],
      writes: [internal],
      emit(b, ref) {
        const s = shapeOf(inp.name, b);
        const nhwc = internal.layout === 'nhwc';
        return [{
          kind: 'convert_in', name: this.name, x: ref(raw, b), y: ref(internal, b), srcType: raw.dtype, layout: nhwc ? 'nhwc' : 'plain',
          n: b, c: nhwc ? (s[1] ?? 1) : prod(s) / b, h: nhwc ? (s[2] ?? 1) : 1, w: nhwc ? (s[3] ?? 1) : 1, cp: nhwc ? padTo : prod(s) / b,
        }];
      },
    }, []);
    inputs.push({ name: inp.name, raw, datatype: raw.dtype === 'f32' ? 'FP32' : 'FP16' });
  }

  // ---- nodes ---------------------------------------------------------------------------------------------------
  const unsupported: string[] = [];
  const weightRef = (t: ConstTensor, name: string): { woff: number; bytes: number } => {
    if (t.elemType !== DT.FLOAT && t.elemType !== DT.FLOAT16 && t.elemType !== DT.DOUBLE) {
      throw rtError('UNSUPPORTED', `constant '${name}' has element type ${t.elemType}; the CUDA target computes on floats`);
    }
    return weights.addHalf(toFloat32(t));
  };

  const lowerConv = (n: Node): void => {
    const wT = constOf(n.inputs[1]);
    if (wT === undefined) throw rtError('UNSUPPORTED', `Conv '${n.name}': the weight must be a constant`);
    if (wT.dims.length !== 4) throw rtError('UNSUPPORTED', `Conv '${n.name}': only 2-D convolutions (4-D weights) are supported, got ${wT.dims.length - 2}-D`);
    const [k = 0, cg = 0, r = 0, s = 0] = wT.dims;
    const groups = attrInt(n, 'group', 1);
    const strides = attrInts(n, 'strides') ?? [1, 1];
    const dil = attrInts(n, 'dilations') ?? [1, 1];
    const x = n.inputs[0] ?? '';
    const out = n.outputs[0] ?? '';
    const pads = windowPads(n, shapeOf(x, maxB), shapeOf(out, maxB), [r, s], strides, dil);
    const ep = epilogue(out, true);
    schedule(n, ep.nodes, () => {
      const xT = need(x, 'nhwc');
      const zT = ep.z === undefined ? undefined : need(ep.z, 'nhwc');
      const cPhys = xT.shape(maxB)[1] ?? cg * groups;
      if (cPhys !== cg * groups && groups !== 1) throw rtError('INTERNAL', `Conv '${n.name}': padded channels with groups`);
      const wv = oihwToOhwi(toFloat32(wT), k, cg, r, s, groups === 1 ? cPhys : cg);
      const wRef = weights.addHalf(wv);
      const bT = constOf(n.inputs[2]);
      if ((n.inputs[2] ?? '') !== '' && bT === undefined) throw rtError('UNSUPPORTED', `Conv '${n.name}': the bias must be a constant`);
      const bRef = weights.addHalf(bT === undefined ? new Float32Array(k) : toFloat32(bT));
      const yT = defineValue(ep.final, 'nhwc');
      const name = n.name;
      addStep({
        name,
        ops: ['Conv', ...ep.nodes.map((x2) => x2.opType)],
        reads: zT === undefined ? [xT] : [xT, zT],
        writes: [yT],
        emit(b, ref) {
          const xs = xT.shape(b);
          const ys = yT.shape(b);
          return [{
            kind: 'conv', name, x: ref(xT, b), w: wRef, b: bRef, z: zT === undefined ? null : ref(zT, b), y: ref(yT, b),
            n: xs[0] ?? 1, c: xs[1] ?? 1, h: xs[2] ?? 1, w_: xs[3] ?? 1, k, r, s, oh: ys[2] ?? 1, ow: ys[3] ?? 1,
            pads, strides: [strides[0] ?? 1, strides[1] ?? 1], dil: [dil[0] ?? 1, dil[1] ?? 1], groups, act: ep.act,
          }];
        },
      }, [n, ...ep.nodes]);
    });
  };

  /** Gemm, or MatMul with a constant 2-D right operand: Y = act(A·Wᵀ + bias [+ Z]), W stored [n, k]. */
  const lowerDense = (n: Node): void => {
    const isGemm = n.opType === 'Gemm';
    const a = n.inputs[0] ?? '';
    const out = n.outputs[0] ?? '';
    const bT = constOf(n.inputs[1]);
    if (bT === undefined || bT.dims.length !== 2) {
      if (!isGemm) return lowerBatchedMatMul(n);
      throw rtError('UNSUPPORTED', `Gemm '${n.name}': B must be a constant matrix`);
    }
    if (isGemm && attrInt(n, 'transA', 0) !== 0) throw rtError('UNSUPPORTED', `Gemm '${n.name}': transA=1 is not supported`);
    const transB = isGemm && attrInt(n, 'transB', 0) === 1;
    const kDim = (transB ? bT.dims[1] : bT.dims[0]) ?? 0;
    const nDim = (transB ? bT.dims[0] : bT.dims[1]) ?? 0;
    const alpha = isGemm ? attrFloat(n, 'alpha', 1) : 1;
    const beta = isGemm ? attrFloat(n, 'beta', 1) : 1;
    let wv = transB ? toFloat32(bT) : transpose2d(toFloat32(bT), kDim, nDim);
    if (alpha !== 1) wv = wv.map((v) => v * alpha);
    const cName = isGemm ? (n.inputs[2] ?? '') : '';
    let bias: Float32Array | undefined;
    let zValue: string | undefined;
    if (cName !== '') {
      const cT = constOf(cName);
      if (cT !== undefined) {
        const cv = toFloat32(cT);
        const rows = cT.dims.length === 2 ? (cT.dims[0] ?? 1) : 1;
        if (rows !== 1 || !(cv.length === 1 || cv.length === nDim)) throw rtError('UNSUPPORTED', `Gemm '${n.name}': a constant C must broadcast per column`);
        bias = new Float32Array(nDim).map((_, i) => beta * (cv.length === 1 ? (cv[0] ?? 0) : (cv[i] ?? 0)));
      } else {
        if (beta !== 1 || !sameShapeAllBatches(cName, out)) throw rtError('UNSUPPORTED', `Gemm '${n.name}': a computed C must be [M, N] with beta 1`);
        zValue = cName;
      }
    }
    const ep = epilogue(out, zValue === undefined);
    const z = zValue ?? ep.z;
    schedule(n, ep.nodes, () => {
      const aT = need(a, 'plain');
      const zT = z === undefined ? undefined : need(z, 'plain');
      const wRef = weights.addHalf(wv);
      const bRef = bias === undefined ? null : weights.addHalf(bias);
      const yT = defineValue(ep.final, 'plain');
      const name = n.name;
      addStep({
        name,
        ops: [n.opType, ...ep.nodes.map((x) => x.opType)],
        reads: zT === undefined ? [aT] : [aT, zT],
        writes: [yT],
        emit(b, ref) {
          const as = aT.shape(b);
          if (as.length < 2) throw rtError('UNSUPPORTED', `${n.opType} '${name}': the left operand must have rank >= 2`);
          const m = prod(as.slice(0, -1));
          return [{
            kind: 'gemm', name, x: ref(aT, b), w: wRef, b: bRef, z: zT === undefined ? null : ref(zT, b), y: ref(yT, b),
            batch: 1, m, n: nDim, k: kDim, strideA: m * kDim, strideB: 0, strideY: m * nDim, bNK: 1, act: ep.act,
          }];
        },
      }, [n, ...ep.nodes]);
    });
  };

  /** MatMul of two computed tensors: batch dims must match, or one side has none (broadcast with stride 0). */
  const lowerBatchedMatMul = (n: Node): void => {
    const a = n.inputs[0] ?? '';
    const bv = n.inputs[1] ?? '';
    const out = n.outputs[0] ?? '';
    const ep = epilogue(out, true);
    schedule(n, ep.nodes, () => {
      const aT = need(a, 'plain');
      const bT = constOf(bv) !== undefined ? undefined : need(bv, 'plain');
      const bConst = constOf(bv);
      const bW = bConst === undefined ? undefined : weights.addHalf(toFloat32(bConst));
      const zT = ep.z === undefined ? undefined : need(ep.z, 'plain');
      const yT = defineValue(ep.final, 'plain');
      const name = n.name;
      addStep({
        name,
        ops: ['MatMul', ...ep.nodes.map((x) => x.opType)],
        reads: [aT, ...(bT === undefined ? [] : [bT]), ...(zT === undefined ? [] : [zT])],
        writes: [yT],
        emit(b, ref) {
          const as = aT.shape(b);
          const bs = bT !== undefined ? bT.shape(b) : [...(bConst?.dims ?? [])];
          if (as.length < 2 || bs.length < 2) throw rtError('UNSUPPORTED', `MatMul '${name}': operands must have rank >= 2`);
          const m = as[as.length - 2] ?? 1;
          const k = as[as.length - 1] ?? 1;
          const nn = bs[bs.length - 1] ?? 1;
          const batchA = prod(as.slice(0, -2));
          const batchB = prod(bs.slice(0, -2));
          if (batchA !== batchB && batchA !== 1 && batchB !== 1) {
            throw rtError('UNSUPPORTED', `MatMul '${name}': batch dims [${as.slice(0, -2).join(',')}] and [${bs.slice(0, -2).join(',')}] must match or one side must have none`);
          }
          const batch = Math.max(batchA, batchB);
          const wRef = bT !== undefined ? ref(bT, b) : (bW as OperandRef);
          return [{
            kind: 'gemm', name, x: ref(aT, b), w: wRef, b: null, z: zT === undefined ? null : ref(zT, b), y: ref(yT, b),
            batch, m, n: nn, k, strideA: batchA === 1 ? 0 : m * k, strideB: batchB === 1 ? 0 : k * nn, strideY: m * nn, bNK: 0, act: ep.act,
          }];
        },
      }, [n, ...ep.nodes]);
    });
  };

  const operandStrides = (logical: readonly number[], layout: Layout, outShape: readonly number[]): number[] => {
    const rank = outShape.length;
    const padded = [...new Array<number>(rank - logical.length).fill(1), ...logical];
    const base = layout === 'nhwc' && logical.length === 4 ? nhwcStrides(logical) : rowMajorStrides(logical);
    const strides = [...new Array<number>(rank - logical.length).fill(0), ...base];
    return padded.map((d, i) => (d === 1 && (outShape[i] ?? 1) !== 1 ? 0 : (strides[i] ?? 0)));
  };

  const lowerBinary = (n: Node): void => {
    const [a = '', b = ''] = n.inputs;
    const out = n.outputs[0] ?? '';
    const op = BIN_OPS[n.opType] ?? 0;
    const ep = epilogue(out, false);
    schedule(n, ep.nodes, () => {
      const operand = (v: string): { t?: LTensor; w?: { woff: number; bytes: number }; dims: (bb: number) => number[]; layout: Layout } => {
        const c = constOf(v);
        if (c !== undefined) return { w: weightRef(c, v), dims: () => [...c.dims], layout: 'plain' };
        const t = tensorOf(v);
        return { t, dims: (bb) => t.shape(bb), layout: t.layout };
      };
      const A = operand(a);
      const B = operand(b);
      const outRank = shapeOf(out, maxB).length;
      if (outRank > 6) throw rtError('UNSUPPORTED', `${n.opType} '${n.name}': rank ${outRank} > 6`);
      const fullNhwc = (o: typeof A): boolean => o.layout === 'nhwc' && outRank === 4 && sameShapeAllBatches(o === A ? a : b, out);
      const layout: Layout = outRank === 4 && (fullNhwc(A) || fullNhwc(B)) ? 'nhwc' : 'plain';
      const yT = defineValue(ep.final, layout);
      const name = n.name;
      addStep({
        name,
        ops: [n.opType, ...ep.nodes.map((x) => x.opType)],
        reads: [A.t, B.t].filter((t): t is LTensor => t !== undefined),
        writes: [yT],
        emit(bb, ref) {
          const os = shapeOf(out, bb);
          const la = operandStrides(A.dims(bb), A.layout, os);
          const lb = operandStrides(B.dims(bb), B.layout, os);
          const perm = layout === 'nhwc' ? PERM_NHWC : os.map((_, i) => i);
          return [{
            kind: 'binary', name, a: A.t !== undefined ? ref(A.t, bb) : (A.w as OperandRef), b: B.t !== undefined ? ref(B.t, bb) : (B.w as OperandRef),
            y: ref(yT, bb), dims: perm.map((p) => os[p] ?? 1), sa: perm.map((p) => la[p] ?? 0), sb: perm.map((p) => lb[p] ?? 0), op, act: ep.act,
          }];
        },
      }, [n, ...ep.nodes]);
    });
  };

  const lowerUnary = (n: Node, act: ActSpec, absorbed: readonly Node[], final: string): void => {
    schedule(n, absorbed, () => {
      const xT = tensorOf(n.inputs[0] ?? '');
      const yT = defineValue(final, xT.layout);
      addStep({
        name: n.name,
        ops: [n.opType, ...absorbed.map((x) => x.opType)],
        reads: [xT],
        writes: [yT],
        emit(b, ref) {
          return [{ kind: 'unary', name: n.name, x: ref(xT, b), y: ref(yT, b), count: prod(xT.shape(b)), act }];
        },
      }, [n, ...absorbed]);
    });
  };

  const lowerBatchNorm = (n: Node): void => {
    if (attrInt(n, 'training_mode', 0) !== 0) throw rtError('UNSUPPORTED', `BatchNormalization '${n.name}': training mode`);
    const ps = [1, 2, 3, 4].map((i) => constOf(n.inputs[i]));
    if (ps.some((p) => p === undefined)) throw rtError('UNSUPPORTED', `BatchNormalization '${n.name}': statistics must be constants`);
    const [gamma, beta, mean, variance] = ps.map((p) => toFloat32(p as ConstTensor)) as [Float32Array, Float32Array, Float32Array, Float32Array];
    const eps = attrFloat(n, 'epsilon', 1e-5);
    const scale = gamma.map((gm, c) => gm / Math.sqrt((variance[c] ?? 1) + eps));
    const shift = beta.map((bt, c) => bt - (mean[c] ?? 0) * (scale[c] ?? 1));
    const out = n.outputs[0] ?? '';
    const ep = epilogue(out, true);
    schedule(n, ep.nodes, () => {
      const xT = tensorOf(n.inputs[0] ?? '');
      const zT = ep.z === undefined ? undefined : need(ep.z, xT.layout);
      const sRef = weights.addHalf(scale);
      const hRef = weights.addHalf(shift);
      const yT = defineValue(ep.final, xT.layout);
      addStep({
        name: n.name,
        ops: ['BatchNormalization', ...ep.nodes.map((x) => x.opType)],
        reads: zT === undefined ? [xT] : [xT, zT],
        writes: [yT],
        emit(b, ref) {
          const s = xT.shape(b);
          const inner = xT.layout === 'nhwc' ? 1 : prod(s.slice(2));
          return [{
            kind: 'affine', name: n.name, x: ref(xT, b), y: ref(yT, b), scale: sRef, shift: hRef, z: zT === undefined ? null : ref(zT, b),
            count: prod(s), channels: s[1] ?? 1, inner, act: ep.act,
          }];
        },
      }, [n, ...ep.nodes]);
    });
  };

  const lowerPool = (n: Node): void => {
    if ((n.outputs[1] ?? '') !== '' && (consumers.get(n.outputs[1] ?? '')?.length ?? 0) > 0) {
      throw rtError('UNSUPPORTED', `MaxPool '${n.name}': the Indices output is not supported`);
    }
    const x = n.inputs[0] ?? '';
    const out = n.outputs[0] ?? '';
    const kernel = attrInts(n, 'kernel_shape') ?? [];
    if (kernel.length !== 2) throw rtError('UNSUPPORTED', `${n.opType} '${n.name}': only 2-D pooling is supported`);
    const strides = attrInts(n, 'strides') ?? [1, 1];
    const dil = n.opType === 'MaxPool' ? (attrInts(n, 'dilations') ?? [1, 1]) : [1, 1];
    const pads = windowPads(n, shapeOf(x, maxB), shapeOf(out, maxB), kernel, strides, dil);
    const isMax = n.opType === 'MaxPool';
    const cip = attrInt(n, 'count_include_pad', 0) === 1 ? 1 : 0;
    const xT = need(x, 'nhwc');
    const yT = defineValue(out, 'nhwc');
    addStep({
      name: n.name,
      ops: [n.opType],
      reads: [xT],
      writes: [yT],
      emit(b, ref) {
        const xs = xT.shape(b);
        const ys = yT.shape(b);
        return [{
          kind: 'pool', name: n.name, x: ref(xT, b), y: ref(yT, b), n: xs[0] ?? 1, c: xs[1] ?? 1, h: xs[2] ?? 1, w: xs[3] ?? 1,
          oh: ys[2] ?? 1, ow: ys[3] ?? 1, kernel: [kernel[0] ?? 1, kernel[1] ?? 1], strides: [strides[0] ?? 1, strides[1] ?? 1], pads,
          dil: [dil[0] ?? 1, dil[1] ?? 1], mode: isMax ? 'max' : 'avg', countIncludePad: cip,
        }];
      },
    }, [n]);
  };

  const lowerGlobalPool = (n: Node): void => {
    const xT = tensorOf(n.inputs[0] ?? '');
    const yT = defineValue(n.outputs[0] ?? '', 'plain');
    const mode = n.opType === 'GlobalMaxPool' ? 'max' : 'avg';
    addStep({
      name: n.name,
      ops: [n.opType],
      reads: [xT],
      writes: [yT],
      emit(b, ref) {
        const s = xT.shape(b);
        const nhwc = xT.layout === 'nhwc';
        return [{
          kind: 'global_pool', name: n.name, x: ref(xT, b), y: ref(yT, b), n: s[0] ?? 1, hw: prod(s.slice(2)), c: s[1] ?? 1,
          layout: nhwc ? 'nhwc' : 'plain', mode,
        }];
      },
    }, [n]);
  };

  const lowerTranspose = (n: Node): void => {
    const x = n.inputs[0] ?? '';
    const src = tensorOf(x);
    const rank = src.shape(maxB).length;
    const perm = attrInts(n, 'perm') ?? [...new Array<number>(rank).keys()].reverse();
    if (src.layout === 'nhwc' && perm.join(',') === PERM_NHWC.join(',')) {
      // NCHW → NHWC of an NHWC-stored tensor is its bytes as they are
      const out = newTensor(valueName(n.outputs[0] ?? ''), 'plain', (b) => shapeOf(n.outputs[0] ?? '', b), src.storage);
      valueTensor.set(n.outputs[0] ?? '', out);
      nodeSteps.set(n.name, `${n.name} (alias)`);
      return;
    }
    if (rank > 6) throw rtError('UNSUPPORTED', `Transpose '${n.name}': rank ${rank} > 6`);
    const xT = need(x, 'plain');
    const yT = defineValue(n.outputs[0] ?? '', 'plain');
    addStep({
      name: n.name,
      ops: ['Transpose'],
      reads: [xT],
      writes: [yT],
      emit(b, ref) {
        const xs = xT.shape(b);
        const st = rowMajorStrides(xs);
        return [{ kind: 'transpose', name: n.name, x: ref(xT, b), y: ref(yT, b), dims: perm.map((p) => xs[p] ?? 1), inStrides: perm.map((p) => st[p] ?? 0) }];
      },
    }, [n]);
  };

  const lowerConcat = (n: Node): void => {
    const out = n.outputs[0] ?? '';
    const rank = shapeOf(out, maxB).length;
    const axis = normAxis(attrInt(n, 'axis', 0), rank);
    const parts = n.inputs.filter((i) => i !== '');
    const computed = parts.filter((p) => constOf(p) === undefined);
    const layout: Layout = rank === 4 && computed.length > 0 && computed.every((p) => tensorOf(p).layout === 'nhwc') && parts.every((p) => constOf(p) === undefined)
      ? 'nhwc' : 'plain';
    const srcs = parts.map((p) => {
      const c = constOf(p);
      return c !== undefined ? { w: weightRef(c, p), shape: (_b: number) => [...c.dims] } : { t: need(p, layout), shape: (b: number) => shapeOf(p, b) };
    });
    const yT = defineValue(out, layout);
    addStep({
      name: n.name,
      ops: ['Concat'],
      reads: srcs.map((s) => s.t).filter((t): t is LTensor => t !== undefined),
      writes: [yT],
      emit(b, ref) {
        const os = shapeOf(out, b);
        const perm = layout === 'nhwc' ? PERM_NHWC : os.map((_, i) => i);
        const physAxis = perm.indexOf(axis);
        const phys = perm.map((p) => os[p] ?? 1);
        const rows = prod(phys.slice(0, physAxis));
        const inner = prod(phys.slice(physAxis + 1));
        let offset = 0;
        return srcs.map((s, i) => {
          const len = s.shape(b)[axis] ?? 1;
          const layer: CudaLayer = {
            kind: 'copy2d', name: `${n.name}#${i}`, x: s.t !== undefined ? ref(s.t, b) : (s.w as OperandRef), y: ref(yT, b), rows,
            rowElems: len * inner, srcStride: len * inner, dstStride: (phys[physAxis] ?? 1) * inner, srcOff: 0, dstOff: offset * inner,
          };
          offset += len;
          return layer;
        });
      },
    }, [n]);
  };

  const lowerSoftmax = (n: Node): void => {
    const x = n.inputs[0] ?? '';
    const rank = shapeOf(x, maxB).length;
    const newSemantics = g.opset >= 13;
    const axis = normAxis(attrInt(n, 'axis', newSemantics ? -1 : 1), rank);
    const xT = need(x, 'plain');
    const yT = defineValue(n.outputs[0] ?? '', 'plain');
    addStep({
      name: n.name,
      ops: [n.opType],
      reads: [xT],
      writes: [yT],
      emit(b, ref) {
        const s = xT.shape(b);
        // opset < 13 coerces the input to 2-D at `axis` (ONNX Softmax-11)
        const outer = prod(s.slice(0, axis));
        const len = newSemantics ? (s[axis] ?? 1) : prod(s.slice(axis));
        const inner = newSemantics ? prod(s.slice(axis + 1)) : 1;
        return [{ kind: 'softmax', name: n.name, x: ref(xT, b), y: ref(yT, b), outer, len, inner, log: n.opType === 'LogSoftmax' ? 1 : 0 }];
      },
    }, [n]);
  };

  const lowerAlias = (n: Node): void => {
    if (n.opType === 'Cast') {
      const to = attrInt(n, 'to', 0);
      if (to !== DT.FLOAT && to !== DT.FLOAT16) throw rtError('UNSUPPORTED', `Cast '${n.name}' to element type ${to}: the CUDA target keeps floats only`);
    }
    if ((n.opType === 'Reshape') && constOf(n.inputs[1]) === undefined) {
      throw rtError('UNSUPPORTED', `Reshape '${n.name}': the target shape must be a constant (after constant folding)`);
    }
    const x = n.inputs[0] ?? '';
    const keepsLayout = n.opType === 'Identity' || n.opType === 'Dropout' || n.opType === 'Cast';
    const src = keepsLayout ? tensorOf(x) : need(x, 'plain');
    const out = n.outputs[0] ?? '';
    const t = newTensor(valueName(out), src.layout, (b) => shapeOf(out, b), src.storage);
    valueTensor.set(out, t);
    nodeSteps.set(n.name, `${n.name} (alias)`);
  };

  for (const n of g.nodes) {
    if (fused.has(n)) {
      const run = deferred.get(n);
      if (run !== undefined) run();
      continue;
    }
    if (n.domain !== '') {
      unsupported.push(`${n.domain}.${n.opType} (node '${n.name}')`);
      continue;
    }
    const op = n.opType;
    if (op === 'Conv') lowerConv(n);
    else if (op === 'Gemm') lowerDense(n);
    else if (op === 'MatMul') {
      const c = constOf(n.inputs[1]);
      if (c !== undefined && c.dims.length === 2) lowerDense(n);
      else lowerBatchedMatMul(n);
    } else if (op in BIN_OPS) lowerBinary(n);
    else if (op === 'Sigmoid' && siluPair(n.inputs[0] ?? '') !== undefined && (siluPair(n.inputs[0] ?? '')?.s === n)) {
      const p = siluPair(n.inputs[0] ?? '') as { s: Node; m: Node };
      const more = matchActivation(p.m.outputs[0] ?? '');
      if (more !== undefined) notes.push(`SiLU '${n.name}' followed by a second activation: kept separate`);
      lowerUnary(n, { kind: ACT.silu, p0: 0, p1: 0 }, [p.m], p.m.outputs[0] ?? '');
    } else if (ACT_OPS.has(op)) {
      const act = actOfNode(n);
      if (act === undefined) throw rtError('UNSUPPORTED', `${op} '${n.name}': its parameters must be constants`);
      lowerUnary(n, act, [], n.outputs[0] ?? '');
    } else if (op === 'BatchNormalization') lowerBatchNorm(n);
    else if (op === 'MaxPool' || op === 'AveragePool') lowerPool(n);
    else if (op === 'GlobalAveragePool' || op === 'GlobalMaxPool') lowerGlobalPool(n);
    else if (op === 'Transpose') lowerTranspose(n);
    else if (op === 'Concat') lowerConcat(n);
    else if (op === 'Softmax' || op === 'LogSoftmax') lowerSoftmax(n);
    else if (ALIAS_OPS.has(op)) lowerAlias(n);
    else unsupported.push(`${op} (node '${n.name}')`);
  }
  if (unsupported.length > 0) {
    throw rtError(
      'UNSUPPORTED',
      `the CUDA target does not support operator${unsupported.length > 1 ? 's' : ''} ${unsupported.slice(0, 8).join(', ')}` +
        `${unsupported.length > 8 ? ` and ${unsupported.length - 8} more` : ''}; supported: ${CUDA_SUPPORTED_OPS.join(', ')}`,
    );
  }

  // ---- graph outputs -------------------------------------------------------------------------------------------
  const outputs: LoweredIo[] = [];
  for (const o of g.outputs) {
    const et = o.type.elemType;
    if (et !== DT.FLOAT && et !== DT.FLOAT16) throw rtError('UNSUPPORTED', `output '${o.name}' is element type ${et}; the CUDA target returns FP32 or FP16`);
    if (g.isGraphInput(o.name)) throw rtError('UNSUPPORTED', `output '${o.name}' is a graph input`);
    for (const b of batches) {
      if (shapeOf(o.name, b)[0] !== b) throw rtError('UNSUPPORTED', `output '${o.name}': the CUDA engine needs the batch as the first dimension`);
    }
    const src = tensorOf(o.name);
    const raw = newTensor(o.name, 'plain', (b) => shapeOf(o.name, b), undefined, et === DT.FLOAT ? 'f32' : 'f16');
    addStep({
      name: `${o.name}__convert_out`,
      ops: ['OutputConversion'],
      reads: [src],
      writes: [raw],
      emit(b, ref) {
        const s = src.shape(b);
        const nhwc = src.layout === 'nhwc';
        return [{
          kind: 'convert_out', name: this.name, x: ref(src, b), y: ref(raw, b), dstType: raw.dtype, layout: nhwc ? 'nhwc' : 'plain',
          n: nhwc ? (s[0] ?? 1) : 1, c: nhwc ? (s[1] ?? 1) : prod(s), h: nhwc ? (s[2] ?? 1) : 1, w: nhwc ? (s[3] ?? 1) : 1,
        }];
      },
    }, []);
    outputs.push({ name: o.name, raw, datatype: raw.dtype === 'f32' ? 'FP32' : 'FP16' });
  }
  return { tensors, steps, weights, inputs, outputs, notes, nodeSteps };
}

function normAxis(axis: number, rank: number): number {
  return axis < 0 ? axis + rank : axis;
}

/**
 * [top, left, bottom, right] pads of a 2-D window op, from `pads` or `auto_pad` (ONNX Conv / MaxPool). For
 * SAME_* the total pad is what makes the inferred output size come out; SAME_UPPER puts the odd one at the end.
 */
export function windowPads(n: Node, xs: readonly number[], ys: readonly number[], kernel: readonly number[], strides: readonly number[], dil: readonly number[]): number[] {
  const autoPad = attrString(n, 'auto_pad', 'NOTSET');
  if (autoPad === 'NOTSET') {
    const p = attrInts(n, 'pads') ?? [0, 0, 0, 0];
    return [p[0] ?? 0, p[1] ?? 0, p[2] ?? 0, p[3] ?? 0];
  }
  if (autoPad === 'VALID') return [0, 0, 0, 0];
  const out: number[] = [0, 0, 0, 0];
  for (let i = 0; i < 2; i++) {
    const inp = xs[i + 2] ?? 1;
    const o = ys[i + 2] ?? 1;
    const eff = ((kernel[i] ?? 1) - 1) * (dil[i] ?? 1) + 1;
    const total = Math.max(0, (o - 1) * (strides[i] ?? 1) + eff - inp);
    const small = Math.floor(total / 2);
    const big = total - small;
    out[i] = autoPad === 'SAME_LOWER' ? big : small;
    out[i + 2] = autoPad === 'SAME_LOWER' ? small : big;
  }
  return out;
}

