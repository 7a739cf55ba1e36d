/**
 * Picking the next token from a row of logits: repetition penalty, then greedy argmax, or temperature, top-k,
 * top-p and a draw from a seeded PRNG. Runs on the event loop: a row is `vocab_size` floats (257 for charlm), so
 * this is microseconds, far below one engine step.
 */
import { rtError } from '../errors/registry.ts';
import type { SamplingOptions } from './types.ts';
import { mulberry32 } from '../util/random.ts';

export interface NormalizedSampling {
  readonly greedy: boolean;
  readonly temperature: number;
  readonly topK: number;
  readonly topP: number;
  readonly repetitionPenalty: number;
  readonly seed: number;
}

function check(ok: boolean, name: string, expected: string, got: unknown): void {
  if (!ok) throw rtError('BAD_PARAMETER', `'${name}' must be ${expected}, got ${JSON.stringify(got)}`);
}

/** Validates and fills in defaults; throws BAD_PARAMETER naming the field. */
export function normalizeSampling(o: SamplingOptions, randomSeed: () => number): NormalizedSampling {
  const temperature = o.temperature ?? 1;
  check(Number.isFinite(temperature) && temperature >= 0 && temperature <= 100, 'temperature', 'a number in [0, 100]', o.temperature);
  const topK = o.topK ?? 0;
  check(Number.isInteger(topK) && topK >= 0, 'top_k', 'an integer >= 0 (0 = off)', o.topK);
  const topP = o.topP ?? 1;
  check(Number.isFinite(topP) && topP > 0 && topP <= 1, 'top_p', 'a number in (0, 1]', o.topP);
  const repetitionPenalty = o.repetitionPenalty ?? 1;
  check(
    Number.isFinite(repetitionPenalty) && repetitionPenalty > 0 && repetitionPenalty <= 100,
    'repetition_penalty',
    'a number in (0, 100]',
    o.repetitionPenalty,
  );
  const seed = o.seed ?? randomSeed();
  check(Number.isSafeInteger(seed), 'seed', 'an integer', o.seed);
  return { greedy: o.greedy === true || temperature === 0, temperature, topK, topP, repetitionPenalty, seed };
}

export { mulberry32 };

/** Index of the largest value; the lowest index wins ties, so greedy decoding is deterministic. */
export function argmax(row: ArrayLike<number>): number {
  let best = 0;
  let bestValue = -Infinity;
  for (let i = 0; i < row.length; i++) {
    const v = row[i] as number;
    if (v > bestValue) {
      bestValue = v;
      best = i;
    }
  }
  return best;
}

/** One sequence's sampler: its options, its PRNG and the tokens it has seen (for the repetition penalty). */
export class Sampler {
  private readonly rng: () => number;
  private readonly seen: Uint8Array;
  private readonly scratch: Float32Array;
  private readonly order: number[];
  private readonly probs: Float64Array;

  constructor(
    readonly options: NormalizedSampling,
    vocabSize: number,
    history: readonly number[],
  ) {
    // Mix the seed's high bits in: mulberry32 takes 32 bits and seeds are any safe integer.
    this.rng = mulberry32((options.seed ^ Math.floor(options.seed / 4294967296)) >>> 0);
    this.seen = new Uint8Array(vocabSize);
    this.scratch = new Float32Array(vocabSize);
    this.order = Array.from({ length: vocabSize }, (_, i) => i);
    this.probs = new Float64Array(vocabSize);
    for (const t of history) this.note(t);
  }

  /** Records a token as seen (prompt tokens at construction, then every sampled token). */
  note(token: number): void {
    if (token >= 0 && token < this.seen.length) this.seen[token] = 1;
  }

  /** Picks the next token from one row of logits (`vocab_size` values); the row is not modified. */
  next(logits: Float32Array): number {
    const o = this.options;
    const x = this.scratch;
    x.set(logits.subarray(0, x.length));
    if (o.repetitionPenalty !== 1) {
      // CTRL (arXiv:1909.05858) as Hugging Face applies it: divide positive logits, multiply negative ones.
      const p = o.repetitionPenalty;
      for (let i = 0; i < x.length; i++) {
        if (this.seen[i] === 1) {
          const v = x[i] as number;
          x[i] = v > 0 ? v / p : v * p;
        }
      }
    }
    const token = o.greedy ? argmax(x) : this.draw(x);
    this.note(token);
    return token;
  }

  private draw(x: Float32Array): number {
    const o = this.options;
    const invT = 1 / o.temperature;
    const V = x.length;
    let max = -Infinity;
    for (let i = 0; i < V; i++) max = Math.max(max, (x[i] as number) * invT);
    const idx = this.order;
    let n: number;
    if (o.topK > 0 || o.topP < 1) {
      // Only tokens within e^-16 (~1e-7) of the most likely one can matter for top-k / top-p, and a peaked model
      // has few of them: sort those. If they cannot fill k or reach p, sort everything (then the result is exact).
      n = 0;
      const floor = max - 16;
      for (let i = 0; i < V; i++) if ((x[i] as number) * invT >= floor) idx[n++] = i;
      const enough = (): boolean => {
        if (o.topK > 0 && n < o.topK) return false;
        if (o.topP >= 1) return true;
        let total = 0;
        for (let i = 0; i < V; i++) total += Math.exp((x[i] as number) * invT - max);
        let kept = 0;
        for (let j = 0; j < n; j++) kept += Math.exp((x[idx[j] as number] as number) * invT - max);
        return kept >= o.topP * total;
      };
      if (!enough()) {
        n = V;
        for (let i = 0; i < V; i++) idx[i] = i;
      }
      const sorted = idx.slice(0, n).sort((a, b) => (x[b] as number) - (x[a] as number) || a - b);
      for (let j = 0; j < n; j++) idx[j] = sorted[j] as number;
      if (o.topK > 0) n = Math.min(n, o.topK);
    } else {
      n = V;
      for (let i = 0; i < V; i++) idx[i] = i;
    }
    const probs = this.probs;
    let sum = 0;
    for (let j = 0; j < n; j++) {
      const e = Math.exp((x[idx[j] as number] as number) * invT - max);
      probs[j] = e;
      sum += e;
    }
    if (o.topP < 1) {
      // The mass is relative to the whole distribution (or the top-k set when top_k is also given); candidates are
      // sorted by probability: keep the shortest prefix whose mass reaches top_p (at least one token).
      let total = sum;
      if (o.topK === 0 && n < V) {
        total = 0;
        for (let i = 0; i < V; i++) total += Math.exp((x[i] as number) * invT - max);
      }
      let cum = 0;
      let keep = 0;
      while (keep < n) {
        cum += (probs[keep] as number) / total;
        keep++;
        if (cum >= o.topP) break;
      }
      n = keep;
      sum = 0;
      for (let j = 0; j < n; j++) sum += probs[j] as number;
    }
    let r = this.rng() * sum;
    for (let j = 0; j < n; j++) {
      r -= probs[j] as number;
      if (r < 0) return idx[j] as number;
    }
    return idx[n - 1] as number;
  }
}
