import { bf16BitsToFloat, floatToBf16Bits, floatToHalfBits, halfBitsToFloat } from './half.ts';
import type { DataType } from './datatype.ts';

/**
 * ONNX element types (onnx.proto, `TensorProto.DataType`) and their in-memory arrays. FLOAT16 and BFLOAT16 are
 * kept as raw 16-bit patterns in a Uint16Array; BOOL as one byte per element (0/1); STRING as byte strings.
 */
export const DT = {
  UNDEFINED: 0,
  FLOAT: 1,
  UINT8: 2,
  INT8: 3,
  UINT16: 4,
  INT16: 5,
  INT32: 6,
  INT64: 7,
  STRING: 8,
  BOOL: 9,
  FLOAT16: 10,
  DOUBLE: 11,
  UINT32: 12,
  UINT64: 13,
  COMPLEX64: 14,
  COMPLEX128: 15,
  BFLOAT16: 16,
} as const;
export type ElemType = number;

const NAMES: Record<number, string> = {
  0: 'undefined',
  1: 'float32',
  2: 'uint8',
  3: 'int8',
  4: 'uint16',
  5: 'int16',
  6: 'int32',
  7: 'int64',
  8: 'string',
  9: 'bool',
  10: 'float16',
  11: 'float64',
  12: 'uint32',
  13: 'uint64',
  14: 'complex64',
  15: 'complex128',
  16: 'bfloat16',
  17: 'float8e4m3fn',
  18: 'float8e4m3fnuz',
  19: 'float8e5m2',
  20: 'float8e5m2fnuz',
  21: 'uint4',
  22: 'int4',
  23: 'float4e2m1',
};

/** A lower-case name for messages (`float32`, `bfloat16`, `float8e4m3fn`), `type#N` for values newer than the table. */
export function elemTypeName(t: ElemType): string {
  return NAMES[t] ?? `type#${t}`;
}

/** KServe v2 datatype for an ONNX element type (docs/protocol.md §2.2). */
const KSERVE: Readonly<Record<number, DataType>> = {
  1: 'FP32',
  2: 'UINT8',
  3: 'INT8',
  4: 'UINT16',
  5: 'INT16',
  6: 'INT32',
  7: 'INT64',
  8: 'BYTES',
  9: 'BOOL',
  10: 'FP16',
  11: 'FP64',
  12: 'UINT32',
  13: 'UINT64',
  16: 'BF16',
};
export type KServeDatatype = DataType;

/** The KServe datatype of an ONNX element type, or undefined for types KServe cannot carry (complex, float8...). */
export function kserveDatatype(t: ElemType): KServeDatatype | undefined {
  return KSERVE[t];
}

const ELEM_OF_KSERVE: ReadonlyMap<DataType, ElemType> = new Map(Object.entries(KSERVE).map(([e, d]) => [d, Number(e)]));

/** The ONNX element type of a KServe datatype. */
export function elemTypeOfKserve(dt: DataType): ElemType {
  const e = ELEM_OF_KSERVE.get(dt);
  if (e === undefined) throw new Error(`no ONNX element type for ${dt}`);
  return e;
}

export type NumericData =
  | Float32Array
  | Float64Array
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array;
export type TensorData = NumericData | Uint8Array[];

/** Bytes per element, 0 for strings and unsupported types. */
export function elemSize(t: ElemType): number {
  switch (t) {
    case DT.FLOAT:
    case DT.INT32:
    case DT.UINT32:
      return 4;
    case DT.UINT8:
    case DT.INT8:
    case DT.BOOL:
      return 1;
    case DT.UINT16:
    case DT.INT16:
    case DT.FLOAT16:
    case DT.BFLOAT16:
      return 2;
    case DT.INT64:
    case DT.UINT64:
    case DT.DOUBLE:
      return 8;
    default:
      return 0;
  }
}

export function isFloatType(t: ElemType): boolean {
  return t === DT.FLOAT || t === DT.FLOAT16 || t === DT.DOUBLE || t === DT.BFLOAT16;
}

/** Allocates a zeroed array for `count` elements of `t`; throws for types the compiler does not compute on. */
export function allocData(t: ElemType, count: number): NumericData {
  switch (t) {
    case DT.FLOAT:
      return new Float32Array(count);
    case DT.DOUBLE:
      return new Float64Array(count);
    case DT.INT8:
      return new Int8Array(count);
    case DT.UINT8:
    case DT.BOOL:
      return new Uint8Array(count);
    case DT.INT16:
      return new Int16Array(count);
    case DT.UINT16:
    case DT.FLOAT16:
    case DT.BFLOAT16:
      return new Uint16Array(count);
    case DT.INT32:
      return new Int32Array(count);
    case DT.UINT32:
      return new Uint32Array(count);
    case DT.INT64:
      return new BigInt64Array(count);
    case DT.UINT64:
      return new BigUint64Array(count);
    default:
      throw new Error(`no array type for ONNX element type ${elemTypeName(t)}`);
  }
}

// The compiler computes in float32 as ONNX does: a value is rounded to float32 first, then to the 16-bit format
// (exact for values that already are float32), with the one FP16/BF16 rounding of src/tensor/half.ts.
export function floatToHalf(value: number): number {
  return floatToHalfBits(Math.fround(value));
}

export function floatToBfloat16(value: number): number {
  return floatToBf16Bits(Math.fround(value));
}

export { halfBitsToFloat as halfToFloat, bf16BitsToFloat as bfloat16ToFloat };

/** Reads element `i` of a numeric array as a JS number (float16/bfloat16 decoded, int64 as a double). */
export function readNumber(t: ElemType, data: NumericData, i: number): number {
  const v = data[i] ?? 0;
  if (t === DT.FLOAT16) return halfBitsToFloat(v as number);
  if (t === DT.BFLOAT16) return bf16BitsToFloat(v as number);
  return typeof v === 'bigint' ? Number(v) : v;
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** Writes a JS number into element `i`, converting as ONNX Cast does (truncation toward zero for ints). */
export function writeNumber(t: ElemType, data: NumericData, i: number, v: number): void {
  switch (t) {
    case DT.FLOAT16:
      (data as Uint16Array)[i] = floatToHalf(v);
      return;
    case DT.BFLOAT16:
      (data as Uint16Array)[i] = floatToBfloat16(v);
      return;
    case DT.BOOL:
      (data as Uint8Array)[i] = v !== 0 ? 1 : 0;
      return;
    case DT.INT64: {
      if (Number.isNaN(v)) {
        (data as BigInt64Array)[i] = 0n;
        return;
      }
      let b = v >= 9.2e18 ? INT64_MAX : v <= -9.2e18 ? INT64_MIN : BigInt(Math.trunc(v));
      if (b > INT64_MAX) b = INT64_MAX;
      if (b < INT64_MIN) b = INT64_MIN;
      (data as BigInt64Array)[i] = b;
      return;
    }
    case DT.UINT64:
      (data as BigUint64Array)[i] = v <= 0 || Number.isNaN(v) ? 0n : v >= 1.8e19 ? 2n ** 64n - 1n : BigInt(Math.trunc(v));
      return;
    case DT.FLOAT:
    case DT.DOUBLE:
      (data as Float32Array)[i] = v;
      return;
    default:
      (data as Int32Array)[i] = Number.isFinite(v) ? Math.trunc(v) : 0;
  }
}
