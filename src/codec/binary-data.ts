import { BYTE_SIZE, viewAs } from '../tensor/datatype.ts';
import type { BytesArray, DataType, TensorData } from '../tensor/datatype.ts';
import { rtError } from '../errors/registry.ts';
import { isExclusive } from '../tensor/exclusive-buffers.ts';
import { type TensorRole, tensorLabel, formatShape, assertNumeric, dataKind } from './tensor-data.ts';

/**
 * Triton's binary tensor data layout ↔ typed arrays (docs/protocol.md §2.3: little-endian, row-major, no padding;
 * BOOL one byte; BYTES elements a 4-byte little-endian length followed by the bytes). Views where aligned.
 */

/**
 * `bytes` moved back inside their own buffer to start on an `align`-byte boundary, over at most `room` bytes just
 * before them that nothing reads any more (a field header or a JSON header already parsed); undefined when they
 * are aligned already, the room is too small, or the buffer is not this request's alone
 * (tensor/exclusive-buffers.ts). Tensor bytes arrive wherever the wire puts them, unaligned for their element size
 * most of the time; `viewAs` would then allocate, clear and copy them on the event loop and leave the body to the
 * collector, where this moves them a few bytes (one memmove) and keeps them a view of the body.
 */
export function alignInPlace(bytes: Uint8Array, room: number, align: number): Uint8Array | undefined {
  const shift = bytes.byteOffset % align;
  if (shift === 0 || shift > room || !isExclusive(bytes.buffer)) return undefined;
  const span = new Uint8Array(bytes.buffer, bytes.byteOffset - shift, bytes.byteLength + shift);
  span.copyWithin(0, shift);
  return span.subarray(0, bytes.byteLength);
}

/** Total bytes of BYTES elements in the binary layout (4-byte length prefix each). */
export function serializedBytesSize(elements: BytesArray): number {
  let size = 0;
  for (const el of elements) size += 4 + el.byteLength;
  return size;
}

/** Writes BYTES elements as `<uint32 LE length><bytes>` each (docs/protocol.md §2.3). */
export function serializeBytes(elements: BytesArray): Uint8Array {
  const out = new Uint8Array(serializedBytesSize(elements));
  const view = new DataView(out.buffer);
  let offset = 0;
  for (const el of elements) {
    view.setUint32(offset, el.byteLength, true);
    out.set(el, offset + 4);
    offset += 4 + el.byteLength;
  }
  return out;
}

/**
 * Reads exactly `count` length-prefixed BYTES elements that must fill `bytes` exactly. Elements are views over
 * `bytes` (no copy).
 */
export function deserializeBytes(role: TensorRole, name: string, shape: readonly number[], count: number, bytes: Uint8Array): BytesArray {
  const what = tensorLabel(role, name);
  // Each element needs at least its 4-byte prefix: refuse an impossible count before allocating for it.
  if (count > bytes.byteLength / 4) {
    throw rtError(
      'BAD_DATA',
      `${what}: shape ${formatShape(shape)} needs ${count} BYTES elements (at least ${count * 4} bytes with their 4-byte length prefixes), binary data has ${bytes.byteLength} bytes`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<Uint8Array>(count);
  let offset = 0;
  for (let i = 0; i < count; i++) {
    if (offset + 4 > bytes.byteLength) {
      throw rtError(
        'BAD_DATA',
        `${what}: binary data ends at byte ${bytes.byteLength} after ${i} BYTES elements; shape ${formatShape(shape)} needs ${count}`,
      );
    }
    const len = view.getUint32(offset, true);
    const start = offset + 4;
    if (start + len > bytes.byteLength) {
      throw rtError(
        'BAD_DATA',
        `${what}: BYTES element ${i} at byte ${offset} declares length ${len} but only ${bytes.byteLength - start} bytes remain`,
      );
    }
    out[i] = bytes.subarray(start, start + len);
    offset = start + len;
  }
  if (offset !== bytes.byteLength) {
    throw rtError(
      'BAD_DATA',
      `${what}: ${bytes.byteLength - offset} bytes left over after the ${count} BYTES elements of shape ${formatShape(shape)} (binary data has ${bytes.byteLength} bytes)`,
    );
  }
  return out;
}

/**
 * Tensor data from its binary layout. Numeric tensors are zero-copy typed-array views over `bytes` when the
 * offset is aligned for the element size (tensor/datatype.ts `viewAs`); BYTES elements are views too.
 */
export function binaryToTensorData(
  role: TensorRole,
  name: string,
  datatype: DataType,
  shape: readonly number[],
  count: number,
  bytes: Uint8Array,
): TensorData {
  if (datatype === 'BYTES') return deserializeBytes(role, name, shape, count, bytes);
  const expected = count * BYTE_SIZE[datatype];
  if (bytes.byteLength !== expected) {
    throw rtError(
      'BAD_DATA',
      `${tensorLabel(role, name)}: shape ${formatShape(shape)} of ${datatype} needs ${expected} bytes, binary data has ${bytes.byteLength}`,
    );
  }
  return viewAs(datatype, bytes);
}

/** The binary layout of tensor data: a view for numeric tensors (no copy), a new buffer for BYTES. */
export function tensorDataToBinary(role: TensorRole, name: string, datatype: DataType, data: TensorData): Uint8Array {
  const what = tensorLabel(role, name);
  if (datatype === 'BYTES') {
    if (!Array.isArray(data)) throw rtError('INTERNAL', `${what}: BYTES data must be an array of Uint8Array, got ${dataKind(data)}`);
    return serializeBytes(data);
  }
  const values = assertNumeric(what, datatype, data);
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}
