import { floatToHalf } from '../../tensor/onnx-dtype.ts';

/** Weights are packed into one blob, each tensor 256-byte aligned (cuDNN and cuBLASLt want 16). */
export const WEIGHT_ALIGN = 256;

export class WeightBlob {
  private readonly parts: { readonly off: number; readonly data: Uint16Array | Float32Array }[] = [];
  private size = 0;

  /** Adds FP16 values (converted from float32); returns the offset and byte length. */
  addHalf(values: Float32Array | readonly number[]): { woff: number; bytes: number } {
    const h = new Uint16Array(values.length);
    for (let i = 0; i < values.length; i++) h[i] = floatToHalf(values[i] ?? 0);
    const off = this.size;
    this.parts.push({ off, data: h });
    this.size = Math.ceil((off + h.byteLength) / WEIGHT_ALIGN) * WEIGHT_ALIGN;
    return { woff: off, bytes: h.byteLength };
  }

  /** Adds FP32 values (integer constants are held exactly this way); returns the offset and byte length. */
  addFloat(values: Float32Array | readonly number[]): { woff: number; bytes: number } {
    const f = Float32Array.from(values);
    const off = this.size;
    this.parts.push({ off, data: f });
    this.size = Math.ceil((off + f.byteLength) / WEIGHT_ALIGN) * WEIGHT_ALIGN;
    return { woff: off, bytes: f.byteLength };
  }

  get byteLength(): number {
    return this.size;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(Math.max(this.size, WEIGHT_ALIGN));
    for (const p of this.parts) out.set(new Uint8Array(p.data.buffer, p.data.byteOffset, p.data.byteLength), p.off);
    return out;
  }
}

/** OIHW (ONNX Conv weight) → OHWI ("KRSC", what NHWC convolutions read), padding input channels to `cPad`. */
export function oihwToOhwi(w: Float32Array, o: number, i: number, h: number, wd: number, cPad = i): Float32Array {
  const out = new Float32Array(o * h * wd * cPad);
  for (let a = 0; a < o; a++) {
    for (let c = 0; c < i; c++) {
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < wd; x++) out[((a * h + y) * wd + x) * cPad + c] = w[((a * i + c) * h + y) * wd + x] ?? 0;
      }
    }
  }
  return out;
}

/** [rows, cols] → [cols, rows]. */
export function transpose2d(v: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = v[r * cols + c] ?? 0;
  return out;
}
