import type { LatencySummary, WindowResult } from './types.ts';

/** Latency samples in microseconds, kept in a growable Float64Array (no per-sample allocation on the hot path). */
export class LatencySamples {
  private data = new Float64Array(1024);
  private size = 0;

  get length(): number {
    return this.size;
  }

  push(us: number): void {
    if (this.size === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.size++] = us;
  }

  append(other: LatencySamples): void {
    for (const v of other.values()) this.push(v);
  }

  values(): Float64Array {
    return this.data.subarray(0, this.size);
  }

  static merge(parts: readonly LatencySamples[]): LatencySamples {
    const out = new LatencySamples();
    let total = 0;
    for (const p of parts) total += p.size;
    out.data = new Float64Array(Math.max(1024, total));
    for (const p of parts) {
      out.data.set(p.values(), out.size);
      out.size += p.size;
    }
    return out;
  }
}

/**
 * The pth percentile of sorted samples, as perf_analyzer picks it: index round(p/100 × (n − 1))
 * (perf_analyzer inference_profiler.cc, SummarizeClientStat).
 */
export function percentileOf(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.floor((p / 100) * (sorted.length - 1) + 0.5);
  return sorted[Math.min(sorted.length - 1, Math.max(0, index))] as number;
}

export function summarizeLatency(samples: LatencySamples): LatencySummary {
  const sorted = Float64Array.from(samples.values()).sort();
  const n = sorted.length;
  if (n === 0) {
    return {
      count: 0,
      avgUs: Number.NaN,
      stdUs: Number.NaN,
      minUs: Number.NaN,
      maxUs: Number.NaN,
      p50Us: Number.NaN,
      p90Us: Number.NaN,
      p95Us: Number.NaN,
      p99Us: Number.NaN,
    };
  }
  let sum = 0;
  for (const v of sorted) sum += v;
  const avg = sum / n;
  let sq = 0;
  for (const v of sorted) sq += (v - avg) * (v - avg);
  return {
    count: n,
    avgUs: avg,
    stdUs: Math.sqrt(sq / n),
    minUs: sorted[0] as number,
    maxUs: sorted[n - 1] as number,
    p50Us: percentileOf(sorted, 50),
    p90Us: percentileOf(sorted, 90),
    p95Us: percentileOf(sorted, 95),
    p99Us: percentileOf(sorted, 99),
  };
}

/** The latency a stability check compares: the average, or a percentile when asked (perf_analyzer --percentile). */
export function stabilityLatency(w: WindowResult, percentile: number | undefined): number {
  const l = w.latency;
  switch (percentile) {
    case undefined:
      return l.avgUs;
    case 50:
      return l.p50Us;
    case 90:
      return l.p90Us;
    case 95:
      return l.p95Us;
    case 99:
      return l.p99Us;
    default:
      throw new RangeError(`stability percentile must be 50, 90, 95 or 99, got ${percentile}`);
  }
}

/**
 * perf_analyzer's stability rule (inference_profiler.cc DetermineStability): over the last `windows` windows, every
 * throughput is non-zero, max/min throughput ≤ 1 + pct/100, and max/min latency ≤ 1 + pct/100.
 */
export function isStable(results: readonly WindowResult[], windows: number, stabilityPercent: number, percentile?: number): boolean {
  if (results.length < windows) return false;
  const last = results.slice(results.length - windows);
  const limit = 1 + stabilityPercent / 100;
  const within = (values: number[]): boolean => {
    const min = Math.min(...values);
    const max = Math.max(...values);
    return Number.isFinite(min) && min > 0 && max / min <= limit;
  };
  return within(last.map((w) => w.inferencesPerSec)) && within(last.map((w) => stabilityLatency(w, percentile)));
}
