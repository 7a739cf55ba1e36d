import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseCache } from '../../../src/core/response-cache.ts';
import type { InferResponse } from '../../../src/api/types.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';

const t = (name: string, values: number[], shape = [1, values.length]): Tensor => ({ name, datatype: 'FP32', shape, data: new Float32Array(values) });
const resp = (values: number[]): InferResponse => ({ model_name: 'm', model_version: '1', outputs: [t('y', values)] });

describe('ResponseCache', () => {
  const cache = new ResponseCache(1 << 20);
  const key = (
    inputs: Tensor[],
    opts: { version?: string; gen?: number; outputs?: { name: string; parameters?: Record<string, number> }[] } = {},
  ): string => cache.keyOf('m', opts.version ?? '1', opts.gen ?? 1, inputs, opts.outputs);

  test('the key covers inputs by name (order-free), data, shape, datatype, version, load generation and requested outputs', () => {
    const a = t('a', [1, 2]);
    const b = t('b', [3, 4]);
    const base = key([a, b]);
    assert.equal(key([b, a]), base, 'input order does not matter');
    assert.notEqual(key([a, t('b', [3, 5])]), base, 'data');
    assert.notEqual(key([a, t('b', [3, 4], [2, 1])]), base, 'shape');
    assert.notEqual(key([a, { ...b, datatype: 'INT32', data: new Int32Array(new Float32Array([3, 4]).buffer) }]), base, 'datatype, same bytes');
    assert.notEqual(key([a, b], { version: '2' }), base, 'version');
    assert.notEqual(key([a, b], { gen: 2 }), base, 'load generation');
    assert.notEqual(key([a, b], { outputs: [{ name: 'y' }] }), base, 'requested outputs');
    assert.notEqual(
      key([a, b], { outputs: [{ name: 'y', parameters: { classification: 2 } }] }),
      key([a, b], { outputs: [{ name: 'y' }] }),
      'output parameters',
    );
    assert.equal(key([a, b], { outputs: [{ name: 'y' }, { name: 'z' }] }), key([a, b], { outputs: [{ name: 'z' }, { name: 'y' }] }));
    // A view over a larger buffer hashes only its own bytes.
    const big = new Float32Array([9, 1, 2, 9]);
    assert.equal(key([{ ...a, data: big.subarray(1, 3) }, b]), base);
    const bytes = (s: string[]): Tensor => ({ name: 's', datatype: 'BYTES', shape: [s.length], data: s.map((x) => new TextEncoder().encode(x)) });
    assert.notEqual(key([bytes(['ab', 'c'])]), key([bytes(['a', 'bc'])]), 'BYTES element boundaries');
  });

  test('get returns a copy; what the caller does with it never changes the cache', () => {
    const c = new ResponseCache(1 << 20);
    const original = resp([1, 2, 3]);
    c.put('k', original);
    (original.outputs[0]?.data as Float32Array)[0] = 100;
    const first = c.get('k');
    assert.deepEqual(Array.from(first?.outputs[0]?.data as Float32Array), [1, 2, 3]);
    (first?.outputs[0]?.data as Float32Array)[1] = 200;
    assert.deepEqual(Array.from(c.get('k')?.outputs[0]?.data as Float32Array), [1, 2, 3]);
    assert.equal(c.get('missing'), undefined);
  });

  test('bounded by bytes, least recently used evicted first; a get refreshes an entry', () => {
    const one = new ResponseCache(1 << 20);
    one.put('x', resp([1]));
    const entryBytes = one.stats().bytes;
    const c = new ResponseCache(entryBytes * 3);
    c.put('a', resp([1]));
    c.put('b', resp([2]));
    c.put('c', resp([3]));
    assert.equal(c.stats().entries, 3);
    assert.ok(c.get('a') !== undefined); // a is now the most recent: b is the oldest
    c.put('d', resp([4]));
    assert.equal(c.get('b'), undefined);
    assert.ok(c.get('a') !== undefined && c.get('c') !== undefined && c.get('d') !== undefined);
    assert.deepEqual(c.stats(), { bytes: entryBytes * 3, capacityBytes: entryBytes * 3, entries: 3, evictions: 1 });
    // A response larger than the whole cache is not stored and evicts nothing.
    c.put('huge', resp(new Array<number>(entryBytes).fill(1)));
    assert.equal(c.get('huge'), undefined);
    assert.equal(c.stats().entries, 3);
    // Replacing a key does not double-count its bytes.
    c.put('d', resp([5]));
    assert.equal(c.stats().bytes, entryBytes * 3);
    assert.deepEqual(Array.from(c.get('d')?.outputs[0]?.data as Float32Array), [5]);
  });
});
