/**
 * How a preprocessed image relates to the original: model = original · scale + offset, per axis. Resizing by
 * `fill` has different x and y scales and no offset, `letterbox` one scale and a positive offset (the padding),
 * `cover` one scale and a negative offset (the crop). Boxes found in model-input pixels map back by the inverse.
 */
export interface ImageTransform {
  /** Size of the original image (after EXIF orientation). */
  readonly sourceWidth: number;
  readonly sourceHeight: number;
  /** Size of the tensor's image plane. */
  readonly targetWidth: number;
  readonly targetHeight: number;
  readonly scaleX: number;
  readonly scaleY: number;
  readonly offsetX: number;
  readonly offsetY: number;
}

/** [x1, y1, x2, y2]. */
export type BoxXyxy = [number, number, number, number];

/** Maps a box from model-input pixels to original-image pixels, clipped to the original image. */
export function boxToSource(box: readonly [number, number, number, number], t: ImageTransform): BoxXyxy {
  const clip = (v: number, hi: number): number => Math.min(hi, Math.max(0, v));
  return [
    clip((box[0] - t.offsetX) / t.scaleX, t.sourceWidth),
    clip((box[1] - t.offsetY) / t.scaleY, t.sourceHeight),
    clip((box[2] - t.offsetX) / t.scaleX, t.sourceWidth),
    clip((box[3] - t.offsetY) / t.scaleY, t.sourceHeight),
  ];
}

export function boxIou(a: readonly number[], b: readonly number[]): number {
  const iw = Math.min(a[2] as number, b[2] as number) - Math.max(a[0] as number, b[0] as number);
  const ih = Math.min(a[3] as number, b[3] as number) - Math.max(a[1] as number, b[1] as number);
  if (!(iw > 0) || !(ih > 0)) return 0;
  const inter = iw * ih;
  const areaA = ((a[2] as number) - (a[0] as number)) * ((a[3] as number) - (a[1] as number));
  const areaB = ((b[2] as number) - (b[0] as number)) * ((b[3] as number) - (b[1] as number));
  const union = areaA + areaB - inter;
  return union > 0 ? inter / union : 0;
}
