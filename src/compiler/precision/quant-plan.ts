import { DT } from '../../tensor/onnx-dtype.ts';
import { attrFloat, attrInt, hasSubgraph, type Graph, type Node } from '../ir/graph.ts';
import { toFloat32 } from '../ir/tensor.ts';

/**
 * Which tensors of an FP32 graph an INT8 QDQ build quantizes (the analysis shared by calibration, which must
 * measure exactly these tensors, and the QDQ rewrite).
 *
 * - Weight operators (Conv, Gemm, MatMul with a constant 2-D B): weights per-channel symmetric INT8, the
 *   activation input through QuantizeLinear → DequantizeLinear (onnxruntime fuses DQ → Conv → Q into
 *   QLinearConv, DQ → Gemm into QGemm, DQ → MatMul → Q into QLinearMatMul).
 * - Operators onnxruntime runs on quantized data (QLinearAdd, QLinearConcat, QLinearAveragePool,
 *   QLinearGlobalAveragePool) or simply moves it (MaxPool, Reshape, Flatten, Transpose, Squeeze, Unsqueeze):
 *   their float inputs get Q/DQ too; data movers reuse their input's scale so the runtime can drop the pair.
 * - A Relu (or Clip with lower bound 0) right after one of these, as its only consumer, is removed: quantizing
 *   the producer's output to UINT8 with zero point 0 clamps at 0 exactly as Relu does.
 */

export const WEIGHT_OPS = new Set(['Conv', 'Gemm', 'MatMul']);
const QLINEAR_OPS = new Set(['Add', 'Concat', 'AveragePool', 'GlobalAveragePool']);
/** Operators that only move or select values: their output keeps the input's quantization parameters. */
export const SAME_SCALE_OPS = new Set(['MaxPool', 'Reshape', 'Flatten', 'Transpose', 'Squeeze', 'Unsqueeze']);

export interface QuantPlan {
  /** Weight operators to quantize (their constant weight and bias). */
  readonly weightNodes: ReadonlySet<Node>;
  /** Non-weight operators whose inputs and outputs are quantized. */
  readonly qlinearNodes: ReadonlySet<Node>;
  /** Float activation tensors that get Q → DQ, by name in the FP32 graph. */
  readonly tensors: ReadonlySet<string>;
  /** Relu/Clip nodes removed; their input tensor takes the range measured at their output. */
  readonly foldedActivations: ReadonlyMap<Node, { readonly input: string; readonly output: string }>;
  /** tensor → tensor whose range it reuses (data movers), resolved transitively. */
  readonly rangeAlias: ReadonlyMap<string, string>;
  /** Tensors whose range must be measured: `tensors` with folded activations measured at their outputs. */
  readonly calibrationTensors: readonly string[];
}

export interface QuantPlanOptions {
  /** Node names kept in FP32 (mixed precision fallback, --int8-exclude). */
  readonly excludeNodes?: ReadonlySet<string>;
}

/** Slots of a node that carry activations worth quantizing. */
function activationSlots(n: Node): number[] {
  if (WEIGHT_OPS.has(n.opType)) return [0];
  if (n.opType === 'Add' || n.opType === 'Concat') return n.inputs.map((_, i) => i);
  return [0];
}

function isWeightNode(g: Graph, n: Node): boolean {
  if (n.domain !== '' || !WEIGHT_OPS.has(n.opType)) return false;
  const w = g.initializers.get(n.inputs[1] ?? '');
  if (w === undefined || w.elemType !== DT.FLOAT) return false;
  if (n.opType === 'Conv') return w.dims.length >= 3 && !g.initializers.has(n.inputs[0] ?? '');
  if (n.opType === 'Gemm') return w.dims.length === 2 && attrInt(n, 'transA', 0) === 0;
  return w.dims.length === 2;
}

/** The lower bound of a Clip (attribute before opset 11, input after), or undefined when not constant. */
function clipBounds(g: Graph, n: Node): [number, number] | undefined {
  if (g.opset < 11) return [attrFloat(n, 'min', -Infinity), attrFloat(n, 'max', Infinity)];
  const read = (slot: number, dflt: number): number | undefined => {
    const name = n.inputs[slot];
    if (name === undefined || name === '') return dflt;
    const t = g.initializers.get(name);
    return t === undefined ? undefined : toFloat32(t)[0];
  };
  const lo = read(1, -Infinity);
  const hi = read(2, Infinity);
  return lo === undefined || hi === undefined ? undefined : [lo, hi];
}

export function planQuantization(g: Graph, options: QuantPlanOptions = {}): QuantPlan {
  const exclude = options.excludeNodes ?? new Set<string>();
  const consumers = g.consumers();
  const producers = g.producers();
  const isFloatActivation = (name: string): boolean => name !== '' && !g.initializers.has(name) && g.typeOf(name)?.elemType === DT.FLOAT;

  const weightNodes = new Set<Node>();
  const candidates = new Set<Node>();
  for (const n of g.nodes) {
    if (exclude.has(n.name) || n.domain !== '' || hasSubgraph(n)) continue;
    if (isWeightNode(g, n)) {
      weightNodes.add(n);
      candidates.add(n);
    } else if (QLINEAR_OPS.has(n.opType) || SAME_SCALE_OPS.has(n.opType)) {
      if (activationSlots(n).every((s) => isFloatActivation(n.inputs[s] ?? ''))) candidates.add(n);
    }
  }
  // A non-weight operator is only worth quantizing when its output feeds another quantized operator;
  // otherwise onnxruntime would run it in float between a DQ and nothing. Iterate to a fixed point.
  const qlinear = new Set<Node>([...candidates].filter((n) => !weightNodes.has(n)));
  const feedsQuantized = (n: Node): boolean => {
    const out = n.outputs[0] ?? '';
    const cs = followRelu(out);
    return cs.length > 0 && cs.every((c) => candidates.has(c) && activationSlots(c).some((s) => c.inputs[s] === (reluOut(out) ?? out)));
  };
  /** The output of a foldable Relu/Clip that is `value`'s only consumer, if any. */
  const reluOut = (value: string): string | undefined => {
    const cs = consumers.get(value) ?? [];
    const r = cs[0];
    if (cs.length !== 1 || r === undefined || g.isGraphOutput(value) || exclude.has(r.name)) return undefined;
    if (r.opType === 'Relu' && r.domain === '') return r.outputs[0];
    if (r.opType === 'Clip' && r.domain === '') {
      const b = clipBounds(g, r);
      if (b !== undefined && b[0] === 0) return r.outputs[0];
    }
    return undefined;
  };
  function followRelu(value: string): Node[] {
    const r = reluOut(value);
    return consumers.get(r ?? value) ?? [];
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (const n of [...qlinear]) {
      if (!feedsQuantized(n)) {
        qlinear.delete(n);
        candidates.delete(n);
        changed = true;
      }
    }
  }

  const tensors = new Set<string>();
  for (const n of candidates)
    for (const s of activationSlots(n)) {
      const x = n.inputs[s] ?? '';
      if (isFloatActivation(x)) tensors.add(x);
    }
  // Outputs of quantized operators whose consumers are quantized are already in `tensors` through those
  // consumers. Now fold Relu/Clip: a quantized tensor that is the output of a foldable activation whose input
  // comes from a quantized operator moves to that input.
  const foldedActivations = new Map<Node, { input: string; output: string }>();
  for (const t of [...tensors]) {
    const act = producers.get(t);
    if (act === undefined || (act.opType !== 'Relu' && act.opType !== 'Clip') || exclude.has(act.name)) continue;
    const input = act.inputs[0] ?? '';
    const p = producers.get(input);
    if (p === undefined || !candidates.has(p) || SAME_SCALE_OPS.has(p.opType) || reluOut(input) !== t) continue;
    if (g.isGraphOutput(t)) continue;
    foldedActivations.set(act, { input, output: t });
    tensors.delete(t);
    tensors.add(input);
  }
  // Data movers: output reuses the input's range.
  const rangeAlias = new Map<string, string>();
  for (const n of candidates) {
    if (!SAME_SCALE_OPS.has(n.opType)) continue;
    const out = n.outputs[0] ?? '';
    const inp = n.inputs[0] ?? '';
    if (tensors.has(out) && tensors.has(inp)) rangeAlias.set(out, inp);
  }
  const folded = new Map([...foldedActivations.values()].map((f) => [f.input, f.output]));
  const calibrationTensors = [...tensors].map((t) => folded.get(t) ?? t);
  return { weightNodes, qlinearNodes: qlinear, tensors, foldedActivations, rangeAlias, calibrationTensors };
}
