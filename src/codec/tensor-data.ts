/**
 * Tensor data conversions shared by the server codec (kserve-json.ts) and the client codec
 * (kserve-client-codec.ts): KServe v2 JSON `data` arrays ↔ typed arrays, Triton's binary tensor data layout ↔
 * typed arrays, and JSON body parsing with positioned error messages.
 *
 * Rules come from docs/protocol.md §2.2 (KServe v2 JSON: `data` row-major, nested or flat; datatype sizes) and §2.3
 * (binary tensor data extension: little-endian, row-major, no padding; BOOL one byte; BYTES elements are a 4-byte
 * little-endian unsigned length followed by the bytes).
 *
 * Every error is an RtError whose message names the tensor ("input 'x'" / "output 'y'") and says what was
 * expected and what came. No Node-only imports: this module runs in browsers too (TextEncoder, DataView).
 */
import { BYTE_SIZE, TYPED_ARRAY_OF, elementCount, viewAs } from '../tensor/datatype.ts';
import type { BytesArray, DataType, NumericArray, TensorData } from '../tensor/datatype.ts';
import { rtError } from '../errors/registry.ts';
import {
  bf16ArrayToFloat32,
  floatToBf16Bits,
  floatToHalfBits,
  halfArrayToFloat32,
} from '../tensor/half.ts';

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
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

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
      throw rtError('BAD_SHAPE', `${what}: shape ${formatShape(raw as number[])} has dimension ${i} = ${d}; every dimension must be given and non-negative`);
    }
    shape[i] = d;
  }
  const count = elementCount(shape);
  if (!Number.isSafeInteger(count)) {
    throw rtError('BAD_SHAPE', `${what}: shape ${formatShape(shape)} has more elements than can be addressed`);
  }
  return { shape, count };
}

// ---------------------------------------------------------------------------------------------------------------
// JSON `data` → typed arrays

/** Strings accepted for non-finite floats (JSON has no NaN/Infinity literals); the encoder writes the first three. */
const NON_FINITE: ReadonlyMap<string, number> = new Map([
  ['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity],
  ['nan', NaN], ['inf', Infinity], ['-inf', -Infinity], ['+inf', Infinity], ['+Infinity', Infinity],
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
const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE_BIG = -MAX_SAFE_BIG;
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
        throw rtError('BAD_DATA', `${what}: element ${i} value ${v} is beyond ±2^53 and may have lost precision in JSON; send ${datatype} values this large as decimal strings or as binary data`);
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
    out[i] = utf8Encoder.encode(v);
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
  role: TensorRole, name: string, datatype: DataType, shape: readonly number[], count: number, data: unknown,
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

// ---------------------------------------------------------------------------------------------------------------
// Typed arrays → JSON `data` text

function floatsToJson(values: Float32Array | Float64Array): string {
  let finite = true;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    // v - v is NaN exactly for NaN and ±Infinity; -0 needs its sign written out (String(-0) is "0").
    if (v - v !== 0 || (v === 0 && 1 / v < 0)) {
      finite = false;
      break;
    }
  }
  // JSON.stringify of a plain array beats TypedArray#join about 1.5× in V8 (numbers print identically).
  if (finite) return JSON.stringify(Array.from(values));
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    // JSON has no NaN/Infinity literals (RFC 8259 §6) and JSON.stringify would write null: use strings the
    // decoder accepts back.
    if (v - v === 0) parts[i] = v === 0 && 1 / v < 0 ? '-0' : String(v);
    else parts[i] = v !== v ? '"NaN"' : v > 0 ? '"Infinity"' : '"-Infinity"';
  }
  return `[${parts.join(',')}]`;
}

function bigIntsToJson(values: BigInt64Array | BigUint64Array): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    // Numbers when every JSON reader can hold them exactly; decimal strings beyond 2^53.
    parts[i] = v <= MAX_SAFE_BIG && v >= MIN_SAFE_BIG ? v.toString() : `"${v.toString()}"`;
  }
  return `[${parts.join(',')}]`;
}

function boolsToJson(values: Uint8Array): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) parts[i] = values[i] === 0 ? 'false' : 'true';
  return `[${parts.join(',')}]`;
}

function bytesToJson(what: string, values: BytesArray): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    let text: string;
    try {
      text = utf8Decoder.decode(values[i]);
    } catch (err) {
      throw rtError('UNSUPPORTED', `${what}: BYTES element ${i} is not valid UTF-8 and cannot be written as a JSON string; use binary data for this tensor (parameters.binary_data: true)`, { cause: err });
    }
    parts[i] = JSON.stringify(text);
  }
  return `[${parts.join(',')}]`;
}

function assertNumeric(what: string, datatype: Exclude<DataType, 'BYTES'>, data: TensorData): NumericArray {
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

/**
 * The JSON text of a flat `data` array for a tensor (docs/protocol.md §2.2). INT64/UINT64 become numbers when within
 * ±2^53 and decimal strings beyond; FP16/BF16 are decoded to numbers; BYTES become UTF-8 strings; non-finite
 * floats become "NaN" / "Infinity" / "-Infinity".
 */
export function tensorDataToJson(role: TensorRole, name: string, datatype: DataType, data: TensorData): string {
  const what = tensorLabel(role, name);
  if (datatype === 'BYTES') {
    if (!Array.isArray(data)) throw rtError('INTERNAL', `${what}: BYTES data must be an array of Uint8Array, got ${dataKind(data)}`);
    return bytesToJson(what, data);
  }
  const values = assertNumeric(what, datatype, data);
  switch (datatype) {
    case 'BOOL':
      return boolsToJson(values as Uint8Array);
    case 'FP32':
    case 'FP64':
      return floatsToJson(values as Float32Array | Float64Array);
    case 'FP16':
      return floatsToJson(halfArrayToFloat32(values as Uint16Array));
    case 'BF16':
      return floatsToJson(bf16ArrayToFloat32(values as Uint16Array));
    case 'INT64':
    case 'UINT64':
      return bigIntsToJson(values as BigInt64Array | BigUint64Array);
    case 'UINT8':
    case 'INT8':
      return `[${(values as Uint8Array).join(',')}]`;
    default:
      return JSON.stringify(Array.from(values as Int32Array));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Binary layout (docs/protocol.md §2.3)

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
    throw rtError('BAD_DATA', `${what}: shape ${formatShape(shape)} needs ${count} BYTES elements (at least ${count * 4} bytes with their 4-byte length prefixes), binary data has ${bytes.byteLength} bytes`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<Uint8Array>(count);
  let offset = 0;
  for (let i = 0; i < count; i++) {
    if (offset + 4 > bytes.byteLength) {
      throw rtError('BAD_DATA', `${what}: binary data ends at byte ${bytes.byteLength} after ${i} BYTES elements; shape ${formatShape(shape)} needs ${count}`);
    }
    const len = view.getUint32(offset, true);
    const start = offset + 4;
    if (start + len > bytes.byteLength) {
      throw rtError('BAD_DATA', `${what}: BYTES element ${i} at byte ${offset} declares length ${len} but only ${bytes.byteLength - start} bytes remain`);
    }
    out[i] = bytes.subarray(start, start + len);
    offset = start + len;
  }
  if (offset !== bytes.byteLength) {
    throw rtError('BAD_DATA', `${what}: ${bytes.byteLength - offset} bytes left over after the ${count} BYTES elements of shape ${formatShape(shape)} (binary data has ${bytes.byteLength} bytes)`);
  }
  return out;
}

/**
 * Tensor data from its binary layout. Numeric tensors are zero-copy typed-array views over `bytes` when the
 * offset is aligned for the element size (tensor/datatype.ts `viewAs`); BYTES elements are views too.
 */
export function binaryToTensorData(
  role: TensorRole, name: string, datatype: DataType, shape: readonly number[], count: number, bytes: Uint8Array,
): TensorData {
  if (datatype === 'BYTES') return deserializeBytes(role, name, shape, count, bytes);
  const expected = count * BYTE_SIZE[datatype];
  if (bytes.byteLength !== expected) {
    throw rtError('BAD_DATA', `${tensorLabel(role, name)}: shape ${formatShape(shape)} of ${datatype} needs ${expected} bytes, binary data has ${bytes.byteLength}`);
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

// ---------------------------------------------------------------------------------------------------------------
// JSON bodies

/**
 * Parses UTF-8 JSON bytes. Errors are BAD_JSON with the character position (and line/column) of the first
 * problem: V8's own messages give a position only for some mistakes, so we find it ourselves.
 */
export function parseJsonBytes(bytes: Uint8Array, what: string): unknown {
  let text: string;
  try {
    text = utf8Decoder.decode(bytes);
  } catch (err) {
    throw rtError('BAD_JSON', `${what} is not valid UTF-8`, { cause: err });
  }
  return parseJsonText(text, what);
}

export function parseJsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const found = findJsonError(text);
    const pos = found?.position ?? text.length;
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < pos && i < text.length; i++) {
      if (text.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    const reason = found?.reason ?? (err instanceof Error ? err.message : 'syntax error');
    throw rtError('BAD_JSON', `${what} is not valid JSON: ${reason} at position ${pos} (line ${line}, column ${pos - lineStart + 1})`, { cause: err });
  }
}

/**
 * A small JSON (RFC 8259) scanner used only after JSON.parse has failed, to report where. Returns the position
 * and a reason for the first error, or undefined when it finds none.
 */
export function findJsonError(text: string): { position: number; reason: string } | undefined {
  let i = 0;
  const n = text.length;
  class Stop {
    readonly position: number;
    readonly reason: string;
    constructor(position: number, reason: string) {
      this.position = position;
      this.reason = reason;
    }
  }
  const fail = (reason: string, at = i): never => {
    throw new Stop(at, reason);
  };
  const unexpected = (): never =>
    i >= n ? fail('unexpected end of input') : fail(`unexpected character ${JSON.stringify(text[i])}`);
  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else unexpected();
  };
  const string = (): void => {
    i++; // opening quote
    for (;;) {
      if (i >= n) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 32) fail('control character in string');
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          i += 2;
        } else {
          fail('bad escape in string');
        }
      } else {
        i++;
      }
    }
  };
  const number = (): void => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m === null || m[0] === '' || m[0] === '-') unexpected();
    else i += m[0].length;
  };
  const value = (depth: number): void => {
    if (depth > 10000) fail('nesting too deep');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(i >= n ? 'unexpected end of input' : 'expected a property name in double quotes');
        string();
        ws();
        if (text[i] !== ':') fail(i >= n ? 'unexpected end of input' : "expected ':' after property name");
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(i >= n ? 'unexpected end of input' : "expected ',' or '}' after property value");
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(i >= n ? 'unexpected end of input' : "expected ',' or ']' after array element");
      }
    } else if (c === '"') {
      string();
    } else if (c === 't') {
      literal('true');
    } else if (c === 'f') {
      literal('false');
    } else if (c === 'n') {
      literal('null');
    } else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      number();
    } else {
      unexpected();
    }
  };
  try {
    value(0);
    ws();
    if (i < n) fail('unexpected content after the JSON value');
    return undefined;
  } catch (err) {
    if (err instanceof Stop) return { position: err.position, reason: err.reason };
    // A RangeError from very deep recursion: report the depth problem without a position we do not know.
    return undefined;
  }
}
