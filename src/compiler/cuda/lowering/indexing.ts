import { rtError } from '../../../errors/registry.ts';
import { attrFloat, attrInt, attrInts, attrString, type Node } from '../../ir/graph.ts';
import { toFloat32, toIntArray } from '../../ir/tensor.ts';
import type { LoweringContext } from './context.ts';
import { padIntoConv } from './conv.ts';
import { PERM_NHWC, nhwcStrides, normAxis, operandStrides, prod, rowMajorStrides } from './layout.ts';
import type { LTensor } from './types.ts';

/**
 * Operators that read elements at computed positions (the `gather`, `gather_elements`, `topk` and `pad` layers):
 * Slice and Gather with constant positions, Expand, GatherElements, TopK and constant Pad. Slice and Pad keep
 * an NHWC tensor NHWC (a detector head's channel slices feed pooling and sigmoids without layout conversions).
 */

const elemOf = (t: LTensor): 2 | 4 => (t.dtype === 'f16' ? 2 : 4);

/** Logical element strides of a stored tensor (NHWC or row-major). */
function logicalStrides(t: LTensor, b: number): number[] {
  const s = t.shape(b);
  return t.layout === 'nhwc' && s.length === 4 ? nhwcStrides(s) : rowMajorStrides(s);
}

/** A step of node `n` copying `src` into `yT` through one `gather` layer whose positions `at(b)` gives. */
function addGatherStep(
  ctx: LoweringContext,
  n: Node,
  src: LTensor,
  yT: LTensor,
  at: (b: number) => { dims: number[]; inStrides: number[]; xOff: number },
): void {
  ctx.addNodeStep(n, [src], yT, (b, ref) => [{ kind: 'gather', name: n.name, x: ref(src, b), y: ref(yT, b), elem: elemOf(src), ...at(b) }]);
}

function constInts(ctx: LoweringContext, n: Node, i: number, what: string): number[] | undefined {
  const v = n.inputs[i] ?? '';
  if (v === '') return undefined;
  const c = ctx.constOf(v);
  if (c === undefined) throw rtError('UNSUPPORTED', `${n.opType} '${n.name}': ${what} must be constant`);
  return toIntArray(c);
}

export function lowerSlice(ctx: LoweringContext, n: Node): void {
  const x = n.inputs[0] ?? '';
  const out = n.outputs[0] ?? '';
  const src = ctx.tensorOf(x);
  const rank = src.shape(ctx.maxB).length;
  const opset10 = ctx.g.opset >= 10;
  const starts = (opset10 ? constInts(ctx, n, 1, 'starts') : undefined) ?? [...(attrInts(n, 'starts') ?? [])];
  const axes = ((opset10 ? constInts(ctx, n, 3, 'axes') : undefined) ?? attrInts(n, 'axes') ?? starts.map((_, i) => i)).map((a) => normAxis(a, rank));
  const steps = (opset10 ? constInts(ctx, n, 4, 'steps') : undefined) ?? starts.map(() => 1);
  const yT = ctx.defineValue(out, src.layout);
  const window = (b: number) => {
    const xs = src.shape(b);
    const os = ctx.shapeOf(out, b);
    const step = xs.map(() => 1);
    const begin = xs.map(() => 0);
    axes.forEach((a, i) => {
      const dim = xs[a] ?? 1;
      const s = steps[i] ?? 1;
      let v = starts[i] ?? 0;
      if (v < 0) v += dim;
      v = s > 0 ? Math.min(Math.max(v, 0), dim) : Math.min(Math.max(v, 0), dim - 1);
      begin[a] = v;
      step[a] = s;
    });
    const perm = src.layout === 'nhwc' && rank === 4 ? PERM_NHWC : os.map((_, i) => i);
    return { xs, os, step, begin, perm };
  };
  ctx.addNodeStep(n, [src], yT, (b, ref) => {
    const { xs, os, step, begin, perm } = window(b);
    // one cut physical axis, unit steps: rows of contiguous runs (a channel range of an NHWC tensor), vectorized
    const cut = perm.filter((p) => (os[p] ?? 1) !== (xs[p] ?? 1));
    if (src.dtype === 'f16' && cut.length <= 1 && step.every((s) => s === 1)) {
      const axis = cut.length === 0 ? 0 : perm.indexOf(cut[0] ?? 0);
      const phys = perm.map((p) => xs[p] ?? 1);
      const inner = prod(phys.slice(axis + 1));
      const len = os[perm[axis] ?? 0] ?? 1;
      return [
        {
          kind: 'copy2d',
          name: n.name,
          x: ref(src, b),
          y: ref(yT, b),
          rows: prod(phys.slice(0, axis)),
          rowElems: len * inner,
          srcStride: (phys[axis] ?? 1) * inner,
          dstStride: len * inner,
          srcOff: (begin[perm[axis] ?? 0] ?? 0) * inner,
          dstOff: 0,
        },
      ];
    }
    const st = logicalStrides(src, b);
    let xOff = 0;
    for (let d = 0; d < rank; d++) xOff += (begin[d] ?? 0) * (st[d] ?? 0);
    return [
      {
        kind: 'gather',
        name: n.name,
        x: ref(src, b),
        y: ref(yT, b),
        elem: elemOf(src),
        dims: perm.map((p) => os[p] ?? 1),
        inStrides: perm.map((p) => (st[p] ?? 0) * (step[p] ?? 1)),
        xOff,
      },
    ];
  });
}

/** Gather along one axis with one constant index (a scalar: the axis disappears). */
export function lowerGather(ctx: LoweringContext, n: Node): void {
  const x = n.inputs[0] ?? '';
  const out = n.outputs[0] ?? '';
  const idx = ctx.constOf(n.inputs[1]);
  if (idx === undefined || idx.dims.length !== 0)
    throw rtError(
      'UNSUPPORTED',
      `Gather '${n.name}': the CUDA target gathers one constant scalar index (got ${idx === undefined ? 'computed' : `shape [${idx.dims.join(', ')}]`} indices)`,
    );
  const src = ctx.tensorOf(x);
  const rank = src.shape(ctx.maxB).length;
  const axis = normAxis(attrInt(n, 'axis', 0), rank);
  const yT = ctx.defineValue(out, 'plain');
  addGatherStep(ctx, n, src, yT, (b) => {
    const xs = src.shape(b);
    const st = logicalStrides(src, b);
    let i = toIntArray(idx)[0] ?? 0;
    if (i < 0) i += xs[axis] ?? 1;
    const keep = xs.map((_, d) => d).filter((d) => d !== axis);
    return { dims: keep.map((d) => xs[d] ?? 1), inStrides: keep.map((d) => st[d] ?? 0), xOff: i * (st[axis] ?? 0) };
  });
}

export function lowerExpand(ctx: LoweringContext, n: Node): void {
  const x = n.inputs[0] ?? '';
  const out = n.outputs[0] ?? '';
  if (ctx.constOf(n.inputs[1]) === undefined && !ctx.batchStatic.has(n.inputs[1] ?? ''))
    throw rtError('UNSUPPORTED', `Expand '${n.name}': the target shape must be known when the batch size is`);
  const src = ctx.tensorOf(x);
  const yT = ctx.defineValue(out, 'plain');
  addGatherStep(ctx, n, src, yT, (b) => {
    const os = ctx.shapeOf(out, b);
    return { dims: os, inStrides: operandStrides(src.shape(b), src.layout, os), xOff: 0 };
  });
}

export function lowerGatherElements(ctx: LoweringContext, n: Node): void {
  const out = n.outputs[0] ?? '';
  const data = ctx.need(n.inputs[0] ?? '', 'plain');
  const idx = ctx.tensorOf(n.inputs[1] ?? '');
  if (idx.dtype !== 'f32' || idx.layout !== 'plain') throw rtError('UNSUPPORTED', `GatherElements '${n.name}': computed integer indices expected`);
  const rank = data.shape(ctx.maxB).length;
  const axis = normAxis(attrInt(n, 'axis', 0), rank);
  const yT = ctx.defineValue(out, 'plain');
  ctx.addNodeStep(n, [data, idx], yT, (b, ref) => {
    const xs = data.shape(b);
    return [
      {
        kind: 'gather_elements',
        name: n.name,
        x: ref(data, b),
        idx: ref(idx, b),
        y: ref(yT, b),
        elem: elemOf(data),
        dims: ctx.shapeOf(out, b),
        xStrides: rowMajorStrides(xs),
        axis,
        axisLen: xs[axis] ?? 1,
      },
    ];
  });
}

export function lowerTopK(ctx: LoweringContext, n: Node): void {
  const x = ctx.need(n.inputs[0] ?? '', 'plain');
  if (x.dtype !== 'f16') throw rtError('UNSUPPORTED', `TopK '${n.name}': the CUDA target ranks floats`);
  const k = ctx.g.opset >= 10 ? constInts(ctx, n, 1, 'K')?.[0] : attrInt(n, 'k', 1);
  if (k === undefined) throw rtError('UNSUPPORTED', `TopK '${n.name}': K must be constant`);
  const rank = x.shape(ctx.maxB).length;
  const axis = normAxis(attrInt(n, 'axis', -1), rank);
  const largest = attrInt(n, 'largest', 1) === 1 ? 1 : 0;
  const len = x.shape(ctx.maxB)[axis] ?? 1;
  if (k < 1 || k > len) throw rtError('UNSUPPORTED', `TopK '${n.name}': K = ${k} for an axis of ${len}`);
  const vals = ctx.defineValue(n.outputs[0] ?? '', 'plain');
  const idx = ctx.defineValue(n.outputs[1] ?? '', 'plain');
  ctx.addStep(
    {
      name: n.name,
      ops: ['TopK'],
      reads: [x],
      writes: [vals, idx],
      emit(b, ref) {
        const xs = x.shape(b);
        return [
          {
            kind: 'topk',
            name: n.name,
            x: ref(x, b),
            values: ref(vals, b),
            indices: ref(idx, b),
            outer: prod(xs.slice(0, axis)),
            len: xs[axis] ?? 1,
            inner: prod(xs.slice(axis + 1)),
            k,
            largest,
          },
        ];
      },
    },
    [n],
  );
}

export function lowerPad(ctx: LoweringContext, n: Node): void {
  const x = n.inputs[0] ?? '';
  const out = n.outputs[0] ?? '';
  // the convolutions reading it pad on their own (lowering/conv.ts): no step
  if (padIntoConv(ctx, out) !== undefined) {
    ctx.nodeSteps.set(n.name, `${n.name} (absorbed by its convolutions)`);
    return;
  }
  const mode = attrString(n, 'mode', 'constant');
  if (mode !== 'constant') throw rtError('UNSUPPORTED', `Pad '${n.name}': mode '${mode}' (the CUDA target pads with a constant)`);
  const src = ctx.tensorOf(x);
  const rank = src.shape(ctx.maxB).length;
  const pads = ctx.g.opset >= 11 ? (constInts(ctx, n, 1, 'pads') ?? []) : [...(attrInts(n, 'pads') ?? [])];
  const axes = (ctx.g.opset >= 18 ? constInts(ctx, n, 3, 'axes') : undefined)?.map((a) => normAxis(a, rank)) ?? [...new Array<number>(rank).keys()];
  if (pads.some((p) => p < 0)) throw rtError('UNSUPPORTED', `Pad '${n.name}': negative pads (cropping)`);
  const cv = ctx.g.opset >= 11 && (n.inputs[2] ?? '') !== '' ? ctx.constOf(n.inputs[2]) : undefined;
  if (ctx.g.opset >= 11 && (n.inputs[2] ?? '') !== '' && cv === undefined)
    throw rtError('UNSUPPORTED', `Pad '${n.name}': the pad value must be constant`);
  const value = cv !== undefined ? (toFloat32(cv)[0] ?? 0) : attrFloat(n, 'value', 0);
  const before = new Array<number>(rank).fill(0);
  axes.forEach((a, i) => {
    before[a] = pads[i] ?? 0;
  });
  const yT = ctx.defineValue(out, src.layout);
  ctx.addNodeStep(n, [src], yT, (b, ref) => {
    const xs = src.shape(b);
    const os = ctx.shapeOf(out, b);
    const perm = src.layout === 'nhwc' && rank === 4 ? PERM_NHWC : os.map((_, i) => i);
    return [
      {
        kind: 'pad',
        name: n.name,
        x: ref(src, b),
        y: ref(yT, b),
        elem: elemOf(src),
        dims: perm.map((p) => os[p] ?? 1),
        inDims: perm.map((p) => xs[p] ?? 1),
        before: perm.map((p) => before[p] ?? 0),
        value,
      },
    ];
  });
}
