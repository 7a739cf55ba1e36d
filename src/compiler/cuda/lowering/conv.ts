import { rtError } from '../../../errors/registry.ts';
import { attrInt, attrInts, attrString, type Node } from '../../ir/graph.ts';
import { toFloat32, toIntArray } from '../../ir/tensor.ts';
import { oihwToOhwi } from '../weights.ts';
import type { LoweringContext } from './context.ts';
import { epilogue } from './fusion.ts';
import { windowPads } from './layout.ts';

/** Conv (2-D, grouped, dilated) with its bias, residual Add and activation fused, NHWC, tensor-core FP16. */

/**
 * A zero-valued constant Pad of the spatial axes only, read only by convolutions: they absorb it into their own
 * padding (as TensorRT does) and the padded tensor is never written. Returns the Pad's input and its
 * [top, left, bottom, right] pads, or undefined.
 */
export function padIntoConv(ctx: LoweringContext, value: string): { readonly src: string; readonly pads: readonly number[] } | undefined {
  const p = ctx.g.producers().get(value);
  if (p === undefined || p.opType !== 'Pad' || p.domain !== '' || ctx.g.isGraphOutput(value)) return undefined;
  if (attrString(p, 'mode', 'constant') !== 'constant' || ctx.g.opset < 11) return undefined;
  const padsT = ctx.constOf(p.inputs[1]);
  if (padsT === undefined || padsT.dims[0] !== 8 || (p.inputs[3] ?? '') !== '') return undefined;
  const cv = (p.inputs[2] ?? '') === '' ? undefined : ctx.constOf(p.inputs[2]);
  if ((p.inputs[2] ?? '') !== '' && (cv === undefined || (toFloat32(cv)[0] ?? 0) !== 0)) return undefined;
  const [n0, c0, t, l, n1, c1, b, r] = toIntArray(padsT);
  if (n0 !== 0 || c0 !== 0 || n1 !== 0 || c1 !== 0 || [t, l, b, r].some((v) => (v ?? -1) < 0)) return undefined;
  const readers = ctx.consumers.get(value) ?? [];
  if (
    readers.length === 0 ||
    readers.some((c) => c.opType !== 'Conv' || c.domain !== '' || c.inputs[0] !== value || c.inputs.slice(1).includes(value))
  )
    return undefined;
  return { src: p.inputs[0] ?? '', pads: [t ?? 0, l ?? 0, b ?? 0, r ?? 0] };
}

export function lowerConv(ctx: LoweringContext, n: Node): void {
  const wT = ctx.constOf(n.inputs[1]);
  if (wT === undefined) throw rtError('UNSUPPORTED', `Conv '${n.name}': the weight must be a constant`);
  if (wT.dims.length !== 4)
    throw rtError('UNSUPPORTED', `Conv '${n.name}': only 2-D convolutions (4-D ctx.weights) are supported, got ${wT.dims.length - 2}-D`);
  const [k = 0, cg = 0, r = 0, s = 0] = wT.dims;
  const groups = attrInt(n, 'group', 1);
  const strides = attrInts(n, 'strides') ?? [1, 1];
  const dil = attrInts(n, 'dilations') ?? [1, 1];
  const out = n.outputs[0] ?? '';
  const own = windowPads(n, ctx.shapeOf(n.inputs[0] ?? '', ctx.maxB), ctx.shapeOf(out, ctx.maxB), [r, s], strides, dil);
  const absorbed = padIntoConv(ctx, n.inputs[0] ?? '');
  const x = absorbed?.src ?? n.inputs[0] ?? '';
  const pads = own.map((v, i) => v + (absorbed?.pads[i] ?? 0));
  if (absorbed !== undefined) ctx.notes.push(`Conv '${n.name}' absorbs the zero Pad before it into its padding`);
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
        ops: [...(absorbed === undefined ? [] : ['Pad']), 'Conv', ...ep.nodes.map((x2) => x2.opType)],
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
