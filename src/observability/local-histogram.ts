/**
 * A Prometheus histogram for the inference hot path, registered in a prom-client Registry and exposed exactly as
 * prom-client's Histogram is (`_bucket` lines with cumulative counts and `le` first, then `+Inf`, `_sum`,
 * `_count`), but observed in plain arrays. prom-client's `observe` builds a label hash, validates the labels and
 * indexes its buckets by their number as an object key on every call (~0.3 µs warm); the served path observes three
 * values per request and two per batch, which showed as several µs of CPU per request in the REST profile
 * (bench/results/hotpath-2026-11-30.md). Here a series is a handle fetched once per label set (per model version),
 * and an observation is a short scan of the bounds and three additions.
 */
import type { Registry } from 'prom-client';

export interface HistogramSeries {
  observe(value: number): void;
}

interface Series extends HistogramSeries {
  readonly labels: Readonly<Record<string, string>>;
  /** Per bucket (not cumulative), then one for values above the last bound. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
  /** Shown once observed (as prom-client shows a series from its first observation on), until a reset. */
  shown: boolean;
}

/** One exposed sample, in the shape prom-client's Histogram answers from `get()` (exemplars are never kept). */
interface Sample {
  readonly labels: Record<string, string | number>;
  readonly value: number;
  readonly metricName: string;
  readonly exemplar: null | undefined;
}

export class LocalHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #bounds: Float64Array;
  readonly #series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    buckets: readonly number[],
    registry: Registry,
  ) {
    this.#bounds = Float64Array.from([...buckets].sort((a, b) => a - b));
    // The registry only reads name, type, get() and reset(); it takes any object that has them.
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  /** The series of one label set (every label name, in any order); the same handle every time. */
  series(labels: Readonly<Record<string, string>>): HistogramSeries {
    const key = this.labelNames.map((n) => labels[n] ?? '').join('\u0000');
    let s = this.#series.get(key);
    if (s === undefined) {
      const bounds = this.#bounds;
      const created: Series = {
        labels: Object.fromEntries(this.labelNames.map((n) => [n, labels[n] ?? ''])),
        counts: new Float64Array(bounds.length + 1),
        sum: 0,
        count: 0,
        shown: false,
        observe(value: number): void {
          if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
          let i = 0;
          while (i < bounds.length && value > (bounds[i] as number)) i++;
          this.counts[i] = (this.counts[i] as number) + 1;
          this.sum += value;
          this.count += 1;
          this.shown = true;
        },
      };
      s = created;
      this.#series.set(key, s);
    }
    return s;
  }

  observe(labels: Readonly<Record<string, string>>, value: number): void {
    this.series(labels).observe(value);
  }

  /** What prom-client's Histogram.get() answers, for Registry.metrics() and getMetricsAsJSON(). */
  async get(): Promise<{ name: string; help: string; type: 'histogram'; values: Sample[]; aggregator: 'sum' }> {
    const values: Sample[] = [];
    const bounds = this.#bounds;
    for (const s of this.#series.values()) {
      if (!s.shown) continue;
      let cumulative = 0;
      for (let i = 0; i < bounds.length; i++) {
        cumulative += s.counts[i] as number;
        values.push({ labels: { le: bounds[i] as number, ...s.labels }, value: cumulative, metricName: `${this.name}_bucket`, exemplar: null });
      }
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${this.name}_bucket`, exemplar: null });
      values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${this.name}_sum`, exemplar: undefined });
      values.push({ labels: { ...s.labels }, value: s.count, metricName: `${this.name}_count`, exemplar: undefined });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** Registry.resetMetrics(): every series back to zero and hidden until observed again (prom-client's reset). */
  reset(): void {
    for (const s of this.#series.values()) {
      s.counts.fill(0);
      s.sum = 0;
      s.count = 0;
      s.shown = false;
    }
  }
}
