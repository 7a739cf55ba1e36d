import { rtError } from '../../../errors/registry.ts';
import { attrInt, attrString, type Node } from '../../ir/graph.ts';
import { toFloat32 } from '../../ir/tensor.ts';
import { RESIZE_COORD, RESIZE_NEAREST } from '../../../plan/cuda-network.ts';
import type { LoweringContext } from './context.ts';
import { spatialDims } from './layout.ts';

function attrFloats(n: Node, name: string): readonly number[] | undefined {
  const a = n.attrs.get(name);
  return a?.kind === 'floats' ? a.value : undefined;
}

/** Resize / Upsample of the two spatial axes of an NCHW tensor (stored NHWC): nearest or bilinear. */
export function lowerResize(ctx: LoweringContext, n: Node): void {
  const x = n.inputs[0] ?? '';
  const out = n.outputs[0] ?? '';
  const mode = attrString(n, 'mode', 'nearest');
  if (mode !== 'nearest' && mode !== 'linear' && mode !== 'bilinear')
    throw rtError('UNSUPPORTED', `${n.opType} '${n.name}': mode '${mode}' (the CUDA target resizes nearest or linear)`);
  const upsample = n.opType === 'Upsample' || ctx.g.opset < 11;
  const coordName = upsample ? 'asymmetric' : attrString(n, 'coordinate_transformation_mode', 'half_pixel');
  const coord = (RESIZE_COORD as Record<string, number>)[coordName];
  if (coord === undefined) throw rtError('UNSUPPORTED', `${n.opType} '${n.name}': coordinate_transformation_mode '${coordName}'`);
  const nearestName = upsample ? 'floor' : attrString(n, 'nearest_mode', 'round_prefer_floor');
  const nearest = (RESIZE_NEAREST as Record<string, number>)[nearestName];
  if (nearest === undefined) throw rtError('UNSUPPORTED', `${n.opType} '${n.name}': nearest_mode '${nearestName}'`);
  if (attrInt(n, 'antialias', 0) !== 0) throw rtError('UNSUPPORTED', `${n.opType} '${n.name}': antialias`);
  if (ctx.shapeOf(x, ctx.maxB).length !== 4) throw rtError('UNSUPPORTED', `${n.opType} '${n.name}': only 4-D (NCHW) tensors are resized`);
  // scales: Upsample's attribute (opset 7) or input 1; Resize's input 1 (opset 10) or 2; else sizes (out / in)
  const scalesInput = upsample ? n.inputs[1] : n.inputs[2];
  const sc = scalesInput !== undefined && scalesInput !== '' ? ctx.constOf(scalesInput) : undefined;
  if (scalesInput !== undefined && scalesInput !== '' && sc === undefined && !ctx.batchStatic.has(scalesInput))
    throw rtError('UNSUPPORTED', `${n.opType} '${n.name}': the scales must be constant`);
  const scales = sc !== undefined && sc.dims.reduce((a, b) => a * b, 1) > 0 ? Array.from(toFloat32(sc)) : attrFloats(n, 'scales');
  const xT = ctx.need(x, 'nhwc');
  const yT = ctx.defineValue(out, 'nhwc');
  ctx.addNodeStep(n, [xT], yT, (b, ref) => {
    const xs = xT.shape(b);
    const ys = yT.shape(b);
    if ((xs[0] ?? 1) !== (ys[0] ?? 1) || (xs[1] ?? 1) !== (ys[1] ?? 1))
      throw rtError('UNSUPPORTED', `${n.opType} '${n.name}': only the spatial axes may be resized`);
    const dims = spatialDims(xs, ys);
    return [
      {
        kind: 'resize',
        name: n.name,
        x: ref(xT, b),
        y: ref(yT, b),
        ...dims,
        scaleH: scales !== undefined && scales.length === 4 ? (scales[2] ?? 1) : dims.oh / dims.h,
        scaleW: scales !== undefined && scales.length === 4 ? (scales[3] ?? 1) : dims.ow / dims.w,
        linear: mode === 'nearest' ? 0 : 1,
        coord,
        nearest,
      },
    ];
  });
}
