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
  const order = Array.from({ length: probs.length }, (_, i) => i);
  const key = (i: number): number => {
    const v = probs[i] as number;
    return v !== v ? -Infinity : v;
  };
  order.sort((a, b) => key(b) - key(a) || a - b);
  return order.slice(0, Math.max(0, options.topK)).map((index) => {
    const label = options.labels?.[index];
    return { index, ...(label === undefined ? {} : { label }), score: probs[index] as number };
  });
}
