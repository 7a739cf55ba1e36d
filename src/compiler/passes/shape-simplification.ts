import { DT } from '../../tensor/onnx-dtype.ts';
import { attrInt, attrInts, type Graph, type Node } from '../ir/graph.ts';
import { int64Tensor, toIntArray } from '../ir/tensor.ts';
import { ChangeLog, type Pass } from './pass.ts';

/**
 * One element of a shape-valued int64 tensor: a known number, "dimension `axis` of tensor `of`", or unknown.
 * Exporters (torch.onnx in particular) write `x.view(x.size(0), -1)` as Shape → Gather → Unsqueeze → Concat →
 * Reshape; tracing these symbolically lets static parts become constants and copied dims become Reshape's 0.
 */
type SymDim = { readonly value: number } | { readonly of: string; readonly axis: number } | null;

interface SymShape {
  readonly dims: readonly SymDim[];
  /** True for a 0-d tensor (a scalar produced by Gather with a scalar index). */
  readonly scalar: boolean;
}

function isStatic(d: SymDim): d is { readonly value: number } {
  return d !== null && 'value' in d;
}

function analyze(g: Graph): Map<string, SymShape> {
  const sym = new Map<string, SymShape>();
  const get = (name: string | undefined): SymShape | undefined => {
    if (name === undefined || name === '') return undefined;
    const s = sym.get(name);
    if (s !== undefined) return s;
    const t = g.initializers.get(name);
    if (t !== undefined && (t.elemType === DT.INT64 || t.elemType === DT.INT32) && t.dims.length <= 1 && (t.dims[0] ?? 1) <= 16) {
      return { dims: toIntArray(t).map((value) => ({ value })), scalar: t.dims.length === 0 };
    }
    return undefined;
  };
  for (const n of g.nodes) {
    if (n.domain !== '') continue;
    const out = n.outputs[0];
    if (out === undefined || out === '') continue;
    let r: SymShape | undefined;
    switch (n.opType) {
      case 'Shape': {
        const x = n.inputs[0] ?? '';
        const shape = g.typeOf(x)?.shape;
        if (shape == null) break;
        const rank = shape.length;
        const clampAxis = (v: number): number => Math.min(Math.max(v < 0 ? v + rank : v, 0), rank);
        const start = clampAxis(attrInt(n, 'start', 0));
        const end = clampAxis(attrInt(n, 'end', rank));
        const dims: SymDim[] = [];
        for (let i = start; i < end; i++) {
          const d = shape[i];
          dims.push(typeof d === 'number' ? { value: d } : { of: x, axis: i });
        }
        r = { dims, scalar: false };
        break;
      }
      case 'Gather': {
        const data = get(n.inputs[0]);
        const idxT = g.initializers.get(n.inputs[1] ?? '');
        if (data === undefined || data.scalar || idxT === undefined || attrInt(n, 'axis', 0) !== 0 || idxT.dims.length > 1) break;
        const idx = toIntArray(idxT).map((i) => (i < 0 ? i + data.dims.length : i));
        if (idx.some((i) => i < 0 || i >= data.dims.length)) break;
        r = { dims: idx.map((i) => data.dims[i] ?? null), scalar: idxT.dims.length === 0 };
        break;
      }
      case 'Unsqueeze': {
        const data = get(n.inputs[0]);
        const axes =
          attrInts(n, 'axes') ??
          (() => {
            const t = g.initializers.get(n.inputs[1] ?? '');
            return t === undefined ? undefined : toIntArray(t);
          })();
        if (data?.scalar && axes !== undefined && axes.length === 1 && (axes[0] === 0 || axes[0] === -1)) {
          r = { dims: data.dims, scalar: false };
        }
        break;
      }
      case 'Squeeze': {
        const data = get(n.inputs[0]);
        if (data !== undefined && !data.scalar && data.dims.length === 1) r = { dims: data.dims, scalar: true };
        break;
      }
      case 'Cast': {
        const data = get(n.inputs[0]);
        const to = attrInt(n, 'to', 0);
        if (data !== undefined && (to === DT.INT64 || to === DT.INT32)) r = data;
        break;
      }
      case 'Identity':
        r = get(n.inputs[0]);
        break;
      case 'Concat': {
        if (attrInt(n, 'axis', 0) !== 0) break;
        const parts = n.inputs.map((x) => get(x));
        if (parts.some((p) => p === undefined || p.scalar)) break;
        r = { dims: parts.flatMap((p) => p?.dims ?? []), scalar: false };
        break;
      }
      case 'Slice': {
        const data = get(n.inputs[0]);
        const c = (i: number): number[] | undefined => {
          const name = n.inputs[i];
          if (name === undefined || name === '') return undefined;
          const t = g.initializers.get(name);
          return t === undefined ? [NaN] : toIntArray(t);
        };
        const starts = c(1);
        const ends = c(2);
        const axes = c(3);
        const steps = c(4);
        if (data === undefined || data.scalar || g.opset < 10 || starts === undefined || ends === undefined) break;
        if (starts.length !== 1 || ends.length !== 1 || (axes !== undefined && axes[0] !== 0) || (steps !== undefined && steps[0] !== 1)) break;
        const len = data.dims.length;
        let s = starts[0] ?? NaN;
        let e = ends[0] ?? NaN;
        if (Number.isNaN(s) || Number.isNaN(e)) break;
        s = Math.min(Math.max(s < 0 ? s + len : s, 0), len);
        e = Math.min(Math.max(e < 0 ? e + len : e, 0), len);
        r = { dims: data.dims.slice(s, Math.max(s, e)), scalar: false };
        break;
      }
      default:
        break;
    }
    if (r !== undefined) sym.set(out, r);
  }
  return sym;
}

/**
 * Whether dim `axis` of `a` and dim `i` of `b` are the same symbolic dim (`dim_param`, e.g. "seq"): ONNX IR.md
 * ("Static tensor shapes") makes one dim_param name one size, and shape inference carries the names through. torch.onnx builds the Reshape
 * targets of attention heads from Shape(x) of the layer input, not of the tensor reshaped (x → MatMul → Reshape):
 * only the shared symbol says that the sizes are copies.
 */
function sameSymbolicDim(g: Graph, a: string, axis: number, b: string, i: number): boolean {
  const da = g.typeOf(a)?.shape?.[axis];
  return typeof da === 'string' && da !== '' && da === g.typeOf(b)?.shape?.[i];
}

/**
 * Shape-subgraph simplification: a shape-valued tensor whose every element is statically known becomes a
 * constant (the Shape/Gather/Concat chain behind it then dies), and a Reshape whose target copies dimensions
 * of its own input at the same positions (or dims of another tensor that are the same symbolic dims) gets a
 * constant target with 0 ("copy this dim", ONNX Reshape with allowzero=0) so the dynamic batch dimension no
 * longer needs a runtime shape computation.
 */
export const shapeSimplification: Pass = {
  name: 'shape-simplification',
  description: 'replace statically known Shape computations by constants; constant Reshape targets with copied dims',
  run(g: Graph) {
    const log = new ChangeLog();
    const sym = analyze(g);
    const producers = g.producers();
    const replaced = new Set<Node>();
    for (const [name, s] of sym) {
      const p = producers.get(name);
      if (p === undefined || g.isGraphOutput(name) || !s.dims.every(isStatic)) continue;
      const values = s.dims.map((d) => (isStatic(d) ? d.value : 0));
      const elemType = g.typeOf(name)?.elemType ?? DT.INT64;
      const t = int64Tensor(values, s.scalar ? [] : [values.length]);
      g.initializers.set(name, elemType === DT.INT32 ? { elemType: DT.INT32, dims: t.dims, data: Int32Array.from(values) } : t);
      p.outputs = p.outputs.map((o) => (o === name ? '' : o));
      if (p.outputs.every((o) => o === '')) replaced.add(p);
      log.add(`'${name}' (from ${p.opType} '${p.name}') is statically [${values.join(',')}]`);
    }
    if (replaced.size > 0) g.nodes = g.nodes.filter((n) => !replaced.has(n));
    for (const n of g.nodes) {
      if (n.opType !== 'Reshape' || n.domain !== '' || attrInt(n, 'allowzero', 0) !== 0) continue;
      const data = n.inputs[0] ?? '';
      const target = n.inputs[1] ?? '';
      if (g.initializers.has(target)) continue;
      const s = sym.get(target);
      if (s === undefined || s.scalar) continue;
      const values: number[] = [];
      let ok = true;
      let bySymbol = false;
      s.dims.forEach((d, i) => {
        if (isStatic(d)) values.push(d.value);
        else if (d !== null && d.of === data && d.axis === i) values.push(0);
        else if (d !== null && sameSymbolicDim(g, d.of, d.axis, data, i)) {
          values.push(0);
          bySymbol = true;
        } else ok = false;
      });
      if (!ok) continue;
      n.inputs[1] = g.addInitializer(`${n.name}_shape`, int64Tensor(values));
      log.add(
        `Reshape '${n.name}' now has the constant target [${values.join(',')}]${bySymbol ? ' (copied dims are the same symbolic dims of another tensor)' : ''}`,
      );
    }
    return log.result();
  },
};
