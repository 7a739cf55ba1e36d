import { attrInt, type Node } from '../../ir/graph.ts';
import type { LoweringContext } from './context.ts';
import { prod, normAxis } from './layout.ts';

/** Softmax and LogSoftmax along one axis (ONNX Softmax-11 and -13 semantics). */

export function lowerSoftmax(ctx: LoweringContext, n: Node): void {
  const x = n.inputs[0] ?? '';
  const rank = ctx.shapeOf(x, ctx.maxB).length;
  const newSemantics = ctx.g.opset >= 13;
  const axis = normAxis(attrInt(n, 'axis', newSemantics ? -1 : 1), rank);
  const xT = ctx.need(x, 'plain');
  const yT = ctx.defineValue(n.outputs[0] ?? '', 'plain');
  ctx.addNodeStep(n, [xT], yT, (b, ref) => {
    const s = xT.shape(b);
    // opset < 13 coerces the input to 2-D at `axis` (ONNX Softmax-11)
    const outer = prod(s.slice(0, axis));
    const len = newSemantics ? (s[axis] ?? 1) : prod(s.slice(axis));
    const inner = newSemantics ? prod(s.slice(axis + 1)) : 1;
    return [{ kind: 'softmax', name: n.name, x: ref(xT, b), y: ref(yT, b), outer, len, inner, log: n.opType === 'LogSoftmax' ? 1 : 0 }];
  });
}
