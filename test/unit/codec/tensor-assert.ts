import assert from 'node:assert/strict';
import type { DataType, TensorData } from '../../../src/tensor/datatype.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import { RtError } from '../../../src/errors/registry.ts';
import type { ErrorCode } from '../../../src/errors/registry.ts';

/** Element-wise equality that treats NaN as equal to NaN and tells -0 from 0. */
export function assertDataEqual(actual: TensorData, expected: TensorData, label = 'data'): void {
  assert.equal(actual.length, expected.length, `${label}: length`);
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${label}: expected BYTES elements`);
    for (let i = 0; i < expected.length; i++) {
      assert.deepEqual([...actual[i]!], [...expected[i]!], `${label}: element ${i}`);
    }
    return;
  }
  assert.ok(!Array.isArray(actual), `${label}: expected a typed array`);
  assert.equal(actual.constructor, expected.constructor, `${label}: array type`);
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i];
    const e = expected[i];
    assert.ok(Object.is(a, e), `${label}: element ${i} is ${String(a)}, expected ${String(e)}`);
  }
}

export function assertTensorEqual(actual: Tensor | undefined, expected: Tensor): void {
  assert.ok(actual !== undefined, `tensor '${expected.name}' is missing`);
  assert.equal(actual.name, expected.name);
  assert.equal(actual.datatype, expected.datatype, `tensor '${expected.name}' datatype`);
  assert.deepEqual([...actual.shape], [...expected.shape], `tensor '${expected.name}' shape`);
  assertDataEqual(actual.data, expected.data, `tensor '${expected.name}'`);
}

/** Asserts that `fn` throws an RtError with `code` whose message contains every fragment. */
export function assertRtError(fn: () => unknown, code: ErrorCode, ...fragments: string[]): RtError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof RtError, `expected an RtError ${code}, got ${String(caught)}`);
  assert.equal(caught.code, code, `code of: ${caught.message}`);
  for (const f of fragments) assert.ok(caught.message.includes(f), `message ${JSON.stringify(caught.message)} should include ${JSON.stringify(f)}`);
  return caught;
}

export const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** One sample tensor per datatype, with edge values. */
export function sampleTensors(): Tensor[] {
  const t = (name: string, datatype: DataType, shape: number[], data: TensorData): Tensor => ({ name, datatype, shape, data });
  return [
    t('bool', 'BOOL', [2, 2], new Uint8Array([1, 0, 0, 1])),
    t('u8', 'UINT8', [4], new Uint8Array([0, 255, 7, 128])),
    t('i8', 'INT8', [4], new Int8Array([-128, 127, 0, -1])),
    t('u16', 'UINT16', [3], new Uint16Array([0, 65535, 300])),
    t('i16', 'INT16', [3], new Int16Array([-32768, 32767, -5])),
    t('u32', 'UINT32', [3], new Uint32Array([0, 4294967295, 12345])),
    t('i32', 'INT32', [1, 3], new Int32Array([-2147483648, 2147483647, 0])),
    t('u64', 'UINT64', [4], new BigUint64Array([0n, 2n ** 64n - 1n, 2n ** 53n + 1n, 5n])),
    t('i64', 'INT64', [4], new BigInt64Array([-(2n ** 63n), 2n ** 63n - 1n, -5n, 9007199254740993n])),
    t('f16', 'FP16', [5], new Uint16Array([0x3c00, 0xc000, 0x7bff, 0x0001, 0x7c00])),
    t('f32', 'FP32', [2, 3], new Float32Array([1.5, -0, NaN, Infinity, 3.4e38, 1e-45])),
    t('f64', 'FP64', [5], new Float64Array([Math.PI, -1e300, 5e-324, -0, -Infinity])),
    t('bf16', 'BF16', [5], new Uint16Array([0x3f80, 0xc000, 0x7f80, 0x0001, 0x8000])),
    t('str', 'BYTES', [4], [enc('hello'), enc(''), enc('héllo wörld ✓ 🎉'), new Uint8Array([0x41, 0x00, 0x42])]),
    t('scalar', 'FP32', [], new Float32Array([2.25])),
    t('empty', 'INT32', [0, 3], new Int32Array(0)),
  ];
}
