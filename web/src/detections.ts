/** Detections as the demo draws and scores them, from either transport's answer. */
import type { SceneObject } from '../../models/train/shapes-scene.ts';
import { boxIou } from '../../src/postprocess/geometry.ts';

export interface Detection {
  readonly box: readonly [number, number, number, number];
  readonly classId: number;
  readonly label: string;
  readonly score: number;
}

export const CLASS_COLOURS = ['#ff7043', '#66bb6a', '#42a5f5'];

/** Truth objects found by a detection of the same class at IoU >= 0.5, and detections that found nothing. */
export function matchTruth(truth: readonly SceneObject[], dets: readonly Detection[]): { matched: number; falsePositives: number } {
  const used = new Set<number>();
  let matched = 0;
  for (const t of truth) {
    let best = -1;
    let bestIou = 0.5;
    dets.forEach((d, i) => {
      if (used.has(i) || d.classId !== t.cls) return;
      const o = boxIou(d.box, t.box);
      if (o >= bestIou) {
        bestIou = o;
        best = i;
      }
    });
    if (best >= 0) {
      used.add(best);
      matched++;
    }
  }
  return { matched, falsePositives: dets.length - used.size };
}

export function drawFrame(
  canvas: HTMLCanvasElement,
  bitmap: ImageBitmap,
  dets: readonly Detection[],
  truth: readonly SceneObject[] | undefined,
): void {
  const ctx = canvas.getContext('2d');
  if (ctx === null) return;
  if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
  }
  ctx.drawImage(bitmap, 0, 0);
  ctx.lineWidth = 2;
  if (truth !== undefined) {
    ctx.setLineDash([6, 4]);
    ctx.strokeStyle = 'rgba(220, 220, 220, 0.8)';
    for (const t of truth) ctx.strokeRect(t.box[0] - 3, t.box[1] - 3, t.box[2] - t.box[0] + 6, t.box[3] - t.box[1] + 6);
    ctx.setLineDash([]);
  }
  ctx.font = '14px system-ui, sans-serif';
  ctx.lineWidth = 3;
  for (const d of dets) {
    const colour = CLASS_COLOURS[d.classId] ?? '#ffffff';
    const [x1, y1, x2, y2] = d.box;
    ctx.strokeStyle = colour;
    ctx.strokeRect(x1, y1, x2 - x1, y2 - y1);
    const text = `${d.label} ${(d.score * 100).toFixed(0)}%`;
    const w = ctx.measureText(text).width + 8;
    const ty = y1 > 20 ? y1 - 20 : y2;
    ctx.fillStyle = colour;
    ctx.fillRect(x1 - 1.5, ty, w, 20);
    ctx.fillStyle = '#000';
    ctx.fillText(text, x1 + 3, ty + 15);
  }
}
