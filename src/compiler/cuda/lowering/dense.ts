import { rtError } from '../../../errors/registry.ts';
import { attrFloat, attrInt, type Node } from '../../ir/graph.ts';
import { toFloat32 } from '../../ir/tensor.ts';
import type { OperandRef } from '../../../plan/cuda-network.ts';
import { transpose2d } from '../weights.ts';
import type { LoweringContext } from './context.ts';
import { epilogue } from './fusion.ts';
import { prod } from './layout.ts';

/** Gemm and MatMul: dense layers with constant weights, and batched products of computed tensors. */

/** Gemm, or MatMul with a constant 2-D right operand: Y = act(A·Wᵀ + bias [+ Z]), W stored [n, k]. */
export function lowerDense(ctx: LoweringContext, n: Node): void {
  const isGemm = n.opType === 'Gemm';
  const a = n.inputs[0] ?? '';
  const out = n.outputs[0] ?? '';
  const bT = ctx.constOf(n.inputs[1]);
  if (bT === undefined || bT.dims.length !== 2) {
    if (!isGemm) return lowerBatchedMatMul(ctx, n);
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
    const cT = ctx.constOf(cName);
    if (cT !== undefined) {
      const cv = toFloat32(cT);
      const rows = cT.dims.length === 2 ? (cT.dims[0] ?? 1) : 1;
      if (rows !== 1 || !(cv.length === 1 || cv.length === nDim))
        throw rtError('UNSUPPORTED', `Gemm '${n.name}': a constant C must broadcast per column`);
      bias = new Float32Array(nDim).map((_, i) => beta * (cv.length === 1 ? (cv[0] ?? 0) : (cv[i] ?? 0)));
    } else {
      if (beta !== 1 || !ctx.sameShapeAllBatches(cName, out))
        throw rtError('UNSUPPORTED', `Gemm '${n.name}': a computed C must be [M, N] with beta 1`);
      zValue = cName;
    }
  }
  const ep = epilogue(ctx, out, zValue === undefined);
  const z = zValue ?? ep.z;
  ctx.schedule(n, ep.nodes, () => {
    const aT = ctx.need(a, 'plain');
    const zT = z === undefined ? undefined : ctx.need(z, 'plain');
    const wRef = ctx.weights.addHalf(wv);
    const bRef = bias === undefined ? null : ctx.weights.addHalf(bias);
    const yT = ctx.defineValue(ep.final, 'plain');
    const name = n.name;
    ctx.addStep(
      {
        name,
        ops: [n.opType, ...ep.nodes.map((x) => x.opType)],
        reads: zT === undefined ? [aT] : [aT, zT],
        writes: [yT],
        emit(b, ref) {
          const as = aT.shape(b);
          if (as.length < 2) throw rtError('UNSUPPORTED', `${n.opType} '${name}': the left operand must have rank >= 2`);
          const m = prod(as.slice(0, -1));
          return [
            {
              kind: 'gemm',
              name,
              x: ref(aT, b),
              w: wRef,
              b: bRef,
              z: zT === undefined ? null : ref(zT, b),
              y: ref(yT, b),
              batch: 1,
              m,
              n: nDim,
              k: kDim,
              strideA: m * kDim,
              strideB: 0,
              strideY: m * nDim,
              bNK: 1,
              act: ep.act,
            },
          ];
        },
      },
      [n, ...ep.nodes],
    );
  });
}

/** MatMul of two computed tensors: batch dims must match, or one side has none (broadcast with stride 0). */
export function lowerBatchedMatMul(ctx: LoweringContext, n: Node): void {
  const a = n.inputs[0] ?? '';
  const bv = n.inputs[1] ?? '';
  const out = n.outputs[0] ?? '';
  const ep = epilogue(ctx, out, true);
  ctx.schedule(n, ep.nodes, () => {
    const aT = ctx.need(a, 'plain');
    const bT = ctx.constOf(bv) !== undefined ? undefined : ctx.need(bv, 'plain');
    const bConst = ctx.constOf(bv);
    const bW = bConst === undefined ? undefined : ctx.weights.addHalf(toFloat32(bConst));
    const zT = ep.z === undefined ? undefined : ctx.need(ep.z, 'plain');
    const yT = ctx.defineValue(ep.final, 'plain');
    const name = n.name;
    ctx.addStep(
      {
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
            throw rtError(
              'UNSUPPORTED',
              `MatMul '${name}': batch dims [${as.slice(0, -2).join(',')}] and [${bs.slice(0, -2).join(',')}] must match or one side must have none`,
            );
          }
          const batch = Math.max(batchA, batchB);
          const wRef = bT !== undefined ? ref(bT, b) : (bW as OperandRef);
          return [
            {
              kind: 'gemm',
              name,
              x: ref(aT, b),
              w: wRef,
              b: null,
              z: zT === undefined ? null : ref(zT, b),
              y: ref(yT, b),
              batch,
              m,
              n: nn,
              k,
              strideA: batchA === 1 ? 0 : m * k,
              strideB: batchB === 1 ? 0 : k * nn,
              strideY: m * nn,
              bNK: 0,
              act: ep.act,
            },
          ];
        },
      },
      [n, ...ep.nodes],
    );
  });
}
