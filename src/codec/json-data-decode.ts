import { TYPED_ARRAY_OF } from '../tensor/datatype.ts';
import type { BytesArray, DataType, NumericArray, TensorData } from '../tensor/datatype.ts';
import { rtError } from '../errors/registry.ts';
import { floatToBf16Bits, floatToHalfBits } from '../tensor/half.ts';
import { type TensorRole, tensorLabel, formatShape, utf8Encode, describeValue } from './tensor-data.ts';

/**
 * KServe v2 JSON `data` → typed arrays (docs/protocol.md §2.2: row-major, nested or flat), with every element
 * checked against its datatype; errors name the tensor, the element and what was expected.
 */

/** Strings accepted for non-finite floats (JSON has no NaN/Infinity literals); the encoder writes the first three. */
const NON_FINITE: ReadonlyMap<string, number> = new Map([
  ['NaN', NaN],
  ['Infinity', Infinity],
  ['-Infinity', -Infinity],
  ['nan', NaN],
  ['inf', Infinity],
  ['-inf', -Infinity],
  ['+inf', Infinity],
  ['+Infinity', Infinity],
]);

const INT_RANGE: Readonly<Partial<Record<DataType, readonly [number, number]>>> = {
  INT8: [-128, 127],
  UINT8: [0, 255],
  INT16: [-32768, 32767],
  UINT16: [0, 65535],
  INT32: [-2147483648, 2147483647],
  UINT32: [0, 4294967295],
};

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;
const DECIMAL_INTEGER = /^-?\d{1,20}$/;

/**
 * Flattens row-major nested `data` (docs/protocol.md §2.2: "may be nested or flat") into one array. Flat data is
 * returned as is; nesting deeper than the tensor's rank is refused so that a hostile body cannot recurse
 * without bound.
 */
function flattenData(what: string, data: unknown, shape: readonly number[]): readonly unknown[] {
  if (!Array.isArray(data)) throw rtError('BAD_DATA', `${what}: data must be an array, got ${describeValue(data)}`);
  let nested = false;
  for (let i = 0; i < data.length; i++) {
    if (Array.isArray(data[i])) {
      nested = true;
      break;
    }
  }
  if (!nested) return data;
  const maxDepth = Math.max(shape.length, 1);
  const out: unknown[] = [];
  const walk = (level: readonly unknown[], depth: number): void => {
    if (depth > maxDepth) {
      throw rtError('BAD_DATA', `${what}: data is nested deeper than shape ${formatShape(shape)} (rank ${shape.length}) allows`);
    }
    for (const v of level) {
      if (Array.isArray(v)) walk(v, depth + 1);
      else out.push(v);
    }
  };
  walk(data, 1);
  return out;
}

function elementError(what: string, index: number, expected: string, datatype: DataType, got: unknown): never {
  throw rtError('BAD_DATA', `${what}: element ${index} must be ${expected} for ${datatype}, got ${describeValue(got)}`);
}

function toFloat(what: string, datatype: DataType, index: number, v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const special = NON_FINITE.get(v);
    if (special !== undefined) return special;
  }
  return elementError(what, index, 'a number', datatype, v);
}

function fillFloat(what: string, datatype: DataType, src: readonly unknown[], out: Float32Array | Float64Array): void {
  for (let i = 0; i < src.length; i++) {
    const v = src[i];
    out[i] = typeof v === 'number' ? v : toFloat(what, datatype, i, v);
  }
}

function fillInt(what: string, datatype: DataType, src: readonly unknown[], out: NumericArray & ArrayLike<number>): void {
  const range = INT_RANGE[datatype]!;
  const [min, max] = range;
  const writable = out as unknown as { [i: number]: number };
  for (let i = 0; i < src.length; i++) {
    const v = src[i];
    if (typeof v !== 'number' || !Number.isInteger(v)) elementError(what, i, 'an integer', datatype, v);
    if (v < min || v > max) {
      throw rtError('BAD_DATA', `${what}: element ${i} value ${v} is out of range for ${datatype} [${min}, ${max}]`);
    }
    writable[i] = v;
  }
}

function fillBigInt(what: string, datatype: 'INT64' | 'UINT64', src: readonly unknown[], out: BigInt64Array | BigUint64Array): void {
  const min = datatype === 'INT64' ? INT64_MIN : 0n;
  const max = datatype === 'INT64' ? INT64_MAX : UINT64_MAX;
  for (let i = 0; i < src.length; i++) {
    const v = src[i];
    let big: bigint;
    if (typeof v === 'number') {
      if (!Number.isInteger(v)) elementError(what, i, 'an integer', datatype, v);
      if (!Number.isSafeInteger(v)) {
        throw rtError(
          'BAD_DATA',
          `${what}: element ${i} value ${v} is beyond ±2^53 and may have lost precision in JSON; send ${datatype} values this large as decimal strings or as binary data`,
        );
      }
      big = BigInt(v);
    } else if (typeof v === 'string' && DECIMAL_INTEGER.test(v)) {
      big = BigInt(v);
    } else {
      return elementError(what, i, 'an integer or a decimal string', datatype, v);
    }
    if (big < min || big > max) {
      throw rtError('BAD_DATA', `${what}: element ${i} value ${big} is out of range for ${datatype} [${min}, ${max}]`);
    }
    out[i] = big;
  }
}

function fillBool(what: string, src: readonly unknown[], out: Uint8Array): void {
  for (let i = 0; i < src.length; i++) {
    const v = src[i];
    if (v === true) out[i] = 1;
    else if (v !== false) elementError(what, i, 'a boolean', 'BOOL', v);
  }
}

function fillHalf(what: string, datatype: 'FP16' | 'BF16', src: readonly unknown[], out: Uint16Array): void {
  const convert = datatype === 'FP16' ? floatToHalfBits : floatToBf16Bits;
  for (let i = 0; i < src.length; i++) {
    const v = src[i];
    out[i] = convert(typeof v === 'number' ? v : toFloat(what, datatype, i, v));
  }
}

function fillBytes(what: string, src: readonly unknown[]): BytesArray {
  const out = new Array<Uint8Array>(src.length);
  for (let i = 0; i < src.length; i++) {
    const v = src[i];
    if (typeof v !== 'string') elementError(what, i, 'a string', 'BYTES', v);
    out[i] = utf8Encode(v);
  }
  return out;
}

/**
 * Converts a JSON `data` value to tensor data of `datatype` with `count` elements. Numbers for numeric types
 * (integers in range for integer types), booleans for BOOL, strings for BYTES (UTF-8 encoded), and for
 * INT64/UINT64 also decimal strings (JSON numbers lose precision past 2^53). FP16/BF16 take numbers and are
 * rounded to nearest-even. NaN and ±Infinity may be written as the strings "NaN", "Infinity", "-Infinity".
 */
export function jsonToTensorData(
  role: TensorRole,
  name: string,
  datatype: DataType,
  shape: readonly number[],
  count: number,
  data: unknown,
): TensorData {
  const what = tensorLabel(role, name);
  const flat = flattenData(what, data, shape);
  if (flat.length !== count) {
    throw rtError('BAD_DATA', `${what}: shape ${formatShape(shape)} needs ${count} elements, data has ${flat.length}`);
  }
  switch (datatype) {
    case 'BYTES':
      return fillBytes(what, flat);
    case 'BOOL': {
      const out = new Uint8Array(count);
      fillBool(what, flat, out);
      return out;
    }
    case 'FP32': {
      const out = new Float32Array(count);
      fillFloat(what, datatype, flat, out);
      return out;
    }
    case 'FP64': {
      const out = new Float64Array(count);
      fillFloat(what, datatype, flat, out);
      return out;
    }
    case 'FP16':
    case 'BF16': {
      const out = new Uint16Array(count);
      fillHalf(what, datatype, flat, out);
      return out;
    }
    case 'INT64': {
      const out = new BigInt64Array(count);
      fillBigInt(what, datatype, flat, out);
      return out;
    }
    case 'UINT64': {
      const out = new BigUint64Array(count);
      fillBigInt(what, datatype, flat, out);
      return out;
    }
    default: {
      const out = new TYPED_ARRAY_OF[datatype](count) as NumericArray & ArrayLike<number>;
      fillInt(what, datatype, flat, out);
      return out;
    }
  }
}
