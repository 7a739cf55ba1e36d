/**
 * The `classification` postprocess: an activation over a model's class scores, then the top-k classes with their
 * labels (the output's label_filename). Triton's classification extension (src/codec/classification.ts)
 * answers "value:index:label" strings for any output; this one answers probabilities as JSON for the image routes.
 */
export type Activation = 'softmax' | 'sigmoid' | 'none';

export interface ClassScore {
  readonly index: number;
  readonly label?: string;
  readonly score: number;
}

export interface ClassifyOptions {
  readonly activation: Activation;
  readonly topK: number;
  readonly labels?: readonly string[] | undefined;
}

/** Softmax with the maximum subtracted first, so large logits do not overflow exp. */
export function softmax(values: ArrayLike<number>): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) max = Math.max(max, values[i] as number);
  const out = new Float64Array(values.length);
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const e = Math.exp((values[i] as number) - max);
    out[i] = e;
    sum += e;
  }
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / sum;
  return out;
}

export function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/** The `topK` best classes of one item's scores, best first; ties keep the lower index first; NaN ranks last. */
export function classify(values: ArrayLike<number>, options: ClassifyOptions): ClassScore[] {
  const probs: ArrayLike<number> =
    options.activation === 'softmax'
      ? softmax(values)
      : options.activation === 'sigmoid'
        ? Float64Array.from(values as ArrayLike<number>, sigmoid)
        : values;
  return topIndices(probs, Math.max(0, options.topK)).map((index) => {
    const label = options.labels?.[index];
    return { index, ...(label === undefined ? {} : { label }), score: probs[index] as number };
  });
}

/** Above this k a full sort is cheaper than keeping the k best in order while scanning. */
const SELECT_MAX_K = 64;

/**
 * The indexes of the `k` largest values, largest first; equal values keep the lower index first; NaN ranks below
 * everything. One pass keeping the k best in order (a served classifier asks for a handful of its 1,000 classes, so
 * this is ~1,000 comparisons where sorting every index was ~10,000 calls of a comparator).
 */
export function topIndices(values: ArrayLike<number>, k: number): number[] {
  const key = (i: number): number => {
    const v = values[i] as number;
    return v !== v ? Number.NEGATIVE_INFINITY : v;
  };
  const n = values.length;
  if (k > SELECT_MAX_K) {
    const order = Array.from({ length: n }, (_, i) => i);
    order.sort((a, b) => key(b) - key(a) || a - b);
    return order.slice(0, k);
  }
  const best: number[] = [];
  const bestKey: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = key(i);
    // Scanned in index order, so a value equal to a kept one ranks after it.
    if (best.length === k && !(v > (bestKey[k - 1] as number))) continue;
    let at = best.length === k ? k - 1 : best.length;
    while (at > 0 && v > (bestKey[at - 1] as number)) {
      best[at] = best[at - 1] as number;
      bestKey[at] = bestKey[at - 1] as number;
      at--;
    }
    best[at] = i;
    bestKey[at] = v;
  }
  return best;
}
