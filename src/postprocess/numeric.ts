import type { Tensor } from '../tensor/tensor.ts';
import { rtError } from '../errors/registry.ts';
import { bf16ArrayToFloat32, halfArrayToFloat32 } from '../tensor/half.ts';

/** A numeric output tensor's values as plain numbers (FP16/BF16 decoded, 64-bit integers narrowed). */
export function numericValues(t: Tensor, what: string): ArrayLike<number> {
  const d = t.data;
  if (Array.isArray(d) || t.datatype === 'BYTES' || t.datatype === 'BOOL') {
    throw rtError('BAD_CONFIG', `${what}: output '${t.name}' is ${t.datatype}, a numeric output is needed`);
  }
  if (t.datatype === 'FP16') return halfArrayToFloat32(d as Uint16Array);
  if (t.datatype === 'BF16') return bf16ArrayToFloat32(d as Uint16Array);
  if (d instanceof BigInt64Array || d instanceof BigUint64Array) return Float64Array.from(d, (v) => Number(v));
  return d as Exclude<typeof d, BigInt64Array | BigUint64Array | Uint8Array[]>;
}
