import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fuzzParams } from '../../helpers/fuzz.ts';
import { classify, sigmoid, softmax, topIndices } from '../../../src/postprocess/classification.ts';

describe('classification postprocess', () => {
  test('softmax sums to 1, keeps the order and does not overflow on large logits', () => {
    const p = softmax([1, 2, 3]);
    assert.ok(Math.abs(p.reduce((s, v) => s + v, 0) - 1) < 1e-12);
    assert.ok(p[2]! > p[1]! && p[1]! > p[0]!);
    const big = softmax([1000, 1001]);
    assert.ok(Number.isFinite(big[0]!) && Math.abs(big[1]! - 1 / (1 + Math.exp(-1))) < 1e-12);
  });

  test('sigmoid is stable at both ends', () => {
    assert.equal(sigmoid(0), 0.5);
    assert.ok(sigmoid(-1000) >= 0 && sigmoid(-1000) < 1e-300);
    assert.equal(sigmoid(1000), 1);
  });

  test('top-k best first with labels; ties keep the lower index; NaN ranks last', () => {
    const r = classify([0.1, 0.7, Number.NaN, 0.7, 0.2], { activation: 'none', topK: 4, labels: ['a', 'b', 'c', 'd'] });
    assert.deepEqual(
      r.map((c) => c.index),
      [1, 3, 4, 0],
    );
    assert.deepEqual(
      r.map((c) => c.label),
      ['b', 'd', undefined, 'a'],
    );
    assert.equal(r[0]?.score, 0.7);
    assert.equal(classify([1, 2], { activation: 'softmax', topK: 10 }).length, 2);
    const s = classify([0, 2], { activation: 'sigmoid', topK: 1 });
    assert.deepEqual(s, [{ index: 1, score: sigmoid(2) }]);
  });

  test('topIndices equals a full sort (best first, lower index first on ties, NaN last) for every k, both strategies', (t) => {
    const value = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ noNaN: false }), fc.constantFrom(Number.NaN, Infinity, -Infinity));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 120 }), fc.integer({ min: 0, max: 130 }), (values, k) => {
        const key = (i: number): number => (Number.isNaN(values[i]) ? -Infinity : (values[i] as number));
        const sorted = values.map((_, i) => i).sort((a, b) => key(b) - key(a) || a - b);
        assert.deepEqual(topIndices(values, k), sorted.slice(0, k));
      }),
      fuzzParams(t, { numRuns: 500 }),
    );
  });
});
