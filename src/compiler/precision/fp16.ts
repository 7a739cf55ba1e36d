import type { NodePrecision } from '../../plan/manifest.ts';
import { DT, floatToHalf } from '../../tensor/onnx-dtype.ts';
import { attrInt, attrTensor, hasSubgraph, makeNode, type Graph, type Node } from '../ir/graph.ts';
import { QUANTIZATION_MARKERS, RANDOM_GENERATORS } from '../ir/op-classes.ts';
import { inferShapes } from '../ir/shape-inference.ts';
import { toFloat32, type ConstTensor } from '../ir/tensor.ts';

/**
 * Operators kept in FP32 by default. Numerically sensitive ones (exponentials, long reductions, normalizations
 * whose variance under- or overflows in half precision), plus those whose FP16 kernels are missing or buggy in
 * onnxruntime (the list onnxconverter-common's float16 converter keeps, DEFAULT_OP_BLOCK_LIST).
 */
export const DEFAULT_FP16_BLOCK_LIST: readonly string[] = [
  'Exp',
  'Log',
  'Pow',
  'Softmax',
  'LogSoftmax',
  'ReduceSum',
  'ReduceSumSquare',
  'ReduceLogSum',
  'ReduceLogSumExp',
  'ReduceL2',
  'ReduceProd',
  'CumSum',
  'LayerNormalization',
  'InstanceNormalization',
  'MeanVarianceNormalization',
  'LpNormalization',
  'Range',
  'NonMaxSuppression',
  'TopK',
  'RoiAlign',
  'Resize',
  'Upsample',
  'Min',
  'Max',
  ...RANDOM_GENERATORS,
  ...QUANTIZATION_MARKERS,
  'Einsum',
];

/** Float inputs whose type is fixed (or independent) by the operator spec: they are never converted. */
function keepsFloatInput(g: Graph, n: Node, slot: number): boolean {
  switch (n.opType) {
    case 'Resize':
      return g.opset >= 11 ? slot === 1 || slot === 2 : slot === 1; // roi, scales: tensor(float)
    case 'Upsample':
      return slot === 1;
    case 'Dropout':
      return slot === 1; // ratio: T1, independent of T
    default:
      return false;
  }
}

export interface Fp16Options {
  /** Keep graph inputs and outputs in FP32 with Casts at the borders (--keep-io-types, the default). */
  readonly keepIoTypes: boolean;
  /** Operator types kept in FP32. */
  readonly blockOps: ReadonlySet<string>;
  /** Node names kept in FP32 (for per-layer overrides). */
  readonly blockNodes?: ReadonlySet<string>;
}

export interface Fp16Result {
  readonly nodePrecision: Map<string, NodePrecision>;
  readonly castsInserted: number;
  /** Float nodes kept in FP32 and why. */
  readonly kept: readonly { readonly node: string; readonly op: string; readonly reason: string }[];
  readonly convertedInitializers: number;
}

function toHalf(t: ConstTensor): ConstTensor {
  const f = toFloat32(t);
  const out = new Uint16Array(f.length);
  for (let i = 0; i < f.length; i++) out[i] = floatToHalf(f[i] ?? 0);
  return { elemType: DT.FLOAT16, dims: t.dims, data: out };
}

/**
 * Converts a graph to FP16: every float node computes in half precision except the blocked ones; weights are
 * stored as FP16; Casts are inserted wherever a value crosses between an FP16 and an FP32 node, and at the
 * graph's inputs and outputs when `keepIoTypes` is set.
 */
export function convertToFp16(g: Graph, options: Fp16Options): Fp16Result {
  inferShapes(g);
  const isFloat = (name: string): boolean => name !== '' && g.typeOf(name)?.elemType === DT.FLOAT;
  const producers = g.producers();
  const nodePrecision = new Map<string, NodePrecision>();
  const kept: { node: string; op: string; reason: string }[] = [];
  const converted = new Set<Node>();

  for (const n of g.nodes) {
    const floatIo =
      [...n.inputs, ...n.outputs].some(isFloat) ||
      (n.opType === 'Cast' && attrInt(n, 'to', 0) === DT.FLOAT) ||
      (n.opType === 'ConstantOfShape' && (attrTensor(n, 'value')?.elemType ?? DT.FLOAT) === DT.FLOAT);
    if (!floatIo) {
      nodePrecision.set(n.name, 'fp32');
      continue;
    }
    let reason: string | undefined;
    if (n.domain !== '') reason = `operator domain '${n.domain}'`;
    else if (options.blockOps.has(n.opType)) reason = 'operator on the FP16 block list';
    else if (options.blockNodes?.has(n.name) === true) reason = 'node on the FP16 block list';
    else if (hasSubgraph(n)) reason = 'has a sub-graph';
    else if (n.outputs.some((o) => o !== '' && g.typeOf(o) === undefined)) reason = 'output type unknown to the compiler';
    if (reason !== undefined) {
      kept.push({ node: n.name, op: n.opType, reason });
      nodePrecision.set(n.name, 'fp32');
    } else {
      converted.add(n);
      nodePrecision.set(n.name, 'fp16');
    }
  }

  /** FP16 name of a value whose producer was converted (differs from the value name for graph outputs). */
  const half = new Map<string, string>();
  const castTo16 = new Map<string, string>();
  const castTo32 = new Map<string, string>();
  const initTo16 = new Map<string, string>();
  const out: Node[] = [];
  let casts = 0;
  let convertedInits = 0;
  const inputs32 = new Set(g.inputs.filter((i) => i.type.elemType === DT.FLOAT).map((i) => i.name));

  const addCast = (from: string, to: string, elemType: number): void => {
    out.push(makeNode(g.freshName(`${to}_cast`), 'Cast', [from], [to], { to: { kind: 'int', value: elemType } }));
    casts++;
  };
  const get16 = (x: string): string => {
    const h = half.get(x);
    if (h !== undefined) return h;
    const init = g.initializers.get(x);
    if (init !== undefined) {
      let name = initTo16.get(x);
      if (name === undefined) {
        name = g.addInitializer(`${x}_fp16`, toHalf(init));
        initTo16.set(x, name);
        convertedInits++;
      }
      return name;
    }
    if (!options.keepIoTypes && inputs32.has(x)) return x; // the input itself becomes FP16
    let c = castTo16.get(x);
    if (c === undefined) {
      c = g.freshName(`${x}_fp16`);
      addCast(x, c, DT.FLOAT16);
      castTo16.set(x, c);
    }
    return c;
  };
  const get32 = (x: string): string => {
    const h = half.get(x);
    const isInput16 = !options.keepIoTypes && inputs32.has(x);
    if (h === undefined && !isInput16) return x;
    let c = castTo32.get(x);
    if (c === undefined) {
      c = g.freshName(`${x}_fp32`);
      addCast(h ?? x, c, DT.FLOAT);
      castTo32.set(x, c);
    }
    return c;
  };

  for (const n of g.nodes) {
    if (!converted.has(n)) {
      n.inputs = n.inputs.map((x) => (x !== '' && (half.has(x) || (!options.keepIoTypes && inputs32.has(x))) ? get32(x) : x));
      out.push(n);
      continue;
    }
    n.inputs = n.inputs.map((x, slot) => (isFloat(x) && !keepsFloatInput(g, n, slot) ? get16(x) : x));
    if (n.opType === 'Cast' && attrInt(n, 'to', 0) === DT.FLOAT) n.attrs.set('to', { kind: 'int', value: DT.FLOAT16 });
    if (n.opType === 'ConstantOfShape') {
      const v = attrTensor(n, 'value');
      n.attrs.set('value', { kind: 'tensor', value: toHalf(v ?? { elemType: DT.FLOAT, dims: [1], data: new Float32Array(1) }) });
    }
    const pending: [string, string][] = [];
    n.outputs = n.outputs.map((o) => {
      const floatOut = o !== '' && g.typeOf(o)?.elemType === DT.FLOAT;
      if (!floatOut) return o;
      g.declaredTypes.delete(o);
      if (g.isGraphOutput(o) && options.keepIoTypes) {
        const h = g.freshName(`${o}_fp16`);
        half.set(o, h);
        pending.push([h, o]);
        return h;
      }
      half.set(o, o);
      return o;
    });
    out.push(n);
    for (const [h, o] of pending) {
      addCast(h, o, DT.FLOAT);
      castTo32.set(o, o); // FP32 consumers read the graph output itself
    }
  }
  // Graph outputs fed straight from an FP32 value stay as they are; without keep-io-types they become FP16.
  if (!options.keepIoTypes) {
    for (const i of g.inputs) if (i.type.elemType === DT.FLOAT) i.type = { elemType: DT.FLOAT16, shape: i.type.shape };
    for (const o of g.outputs) {
      if (o.type.elemType !== DT.FLOAT) continue;
      if (!half.has(o.name) && producers.has(o.name)) {
        // produced in FP32 (blocked node): cast it so the interface is uniformly FP16
        const p = producers.get(o.name) as Node;
        const tmp = g.freshName(`${o.name}_fp32`);
        p.outputs = p.outputs.map((x) => (x === o.name ? tmp : x));
        for (const n of out) n.inputs = n.inputs.map((x) => (x === o.name ? tmp : x));
        out.push(makeNode(g.freshName(`${o.name}_cast`), 'Cast', [tmp], [o.name], { to: { kind: 'int', value: DT.FLOAT16 } }));
        casts++;
      }
      o.type = { elemType: DT.FLOAT16, shape: o.type.shape };
    }
  }
  g.nodes = out;
  for (const n of out) if (!nodePrecision.has(n.name)) nodePrecision.set(n.name, 'fp16');
  g.toposort();
  inferShapes(g);
  return { nodePrecision, castsInserted: casts, kept, convertedInitializers: convertedInits };
}
