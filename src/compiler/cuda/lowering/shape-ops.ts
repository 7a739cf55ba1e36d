import { rtError } from '../../../errors/registry.ts';
import { DT } from '../../../tensor/onnx-dtype.ts';
import { attrInt, attrInts, type Node } from '../../ir/graph.ts';
import type { CudaLayer, OperandRef } from '../../../plan/cuda-network.ts';
import type { LoweringContext } from './context.ts';
import { prod, rowMajorStrides, PERM_NHWC, normAxis, type Layout } from './layout.ts';
import type { LTensor } from './types.ts';

/** Operators that move or relabel bytes: Transpose, Concat, and the reshape-like aliases (no step). */

export function lowerTranspose(ctx: LoweringContext, n: Node): void {
  const x = n.inputs[0] ?? '';
  const src = ctx.tensorOf(x);
  const rank = src.shape(ctx.maxB).length;
  const perm = attrInts(n, 'perm') ?? [...new Array<number>(rank).keys()].reverse();
  if (src.layout === 'nhwc' && perm.join(',') === PERM_NHWC.join(',')) {
    // NCHW → NHWC of an NHWC-stored tensor is its bytes as they are
    ctx.aliasValue(n, n.outputs[0] ?? '', 'plain', src.storage);
    return;
  }
  if (rank > 6) throw rtError('UNSUPPORTED', `Transpose '${n.name}': rank ${rank} > 6`);
  const xT = ctx.need(x, 'plain');
  const yT = ctx.defineValue(n.outputs[0] ?? '', 'plain');
  ctx.addNodeStep(n, [xT], yT, (b, ref) => {
    const xs = xT.shape(b);
    const st = rowMajorStrides(xs);
    return [
      { kind: 'transpose', name: n.name, x: ref(xT, b), y: ref(yT, b), dims: perm.map((p) => xs[p] ?? 1), inStrides: perm.map((p) => st[p] ?? 0) },
    ];
  });
}

export function lowerConcat(ctx: LoweringContext, n: Node): void {
  const out = n.outputs[0] ?? '';
  const rank = ctx.shapeOf(out, ctx.maxB).length;
  const axis = normAxis(attrInt(n, 'axis', 0), rank);
  const parts = n.inputs.filter((i) => i !== '');
  const computed = parts.filter((p) => ctx.constOf(p) === undefined);
  const layout: Layout =
    rank === 4 && computed.length > 0 && computed.every((p) => ctx.tensorOf(p).layout === 'nhwc') && parts.every((p) => ctx.constOf(p) === undefined)
      ? 'nhwc'
      : 'plain';
  const srcs = parts.map((p) => {
    const c = ctx.constOf(p);
    return c !== undefined
      ? { w: ctx.weightRef(c, p), shape: (_b: number) => [...c.dims] }
      : { t: ctx.need(p, layout), shape: (b: number) => ctx.shapeOf(p, b) };
  });
  const yT = ctx.defineValue(out, layout);
  ctx.addNodeStep(
    n,
    srcs.map((s) => s.t).filter((t): t is LTensor => t !== undefined),
    yT,
    (b, ref) => {
      const os = ctx.shapeOf(out, b);
      const perm = layout === 'nhwc' ? PERM_NHWC : os.map((_, i) => i);
      const physAxis = perm.indexOf(axis);
      const phys = perm.map((p) => os[p] ?? 1);
      const rows = prod(phys.slice(0, physAxis));
      const inner = prod(phys.slice(physAxis + 1));
      let offset = 0;
      return srcs.map((s, i) => {
        const len = s.shape(b)[axis] ?? 1;
        const layer: CudaLayer = {
          kind: 'copy2d',
          name: `${n.name}#${i}`,
          x: s.t !== undefined ? ref(s.t, b) : (s.w as OperandRef),
          y: ref(yT, b),
          rows,
          rowElems: len * inner,
          srcStride: len * inner,
          dstStride: (phys[physAxis] ?? 1) * inner,
          srcOff: 0,
          dstOff: offset * inner,
        };
        offset += len;
        return layer;
      });
    },
  );
}

export function lowerAlias(ctx: LoweringContext, n: Node): void {
  if (n.opType === 'Cast') {
    const to = attrInt(n, 'to', 0);
    if (to !== DT.FLOAT && to !== DT.FLOAT16)
      throw rtError('UNSUPPORTED', `Cast '${n.name}' to element type ${to}: the CUDA target keeps floats only`);
  }
  if (n.opType === 'Reshape' && ctx.constOf(n.inputs[1]) === undefined && !ctx.batchStatic.has(n.inputs[1] ?? '')) {
    throw rtError('UNSUPPORTED', `Reshape '${n.name}': the target shape must be a constant (after constant folding)`);
  }
  const x = n.inputs[0] ?? '';
  const keepsLayout = n.opType === 'Identity' || n.opType === 'Dropout' || n.opType === 'Cast';
  const src = keepsLayout ? ctx.tensorOf(x) : ctx.need(x, 'plain');
  const out = n.outputs[0] ?? '';
  ctx.aliasValue(n, out, src.layout, src.storage, src.dtype);
}
