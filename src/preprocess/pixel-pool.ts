/**
 * One lazily started worker thread for large pixel conversions. It is unref'd (it never keeps the process
 * alive) and restarted if it dies; jobs in flight when it dies fail with INTERNAL.
 */
import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../util/worker-spawn.ts';
import { rtError } from '../errors/registry.ts';
import type { PixelJob, PixelReply } from './pixel-worker.ts';
import { INLINE_ELEMENT_LIMIT, pixelsToTensor, type PixelConversion, type PixelTensorData } from './to-tensor.ts';

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, { resolve: (d: PixelTensorData) => void; reject: (e: Error) => void }>();

function failAll(message: string): void {
  for (const p of pending.values()) p.reject(rtError('INTERNAL', message));
  pending.clear();
}

function getWorker(): Worker {
  if (worker !== undefined) return worker;
  const w = spawnWorker(new URL(`./pixel-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
  w.unref();
  w.on('message', (reply: PixelReply) => {
    const p = pending.get(reply.id);
    if (p === undefined) return;
    pending.delete(reply.id);
    if ('error' in reply) p.reject(rtError('INTERNAL', `pixel conversion failed: ${reply.error}`));
    else p.resolve(reply.data);
  });
  const gone = (why: string) => (): void => {
    if (worker === w) worker = undefined;
    failAll(why);
  };
  w.on('error', gone('the pixel conversion worker failed'));
  w.on('exit', gone('the pixel conversion worker exited'));
  worker = w;
  return w;
}

/** Converts inline when small; otherwise in the worker (the pixel buffer is transferred, not copied). */
export async function convertPixels(pixels: Uint8Array, conversion: PixelConversion): Promise<PixelTensorData> {
  if (pixels.length <= INLINE_ELEMENT_LIMIT) return pixelsToTensor(pixels, conversion);
  const w = getWorker();
  const id = nextId++;
  // Transfer only a buffer this view owns entirely; otherwise copy it out first.
  const own = pixels.byteOffset === 0 && pixels.byteLength === pixels.buffer.byteLength ? pixels : pixels.slice();
  return new Promise<PixelTensorData>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ id, pixels: own, conversion } satisfies PixelJob, [own.buffer as ArrayBuffer]);
  });
}

/** Stops the worker (tests; the process never waits for it anyway). */
export async function stopPixelWorker(): Promise<void> {
  const w = worker;
  worker = undefined;
  if (w !== undefined) await w.terminate();
}
