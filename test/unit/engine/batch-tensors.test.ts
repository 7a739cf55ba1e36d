import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DATA_TYPES, TYPED_ARRAY_OF } from '../../../src/tensor/datatype.ts';
import type { DataType, NumericArray, TensorData } from '../../../src/tensor/datatype.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { batchKey, concatBatch, planBatch, splitBatch } from '../../../src/engine/batch-tensors.ts';

/** Deterministic distinct data for a tensor: element i of request r is r * 100 + i (as the dtype allows). */
function makeData(dt: DataType, count: number, seed: number): TensorData {
  if (dt === 'BYTES') {
    return Array.from({ length: count }, (_, i) => new TextEncoder().encode(`r${seed}-e${i}`));
  }
  const Ctor = TYPED_ARRAY_OF[dt];
  const out = new Ctor(count);
  for (let i = 0; i < count; i++) {
    const v = (seed * 7 + i) % 100;
    if (out instanceof BigInt64Array || out instanceof BigUint64Array) out[i] = BigInt(v);
    else out[i] = dt === 'BOOL' ? v % 2 : v;
  }
  return out;
}

function plain(data: TensorData): unknown[] {
  if (Array.isArray(data)) return data.map((b) => Array.from(b));
  return Array.from(data as ArrayLike<number | bigint>, (v) => (typeof v === 'bigint' ? v.toString() : v));
}

describe('concatBatch / splitBatch', () => {
  for (const dt of DATA_TYPES) {
    test(`${dt}: concatenates along dim 0 and splits back into the same per-request tensors`, () => {
      const rowsPerRequest = [1, 3, 2];
      const rest = [2, 3];
      const rowElems = 6;
      const requests: Tensor[][] = rowsPerRequest.map((rows, r) => [
        { name: 'in', datatype: dt, shape: [rows, ...rest], data: makeData(dt, rows * rowElems, r + 1) },
      ]);
      const [batched] = concatBatch(requests);
      assert.ok(batched !== undefined);
      assert.deepEqual(batched.shape, [6, 2, 3]);
      assert.equal(batched.datatype, dt);
      assert.equal(batched.data.length, 36);
      assert.deepEqual(
        plain(batched.data),
        requests.flatMap((inputs) => plain((inputs[0] as Tensor).data)),
      );
      if (dt !== 'BYTES') {
        // One fresh buffer for the batch, of exactly the batch's size, of the dtype's array type.
        assert.ok(batched.data instanceof TYPED_ARRAY_OF[dt]);
        const buf = (batched.data as NumericArray).buffer;
        assert.equal((batched.data as NumericArray).byteLength, buf.byteLength);
        for (const inputs of requests) assert.notEqual((inputs[0]?.data as NumericArray).buffer, buf);
      }

      // The engine answers with a tensor of the same layout; split it back.
      const parts = splitBatch([{ ...batched, name: 'out' }], rowsPerRequest);
      assert.equal(parts.length, 3);
      parts.forEach((outs, r) => {
        const [t] = outs;
        assert.ok(t !== undefined);
        assert.equal(t.name, 'out');
        assert.equal(t.datatype, dt);
        assert.deepEqual(t.shape, [rowsPerRequest[r], ...rest]);
        assert.deepEqual(plain(t.data), plain((requests[r]?.[0] as Tensor).data));
        if (dt !== 'BYTES') {
          // Views into the batch output: no copy.
          assert.equal((t.data as NumericArray).buffer, (batched.data as NumericArray).buffer);
        }
      });
    });
  }

  test('the batch does not alias request buffers: changing a request input after concat leaves the batch alone', () => {
    const a = new Float32Array([1, 2]);
    const [batched] = concatBatch([
      [{ name: 'x', datatype: 'FP32', shape: [1, 2], data: a }],
      [{ name: 'x', datatype: 'FP32', shape: [1, 2], data: new Float32Array([3, 4]) }],
    ]);
    a[0] = 99;
    assert.deepEqual(Array.from(batched?.data as Float32Array), [1, 2, 3, 4]);
  });

  test('inputs are matched by name and follow the first request order; offset views are copied correctly', () => {
    const backing = new Float32Array([0, 0, 5, 6, 0]);
    const view = backing.subarray(2, 4); // non-zero byteOffset
    const batch = concatBatch([
      [
        { name: 'a', datatype: 'FP32', shape: [1, 2], data: new Float32Array([1, 2]) },
        { name: 'b', datatype: 'INT32', shape: [1], data: new Int32Array([7]) },
      ],
      [
        { name: 'b', datatype: 'INT32', shape: [1], data: new Int32Array([8]) },
        { name: 'a', datatype: 'FP32', shape: [1, 2], data: view },
      ],
    ]);
    assert.deepEqual(
      batch.map((t) => [t.name, t.shape, Array.from(t.data as ArrayLike<number>)]),
      [
        ['a', [2, 2], [1, 2, 5, 6]],
        ['b', [2], [7, 8]],
      ],
    );
  });

  test('multiple outputs split per request, each with its own rows', () => {
    const outs = splitBatch(
      [
        { name: 'y', datatype: 'FP32', shape: [3, 2], data: new Float32Array([1, 2, 3, 4, 5, 6]) },
        { name: 'n', datatype: 'INT64', shape: [3], data: new BigInt64Array([10n, 20n, 30n]) },
      ],
      [2, 1],
    );
    assert.deepEqual(
      outs.map((ts) => ts.map((t) => [t.name, t.shape, plain(t.data)])),
      [
        [
          ['y', [2, 2], [1, 2, 3, 4]],
          ['n', [2], ['10', '20']],
        ],
        [
          ['y', [1, 2], [5, 6]],
          ['n', [1], ['30']],
        ],
      ],
    );
  });

  test('an output whose dim 0 is not the batch size is an ENGINE_FAILED error naming it', () => {
    assert.throws(
      () => splitBatch([{ name: 'y', datatype: 'FP32', shape: [2, 2], data: new Float32Array(4) }], [2, 1]),
      (e: unknown) => e instanceof RtError && e.code === 'ENGINE_FAILED' && /'y'/.test(e.message),
    );
    assert.throws(
      () => splitBatch([{ name: 'y', datatype: 'FP32', shape: [3, 2], data: new Float32Array(5) }], [2, 1]),
      (e: unknown) => e instanceof RtError && e.code === 'ENGINE_FAILED',
    );
  });

  test('data that does not match its shape or dtype is refused, not silently mangled', () => {
    assert.throws(
      () =>
        concatBatch([
          [{ name: 'x', datatype: 'FP32', shape: [1, 3], data: new Float32Array(2) }],
          [{ name: 'x', datatype: 'FP32', shape: [1, 3], data: new Float32Array(3) }],
        ]),
      (e: unknown) => e instanceof RtError && e.code === 'BAD_DATA',
    );
    assert.throws(
      () =>
        concatBatch([
          [{ name: 'x', datatype: 'INT64', shape: [1], data: new BigInt64Array(1) }],
          [{ name: 'x', datatype: 'INT64', shape: [1], data: new Float32Array(1) }],
        ]),
      (e: unknown) => e instanceof RtError && e.code === 'BAD_DATA',
    );
  });
});

describe('batchKey', () => {
  const t = (name: string, datatype: DataType, shape: number[]): Tensor => ({
    name,
    datatype,
    shape,
    data: new Float32Array(0),
  });

  test('ignores dim 0 and input order', () => {
    assert.equal(batchKey([t('a', 'FP32', [1, 3, 4]), t('b', 'INT32', [1])]), batchKey([t('b', 'INT32', [5]), t('a', 'FP32', [5, 3, 4])]));
  });

  test('differs for another non-batch dim, dtype, input set or rank', () => {
    const base = batchKey([t('a', 'FP32', [1, 3, 4])]);
    assert.notEqual(base, batchKey([t('a', 'FP32', [1, 4, 3])]));
    assert.notEqual(base, batchKey([t('a', 'FP16', [1, 3, 4])]));
    assert.notEqual(base, batchKey([t('a', 'FP32', [1, 3, 4]), t('b', 'FP32', [1])]));
    assert.notEqual(base, batchKey([t('c', 'FP32', [1, 3, 4])]));
    assert.notEqual(base, batchKey([t('a', 'FP32', [1, 34])]));
    assert.notEqual(batchKey([t('a', 'FP32', [1, 3])]), batchKey([t('a', 'FP32', [1, 3, 1])]));
  });
});

describe('planBatch', () => {
  test('says how to join without copying: the joined shape and each request tensor itself, in input order', () => {
    const r0: Tensor[] = [
      { name: 'b', datatype: 'INT32', shape: [1, 2], data: Int32Array.of(1, 2) },
      { name: 'a', datatype: 'FP32', shape: [1, 3], data: Float32Array.of(0, 1, 2) },
    ];
    const r1: Tensor[] = [
      { name: 'a', datatype: 'FP32', shape: [2, 3], data: new Float32Array(6) },
      { name: 'b', datatype: 'INT32', shape: [2, 2], data: new Int32Array(4) },
    ];
    const plan = planBatch([r0, r1]);
    assert.deepEqual(
      plan.map((p) => [p.name, p.datatype, p.shape]),
      [
        ['b', 'INT32', [3, 2]],
        ['a', 'FP32', [3, 3]],
      ],
    );
    assert.equal(plan[0]?.parts[0], r0[0]);
    assert.equal(plan[0]?.parts[1], r1[1]);
    assert.equal(plan[1]?.parts[1]?.data, r1[0]?.data, 'the data itself, not a copy');
  });

  test('refuses what cannot be joined, naming the input', () => {
    const ok: Tensor = { name: 'x', datatype: 'FP32', shape: [1, 2], data: new Float32Array(2) };
    assert.throws(
      () => planBatch([[ok], [{ ...ok, datatype: 'INT32', data: new Int32Array(2) }]]),
      (e: unknown) => e instanceof RtError && /input 'x': INT32 cannot be batched with FP32/.test(e.message),
    );
    assert.throws(
      () => planBatch([[ok], [{ ...ok, data: new Float32Array(3) }]]),
      (e: unknown) => e instanceof RtError && /input 'x' has 3 elements, but its shape \[1,2\] needs 2/.test(e.message),
    );
    assert.throws(
      () => planBatch([[ok], [{ ...ok, data: new Float64Array(2) }]]),
      (e: unknown) => e instanceof RtError && /input 'x' data does not hold FP32 elements/.test(e.message),
    );
  });
});
