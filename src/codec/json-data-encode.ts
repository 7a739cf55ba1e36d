import type { BytesArray, DataType, TensorData } from '../tensor/datatype.ts';
import { rtError } from '../errors/registry.ts';
import { bf16ArrayToFloat32, halfArrayToFloat32 } from '../tensor/half.ts';
import { type TensorRole, tensorLabel, utf8Decoder, MAX_SAFE_BIG, MIN_SAFE_BIG, assertNumeric, dataKind } from './tensor-data.ts';

/**
 * Typed arrays → KServe v2 JSON `data` text (docs/protocol.md §2.2), written directly as text: non-finite floats
 * as strings, 64-bit integers exact, BYTES as UTF-8 strings (or base64-free raw text where valid).
 */

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
      throw rtError(
        'UNSUPPORTED',
        `${what}: BYTES element ${i} is not valid UTF-8 and cannot be written as a JSON string; use binary data for this tensor (parameters.binary_data: true)`,
        { cause: err },
      );
    }
    parts[i] = JSON.stringify(text);
  }
  return `[${parts.join(',')}]`;
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
