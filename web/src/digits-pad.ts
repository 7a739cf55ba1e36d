/**
 * The drawing pad: strokes in white on black (what `digits` was trained on), classified as you draw. The drawing
 * is cropped to a square around the ink, as the training data was, and sent as a PNG in a BYTES input through the
 * client SDK (REST, KServe binary tensor data; the server runs it through the model's image pipeline).
 */
import type { RtserveClient } from '../../src/client/index.ts';

export interface DigitAnswer {
  readonly classes: readonly { readonly label: string; readonly score: number }[];
}

export class DigitsPad {
  private drawing = false;
  private last: { x: number; y: number } | undefined;
  private dirty = false;
  private busy = false;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly pad: HTMLCanvasElement,
    private readonly client: RtserveClient,
    private readonly onAnswer: (a: DigitAnswer | undefined, error?: string) => void,
  ) {
    // The pad is read back on every answer (getImageData): keep it in CPU memory.
    pad.getContext('2d', { willReadFrequently: true });
    this.clear();
    pad.addEventListener('pointerdown', (e) => {
      pad.setPointerCapture(e.pointerId);
      this.drawing = true;
      this.last = this.point(e);
      this.stroke(this.last, this.last);
    });
    pad.addEventListener('pointermove', (e) => {
      if (!this.drawing) return;
      const p = this.point(e);
      this.stroke(this.last ?? p, p);
      this.last = p;
    });
    const end = (): void => {
      if (!this.drawing) return;
      this.drawing = false;
      void this.classify();
    };
    pad.addEventListener('pointerup', end);
    pad.addEventListener('pointercancel', end);
    // While drawing: a few answers a second.
    this.timer = setInterval(() => {
      if (this.drawing) void this.classify();
    }, 200);
  }

  clear(): void {
    const ctx = this.pad.getContext('2d');
    if (ctx === null) return;
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, this.pad.width, this.pad.height);
    this.dirty = false;
    this.onAnswer(undefined);
  }

  dispose(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
  }

  private point(e: PointerEvent): { x: number; y: number } {
    const r = this.pad.getBoundingClientRect();
    return { x: ((e.clientX - r.left) * this.pad.width) / r.width, y: ((e.clientY - r.top) * this.pad.height) / r.height };
  }

  private stroke(a: { x: number; y: number }, b: { x: number; y: number }): void {
    const ctx = this.pad.getContext('2d');
    if (ctx === null) return;
    ctx.strokeStyle = '#fff';
    ctx.lineWidth = this.pad.width / 14;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.beginPath();
    ctx.moveTo(a.x, a.y);
    ctx.lineTo(b.x === a.x && b.y === a.y ? b.x + 0.01 : b.x, b.y);
    ctx.stroke();
    this.dirty = true;
  }

  /** A square PNG around the ink with a small margin, or undefined for an empty pad. */
  async crop(): Promise<Uint8Array | undefined> {
    const { width: w, height: h } = this.pad;
    const data = this.pad.getContext('2d')?.getImageData(0, 0, w, h).data;
    if (data === undefined) return undefined;
    let x0 = w;
    let y0 = h;
    let x1 = -1;
    let y1 = -1;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        if ((data[(y * w + x) * 4] ?? 0) > 40) {
          x0 = Math.min(x0, x);
          y0 = Math.min(y0, y);
          x1 = Math.max(x1, x);
          y1 = Math.max(y1, y);
        }
      }
    }
    if (x1 < 0) return undefined;
    const side = Math.max(x1 - x0 + 1, y1 - y0 + 1) * 1.2;
    const cx = (x0 + x1 + 1) / 2;
    const cy = (y0 + y1 + 1) / 2;
    const out = document.createElement('canvas');
    out.width = 56;
    out.height = 56;
    const ctx = out.getContext('2d');
    if (ctx === null) return undefined;
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, 56, 56);
    ctx.drawImage(this.pad, cx - side / 2, cy - side / 2, side, side, 0, 0, 56, 56);
    const blob = await new Promise<Blob | null>((resolve) => out.toBlob(resolve, 'image/png'));
    return blob === null ? undefined : new Uint8Array(await blob.arrayBuffer());
  }

  private async classify(): Promise<void> {
    if (this.busy || !this.dirty) return;
    this.busy = true;
    this.dirty = false;
    try {
      const png = await this.crop();
      if (png === undefined) return;
      const r = await this.client.infer('digits', { image: { datatype: 'BYTES', shape: [1], data: [png] } }, { parameters: { top_k: 3 } });
      const labels = r.strings('labels');
      const scores = r.data('scores') as Float32Array;
      this.onAnswer({ classes: labels.map((label, i) => ({ label, score: scores[i] ?? 0 })) });
    } catch (err) {
      this.onAnswer(undefined, err instanceof Error ? err.message : String(err));
    } finally {
      this.busy = false;
      // Strokes drawn while this request was out get their own answer.
      if (this.dirty && !this.drawing) void this.classify();
    }
  }
}
