import { rtError } from '../../../errors/registry.ts';
import { attrFloat, attrInt, type Node } from '../../ir/graph.ts';
import { toFloat32, type ConstTensor } from '../../ir/tensor.ts';
import { BINOP, type ActSpec, type OperandRef } from '../../../plan/cuda-network.ts';
import type { LoweringContext } from './context.ts';
import { epilogue } from './fusion.ts';
import { prod, PERM_NHWC, operandStrides, type Layout } from './layout.ts';
import type { LTensor } from './types.ts';

/** ONNX binary operator → the engine's BINOP code. */
export const BIN_OPS: Readonly<Record<string, number>> = { Add: BINOP.Add, Sub: BINOP.Sub, Mul: BINOP.Mul, Div: BINOP.Div };

/** Element-wise operators: broadcast binary operators, activations, and BatchNormalization left unfolded. */

export function lowerBinary(ctx: LoweringContext, n: Node): void {
  const [a = '', b = ''] = n.inputs;
  const out = n.outputs[0] ?? '';
  const op = BIN_OPS[n.opType] ?? 0;
  const ep = epilogue(ctx, out, false);
  ctx.schedule(n, ep.nodes, () => {
    const operand = (v: string): { t?: LTensor; w?: { woff: number; bytes: number }; dims: (bb: number) => number[]; layout: Layout } => {
      const c = ctx.constOf(v);
      if (c !== undefined) return { w: ctx.weightRef(c, v), dims: () => [...c.dims], layout: 'plain' };
      const t = ctx.tensorOf(v);
      return { t, dims: (bb) => t.shape(bb), layout: t.layout };
    };
    const A = operand(a);
    const B = operand(b);
    const outRank = ctx.shapeOf(out, ctx.maxB).length;
    if (outRank > 6) throw rtError('UNSUPPORTED', `${n.opType} '${n.name}': rank ${outRank} > 6`);
    const fullNhwc = (o: typeof A): boolean => o.layout === 'nhwc' && outRank === 4 && ctx.sameShapeAllBatches(o === A ? a : b, out);
    const layout: Layout = outRank === 4 && (fullNhwc(A) || fullNhwc(B)) ? 'nhwc' : 'plain';
    const yT = ctx.defineValue(ep.final, layout);
    const name = n.name;
    ctx.addStep(
      {
        name,
        ops: [n.opType, ...ep.nodes.map((x) => x.opType)],
        reads: [A.t, B.t].filter((t): t is LTensor => t !== undefined),
        writes: [yT],
        emit(bb, ref) {
          const os = ctx.shapeOf(out, bb);
          const la = operandStrides(A.dims(bb), A.layout, os);
          const lb = operandStrides(B.dims(bb), B.layout, os);
          const perm = layout === 'nhwc' ? PERM_NHWC : os.map((_, i) => i);
          return [
            {
              kind: 'binary',
              name,
              a: A.t !== undefined ? ref(A.t, bb) : (A.w as OperandRef),
              b: B.t !== undefined ? ref(B.t, bb) : (B.w as OperandRef),
              y: ref(yT, bb),
              dims: perm.map((p) => os[p] ?? 1),
              sa: perm.map((p) => la[p] ?? 0),
              sb: perm.map((p) => lb[p] ?? 0),
              op,
              act: ep.act,
            },
          ];
        },
      },
      [n, ...ep.nodes],
    );
  });
}

export function lowerUnary(ctx: LoweringContext, n: Node, act: ActSpec, absorbed: readonly Node[], final: string): void {
  ctx.schedule(n, absorbed, () => {
    const xT = ctx.tensorOf(n.inputs[0] ?? '');
    const yT = ctx.defineValue(final, xT.layout);
    ctx.addStep(
      {
        name: n.name,
        ops: [n.opType, ...absorbed.map((x) => x.opType)],
        reads: [xT],
        writes: [yT],
        emit(b, ref) {
          return [{ kind: 'unary', name: n.name, x: ref(xT, b), y: ref(yT, b), count: prod(xT.shape(b)), act }];
        },
      },
      [n, ...absorbed],
    );
  });
}

export function lowerBatchNorm(ctx: LoweringContext, n: Node): void {
  if (attrInt(n, 'training_mode', 0) !== 0) throw rtError('UNSUPPORTED', `BatchNormalization '${n.name}': training mode`);
  const ps = [1, 2, 3, 4].map((i) => ctx.constOf(n.inputs[i]));
  if (ps.some((p) => p === undefined)) throw rtError('UNSUPPORTED', `BatchNormalization '${n.name}': statistics must be constants`);
  const [gamma, beta, mean, variance] = ps.map((p) => toFloat32(p as ConstTensor)) as [Float32Array, Float32Array, Float32Array, Float32Array];
  const eps = attrFloat(n, 'epsilon', 1e-5);
  const scale = gamma.map((gm, c) => gm / Math.sqrt((variance[c] ?? 1) + eps));
  const shift = beta.map((bt, c) => bt - (mean[c] ?? 0) * (scale[c] ?? 1));
  const out = n.outputs[0] ?? '';
  const ep = epilogue(ctx, out, true);
  ctx.schedule(n, ep.nodes, () => {
    const xT = ctx.tensorOf(n.inputs[0] ?? '');
    const zT = ep.z === undefined ? undefined : ctx.need(ep.z, xT.layout);
    const sRef = ctx.weights.addHalf(scale);
    const hRef = ctx.weights.addHalf(shift);
    const yT = ctx.defineValue(ep.final, xT.layout);
    ctx.addStep(
      {
        name: n.name,
        ops: ['BatchNormalization', ...ep.nodes.map((x) => x.opType)],
        reads: zT === undefined ? [xT] : [xT, zT],
        writes: [yT],
        emit(b, ref) {
          const s = xT.shape(b);
          const inner = xT.layout === 'nhwc' ? 1 : prod(s.slice(2));
          return [
            {
              kind: 'affine',
              name: n.name,
              x: ref(xT, b),
              y: ref(yT, b),
              scale: sRef,
              shift: hRef,
              z: zT === undefined ? null : ref(zT, b),
              count: prod(s),
              channels: s[1] ?? 1,
              inner,
              act: ep.act,
            },
          ];
        },
      },
      [n, ...ep.nodes],
    );
  });
}
