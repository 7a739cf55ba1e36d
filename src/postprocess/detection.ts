/**
 * The `detection` postprocess: a model's decoded candidates (boxes [K, 4], scores [K], classes [K]) → score
 * threshold → non-maximum suppression (within each class, or across classes) → at most `maxDetections` boxes,
 * mapped back to the original image's pixels.
 */
import { boxIou, boxToSource, type BoxXyxy, type ImageTransform } from './geometry.ts';

export type BoxFormat = 'xyxy' | 'xywh' | 'cxcywh';

export interface Detection {
  /** [x1, y1, x2, y2] in original-image pixels. */
  readonly box: BoxXyxy;
  readonly classId: number;
  readonly label?: string;
  readonly score: number;
}

export interface DetectionOptions {
  readonly boxFormat: BoxFormat;
  /** Coordinates in 0..1 of the model input rather than input pixels. */
  readonly normalized: boolean;
  readonly scoreThreshold: number;
  readonly iouThreshold: number;
  readonly maxDetections: number;
  readonly classAware: boolean;
  readonly labels?: readonly string[] | undefined;
}

export interface Candidates {
  /** 4 values per candidate, in `boxFormat`. */
  readonly boxes: ArrayLike<number>;
  readonly scores: ArrayLike<number>;
  readonly classes: ArrayLike<number>;
  /** Number of candidates (boxes.length / 4). */
  readonly count: number;
}

function toXyxy(b: ArrayLike<number>, o: number, format: BoxFormat): BoxXyxy {
  const a = b[o] as number;
  const c = b[o + 1] as number;
  const d = b[o + 2] as number;
  const e = b[o + 3] as number;
  if (format === 'xyxy') return [a, c, d, e];
  if (format === 'xywh') return [a, c, a + d, c + e];
  return [a - d / 2, c - e / 2, a + d / 2, c + e / 2];
}

/**
 * Greedy NMS (the classic algorithm, as in torchvision.ops.batched_nms when classAware): highest score first; a
 * box is dropped when its IoU with a kept box (of the same class, when classAware) exceeds the threshold.
 * Input must be sorted by descending score.
 */
export function nonMaxSuppression<T extends { readonly box: readonly number[]; readonly classId: number }>(
  sorted: readonly T[],
  iouThreshold: number,
  classAware: boolean,
  limit = Infinity,
): T[] {
  const kept: T[] = [];
  for (const d of sorted) {
    if (kept.length >= limit) break;
    let suppressed = false;
    for (const k of kept) {
      if (classAware && k.classId !== d.classId) continue;
      if (boxIou(k.box, d.box) > iouThreshold) {
        suppressed = true;
        break;
      }
    }
    if (!suppressed) kept.push(d);
  }
  return kept;
}

export function postprocessDetections(c: Candidates, transform: ImageTransform, options: DetectionOptions): Detection[] {
  const pre: { box: BoxXyxy; classId: number; score: number }[] = [];
  for (let i = 0; i < c.count; i++) {
    const score = c.scores[i] as number;
    // NaN fails the comparison and is dropped with the low scores.
    if (!(score >= options.scoreThreshold)) continue;
    let box = toXyxy(c.boxes, i * 4, options.boxFormat);
    if (options.normalized)
      box = [box[0] * transform.targetWidth, box[1] * transform.targetHeight, box[2] * transform.targetWidth, box[3] * transform.targetHeight];
    if (!box.every(Number.isFinite) || box[2] <= box[0] || box[3] <= box[1]) continue;
    pre.push({ box, classId: Math.round(c.classes[i] as number), score });
  }
  pre.sort((a, b) => b.score - a.score);
  const kept = nonMaxSuppression(pre, options.iouThreshold, options.classAware, options.maxDetections);
  return kept.map((d) => {
    const label = options.labels?.[d.classId];
    return { box: boxToSource(d.box, transform), classId: d.classId, ...(label === undefined ? {} : { label }), score: d.score };
  });
}
