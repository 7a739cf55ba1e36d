/**
 * Reused buffers for large request bodies. A fresh 10 MB allocation per request costs more than the copy into it
 * (the kernel maps and zeroes every page on first touch) and leaves garbage that makes V8 collect the whole
 * heap more often; a body read into memory that is already mapped costs just the copy.
 *
 * A buffer handed out is exclusive to its request (core/exclusive-buffers.ts). It comes back only one way: the
 * engine worker that took it returns it once it has joined or run it (engine/worker serve.ts `returned`), and the
 * worker session gives it back here. A body that never reaches a worker (refused, cancelled, an in-process
 * engine) is left to the GC, so no buffer is ever reused while something may still read it.
 */
import { markExclusiveBuffer } from './exclusive-buffers.ts';

/** Bodies below this are read the ordinary way; pooling pays off only for large ones. */
export const POOLED_BODY_MIN_BYTES = 256 * 1024;

/** Size classes: four per power of two, so a buffer is at most 25% larger than the body it holds. */
export function sizeClassOf(bytes: number): number {
  if (bytes <= 4096) return 4096;
  const pow = 2 ** Math.floor(Math.log2(bytes));
  const step = pow / 4;
  return Math.ceil(bytes / step) * step;
}

export class RequestBufferPool {
  readonly #free = new Map<number, ArrayBuffer[]>();
  #keptBytes = 0;

  constructor(readonly maxKeptBytes: number) {}

  /** Bytes held for reuse now. */
  get keptBytes(): number {
    return this.#keptBytes;
  }

  /** A Buffer of exactly `bytes` bytes over a pooled (or new) buffer of its size class, marked exclusive. */
  acquire(bytes: number): Buffer {
    const cls = sizeClassOf(bytes);
    const list = this.#free.get(cls);
    let buffer = list?.pop();
    if (buffer !== undefined) this.#keptBytes -= cls;
    else buffer = new ArrayBuffer(cls);
    markExclusiveBuffer(buffer);
    return Buffer.from(buffer, 0, bytes);
  }

  /** Takes back a buffer that nothing references any more; keeps it when it is of a size class and room is left. */
  release(buffer: ArrayBuffer): void {
    const cls = buffer.byteLength;
    if (cls === 0 || sizeClassOf(cls) !== cls || cls < POOLED_BODY_MIN_BYTES) return;
    if (this.#keptBytes + cls > this.maxKeptBytes) return;
    let list = this.#free.get(cls);
    if (list === undefined) this.#free.set(cls, (list = []));
    list.push(buffer);
    this.#keptBytes += cls;
  }
}

/**
 * The process's pool for request bodies. Bounded: at most 256 MiB kept for reuse (what is in use by requests in
 * flight is bounded by the body limit and the queues, as before).
 */
export const requestBufferPool = new RequestBufferPool(256 * 1024 * 1024);
