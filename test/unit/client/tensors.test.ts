import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RtserveError } from '../../../packages/client/src/errors.ts';
import { InferResult, toTensor, toTensors } from '../../../packages/client/src/tensors.ts';

describe('client tensors', () => {
  test('datatypes are inferred from typed arrays, strings and booleans', () => {
    const cases: [unknown, string][] = [
      [new Float32Array(1), 'FP32'],
      [new Float64Array(1), 'FP64'],
      [new Int8Array(1), 'INT8'],
      [new Int16Array(1), 'INT16'],
      [new Int32Array(1), 'INT32'],
      [new BigInt64Array(1), 'INT64'],
      [new Uint8Array(1), 'UINT8'],
      [new Uint16Array(1), 'UINT16'],
      [new Uint32Array(1), 'UINT32'],
      [new BigUint64Array(1), 'UINT64'],
      [['x'], 'BYTES'],
      [[new Uint8Array(2)], 'BYTES'],
      [[true], 'BOOL'],
    ];
    for (const [data, dt] of cases) {
      assert.equal(toTensor({ name: 't', shape: [1], data: data as Float32Array }).datatype, dt, dt);
    }
  });

  test('strings become UTF-8 bytes, booleans 0/1 bytes; an explicit datatype wins (FP16 as raw bits)', () => {
    const bytes = toTensor({ name: 's', shape: [2], data: ['é', ''] });
    assert.deepEqual(bytes.data, [Uint8Array.of(0xc3, 0xa9), new Uint8Array(0)]);
    assert.deepEqual(toTensor({ name: 'b', shape: [2], data: [true, false] }).data, Uint8Array.of(1, 0));
    const half = toTensor({ name: 'h', shape: [1], data: Uint16Array.of(0x3c00), datatype: 'FP16' });
    assert.equal(half.datatype, 'FP16');
  });

  test('a record of inputs keeps its names and order', () => {
    const t = toTensors({ a: { shape: [1], data: Int32Array.of(1) }, b: { shape: [1], data: Float32Array.of(2) } });
    assert.deepEqual(
      t.map((x) => [x.name, x.datatype]),
      [
        ['a', 'INT32'],
        ['b', 'FP32'],
      ],
    );
  });

  test('mismatches are RtserveErrors naming the input', () => {
    assert.throws(
      () => toTensor({ name: 'x', shape: [2, 2], data: new Float32Array(3) }),
      (e: unknown) => e instanceof RtserveError && e.code === 'BAD_DATA' && /'x'.*\[2,2\].*4.*3/.test(e.message),
    );
    assert.throws(
      () => toTensor({ name: 'y', shape: [1], data: ['a'], datatype: 'FP32' }),
      (e: unknown) => e instanceof RtserveError && /'y'/.test(e.message),
    );
    assert.throws(
      () => toTensor({ name: 'z', shape: [1], data: new Float32Array(1), datatype: 'FP8' as never }),
      (e: unknown) => e instanceof RtserveError && e.code === 'BAD_DATATYPE',
    );
  });

  test('InferResult gives outputs by name, and BYTES as strings', () => {
    const r = new InferResult({
      model_name: 'm',
      model_version: '2',
      id: 'q',
      outputs: [
        { name: 'y', datatype: 'FP32', shape: [1], data: Float32Array.of(0.5) },
        { name: 's', datatype: 'BYTES', shape: [1], data: [new TextEncoder().encode('hi')] },
      ],
    });
    assert.equal(r.modelVersion, '2');
    assert.deepEqual([...(r.data('y') as Float32Array)], [0.5]);
    assert.deepEqual(r.strings('s'), ['hi']);
    assert.throws(
      () => r.output('nope'),
      (e: unknown) => e instanceof RtserveError && e.code === 'UNKNOWN_OUTPUT' && /y, s/.test(e.message),
    );
    assert.throws(
      () => r.strings('y'),
      (e: unknown) => e instanceof RtserveError && e.code === 'BAD_DATATYPE',
    );
  });
});
