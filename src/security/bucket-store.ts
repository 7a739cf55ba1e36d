/**
 * Token buckets (rate r per second, capacity b): a bucket refills continuously up to b, each request takes one
 * token, and a request that finds less than one token is refused with the time until one is there. A request
 * subject to several buckets (principal, client IP, model) takes from all of them or from none, so a refused
 * request never uses up another limit.
 */
export interface BucketSpec {
  /** Names the bucket (already namespaced by kind: principal, ip, model). */
  readonly key: string;
  readonly ratePerSec: number;
  readonly burst: number;
}

export type TakeOutcome =
  | { readonly ok: true }
  /** `index` names the bucket (in the spec array) that needs the longest wait. */
  | { readonly ok: false; readonly retryAfterMs: number; readonly index: number };

export interface BucketStore {
  take(buckets: readonly BucketSpec[]): Promise<TakeOutcome>;
  close(): Promise<void>;
}

interface Bucket {
  tokens: number;
  lastMs: number;
}

/** Buckets kept in memory are bounded: full buckets are dropped first (a full bucket is the same as none). */
const MAX_MEMORY_BUCKETS = 100_000;

/** One replica's buckets, in memory. `now` is injectable for unit tests. */
export class MemoryBucketStore implements BucketStore {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  take(specs: readonly BucketSpec[]): Promise<TakeOutcome> {
    return Promise.resolve(this.takeSync(specs));
  }

  takeSync(specs: readonly BucketSpec[]): TakeOutcome {
    const now = this.now();
    let waitMs = 0;
    let index = -1;
    // First pass: refill and find whether every bucket has a token.
    for (let i = 0; i < specs.length; i++) {
      const s = specs[i]!;
      let b = this.buckets.get(s.key);
      if (b === undefined) {
        if (this.buckets.size >= MAX_MEMORY_BUCKETS) this.evict(now, s);
        b = { tokens: s.burst, lastMs: now };
        this.buckets.set(s.key, b);
      } else {
        b.tokens = Math.min(s.burst, b.tokens + ((now - b.lastMs) * s.ratePerSec) / 1000);
        b.lastMs = now;
      }
      if (b.tokens < 1) {
        const w = Math.ceil(((1 - b.tokens) * 1000) / s.ratePerSec);
        if (w > waitMs) {
          waitMs = w;
          index = i;
        }
      }
    }
    if (index >= 0) return { ok: false, retryAfterMs: waitMs, index };
    for (const s of specs) this.buckets.get(s.key)!.tokens -= 1;
    return { ok: true };
  }

  get size(): number {
    return this.buckets.size;
  }

  private evict(now: number, spec: BucketSpec): void {
    // Buckets that have refilled completely carry no information. Rates differ per bucket, so use the
    // incoming spec's rate as the estimate; then fall back to dropping the oldest inserted.
    for (const [k, b] of this.buckets) {
      if (b.tokens + ((now - b.lastMs) * spec.ratePerSec) / 1000 >= spec.burst) this.buckets.delete(k);
    }
    while (this.buckets.size >= MAX_MEMORY_BUCKETS) {
      const oldest = this.buckets.keys().next().value;
      if (oldest === undefined) break;
      this.buckets.delete(oldest);
    }
  }

  close(): Promise<void> {
    this.buckets.clear();
    return Promise.resolve();
  }
}
