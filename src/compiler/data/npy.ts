import { rtError } from '../../errors/registry.ts';
import { DT, allocData, elemSize, type ElemType, type NumericData } from '../../tensor/onnx-dtype.ts';
import { numel } from '../ir/tensor.ts';
import type { HostTensor } from '../../plan/runtime.ts';

/**
 * NumPy .npy reader and writer (format spec: numpy/lib/format.py, "NPY format"): magic \x93NUMPY, version,
 * little-endian header length (2 bytes in 1.0, 4 in 2.0/3.0), a Python dict literal with descr, fortran_order
 * and shape, padded so the data starts 64-byte aligned.
 */

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

const DESCR_TO_TYPE: Record<string, ElemType> = {
  f4: DT.FLOAT,
  f8: DT.DOUBLE,
  f2: DT.FLOAT16,
  i1: DT.INT8,
  u1: DT.UINT8,
  i2: DT.INT16,
  u2: DT.UINT16,
  i4: DT.INT32,
  u4: DT.UINT32,
  i8: DT.INT64,
  u8: DT.UINT64,
  b1: DT.BOOL,
};
const TYPE_TO_DESCR: Record<number, string> = Object.fromEntries(Object.entries(DESCR_TO_TYPE).map(([k, v]) => [v, k]));

function bad(name: string, why: string): Error {
  return rtError('BAD_CONFIG', `${name} is not a readable .npy array: ${why}`);
}

/** Parses .npy bytes. `name` is used in error messages. */
export function readNpy(bytes: Uint8Array, name = 'the array'): HostTensor {
  if (bytes.byteLength < 10 || !MAGIC.every((b, i) => bytes[i] === b)) throw bad(name, 'missing the \\x93NUMPY magic');
  const major = bytes[6] ?? 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let headerLen: number;
  let start: number;
  if (major === 1) {
    headerLen = view.getUint16(8, true);
    start = 10;
  } else if (major === 2 || major === 3) {
    if (bytes.byteLength < 12) throw bad(name, 'truncated header');
    headerLen = view.getUint32(8, true);
    start = 12;
  } else {
    throw bad(name, `unknown format version ${major}`);
  }
  if (start + headerLen > bytes.byteLength) throw bad(name, 'truncated header');
  const header = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(start, start + headerLen));
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined)
    throw bad(name, `cannot parse header ${JSON.stringify(header.trim())}`);
  const shape = shapeText
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(Number);
  if (shape.some((d) => !Number.isInteger(d) || d < 0)) throw bad(name, `bad shape (${shapeText})`);
  const order = descr[0] ?? '';
  const code = descr.slice(1);
  const elemType = DESCR_TO_TYPE[code];
  if (elemType === undefined || !['<', '|', '='].includes(order)) {
    throw rtError('UNSUPPORTED', `${name}: dtype '${descr}' is not supported (use little-endian float32/float64/float16 or an integer/bool type)`);
  }
  const count = numel(shape);
  const size = elemSize(elemType);
  const dataStart = start + headerLen;
  if (bytes.byteLength - dataStart < count * size) {
    throw bad(
      name,
      `data is truncated: shape (${shape.join(', ')}) of '${descr}' needs ${count * size} bytes, file has ${bytes.byteLength - dataStart}`,
    );
  }
  const data = allocData(elemType, count);
  new Uint8Array(data.buffer, data.byteOffset, data.byteLength).set(bytes.subarray(dataStart, dataStart + count * size));
  if (fortran === 'True' && shape.length > 1) return { elemType, dims: shape, data: fortranToC(data, shape, elemType) };
  return { elemType, dims: shape, data };
}

/** Column-major → row-major copy. */
function fortranToC(src: NumericData, shape: readonly number[], elemType: ElemType): NumericData {
  const out = allocData(elemType, src.length);
  const rank = shape.length;
  const fStrides = new Array<number>(rank).fill(1);
  for (let i = 1; i < rank; i++) fStrides[i] = (fStrides[i - 1] ?? 1) * (shape[i - 1] ?? 1);
  const idx = new Array<number>(rank).fill(0);
  const s = src as unknown as { [i: number]: number | bigint };
  const d = out as unknown as { [i: number]: number | bigint };
  for (let flat = 0; flat < src.length; flat++) {
    let p = 0;
    for (let k = 0; k < rank; k++) p += (idx[k] ?? 0) * (fStrides[k] ?? 0);
    d[flat] = s[p] ?? 0;
    for (let k = rank - 1; k >= 0; k--) {
      idx[k] = (idx[k] ?? 0) + 1;
      if ((idx[k] ?? 0) < (shape[k] ?? 1)) break;
      idx[k] = 0;
    }
  }
  return out;
}

/** Serializes a tensor as .npy version 1.0 (C order, little-endian). */
export function writeNpy(t: HostTensor): Uint8Array {
  const code = TYPE_TO_DESCR[t.elemType];
  if (code === undefined) throw rtError('UNSUPPORTED', `cannot write element type ${t.elemType} to .npy`);
  const descr = `${code === 'i1' || code === 'u1' || code === 'b1' ? '|' : '<'}${code}`;
  const shape = t.dims.length === 1 ? `(${t.dims[0]},)` : `(${t.dims.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const total = 10 + header.length + 1;
  header += `${' '.repeat((64 - (total % 64)) % 64)}\n`;
  const h = new TextEncoder().encode(header);
  const body = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  const out = new Uint8Array(10 + h.byteLength + body.byteLength);
  out.set(MAGIC, 0);
  out[6] = 1;
  out[7] = 0;
  new DataView(out.buffer).setUint16(8, h.byteLength, true);
  out.set(h, 10);
  out.set(body, 10 + h.byteLength);
  return out;
}
