import { attrFloat, attrString, type Node } from '../../ir/graph.ts';
import { toFloat32 } from '../../ir/tensor.ts';
import { ACT, NO_ACT, type ActSpec } from '../../../plan/cuda-network.ts';
import type { LoweringContext } from './context.ts';

/**
 * What the CUDA lowering fuses into the step before it, as TensorRT does: an activation (one node, or SiLU as
 * Sigmoid + Mul) and a residual Add of a computed tensor of the same shape.
 */

export interface ActMatch {
  readonly act: ActSpec;
  readonly nodes: readonly Node[];
  readonly out: string;
}

function clipBounds(ctx: LoweringContext, n: Node): [number, number] | undefined {
  if (ctx.g.opset >= 11) {
    const lo = n.inputs[1] !== undefined && n.inputs[1] !== '' ? ctx.constOf(n.inputs[1]) : undefined;
    const hi = n.inputs[2] !== undefined && n.inputs[2] !== '' ? ctx.constOf(n.inputs[2]) : undefined;
    if ((n.inputs[1] ?? '') !== '' && lo === undefined) return undefined;
    if ((n.inputs[2] ?? '') !== '' && hi === undefined) return undefined;
    return [lo === undefined ? -65504 : (toFloat32(lo)[0] ?? 0), hi === undefined ? 65504 : (toFloat32(hi)[0] ?? 0)];
  }
  return [attrFloat(n, 'min', -65504), attrFloat(n, 'max', 65504)];
}

/** The activation a single node computes, or undefined (not an activation, or its parameters are computed). */
export function actOfNode(ctx: LoweringContext, n: Node): ActSpec | undefined {
  if (n.domain !== '') return undefined;
  switch (n.opType) {
    case 'Relu':
      return { kind: ACT.relu, p0: 0, p1: 0 };
    case 'Sigmoid':
      return { kind: ACT.sigmoid, p0: 0, p1: 0 };
    case 'Tanh':
      return { kind: ACT.tanh, p0: 0, p1: 0 };
    case 'LeakyRelu':
      return { kind: ACT.leakyRelu, p0: attrFloat(n, 'alpha', 0.01), p1: 0 };
    case 'HardSigmoid':
      return { kind: ACT.hardSigmoid, p0: attrFloat(n, 'alpha', 0.2), p1: attrFloat(n, 'beta', 0.5) };
    case 'HardSwish':
      return { kind: ACT.hardSwish, p0: 0, p1: 0 };
    case 'Gelu':
      return { kind: attrString(n, 'approximate', 'none') === 'tanh' ? ACT.geluTanh : ACT.geluErf, p0: 0, p1: 0 };
    case 'Clip': {
      const b = clipBounds(ctx, n);
      return b === undefined ? undefined : { kind: ACT.clip, p0: b[0], p1: b[1] };
    }
    default:
      return undefined;
  }
}

/** x·sigmoid(x) as two nodes (what torch exports for SiLU): the Mul's other input is Sigmoid(x). */
export function siluPair(ctx: LoweringContext, value: string): { s: Node; m: Node } | undefined {
  const cs = ctx.consumers.get(value) ?? [];
  const s = cs.find((c) => c.opType === 'Sigmoid' && c.domain === '' && c.inputs[0] === value);
  if (s === undefined) return undefined;
  const sOut = s.outputs[0] ?? '';
  const sc = ctx.consumers.get(sOut) ?? [];
  const m = sc[0];
  if (sc.length !== 1 || m === undefined || m.opType !== 'Mul' || m.domain !== '' || ctx.g.isGraphOutput(sOut)) return undefined;
  const ins = [...m.inputs].sort();
  if (ins.length !== 2 || ins.join('\u0000') !== [value, sOut].sort().join('\u0000')) return undefined;
  return { s, m };
}

/** The activation that alone consumes `value`, to be fused into the step that produces it. */
export function matchActivation(ctx: LoweringContext, value: string): ActMatch | undefined {
  if (ctx.g.isGraphOutput(value)) return undefined;
  const cs = ctx.consumers.get(value) ?? [];
  if (cs.some((c) => ctx.fused.has(c))) return undefined;
  if (cs.length === 1) {
    const c = cs[0] as Node;
    if (c.inputs[0] !== value || c.inputs.filter((i) => i === value).length !== 1) return undefined;
    const act = actOfNode(ctx, c);
    return act === undefined ? undefined : { act, nodes: [c], out: c.outputs[0] ?? '' };
  }
  if (cs.length === 2) {
    const p = siluPair(ctx, value);
    if (p !== undefined) return { act: { kind: ACT.silu, p0: 0, p1: 0 }, nodes: [p.s, p.m], out: p.m.outputs[0] ?? '' };
  }
  return undefined;
}

/** The only consumer of `value` is Add(value, other) with a computed `other` of the same shape. */
function matchResidual(ctx: LoweringContext, value: string): { node: Node; other: string; out: string } | undefined {
  if (ctx.g.isGraphOutput(value)) return undefined;
  const cs = ctx.consumers.get(value) ?? [];
  const c = cs[0];
  if (cs.length !== 1 || c === undefined || ctx.fused.has(c) || c.opType !== 'Add' || c.domain !== '' || c.inputs.length !== 2) return undefined;
  const other = c.inputs[0] === value ? c.inputs[1] : c.inputs[0];
  if (other === undefined || other === value || ctx.constOf(other) !== undefined) return undefined;
  if (!ctx.sameShapeAllBatches(other, value)) return undefined;
  return { node: c, other, out: c.outputs[0] ?? '' };
}

/** Conv/Gemm/Binary chains: [+ residual Add] [+ activation]. */
export function epilogue(ctx: LoweringContext, out: string, allowResidual: boolean): { z?: string; act: ActSpec; final: string; nodes: Node[] } {
  let final = out;
  const nodes: Node[] = [];
  let z: string | undefined;
  if (allowResidual) {
    const r = matchResidual(ctx, final);
    if (r !== undefined) {
      z = r.other;
      nodes.push(r.node);
      final = r.out;
    }
  }
  const a = matchActivation(ctx, final);
  if (a !== undefined) {
    nodes.push(...a.nodes);
    final = a.out;
  }
  return { ...(z !== undefined ? { z } : {}), act: a?.act ?? NO_ACT, final, nodes };
}
