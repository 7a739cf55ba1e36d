/**
 * Detection quality: PASCAL VOC-style average precision at an IoU threshold (all-point interpolation, VOC 2010+),
 * averaged over classes (mAP). Used by the `shapes` accuracy test, the training script's evaluation (the same
 * algorithm in models/train/train_shapes.py) and the benchmark.
 */
import { boxIou } from './geometry.ts';

export interface ScoredBox {
  readonly image: number;
  readonly classId: number;
  readonly score: number;
  readonly box: readonly number[];
}

export interface GroundTruth {
  readonly image: number;
  readonly classId: number;
  readonly box: readonly number[];
}

function averagePrecision(dets: readonly ScoredBox[], truths: readonly GroundTruth[], iouThreshold: number): number {
  const byImage = new Map<number, { box: readonly number[]; used: boolean }[]>();
  for (const t of truths) {
    let list = byImage.get(t.image);
    if (list === undefined) byImage.set(t.image, (list = []));
    list.push({ box: t.box, used: false });
  }
  const sorted = [...dets].sort((a, b) => b.score - a.score);
  const tp: number[] = [];
  for (const d of sorted) {
    let best = 0;
    let match: { used: boolean } | undefined;
    for (const g of byImage.get(d.image) ?? []) {
      const o = boxIou(d.box, g.box);
      if (o > best) {
        best = o;
        match = g;
      }
    }
    // The best-overlapping truth must be free: a second detection of a found object is a false positive (VOC).
    if (match !== undefined && best >= iouThreshold && !match.used) {
      match.used = true;
      tp.push(1);
    } else {
      tp.push(0);
    }
  }
  if (truths.length === 0) return Number.NaN;
  const recall: number[] = [0];
  const precision: number[] = [0];
  let cum = 0;
  tp.forEach((v, i) => {
    cum += v;
    recall.push(cum / truths.length);
    precision.push(cum / (i + 1));
  });
  recall.push(1);
  precision.push(0);
  for (let i = precision.length - 2; i >= 0; i--) precision[i] = Math.max(precision[i] as number, precision[i + 1] as number);
  let ap = 0;
  for (let i = 1; i < recall.length; i++) {
    const dr = (recall[i] as number) - (recall[i - 1] as number);
    if (dr !== 0) ap += dr * (precision[i] as number);
  }
  return ap;
}

/** Mean over the classes present in the ground truth of per-class AP at `iouThreshold` (0.5: mAP@0.5). */
export function meanAveragePrecision(
  dets: readonly ScoredBox[],
  truths: readonly GroundTruth[],
  iouThreshold = 0.5,
): { map: number; perClass: Map<number, number> } {
  const classes = [...new Set(truths.map((t) => t.classId))].sort((a, b) => a - b);
  const perClass = new Map<number, number>();
  for (const c of classes) {
    perClass.set(
      c,
      averagePrecision(
        dets.filter((d) => d.classId === c),
        truths.filter((t) => t.classId === c),
        iouThreshold,
      ),
    );
  }
  const values = [...perClass.values()];
  return { map: values.length === 0 ? Number.NaN : values.reduce((s, v) => s + v, 0) / values.length, perClass };
}
