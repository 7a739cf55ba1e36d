/**
 * A YOLO-style detector built by code (seeded random weights, nothing downloaded), for the CUDA target's tests
 * and benchmarks: a CSP backbone (Conv + SiLU, Pad, C2f blocks with Slice splits, residual Adds and Concats), an
 * SPPF (three chained 5×5 max-pools), a feature pyramid (nearest and bilinear 2× Resize + Concat), three heads
 * (strides 8, 16, 32) reshaped and concatenated, and the box decode (Sigmoid, distances to anchor centres,
 * Transpose): output `detections` [N, anchors, 4 + classes] with boxes x1, y1, x2, y2 in input pixels.
 */
import { GraphBuilder, attr } from '../../../src/compiler/ir/builder.ts';
import { generateScene, renderScene } from '../../../models/train/shapes-scene.ts';
import { DT } from '../../../src/tensor/onnx-dtype.ts';
import { randn, rng } from './helpers.ts';

export interface YoloStyleOptions {
  readonly height: number;
  readonly width: number;
  /** Base channel width (16 for a YOLOv8n-like size). */
  readonly channels: number;
  readonly classes: number;
  readonly seed?: number;
}

export function yoloStyleNet(o: YoloStyleOptions): Uint8Array {
  const r = rng(o.seed ?? 11);
  const b = new GraphBuilder({ opset: 17 });
  b.input('images', DT.FLOAT, ['N', 3, o.height, o.width]);
  let k = 0;
  const f32 = (dims: number[], scale: number) => ({
    elemType: DT.FLOAT,
    dims,
    data: randn(
      r,
      dims.reduce((a, x) => a * x, 1),
      scale,
    ),
  });
  const i64 = (v: number[]) => ({ elemType: DT.INT64, dims: [v.length], data: BigInt64Array.from(v.map(BigInt)) });
  const conv = (x: string, cin: number, cout: number, kk: number, stride: number, pad = Math.floor(kk / 2), act = true): string => {
    const id = k++;
    b.init(`w${id}`, f32([cout, cin, kk, kk], Math.sqrt(2 / (cin * kk * kk)))).init(`b${id}`, f32([cout], 0.05));
    b.node('Conv', [x, `w${id}`, `b${id}`], [`c${id}`], { pads: attr.ints([pad, pad, pad, pad]), strides: attr.ints([stride, stride]) });
    if (!act) return `c${id}`;
    b.node('Sigmoid', [`c${id}`], [`s${id}`]);
    b.node('Mul', [`c${id}`, `s${id}`], [`a${id}`]);
    return `a${id}`;
  };
  const slice = (x: string, from: number, to: number, axis = 1): string => {
    const id = k++;
    b.init(`st${id}`, i64([from]))
      .init(`en${id}`, i64([to]))
      .init(`ax${id}`, i64([axis]));
    b.node('Slice', [x, `st${id}`, `en${id}`, `ax${id}`], [`sl${id}`]);
    return `sl${id}`;
  };
  const concat = (xs: string[], axis = 1): string => {
    const id = k++;
    b.node('Concat', xs, [`cat${id}`], { axis: attr.int(axis) });
    return `cat${id}`;
  };
  const add = (x: string, y: string): string => {
    const id = k++;
    b.node('Add', [x, y], [`add${id}`]);
    return `add${id}`;
  };
  const c2f = (x: string, c: number): string => {
    const h = conv(x, c, c, 1, 1);
    const a = slice(h, 0, c / 2);
    const s = slice(h, c / 2, c);
    const m = add(conv(conv(s, c / 2, c / 2, 3, 1), c / 2, c / 2, 3, 1), s);
    return conv(concat([a, s, m]), (3 * c) / 2, c, 1, 1);
  };
  const c = o.channels;
  const stem = conv('images', 3, c, 3, 2);
  b.init('pads', i64([0, 0, 1, 1, 0, 0, 1, 1]));
  b.node('Pad', [stem, 'pads'], ['padded']);
  const p2 = c2f(conv('padded', c, 2 * c, 3, 2, 0), 2 * c);
  const p3 = c2f(conv(p2, 2 * c, 4 * c, 3, 2), 4 * c);
  const p4 = c2f(conv(p3, 4 * c, 8 * c, 3, 2), 8 * c);
  // SPPF
  const s0 = conv(conv(p4, 8 * c, 8 * c, 3, 2), 8 * c, 4 * c, 1, 1);
  const pool = { kernel_shape: attr.ints([5, 5]), strides: attr.ints([1, 1]), pads: attr.ints([2, 2, 2, 2]) };
  b.node('MaxPool', [s0], ['m1'], pool).node('MaxPool', ['m1'], ['m2'], pool).node('MaxPool', ['m2'], ['m3'], pool);
  const p5 = conv(concat([s0, 'm1', 'm2', 'm3']), 16 * c, 8 * c, 1, 1);
  // feature pyramid: nearest then bilinear 2x upsampling
  b.init('scales', { elemType: DT.FLOAT, dims: [4], data: Float32Array.of(1, 1, 2, 2) });
  b.node('Resize', [p5, '', 'scales'], ['up5'], {
    mode: attr.string('nearest'),
    coordinate_transformation_mode: attr.string('asymmetric'),
    nearest_mode: attr.string('floor'),
  });
  const n4 = conv(concat(['up5', p4]), 16 * c, 4 * c, 1, 1);
  b.node('Resize', [n4, '', 'scales'], ['up4'], { mode: attr.string('linear'), coordinate_transformation_mode: attr.string('half_pixel') });
  const n3 = conv(concat(['up4', p3]), 8 * c, 4 * c, 1, 1);
  // heads
  const no = 4 + o.classes;
  b.init('headShape', i64([0, no, -1]));
  const levels: [string, number, number][] = [
    [n3, 4 * c, 8],
    [n4, 4 * c, 16],
    [p5, 8 * c, 32],
  ];
  const flat = levels.map(([x, cin], i) => {
    const h = conv(conv(x, cin, 2 * c, 3, 1), 2 * c, no, 1, 1, 0, false);
    b.node('Reshape', [h, 'headShape'], [`flat${i}`]);
    return `flat${i}`;
  });
  const all = concat(flat, 2);
  // decode: distances (sigmoid × 4 cells) from each anchor centre, in input pixels
  const anchors: number[] = [];
  const strides: number[] = [];
  for (const [, , s] of levels) {
    const gh = o.height / s;
    const gw = o.width / s;
    for (let y = 0; y < gh; y++)
      for (let x = 0; x < gw; x++) {
        anchors.push((x + 0.5) * s, (y + 0.5) * s);
        strides.push(s * 4);
      }
  }
  const a = strides.length;
  const cx = Float32Array.from({ length: a }, (_, i) => anchors[2 * i] ?? 0);
  const cy = Float32Array.from({ length: a }, (_, i) => anchors[2 * i + 1] ?? 0);
  b.init('centres', { elemType: DT.FLOAT, dims: [1, 2, a], data: Float32Array.from([...cx, ...cy]) });
  b.init('strides', { elemType: DT.FLOAT, dims: [1, 1, a], data: Float32Array.from(strides) });
  b.node('Sigmoid', [slice(all, 0, 4)], ['boxSig']);
  b.node('Mul', ['boxSig', 'strides'], ['dist']);
  b.node('Sub', ['centres', slice('dist', 0, 2)], ['xy1']);
  b.node('Add', ['centres', slice('dist', 2, 4)], ['xy2']);
  b.node('Sigmoid', [slice(all, 4, no)], ['scores']);
  b.node('Concat', ['xy1', 'xy2', 'scores'], ['decoded'], { axis: attr.int(1) });
  b.node('Transpose', ['decoded'], ['detections'], { perm: attr.ints([0, 2, 1]) });
  b.output('detections', DT.FLOAT, ['N', a, no]);
  return b.bytes();
}

/** max |a - e| / max |e|. */
export function maxRelError(a: ArrayLike<number>, e: ArrayLike<number>): number {
  let err = 0;
  let ref = 0;
  for (let i = 0; i < e.length; i++) {
    err = Math.max(err, Math.abs((a[i] ?? 0) - (e[i] ?? 0)));
    ref = Math.max(ref, Math.abs(e[i] ?? 0));
  }
  return err / Math.max(ref, 1e-6);
}

/** The `shapes` model's input for the scenes of `seeds`: RGB 0..1, NCHW [n, 3, 120, 160]. */
export function shapesSceneBatch(seeds: readonly number[]): Float32Array {
  const hw = 120 * 160;
  const out = new Float32Array(seeds.length * 3 * hw);
  seeds.forEach((seed, b) => {
    const px = renderScene(generateScene(seed)).pixels;
    for (let i = 0; i < hw; i++) for (let c = 0; c < 3; c++) out[(b * 3 + c) * hw + i] = (px[i * 3 + c] ?? 0) / 255;
  });
  return out;
}

export interface Detections {
  readonly boxes: ArrayLike<number>;
  readonly scores: ArrayLike<number>;
  readonly classes: ArrayLike<number>;
}

/**
 * The `shapes` outputs' detections (50 per row) of `expected` scoring at least `minScore` that are missing from
 * `got` (same class, score within 0.02, box corners within 0.5 px, at any rank: FP16 may swap neighbours of
 * nearly equal score). Returns how many were checked and descriptions of the missing ones.
 */
export function missingDetections(got: Detections, expected: Detections, rows: number, minScore = 0.3): { checked: number; missing: string[] } {
  let checked = 0;
  const missing: string[] = [];
  for (let b = 0; b < rows; b++) {
    for (let i = 0; i < 50; i++) {
      const e = b * 50 + i;
      const score = expected.scores[e] ?? 0;
      if (score < minScore) continue;
      checked++;
      const found = [...new Array<number>(50).keys()].some((j) => {
        const p = b * 50 + j;
        if (got.classes[p] !== expected.classes[e] || Math.abs((got.scores[p] ?? 0) - score) > 0.02) return false;
        return [0, 1, 2, 3].every((q) => Math.abs((got.boxes[p * 4 + q] ?? 0) - (expected.boxes[e * 4 + q] ?? 0)) < 0.5);
      });
      if (!found) missing.push(`row ${b}: detection ${i} (class ${expected.classes[e]}, score ${score})`);
    }
  }
  return { checked, missing };
}
