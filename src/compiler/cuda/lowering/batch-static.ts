import { DT } from '../../../tensor/onnx-dtype.ts';
import { attrInt, type Graph } from '../../ir/graph.ts';
import { inferShapes } from '../../ir/shape-inference.ts';
import { int64Tensor } from '../../ir/tensor.ts';
import { constantFolding, runPasses } from '../../passes/index.ts';

/**
 * Shape arithmetic: exporters write `x.view(x.size(0), -1)` or `idx.expand(b, 2, k)` as Shape → Gather →
 * Unsqueeze → Concat → (Reshape, Equal, Where) → Reshape / Expand. Once the batch size of a program is fixed these
 * values are constants: the CUDA target computes them at build time (no step) and reads the resulting shapes.
 */

/** Values computed from Shape / Size outputs and constants only. */
export function batchStaticValues(g: Graph): Set<string> {
  const s = new Set<string>();
  for (const n of g.nodes) {
    if (n.domain !== '') continue;
    const ins = n.inputs.filter((i) => i !== '');
    const fromShape = n.opType === 'Shape' || n.opType === 'Size';
    const derived = ins.length > 0 && ins.some((i) => s.has(i)) && ins.every((i) => s.has(i) || g.initializers.has(i));
    if (fromShape || derived) for (const o of n.outputs) if (o !== '') s.add(o);
  }
  return s;
}

/**
 * For one batch size (a clone whose inputs have concrete shapes, after shape inference): every Shape of a
 * statically shaped value becomes a constant and what is computed from it is folded, then shapes are inferred
 * again, so that Expand / Reshape targets built from shapes are known.
 */
export function specializeShapes(c: Graph): void {
  if (batchStaticValues(c).size === 0) return;
  let changed = false;
  c.nodes = c.nodes.filter((n) => {
    if (n.domain !== '' || n.opType !== 'Shape') return true;
    const s = c.typeOf(n.inputs[0] ?? '')?.shape;
    if (s === null || s === undefined || !s.every((d) => typeof d === 'number')) return true;
    const dims = s as number[];
    const r = dims.length;
    const clamp = (v: number): number => Math.min(Math.max(v < 0 ? v + r : v, 0), r);
    c.initializers.set(n.outputs[0] ?? '', int64Tensor(dims.slice(clamp(attrInt(n, 'start', 0)), clamp(attrInt(n, 'end', r)))));
    changed = true;
    return false;
  });
  if (!changed) return;
  runPasses(c, [constantFolding], { target: 'cuda', precision: 'fp16' });
  inferShapes(c);
}

/** ONNX element types the CUDA target holds as exact integers in FP32 storage. */
export function isIntegerType(elemType: number | undefined): boolean {
  return (
    elemType === DT.INT64 ||
    elemType === DT.INT32 ||
    elemType === DT.BOOL ||
    elemType === DT.INT8 ||
    elemType === DT.UINT8 ||
    elemType === DT.INT16 ||
    elemType === DT.UINT16 ||
    elemType === DT.UINT32
  );
}
