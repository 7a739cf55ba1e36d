import { rtError } from '../../../errors/registry.ts';
import { attrInt, attrInts, type Node } from '../../ir/graph.ts';
import { toFloat32 } from '../../ir/tensor.ts';
import { oihwToOhwi } from '../weights.ts';
import type { LoweringContext } from './context.ts';
import { epilogue } from './fusion.ts';
import { windowPads } from './layout.ts';

/** Conv (2-D, grouped, dilated) with its bias, residual Add and activation fused, NHWC, tensor-core FP16. */

export function lowerConv(ctx: LoweringContext, n: Node): void {
  const wT = ctx.constOf(n.inputs[1]);
  if (wT === undefined) throw rtError('UNSUPPORTED', `Conv '${n.name}': the weight must be a constant`);
  if (wT.dims.length !== 4)
    throw rtError('UNSUPPORTED', `Conv '${n.name}': only 2-D convolutions (4-D ctx.weights) are supported, got ${wT.dims.length - 2}-D`);
  const [k = 0, cg = 0, r = 0, s = 0] = wT.dims;
  const groups = attrInt(n, 'group', 1);
  const strides = attrInts(n, 'strides') ?? [1, 1];
  const dil = attrInts(n, 'dilations') ?? [1, 1];
  const x = n.inputs[0] ?? '';
  const out = n.outputs[0] ?? '';
  const pads = windowPads(n, ctx.shapeOf(x, ctx.maxB), ctx.shapeOf(out, ctx.maxB), [r, s], strides, dil);
  const ep = epilogue(ctx, out, true);
  ctx.schedule(n, ep.nodes, () => {
    const xT = ctx.need(x, 'nhwc');
    const zT = ep.z === undefined ? undefined : ctx.need(ep.z, 'nhwc');
    const cPhys = xT.shape(ctx.maxB)[1] ?? cg * groups;
    if (cPhys !== cg * groups && groups !== 1) throw rtError('INTERNAL', `Conv '${n.name}': padded channels with groups`);
    const wv = oihwToOhwi(toFloat32(wT), k, cg, r, s, groups === 1 ? cPhys : cg);
    const wRef = ctx.weights.addHalf(wv);
    const bT = ctx.constOf(n.inputs[2]);
    if ((n.inputs[2] ?? '') !== '' && bT === undefined) throw rtError('UNSUPPORTED', `Conv '${n.name}': the bias must be a constant`);
    const bRef = ctx.weights.addHalf(bT === undefined ? new Float32Array(k) : toFloat32(bT));
    const yT = ctx.defineValue(ep.final, 'nhwc');
    const name = n.name;
    ctx.addStep(
      {
        name,
        ops: ['Conv', ...ep.nodes.map((x2) => x2.opType)],
        reads: zT === undefined ? [xT] : [xT, zT],
        writes: [yT],
        emit(b, ref) {
          const xs = xT.shape(b);
          const ys = yT.shape(b);
          return [
            {
              kind: 'conv',
              name,
              x: ref(xT, b),
              w: wRef,
              b: bRef,
              z: zT === undefined ? null : ref(zT, b),
              y: ref(yT, b),
              n: xs[0] ?? 1,
              c: xs[1] ?? 1,
              h: xs[2] ?? 1,
              w_: xs[3] ?? 1,
              k,
              r,
              s,
              oh: ys[2] ?? 1,
              ow: ys[3] ?? 1,
              pads,
              strides: [strides[0] ?? 1, strides[1] ?? 1],
              dil: [dil[0] ?? 1, dil[1] ?? 1],
              groups,
              act: ep.act,
            },
          ];
        },
      },
      [n, ...ep.nodes],
    );
  });
}
