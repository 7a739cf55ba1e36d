/**
 * The vocabulary of the tensor codecs shared by the server (kserve-json.ts) and the client (kserve-client-codec.ts):
 * tensor labels and shapes in messages, wire shapes, UTF-8. The conversions themselves: json-data-decode.ts,
 * json-data-encode.ts (KServe v2 JSON `data`), binary-data.ts (binary tensor data) and json-body.ts.
 *
 * Rules come from docs/protocol.md §2.2 (KServe v2 JSON: `data` row-major, nested or flat; datatype sizes) and §2.3
 * (binary tensor data extension: little-endian, row-major, no padding; BOOL one byte; BYTES elements are a 4-byte
 * little-endian unsigned length followed by the bytes).
 *
 * Every error is an RtError whose message names the tensor ("input 'x'" / "output 'y'") and says what was
 * expected and what came. No Node-only imports: this module runs in browsers too (TextEncoder, DataView).
 */
import { TYPED_ARRAY_OF, elementCount } from '../tensor/datatype.ts';
import type { DataType, NumericArray, TensorData } from '../tensor/datatype.ts';
import { rtError } from '../errors/registry.ts';

/** Which side of the protocol a tensor is on; used to word messages ("input 'x'" / "output 'y'"). */
export type TensorRole = 'input' | 'output';

export function tensorLabel(role: TensorRole, name: string): string {
  return `${role} '${name}'`;
}

/** `[2,3]`, the spelling Triton uses in its shape messages. */
export function formatShape(shape: readonly number[]): string {
  return `[${shape.join(',')}]`;
}

const utf8Encoder = new TextEncoder();
/** Strict UTF-8 (invalid sequences throw), for BYTES elements and JSON bodies. */
export const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function utf8Encode(text: string): Uint8Array<ArrayBuffer> {
  return utf8Encoder.encode(text);
}

/** A short, safe rendering of a client-supplied value for error messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string': {
      const shown = value.length > 32 ? `${value.slice(0, 32)}…` : value;
      return `string ${JSON.stringify(shown)}`;
    }
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${typeof value} ${String(value)}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Shapes

/**
 * Checks a wire shape: an array of non-negative safe integers (docs/protocol.md §2.2: `"shape": [uint64..]`). Returns
 * it as a fresh number array and its element count.
 */
export function parseShape(role: TensorRole, name: string, raw: unknown): { shape: number[]; count: number } {
  const what = tensorLabel(role, name);
  if (!Array.isArray(raw)) throw rtError('BAD_SHAPE', `${what}: shape must be an array of integers, got ${describeValue(raw)}`);
  const shape = new Array<number>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const d: unknown = raw[i];
    if (typeof d !== 'number' || !Number.isSafeInteger(d)) {
      throw rtError('BAD_SHAPE', `${what}: shape dimension ${i} must be an integer, got ${describeValue(d)}`);
    }
    if (d < 0) {
      throw rtError(
        'BAD_SHAPE',
        `${what}: shape ${formatShape(raw as number[])} has dimension ${i} = ${d}; every dimension must be given and non-negative`,
      );
    }
    shape[i] = d;
  }
  const count = elementCount(shape);
  if (!Number.isSafeInteger(count)) {
    throw rtError('BAD_SHAPE', `${what}: shape ${formatShape(shape)} has more elements than can be addressed`);
  }
  return { shape, count };
}

/** The safe-integer range as bigints: INT64/UINT64 values inside it travel as JSON numbers. */
export const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);
export const MIN_SAFE_BIG = -MAX_SAFE_BIG;

/** The typed array of a numeric tensor, or INTERNAL when the engine handed over something else. */
export function assertNumeric(what: string, datatype: Exclude<DataType, 'BYTES'>, data: TensorData): NumericArray {
  if (!(data instanceof TYPED_ARRAY_OF[datatype])) {
    throw rtError('INTERNAL', `${what}: ${datatype} data must be a ${TYPED_ARRAY_OF[datatype].name}, got ${dataKind(data)}`);
  }
  return data;
}

export function dataKind(data: unknown): string {
  if (Array.isArray(data)) return 'an array';
  if (ArrayBuffer.isView(data)) return data.constructor.name;
  return describeValue(data);
}
