/**
 * How tensors cross between the event-loop thread and an engine worker. Tensor bytes travel as transferred
 * ArrayBuffers (postMessage transfer list), never as a structured-clone copy and never as JSON.
 *
 * - A numeric tensor whose typed array covers its whole ArrayBuffer moves as-is: the buffer is transferred and
 *   the sender's view becomes detached (the EngineSession contract says callers must not touch inputs after
 *   `run`).
 * - A numeric tensor that is a view into a larger buffer (a slice of an HTTP body, a batch member) is copied
 *   once into a fresh buffer of exactly its size, which is then transferred. Transferring the larger buffer
 *   would move bytes the engine does not need and detach memory other requests still use.
 *   Except when the larger buffer is exclusive to one request (tensor/exclusive-buffers.ts: an HTTP body, a gRPC
 *   message): then the whole buffer is transferred, header bytes and all, and nothing is copied.
 * - A BYTES tensor (one byte string per element) is packed into one byte buffer plus an `ends` offset table,
 *   two transfers however many elements it has.
 * - A batch of several requests can cross as its pieces (WirePartsTensor, one per request) and be joined on the
 *   worker's side into a buffer the worker keeps (engine/batch-scratch.ts): the one copy batching needs then runs on the
 *   worker thread, into memory that is already mapped, instead of on the event loop into a fresh allocation.
 */
import type { BytesArray, DataType, NumericArray } from '../../tensor/datatype.ts';
import { isExclusive, isMapped } from '../../tensor/exclusive-buffers.ts';
import { isSharedArrayBuffer } from 'node:util/types';
import type { TransferListItem } from 'node:worker_threads';
import type { Tensor } from '../../tensor/tensor.ts';

export interface WireNumericTensor {
  readonly name: string;
  readonly datatype: Exclude<DataType, 'BYTES'>;
  readonly shape: readonly number[];
  readonly data: NumericArray;
}

export interface WireBytesTensor {
  readonly name: string;
  readonly datatype: 'BYTES';
  readonly shape: readonly number[];
  /** Every element's bytes, back to back. */
  readonly bytes: Uint8Array;
  /** `ends[i]` is the exclusive end of element i in `bytes` (element i starts at `ends[i - 1]`, or 0). */
  readonly ends: Uint32Array;
}

export type WireTensor = WireNumericTensor | WireBytesTensor;

/** A numeric batch input as the pieces of its requests, in batch order; `shape` is the joined tensor's. */
export interface WirePartsTensor {
  readonly name: string;
  readonly datatype: Exclude<DataType, 'BYTES'>;
  readonly shape: readonly number[];
  readonly parts: readonly NumericArray[];
}

/** What a run message carries per input. */
export type WireFeed = WireTensor | WirePartsTensor;

export function isPartsTensor(feed: WireFeed): feed is WirePartsTensor {
  return 'parts' in feed;
}

/** Packs byte strings into one buffer and an end-offset table. */
export function packBytes(elements: BytesArray): { bytes: Uint8Array<ArrayBuffer>; ends: Uint32Array<ArrayBuffer> } {
  let total = 0;
  for (const e of elements) total += e.byteLength;
  const bytes = new Uint8Array(total);
  const ends = new Uint32Array(elements.length);
  let at = 0;
  for (let i = 0; i < elements.length; i++) {
    const e = elements[i] as Uint8Array;
    bytes.set(e, at);
    at += e.byteLength;
    ends[i] = at;
  }
  return { bytes, ends };
}

/** Splits packed bytes back into one view per element (views share the one buffer: no copy). */
export function unpackBytes(bytes: Uint8Array, ends: Uint32Array): BytesArray {
  const out: Uint8Array[] = new Array<Uint8Array>(ends.length);
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    const end = ends[i] as number;
    out[i] = bytes.subarray(start, end);
    start = end;
  }
  return out;
}

/**
 * Returns an array with the same contents that owns its whole buffer, adding that buffer to `transfer`.
 * SharedArrayBuffer-backed arrays are shared by postMessage without a copy and are returned unchanged.
 */
export function transferable<T extends NumericArray>(data: T, transfer: TransferListItem[]): T {
  // SharedArrayBuffer memory is shared by postMessage, never copied, and cannot be transferred.
  if (isSharedArrayBuffer(data.buffer)) return data;
  const buffer = data.buffer as ArrayBuffer;
  if (isMapped(buffer)) {
    // Mapped shared memory: transferring would detach the mapping here; send a copy of just this range.
    const copy = freshCopy(data);
    transfer.push(copy.buffer as ArrayBuffer);
    return copy;
  }
  if (isExclusive(buffer)) {
    // One request's own buffer: move all of it (several tensors of one request may share it; listed once).
    if (!transfer.includes(buffer)) transfer.push(buffer);
    return data;
  }
  if (data.byteOffset === 0 && data.byteLength === buffer.byteLength && !transfer.includes(buffer)) {
    transfer.push(buffer);
    return data;
  }
  // A view over a larger buffer, or the same buffer already queued for transfer by another tensor of this
  // message: copy just this range once into a fresh buffer of exactly this size.
  const copy = freshCopy(data);
  transfer.push(copy.buffer as ArrayBuffer);
  return copy;
}

const TYPED_ARRAY_BY_TAG = {
  Uint8Array,
  Int8Array,
  Uint16Array,
  Int16Array,
  Uint32Array,
  Int32Array,
  BigUint64Array,
  BigInt64Array,
  Float32Array,
  Float64Array,
} as const;

/**
 * A copy in a new buffer, as the plain typed array class. Not `data.slice()`: on a Node Buffer (a Uint8Array
 * subclass, which is what HTTP bodies are) `slice` returns a view of the same memory, not a copy.
 */
function freshCopy<T extends NumericArray>(data: T): T {
  const tag = data[Symbol.toStringTag] as keyof typeof TYPED_ARRAY_BY_TAG;
  const Ctor = TYPED_ARRAY_BY_TAG[tag] as unknown as new (source: T) => T;
  return new Ctor(data);
}

/**
 * Converts a tensor for postMessage. With `transfer` given, numeric data is made transferable (see above) and
 * the buffers to transfer are appended to it; without it (same-thread use) numeric data is passed through.
 */
export function toWire(tensor: Tensor, transfer?: TransferListItem[]): WireTensor {
  const { name, shape } = tensor;
  if (tensor.datatype === 'BYTES') {
    const { bytes, ends } = packBytes(tensor.data as BytesArray);
    if (transfer !== undefined) transfer.push(bytes.buffer, ends.buffer);
    return { name, datatype: 'BYTES', shape, bytes, ends };
  }
  const data = tensor.data as NumericArray;
  return { name, datatype: tensor.datatype, shape, data: transfer === undefined ? data : transferable(data, transfer) };
}

/** The receiving side: a wire tensor as the rest of rtserve sees tensors. */
export function fromWire(wire: WireTensor): Tensor {
  if (wire.datatype === 'BYTES') {
    return { name: wire.name, datatype: 'BYTES', shape: wire.shape, data: unpackBytes(wire.bytes, wire.ends) };
  }
  return { name: wire.name, datatype: wire.datatype, shape: wire.shape, data: wire.data };
}

/** The pieces of a batch input, each made transferable (moved when exclusive or whole, else copied once). */
export function toWireParts(
  name: string,
  datatype: Exclude<DataType, 'BYTES'>,
  shape: readonly number[],
  parts: readonly NumericArray[],
  transfer: TransferListItem[],
): WirePartsTensor {
  return { name, datatype, shape, parts: parts.map((p) => transferable(p, transfer)) };
}
