import { openSync, readSync, closeSync } from 'node:fs';
import { isAbsolute, join, normalize } from 'node:path';
import { rtError } from '../../errors/registry.ts';
import type { ITensorProto } from '../../onnx/proto.ts';
import { DT, allocData, elemSize, elemTypeName, readNumber, type ElemType, type NumericData, type TensorData } from '../../tensor/onnx-dtype.ts';
import { toNumber } from './long.ts';

/** A constant tensor (initializer, Constant value, attribute tensor). Data is row-major. */
export interface ConstTensor {
  readonly elemType: ElemType;
  readonly dims: readonly number[];
  readonly data: TensorData;
}

export function numel(dims: readonly number[]): number {
  let n = 1;
  for (const d of dims) n *= d;
  return n;
}

export function isNumeric(t: ConstTensor): t is ConstTensor & { readonly data: NumericData } {
  return !Array.isArray(t.data);
}

/** Copies little-endian bytes into a fresh, aligned array of the element type. */
function fromRaw(elemType: ElemType, raw: Uint8Array, count: number, name: string): NumericData {
  const size = elemSize(elemType);
  if (raw.byteLength !== count * size) {
    throw rtError('BAD_CONFIG', `tensor '${name}': raw data has ${raw.byteLength} bytes, expected ${count} x ${size} for ${elemTypeName(elemType)}`);
  }
  const out = allocData(elemType, count);
  new Uint8Array(out.buffer, out.byteOffset, out.byteLength).set(raw);
  return out;
}

function readExternal(p: ITensorProto, baseDir: string | undefined, name: string): Uint8Array {
  const entries = new Map((p.externalData ?? []).map((e) => [e.key ?? '', e.value ?? '']));
  const location = entries.get('location');
  if (location === undefined || baseDir === undefined) {
    throw rtError('BAD_CONFIG', `tensor '${name}' keeps its data in an external file, but the model was not loaded from a path`);
  }
  // External data must stay beside the model (onnx external_data_helper does the same check).
  if (isAbsolute(location) || normalize(location).startsWith('..')) {
    throw rtError('BAD_CONFIG', `tensor '${name}': external data location '${location}' must be relative to the model directory`);
  }
  const offset = Number(entries.get('offset') ?? '0');
  const count = numel((p.dims ?? []).map(toNumber));
  const length = Number(entries.get('length') ?? String(count * elemSize(p.dataType ?? 0)));
  const buf = new Uint8Array(length);
  const fd = openSync(join(baseDir, location), 'r');
  try {
    const got = readSync(fd, buf, 0, length, offset);
    if (got !== length) throw rtError('BAD_CONFIG', `tensor '${name}': external file '${location}' is too short`);
  } finally {
    closeSync(fd);
  }
  return buf;
}

export function tensorFromProto(p: ITensorProto, baseDir?: string): ConstTensor {
  const name = p.name ?? '';
  const elemType = p.dataType ?? DT.UNDEFINED;
  const dims = (p.dims ?? []).map(toNumber);
  const count = numel(dims);
  if (p.segment != null) throw rtError('UNSUPPORTED', `tensor '${name}' is segmented; segmented tensors are not supported`);
  if (elemType === DT.STRING) {
    const strings = (p.stringData ?? []).map((s) => Uint8Array.from(s));
    return { elemType, dims, data: strings };
  }
  if (elemSize(elemType) === 0) {
    throw rtError('UNSUPPORTED', `tensor '${name}' has element type ${elemTypeName(elemType)}, which the compiler does not support`);
  }
  if (p.dataLocation === 1) return { elemType, dims, data: fromRaw(elemType, readExternal(p, baseDir, name), count, name) };
  if (p.rawData != null && p.rawData.byteLength > 0) return { elemType, dims, data: fromRaw(elemType, p.rawData, count, name) };
  const out = allocData(elemType, count);
  let src: readonly (number | { toString(): string })[];
  switch (elemType) {
    case DT.FLOAT:
      src = p.floatData ?? [];
      break;
    case DT.DOUBLE:
      src = p.doubleData ?? [];
      break;
    case DT.INT64:
      src = p.int64Data ?? [];
      break;
    case DT.UINT32:
    case DT.UINT64:
      src = p.uint64Data ?? [];
      break;
    // int32_data also carries the narrow integer types, bool and the 16-bit float bit patterns (onnx.proto).
    default:
      src = p.int32Data ?? [];
  }
  if (src.length !== count) {
    throw rtError('BAD_CONFIG', `tensor '${name}': has ${src.length} values for shape [${dims.join(',')}] (${count} elements)`);
  }
  for (let i = 0; i < count; i++) {
    const v = src[i] ?? 0;
    if (out instanceof BigInt64Array) out[i] = BigInt.asIntN(64, BigInt(typeof v === 'number' ? v : v.toString()));
    else if (out instanceof BigUint64Array) out[i] = BigInt.asUintN(64, BigInt(typeof v === 'number' ? v : v.toString()));
    else out[i] = typeof v === 'number' ? v : Number(v.toString());
  }
  return { elemType, dims, data: out };
}

/** Serializes a constant as a TensorProto; numeric data always goes to raw_data (little-endian). */
export function tensorToProto(name: string, t: ConstTensor): ITensorProto {
  if (Array.isArray(t.data)) {
    return { name, dims: [...t.dims], dataType: t.elemType, stringData: t.data.map((s) => Uint8Array.from(s)) };
  }
  const d = t.data;
  return { name, dims: [...t.dims], dataType: t.elemType, rawData: new Uint8Array(d.buffer, d.byteOffset, d.byteLength).slice() };
}

/** Byte size of a tensor's data (strings: the sum of their lengths). */
export function tensorBytes(t: ConstTensor): number {
  return Array.isArray(t.data) ? t.data.reduce((s, x) => s + x.byteLength, 0) : t.data.byteLength;
}

export function scalarTensor(elemType: ElemType, value: number | bigint): ConstTensor {
  const data = allocData(elemType, 1);
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) data[0] = BigInt(value);
  else data[0] = Number(value);
  return { elemType, dims: [], data };
}

export function int64Tensor(values: readonly number[], dims: readonly number[] = [values.length]): ConstTensor {
  return { elemType: DT.INT64, dims, data: BigInt64Array.from(values.map((v) => BigInt(v))) };
}

export function floatTensor(values: Float32Array, dims: readonly number[]): ConstTensor {
  return { elemType: DT.FLOAT, dims, data: values };
}

/** The values of an integer tensor as JS numbers (shape vectors, axes, indices). */
export function toIntArray(t: ConstTensor): number[] {
  if (Array.isArray(t.data)) throw new Error('string tensor');
  return Array.from(t.data as ArrayLike<number | bigint>, (v) => Number(v));
}

/** The values of a float/double/half tensor as a Float32Array (a copy when a conversion is needed). */
export function toFloat32(t: ConstTensor): Float32Array {
  if (t.data instanceof Float32Array) return t.data;
  if (Array.isArray(t.data)) throw new Error('string tensor');
  const out = new Float32Array(t.data.length);
  for (let i = 0; i < out.length; i++) out[i] = readAsNumber(t, i);
  return out;
}

function readAsNumber(t: ConstTensor, i: number): number {
  return readNumber(t.elemType, t.data as NumericData, i);
}
