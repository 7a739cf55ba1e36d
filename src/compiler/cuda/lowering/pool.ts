import { rtError } from '../../../errors/registry.ts';
import { attrInt, attrInts, type Node } from '../../ir/graph.ts';
import type { LoweringContext } from './context.ts';
import { prod, spatialDims, windowPads } from './layout.ts';
import type { LTensor } from './types.ts';

/** MaxPool / AveragePool (2-D windows, NHWC) and the global poolings. */

export function lowerPool(ctx: LoweringContext, n: Node): void {
  if ((n.outputs[1] ?? '') !== '' && (ctx.consumers.get(n.outputs[1] ?? '')?.length ?? 0) > 0) {
    throw rtError('UNSUPPORTED', `MaxPool '${n.name}': the Indices output is not supported`);
  }
  const xT = ctx.need(n.inputs[0] ?? '', 'nhwc');
  addPoolStep(ctx, n, xT, ctx.defineValue(n.outputs[0] ?? '', 'nhwc'), n.name);
}

/** The pooling of node `n` (its window attributes and output shape) applied to `xT`, written to `yT`. */
export function addPoolStep(ctx: LoweringContext, n: Node, xT: LTensor, yT: LTensor, name: string): void {
  const x = n.inputs[0] ?? '';
  const out = n.outputs[0] ?? '';
  const kernel = attrInts(n, 'kernel_shape') ?? [];
  if (kernel.length !== 2) throw rtError('UNSUPPORTED', `${n.opType} '${n.name}': only 2-D pooling is supported`);
  const strides = attrInts(n, 'strides') ?? [1, 1];
  const dil = n.opType === 'MaxPool' ? (attrInts(n, 'dilations') ?? [1, 1]) : [1, 1];
  const pads = windowPads(n, ctx.shapeOf(x, ctx.maxB), ctx.shapeOf(out, ctx.maxB), kernel, strides, dil);
  const isMax = n.opType === 'MaxPool';
  const cip = attrInt(n, 'count_include_pad', 0) === 1 ? 1 : 0;
  ctx.addStep(
    {
      name,
      ops: [n.opType],
      reads: [xT],
      writes: [yT],
      emit: (b, ref) => [
        {
          kind: 'pool',
          name,
          x: ref(xT, b),
          y: ref(yT, b),
          ...spatialDims(xT.shape(b), yT.shape(b)),
          kernel: [kernel[0] ?? 1, kernel[1] ?? 1],
          strides: [strides[0] ?? 1, strides[1] ?? 1],
          pads,
          dil: [dil[0] ?? 1, dil[1] ?? 1],
          mode: isMax ? 'max' : 'avg',
          countIncludePad: cip,
        },
      ],
    },
    name === n.name ? [n] : [],
  );
}

export function lowerGlobalPool(ctx: LoweringContext, n: Node): void {
  const xT = ctx.tensorOf(n.inputs[0] ?? '');
  const yT = ctx.defineValue(n.outputs[0] ?? '', 'plain');
  const mode = n.opType === 'GlobalMaxPool' ? 'max' : 'avg';
  ctx.addNodeStep(n, [xT], yT, (b, ref) => {
    const s = xT.shape(b);
    const nhwc = xT.layout === 'nhwc';
    return [
      {
        kind: 'global_pool',
        name: n.name,
        x: ref(xT, b),
        y: ref(yT, b),
        n: s[0] ?? 1,
        hw: prod(s.slice(2)),
        c: s[1] ?? 1,
        layout: nhwc ? 'nhwc' : 'plain',
        mode,
      },
    ];
  });
}
