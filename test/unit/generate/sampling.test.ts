import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RtError } from '../../../src/errors/registry.ts';
import { Sampler, argmax, mulberry32, normalizeSampling } from '../../../src/generate/sampling.ts';
import { fuzzParams } from '../../helpers/fuzz.ts';

const fixedSeed = () => 1;
const sampler = (o: Parameters<typeof normalizeSampling>[0], history: number[] = [], vocab = 5) =>
  new Sampler(normalizeSampling(o, fixedSeed), vocab, history);

test('argmax takes the first of equal maxima', () => {
  assert.equal(argmax([1, 3, 3, 2]), 1);
  assert.equal(argmax(new Float32Array([-5, -1, -1])), 1);
});

test('greedy (temperature 0 or greedy: true) picks the argmax and does not modify the logits row', () => {
  const row = new Float32Array([0.1, 2, 0.3, 1.9, -1]);
  assert.equal(sampler({ temperature: 0 }).next(row), 1);
  assert.equal(sampler({ greedy: true, temperature: 1.5 }).next(row), 1);
  assert.deepEqual([...row], [...new Float32Array([0.1, 2, 0.3, 1.9, -1])]);
});

test('repetition penalty divides positive and multiplies negative logits of seen tokens (CTRL)', () => {
  const row = new Float32Array([0, 2, 0, 1.9, -1]);
  // token 1 seen in the prompt: 2 / 1.2 = 1.67 < 1.9, so token 3 wins
  assert.equal(sampler({ temperature: 0, repetitionPenalty: 1.2 }, [1]).next(row), 3);
  // each sampled token becomes seen: the next pick avoids it too
  const s = sampler({ temperature: 0, repetitionPenalty: 3 }, []);
  assert.equal(s.next(row), 1);
  assert.equal(s.next(row), 3);
  // negative logits get more negative: -1 * 3 = -3 < 0
  const neg = new Float32Array([-1, -0.5, -2, -3, -4]);
  assert.equal(sampler({ temperature: 0, repetitionPenalty: 3 }, [1]).next(neg), 0);
});

test('top_k = 1 and a tiny top_p are greedy whatever the temperature', () => {
  const row = new Float32Array([0.5, 0.4, 3, 0.1, 0.2]);
  for (let seed = 0; seed < 50; seed++) {
    assert.equal(new Sampler(normalizeSampling({ temperature: 5, topK: 1, seed }, fixedSeed), 5, []).next(row), 2);
    assert.equal(new Sampler(normalizeSampling({ temperature: 1, topP: 1e-6, seed }, fixedSeed), 5, []).next(row), 2);
  }
});

test('top_k keeps only the k most likely tokens; top_p the smallest nucleus', () => {
  const row = new Float32Array([3, 2.9, 2.8, -10, -10]);
  const seen = new Set<number>();
  const s = new Sampler(normalizeSampling({ temperature: 1, topK: 2, seed: 9 }, fixedSeed), 5, []);
  for (let i = 0; i < 300; i++) seen.add(s.next(row));
  assert.deepEqual([...seen].sort(), [0, 1]);
  // probabilities ~ [0.37, 0.33, 0.30, 0, 0]: top_p 0.5 keeps tokens 0 and 1
  const seenP = new Set<number>();
  const sp = new Sampler(normalizeSampling({ temperature: 1, topP: 0.5, seed: 3 }, fixedSeed), 5, []);
  for (let i = 0; i < 300; i++) seenP.add(sp.next(row));
  assert.deepEqual([...seenP].sort(), [0, 1]);
});

test('sampling follows softmax(logits / T) and a seed makes it reproducible', () => {
  const logits = new Float32Array([Math.log(0.5), Math.log(0.3), Math.log(0.2)]);
  const draw = (seed: number, n: number, T = 1) => {
    const s = new Sampler(normalizeSampling({ temperature: T, seed }, fixedSeed), 3, []);
    return Array.from({ length: n }, () => s.next(logits));
  };
  const xs = draw(42, 20000);
  const freq = [0, 1, 2].map((k) => xs.filter((x) => x === k).length / xs.length);
  assert.ok(Math.abs((freq[0] as number) - 0.5) < 0.02 && Math.abs((freq[1] as number) - 0.3) < 0.02, `frequencies ${freq}`);
  assert.deepEqual(draw(7, 200), draw(7, 200));
  assert.notDeepEqual(draw(7, 200), draw(8, 200));
  // temperature 0.25 sharpens: p ∝ p^4 → 0.5^4 / (0.5^4 + 0.3^4 + 0.2^4) ≈ 0.86
  const sharp = draw(5, 20000, 0.25).filter((x) => x === 0).length / 20000;
  assert.ok(Math.abs(sharp - 0.866) < 0.02, `sharpened ${sharp}`);
});

test('invalid sampling options are BAD_PARAMETER naming the field', () => {
  const bad = (o: Parameters<typeof normalizeSampling>[0], field: string) =>
    assert.throws(
      () => normalizeSampling(o, fixedSeed),
      (e: unknown) => e instanceof RtError && e.code === 'BAD_PARAMETER' && e.message.includes(field),
    );
  bad({ temperature: -1 }, 'temperature');
  bad({ topP: 0 }, 'top_p');
  bad({ topP: 1.5 }, 'top_p');
  bad({ topK: 1.5 }, 'top_k');
  bad({ repetitionPenalty: 0 }, 'repetition_penalty');
  bad({ seed: 0.5 }, 'seed');
});

test('mulberry32 is deterministic and in [0, 1)', () => {
  const a = mulberry32(123);
  const b = mulberry32(123);
  const xs = Array.from({ length: 1000 }, () => a());
  assert.deepEqual(
    xs,
    Array.from({ length: 1000 }, () => b()),
  );
  assert.ok(xs.every((x) => x >= 0 && x < 1));
});

test('property: top-k / top-p draws equal a reference that sorts the whole vocabulary', async (t) => {
  const fc = (await import('fast-check')).default;
  /** Hugging Face's order: temperature, top-k, then top-p over the renormalized rest; a draw by inverse CDF. */
  const reference = (logits: Float32Array, T: number, topK: number, topP: number, rng: () => number): number => {
    const scaled = Array.from(logits, (v) => v / T);
    const max = Math.max(...scaled);
    // Without top-k / top-p there is nothing to sort: the draw walks the vocabulary in id order.
    let order = scaled.map((_, i) => i);
    if (topK > 0 || topP < 1) order.sort((a, b) => (scaled[b] as number) - (scaled[a] as number) || a - b);
    if (topK > 0) order = order.slice(0, topK);
    let probs = order.map((i) => Math.exp((scaled[i] as number) - max));
    const total = probs.reduce((a, b) => a + b, 0);
    if (topP < 1) {
      let cum = 0;
      let keep = 0;
      while (keep < probs.length) {
        cum += (probs[keep] as number) / total;
        keep++;
        if (cum >= topP) break;
      }
      order = order.slice(0, keep);
      probs = probs.slice(0, keep);
    }
    let r = rng() * probs.reduce((a, b) => a + b, 0);
    for (let j = 0; j < order.length; j++) {
      r -= probs[j] as number;
      if (r < 0) return order[j] as number;
    }
    return order.at(-1) as number;
  };
  fc.assert(
    fc.property(
      fc.array(fc.float({ min: -30, max: 30, noNaN: true }), { minLength: 2, maxLength: 40 }),
      fc.constantFrom(0.3, 0.8, 1, 2),
      fc.constantFrom(0, 1, 3, 10),
      fc.constantFrom(1, 0.95, 0.5, 0.1),
      fc.integer({ min: 0, max: 1000 }),
      (values, T, topK, topP, seed) => {
        const logits = Float32Array.from(values);
        const s = new Sampler(normalizeSampling({ temperature: T, topK, topP, seed }, fixedSeed), logits.length, []);
        const rng = mulberry32(seed);
        for (let i = 0; i < 20; i++) assert.equal(s.next(logits), reference(logits, T, topK, topP, rng));
      },
    ),
    fuzzParams(t, { numRuns: 300 }),
  );
});
