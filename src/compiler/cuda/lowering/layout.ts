import { attrInts, attrString, type Node } from '../../ir/graph.ts';

/**
 * Shape and stride arithmetic of the CUDA lowering: NCHW logical shapes stored NHWC for convolutions and
 * pooling, row-major otherwise, and ONNX's window padding rules.
 */

export type Layout = 'nhwc' | 'plain';

export const prod = (xs: readonly number[]): number => xs.reduce((a, b) => a * b, 1);

/** The batch, channels and input and output spatial sizes of a pooling or resize layer, from its NCHW shapes. */
export const spatialDims = (
  xs: readonly number[],
  ys: readonly number[],
): { n: number; c: number; h: number; w: number; oh: number; ow: number } => ({
  n: xs[0] ?? 1,
  c: xs[1] ?? 1,
  h: xs[2] ?? 1,
  w: xs[3] ?? 1,
  oh: ys[2] ?? 1,
  ow: ys[3] ?? 1,
});

export const rowMajorStrides = (dims: readonly number[]): number[] => {
  const s = new Array<number>(dims.length).fill(1);
  for (let i = dims.length - 2; i >= 0; i--) s[i] = (s[i + 1] ?? 1) * (dims[i + 1] ?? 1);
  return s;
};

/** Element strides that address logical index (n, c, h, w) in an NHWC buffer. */
export const nhwcStrides = (d: readonly number[]): number[] => {
  const [, c = 1, h = 1, w = 1] = d;
  return [h * w * c, 1, w * c, c];
};

/** Physical order of the logical dims for a layout. */
export const PERM_NHWC = [0, 2, 3, 1];

/** Strides of an operand broadcast to `outShape` (0 along broadcast dimensions). */
export function operandStrides(logical: readonly number[], layout: Layout, outShape: readonly number[]): number[] {
  const rank = outShape.length;
  const padded = [...new Array<number>(rank - logical.length).fill(1), ...logical];
  const base = layout === 'nhwc' && logical.length === 4 ? nhwcStrides(logical) : rowMajorStrides(logical);
  const strides = [...new Array<number>(rank - logical.length).fill(0), ...base];
  return padded.map((d, i) => (d === 1 && (outShape[i] ?? 1) !== 1 ? 0 : (strides[i] ?? 0)));
}

export function normAxis(axis: number, rank: number): number {
  return axis < 0 ? axis + rank : axis;
}

/**
 * [top, left, bottom, right] pads of a 2-D window op, from `pads` or `auto_pad` (ONNX Conv / MaxPool). For
 * SAME_* the total pad is what makes the inferred output size come out; SAME_UPPER puts the odd one at the end.
 */
export function windowPads(
  n: Node,
  xs: readonly number[],
  ys: readonly number[],
  kernel: readonly number[],
  strides: readonly number[],
  dil: readonly number[],
): number[] {
  const autoPad = attrString(n, 'auto_pad', 'NOTSET');
  if (autoPad === 'NOTSET') {
    const p = attrInts(n, 'pads') ?? [0, 0, 0, 0];
    return [p[0] ?? 0, p[1] ?? 0, p[2] ?? 0, p[3] ?? 0];
  }
  if (autoPad === 'VALID') return [0, 0, 0, 0];
  const out: number[] = [0, 0, 0, 0];
  for (let i = 0; i < 2; i++) {
    const inp = xs[i + 2] ?? 1;
    const o = ys[i + 2] ?? 1;
    const eff = ((kernel[i] ?? 1) - 1) * (dil[i] ?? 1) + 1;
    const total = Math.max(0, (o - 1) * (strides[i] ?? 1) + eff - inp);
    const small = Math.floor(total / 2);
    const big = total - small;
    out[i] = autoPad === 'SAME_LOWER' ? big : small;
    out[i + 2] = autoPad === 'SAME_LOWER' ? small : big;
  }
  return out;
}
