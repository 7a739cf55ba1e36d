/**
 * Batch buffers an engine session reuses from run to run, one per input name: joining a batch copies into memory
 * that is already mapped (a fresh allocation of ~10-150 MB costs page faults and zeroing on top of the copy, and
 * garbage for the GC) and makes no garbage. The owner runs one batch at a time, so a buffer is free again when the
 * next run starts. Buffers above `maxKeptBytes` are not kept.
 */
import { BYTE_SIZE, TYPED_ARRAY_OF, bytesOf, type DataType, type NumericArray } from '../tensor/datatype.ts';

export class BatchScratch {
  readonly #buffers = new Map<string, ArrayBuffer>();

  constructor(private readonly maxKeptBytes = 256 * 1024 * 1024) {}

  /** `parts` back to back as one array of `datatype`: a view over this scratch's buffer for `name`, valid until the next join. */
  join(name: string, datatype: Exclude<DataType, 'BYTES'>, parts: readonly NumericArray[]): NumericArray {
    let total = 0;
    for (const p of parts) total += p.byteLength;
    const size = BYTE_SIZE[datatype];
    let buffer = this.#buffers.get(name);
    // byteLength 0 also means detached: an output that aliased the buffer was moved to another thread with it.
    if (buffer === undefined || buffer.byteLength < total || buffer.byteLength === 0) {
      // Some headroom, so batches a little larger than the last one reuse it too.
      buffer = new ArrayBuffer(Math.ceil((total * 1.25) / size) * size);
      if (buffer.byteLength <= this.maxKeptBytes) this.#buffers.set(name, buffer);
      else this.#buffers.delete(name);
    }
    const dst = new Uint8Array(buffer, 0, total);
    let at = 0;
    for (const p of parts) {
      dst.set(bytesOf(p), at);
      at += p.byteLength;
    }
    return new TYPED_ARRAY_OF[datatype](buffer, 0, total / size) as NumericArray;
  }
}
