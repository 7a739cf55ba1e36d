/**
 * KServe v2 datatypes (docs/protocol.md §2.2) and their in-memory representation.
 * FP16 and BF16 are carried as raw 16-bit patterns in Uint16Array; BYTES as one Uint8Array per element.
 */
export const DATA_TYPES = [
  'BOOL',
  'UINT8',
  'UINT16',
  'UINT32',
  'UINT64',
  'INT8',
  'INT16',
  'INT32',
  'INT64',
  'FP16',
  'FP32',
  'FP64',
  'BYTES',
  'BF16',
] as const;

export type DataType = (typeof DATA_TYPES)[number];

export type NumericArray =
  | Uint8Array
  | Int8Array
  | Uint16Array
  | Int16Array
  | Uint32Array
  | Int32Array
  | BigUint64Array
  | BigInt64Array
  | Float32Array
  | Float64Array;

/** BYTES tensors hold one byte string per element. */
export type BytesArray = Uint8Array[];

export type TensorData = NumericArray | BytesArray;

type TypedArrayCtor =
  | Uint8ArrayConstructor
  | Int8ArrayConstructor
  | Uint16ArrayConstructor
  | Int16ArrayConstructor
  | Uint32ArrayConstructor
  | Int32ArrayConstructor
  | BigUint64ArrayConstructor
  | BigInt64ArrayConstructor
  | Float32ArrayConstructor
  | Float64ArrayConstructor;

export const TYPED_ARRAY_OF: Readonly<Record<Exclude<DataType, 'BYTES'>, TypedArrayCtor>> = Object.freeze({
  BOOL: Uint8Array,
  UINT8: Uint8Array,
  UINT16: Uint16Array,
  UINT32: Uint32Array,
  UINT64: BigUint64Array,
  INT8: Int8Array,
  INT16: Int16Array,
  INT32: Int32Array,
  INT64: BigInt64Array,
  FP16: Uint16Array,
  FP32: Float32Array,
  FP64: Float64Array,
  BF16: Uint16Array,
});

/** Bytes per element; BYTES is variable and reports 0. */
export const BYTE_SIZE: Readonly<Record<DataType, number>> = Object.freeze({
  BOOL: 1,
  UINT8: 1,
  UINT16: 2,
  UINT32: 4,
  UINT64: 8,
  INT8: 1,
  INT16: 2,
  INT32: 4,
  INT64: 8,
  FP16: 2,
  FP32: 4,
  FP64: 8,
  BYTES: 0,
  BF16: 2,
});

export function isDataType(value: unknown): value is DataType {
  return typeof value === 'string' && (DATA_TYPES as readonly string[]).includes(value);
}

/** Triton model-config spelling (`TYPE_FP32`, `TYPE_STRING`) ↔ wire spelling (`FP32`, `BYTES`). */
export function fromConfigType(configType: string): DataType | undefined {
  const bare = configType.startsWith('TYPE_') ? configType.slice(5) : configType;
  const wire = bare === 'STRING' ? 'BYTES' : bare;
  return isDataType(wire) ? wire : undefined;
}

export function toConfigType(dt: DataType): string {
  return dt === 'BYTES' ? 'TYPE_STRING' : `TYPE_${dt}`;
}

/** Product of dims; an empty shape is a scalar with one element. */
export function elementCount(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

/** Allocates a zero-filled array of `count` elements of `dt`. */
export function allocate(dt: DataType, count: number): TensorData {
  if (dt === 'BYTES') return Array.from({ length: count }, () => new Uint8Array(0));
  return new TYPED_ARRAY_OF[dt](count);
}

/**
 * A copy of tensor data in memory of its own. Not `data.slice()`: on a Node Buffer (a Uint8Array subclass, what
 * HTTP bodies are) `slice` returns a view of the same memory.
 */
export function copyData(dt: DataType, data: TensorData): TensorData {
  if (Array.isArray(data)) return data.map((e) => Uint8Array.from(e));
  const out = allocate(dt, data.length) as NumericArray;
  // Same element type on both sides (allocate picks the class of `dt`, as the decoders do).
  (out as unknown as { set(source: ArrayLike<unknown>): void }).set(data as ArrayLike<unknown>);
  return out;
}

/** A typed-array view of `dt` over raw little-endian bytes; copies only when the bytes are misaligned. */
export function viewAs(dt: Exclude<DataType, 'BYTES'>, bytes: Uint8Array): NumericArray {
  const Ctor = TYPED_ARRAY_OF[dt];
  const size = BYTE_SIZE[dt];
  // Tensor bytes never live in a SharedArrayBuffer (bodies, worker transfers): the cast only narrows the type.
  if (bytes.byteOffset % size === 0) return new Ctor(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength / size);
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Ctor(copy.buffer, 0, bytes.byteLength / size);
}

/** The raw little-endian bytes of a numeric array (a view, no copy). */
export function bytesOf(data: NumericArray): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
