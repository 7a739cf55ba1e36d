/** Worker thread entry: converts pixels to tensor data for large images (see to-tensor.ts). */
import { parentPort } from 'node:worker_threads';
import { pixelsToTensor, type PixelConversion } from './to-tensor.ts';

export interface PixelJob {
  readonly id: number;
  readonly pixels: Uint8Array;
  readonly conversion: PixelConversion;
}

export type PixelReply =
  | { readonly id: number; readonly data: Float32Array | Uint16Array | Uint8Array }
  | { readonly id: number; readonly error: string };

const port = parentPort;
if (port !== null) {
  port.on('message', (job: PixelJob) => {
    try {
      const data = pixelsToTensor(job.pixels, job.conversion);
      port.postMessage({ id: job.id, data } satisfies PixelReply, [data.buffer as ArrayBuffer]);
    } catch (err) {
      port.postMessage({ id: job.id, error: err instanceof Error ? err.message : String(err) } satisfies PixelReply);
    }
  });
}
