/**
 * ONNX element types (onnx.proto, `TensorProto.DataType`) and their in-memory arrays. FLOAT16 and BFLOAT16 are
 * kept as raw 16-bit patterns in a Uint16Array; BOOL as one byte per element (0/1); STRING as byte strings.
 */
export const DT = {
  UNDEFINED: 0, FLOAT: 1, UINT8: 2, INT8: 3, UINT16: 4, INT16: 5, INT32: 6, INT64: 7, STRING: 8, BOOL: 9,
  FLOAT16: 10, DOUBLE: 11, UINT32: 12, UINT64: 13, COMPLEX64: 14, COMPLEX128: 15, BFLOAT16: 16,
} as const;
export type ElemType = number;

const NAMES: Record<number, string> = {
  0: 'undefined', 1: 'float32', 2: 'uint8', 3: 'int8', 4: 'uint16', 5: 'int16', 6: 'int32', 7: 'int64', 8: 'string',
  9: 'bool', 10: 'float16', 11: 'float64', 12: 'uint32', 13: 'uint64', 14: 'complex64', 15: 'complex128',
  16: 'bfloat16',
};

export function elemTypeName(t: ElemType): string {
  return NAMES[t] ?? `type#${t}`;
}

/** KServe v2 datatype for an ONNX element type (reference §2.2). */
const KSERVE: Record<number, string> = {
  1: 'FP32', 2: 'UINT8', 3: 'INT8', 4: 'UINT16', 5: 'INT16', 6: 'INT32', 7: 'INT64', 8: 'BYTES', 9: 'BOOL', 10: 'FP16',
  11: 'FP64', 12: 'UINT32', 13: 'UINT64', 16: 'BF16',
};
export type KServeDatatype =
  | 'BOOL' | 'UINT8' | 'UINT16' | 'UINT32' | 'UINT64' | 'INT8' | 'INT16' | 'INT32' | 'INT64' | 'FP16' | 'FP32'
  | 'FP64' | 'BYTES' | 'BF16';

export function kserveDatatype(t: ElemType): KServeDatatype | undefined {
  return KSERVE[t] as KServeDatatype | undefined;
}

export type NumericData =
  | Float32Array | Float64Array | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array
  | BigInt64Array | BigUint64Array;
export type TensorData = NumericData | Uint8Array[];

/** Bytes per element, 0 for strings and unsupported types. */
export function elemSize(t: ElemType): number {
  switch (t) {
    case DT.FLOAT: case DT.INT32: case DT.UINT32: return 4;
    case DT.UINT8: case DT.INT8: case DT.BOOL: return 1;
    case DT.UINT16: case DT.INT16: case DT.FLOAT16: case DT.BFLOAT16: return 2;
    case DT.INT64: case DT.UINT64: case DT.DOUBLE: return 8;
    default: return 0;
  }
}

export function isFloatType(t: ElemType): boolean {
  return t === DT.FLOAT || t === DT.FLOAT16 || t === DT.DOUBLE || t === DT.BFLOAT16;
}

/** Allocates a zeroed array for `count` elements of `t`; throws for types the compiler does not compute on. */
export function allocData(t: ElemType, count: number): NumericData {
  switch (t) {
    case DT.FLOAT: return new Float32Array(count);
    case DT.DOUBLE: return new Float64Array(count);
    case DT.INT8: return new Int8Array(count);
    case DT.UINT8: case DT.BOOL: return new Uint8Array(count);
    case DT.INT16: return new Int16Array(count);
    case DT.UINT16: case DT.FLOAT16: case DT.BFLOAT16: return new Uint16Array(count);
    case DT.INT32: return new Int32Array(count);
    case DT.UINT32: return new Uint32Array(count);
    case DT.INT64: return new BigInt64Array(count);
    case DT.UINT64: return new BigUint64Array(count);
    default: throw new Error(`no array type for ONNX element type ${elemTypeName(t)}`);
  }
}

// float32 <-> float16 bit conversion (IEEE 754 binary16), round to nearest even, as numpy does.
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export function floatToHalf(value: number): number {
  f32[0] = value;
  const x = u32[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant !== 0 ? 0x200 : 0); // inf / nan
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // overflow -> inf
  if (e <= 0) {
    if (e < -10) return sign; // underflow -> signed zero
    mant |= 0x800000;
    const shift = 14 - e;
    const halfMant = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    let r = halfMant;
    if (rem > halfway || (rem === halfway && (halfMant & 1) === 1)) r += 1;
    return sign | r;
  }
  let h = sign | (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (h & 1) === 1)) h += 1; // may carry into the exponent: still correct
  return h & 0xffff;
}

export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant === 0 ? sign * Infinity : NaN;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

export function bfloat16ToFloat(h: number): number {
  u32[0] = (h & 0xffff) << 16;
  return f32[0] ?? 0;
}

export function floatToBfloat16(value: number): number {
  f32[0] = value;
  const x = u32[0] ?? 0;
  if ((x & 0x7f800000) === 0x7f800000 && (x & 0x7fffff) !== 0) return 0x7fc0;
  const rounding = 0x7fff + ((x >>> 16) & 1);
  return ((x + rounding) >>> 16) & 0xffff;
}

/** Reads element `i` of a numeric array as a JS number (float16/bfloat16 decoded, int64 as a double). */
export function readNumber(t: ElemType, data: NumericData, i: number): number {
  const v = data[i] ?? 0;
  if (t === DT.FLOAT16) return halfToFloat(v as number);
  if (t === DT.BFLOAT16) return bfloat16ToFloat(v as number);
  return typeof v === 'bigint' ? Number(v) : v;
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** Writes a JS number into element `i`, converting as ONNX Cast does (truncation toward zero for ints). */
export function writeNumber(t: ElemType, data: NumericData, i: number, v: number): void {
  switch (t) {
    case DT.FLOAT16: (data as Uint16Array)[i] = floatToHalf(v); return;
    case DT.BFLOAT16: (data as Uint16Array)[i] = floatToBfloat16(v); return;
    case DT.BOOL: (data as Uint8Array)[i] = v !== 0 ? 1 : 0; return;
    case DT.INT64: {
      if (Number.isNaN(v)) { (data as BigInt64Array)[i] = 0n; return; }
      let b = v >= 9.2e18 ? INT64_MAX : v <= -9.2e18 ? INT64_MIN : BigInt(Math.trunc(v));
      if (b > INT64_MAX) b = INT64_MAX;
      if (b < INT64_MIN) b = INT64_MIN;
      (data as BigInt64Array)[i] = b;
      return;
    }
    case DT.UINT64: (data as BigUint64Array)[i] = v <= 0 || Number.isNaN(v) ? 0n : v >= 1.8e19 ? 2n ** 64n - 1n : BigInt(Math.trunc(v)); return;
    case DT.FLOAT: case DT.DOUBLE: (data as Float32Array)[i] = v; return;
    default: (data as Int32Array)[i] = Number.isFinite(v) ? Math.trunc(v) : 0;
  }
}
