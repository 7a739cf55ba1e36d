import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import { classifyOutput } from '../../../src/pipeline/classify-output.ts';
import { assertRtError } from '../codec/tensor-assert.ts';

const strings = (t: Tensor): string[] => (t.data as Uint8Array[]).map((b) => new TextDecoder().decode(b));

describe('classifyOutput (Triton classification extension)', () => {
  test('top-N of an unbatched FP32 output, "%f" values like std::to_string', () => {
    const t: Tensor = { name: 'p', datatype: 'FP32', shape: [5], data: new Float32Array([0.1, 0.5, 0.25, 0.125, 0.025]) };
    const c = classifyOutput(t, { count: 3, batched: false });
    assert.equal(c.name, 'p');
    assert.equal(c.datatype, 'BYTES');
    assert.deepEqual(c.shape, [3]);
    assert.deepEqual(strings(c), ['0.500000:1', '0.250000:2', '0.125000:3']);
  });

  test('per batch item for a batching model, with labels where present', () => {
    const t: Tensor = { name: 'p', datatype: 'FP64', shape: [2, 1, 3], data: new Float64Array([1, 3, 2, 9, 8, 7]) };
    const c = classifyOutput(t, { count: 2, batched: true, labels: ['a', 'b'] });
    assert.deepEqual(c.shape, [2, 2]);
    assert.deepEqual(strings(c), ['3.000000:1:b', '2.000000:2', '9.000000:0:a', '8.000000:1:b']);
  });

  test('N larger than the class count returns every class', () => {
    const t: Tensor = { name: 'p', datatype: 'FP32', shape: [1, 2], data: new Float32Array([0.25, 0.75]) };
    const c = classifyOutput(t, { count: 10, batched: true });
    assert.deepEqual(c.shape, [1, 2]);
    assert.deepEqual(strings(c), ['0.750000:1', '0.250000:0']);
  });

  test('integer, INT64, FP16 and BF16 outputs', () => {
    assert.deepEqual(
      strings(classifyOutput({ name: 'i', datatype: 'INT32', shape: [3], data: new Int32Array([-5, 7, 2]) }, { count: 2, batched: false })),
      ['7:1', '2:2'],
    );
    assert.deepEqual(
      strings(classifyOutput({ name: 'l', datatype: 'INT64', shape: [2], data: new BigInt64Array([2n ** 62n, 1n]) }, { count: 1, batched: false })),
      ['4611686018427387904:0'],
    );
    assert.deepEqual(
      strings(classifyOutput({ name: 'h', datatype: 'FP16', shape: [2], data: new Uint16Array([0x3800, 0x3c00]) }, { count: 1, batched: false })),
      ['1.000000:1'],
    );
    assert.deepEqual(
      strings(classifyOutput({ name: 'b', datatype: 'BF16', shape: [2], data: new Uint16Array([0x4049, 0x3f80]) }, { count: 1, batched: false })),
      ['3.140625:0'],
    );
  });

  test('ties keep the lower index first; NaN ranks last', () => {
    const t: Tensor = { name: 'p', datatype: 'FP32', shape: [4], data: new Float32Array([NaN, 0.5, 0.5, 0.1]) };
    assert.deepEqual(strings(classifyOutput(t, { count: 4, batched: false })), ['0.500000:1', '0.500000:2', '0.100000:3', 'nan:0']);
  });

  test('large outputs take the bounded top-N path and agree with a full sort', () => {
    const values = Float32Array.from({ length: 1000 }, (_, i) => ((i * 7919) % 1000) / 1000);
    const t: Tensor = { name: 'p', datatype: 'FP32', shape: [1000], data: values };
    const expected = [...values.keys()].sort((a, b) => values[b]! - values[a]! || a - b).slice(0, 5);
    const got = strings(classifyOutput(t, { count: 5, batched: false })).map((s) => Number(s.split(':')[1]));
    assert.deepEqual(got, expected);
  });

  test('BYTES and BOOL outputs cannot be classified; the count must be positive', () => {
    assertRtError(
      () => classifyOutput({ name: 's', datatype: 'BYTES', shape: [1], data: [new Uint8Array(1)] }, { count: 1, batched: false }),
      'BAD_PARAMETER',
      "output 's': classification needs a numeric output, got BYTES",
    );
    assertRtError(
      () => classifyOutput({ name: 'b', datatype: 'BOOL', shape: [1], data: new Uint8Array(1) }, { count: 1, batched: false }),
      'BAD_PARAMETER',
      'got BOOL',
    );
    assertRtError(
      () => classifyOutput({ name: 'p', datatype: 'FP32', shape: [1], data: new Float32Array(1) }, { count: 0, batched: false }),
      'BAD_PARAMETER',
      "output 'p': classification must be a positive integer, got 0",
    );
  });
});
