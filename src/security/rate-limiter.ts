import { type RtError, rtError } from '../errors/registry.ts';
import type { Logger } from '../observability/logger.ts';
import type { BucketConfig, RateLimitConfig } from '../config/security-schema.ts';
import { MemoryBucketStore, type BucketSpec, type BucketStore } from './bucket-store.ts';
import { MemoryConcurrencyStore, type ConcurrencyStore } from './concurrency-store.ts';
import { modelMatches, type Principal } from './principal.ts';
import { RedisBucketStore } from './redis-bucket-store.ts';

export type RateLimitOutcome = { readonly ok: true } | { readonly ok: false; readonly retryAfterMs: number; readonly limit: string };

/** Length-prefixed so that ids and model names containing ':' cannot collide with other keys. */
function part(s: string): string {
  return `${s.length}:${s}`;
}

/**
 * Rate limits and the per-principal concurrency cap (docs/security.md "Rate limits"). Token buckets per principal,
 * per client IP and per (principal, model) live in a BucketStore (memory, or Redis to share them across
 * replicas); the concurrency cap counts this replica's unfinished requests (in a ConcurrencyStore: this process's
 * memory, or the engine owner's for the front-end workers of `--workers N`).
 */
export class RateLimiter {
  private readonly modelRules: readonly [string, BucketConfig][];
  private lastStoreErrorLogMs = -Infinity;

  private constructor(
    private readonly config: RateLimitConfig,
    private readonly store: BucketStore,
    private readonly logger: Logger | undefined,
    /** The concurrency cap's counts. */
    readonly concurrency: ConcurrencyStore,
  ) {
    // Exact names win over patterns; then longer prefixes over shorter ones.
    this.modelRules = Object.entries(config.perModel).sort(([a], [b]) => rank(b) - rank(a));
  }

  static async create(config: RateLimitConfig, logger?: Logger, store?: BucketStore, concurrency?: ConcurrencyStore): Promise<RateLimiter> {
    let s = store;
    if (s === undefined) {
      if (config.store === 'redis') {
        let lastLogMs = -Infinity;
        s = await RedisBucketStore.connect({
          url: config.redisUrl,
          keyPrefix: config.redisKeyPrefix,
          timeoutMs: config.redisTimeoutMs,
          onError: (err) => {
            // ioredis reports every reconnect attempt; one line per 10 s is enough.
            const now = performance.now();
            if (now - lastLogMs < 10_000) return;
            lastLogMs = now;
            logger?.warn({ err: err.message, url: redactUrl(config.redisUrl) }, 'rate limit store (redis) error');
          },
        });
      } else {
        s = new MemoryBucketStore();
      }
    }
    return new RateLimiter(config, s, logger, concurrency ?? new MemoryConcurrencyStore());
  }

  /** The buckets a request is subject to, in order: principal, IP, (principal, model). */
  bucketsFor(principal: Principal, ip: string | undefined, model: string | undefined): BucketSpec[] {
    const out: BucketSpec[] = [];
    const c = this.config;
    if (c.perPrincipal !== undefined) out.push({ key: `p:${part(principal.id)}`, ...c.perPrincipal });
    if (c.perIp !== undefined && ip !== undefined) out.push({ key: `ip:${ip}`, ...c.perIp });
    if (model !== undefined && this.modelRules.length > 0) {
      const rule = this.modelRules.find(([pattern]) => modelMatches(pattern, model));
      if (rule !== undefined) out.push({ key: `pm:${part(principal.id)}${part(model)}`, ...rule[1] });
    }
    return out;
  }

  /** Takes one token from each of the request's buckets, or refuses with the wait until it could. */
  async take(principal: Principal, ip: string | undefined, model?: string): Promise<RateLimitOutcome> {
    const specs = this.bucketsFor(principal, ip, model);
    if (specs.length === 0) return { ok: true };
    let outcome;
    try {
      outcome = await this.store.take(specs);
    } catch (err) {
      const now = performance.now();
      if (now - this.lastStoreErrorLogMs > 10_000) {
        this.lastStoreErrorLogMs = now;
        this.logger?.warn({ err: (err as Error).message, failOpen: this.config.failOpen }, 'rate limit store unavailable');
      }
      if (this.config.failOpen) return { ok: true };
      throw rtError('INTERNAL', 'the rate limit store is unavailable', { cause: err, retryAfterMs: 1000 });
    }
    if (outcome.ok) return outcome;
    const spec = specs[outcome.index];
    return { ok: false, retryAfterMs: outcome.retryAfterMs, limit: spec === undefined ? 'rate limit' : describe(spec.key) };
  }

  /** `take` as a throw: RATE_LIMITED (429 / RESOURCE_EXHAUSTED, with the retry hint) when over a limit. */
  async check(principal: Principal, ip: string | undefined, model?: string): Promise<void> {
    const r = await this.take(principal, ip, model);
    if (!r.ok) throw rateLimited(`${r.limit} exceeded`, r.retryAfterMs);
  }

  /**
   * Counts one unfinished request of `principal`; resolves to the function that ends it (idempotent), or rejects
   * with RATE_LIMITED when the principal is at maxConcurrentPerPrincipal.
   */
  async acquire(principal: Principal): Promise<() => void> {
    const max = this.config.maxConcurrentPerPrincipal;
    if (max === undefined) return noop;
    const id = principal.id;
    const hold = await this.concurrency.acquire(id, max);
    if (!hold.ok) throw rateLimited(`principal '${id}' already has ${hold.count} unfinished requests (limit ${max})`, 100);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      hold.release();
    };
  }

  /** Unfinished requests of `principalId` counted in this process (0 where the counts live elsewhere). */
  inFlightOf(principalId: string): number {
    return this.concurrency instanceof MemoryConcurrencyStore ? this.concurrency.count(principalId) : 0;
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

function noop(): void {}

function rank(pattern: string): number {
  return pattern.endsWith('*') ? pattern.length - 1 : 1_000_000;
}

function describe(key: string): string {
  if (key.startsWith('ip:')) return `rate limit for client ${key.slice(3)}`;
  if (key.startsWith('pm:')) return 'per-model rate limit';
  return 'per-principal rate limit';
}

export function rateLimited(message: string, retryAfterMs: number): RtError {
  return rtError('RATE_LIMITED', `${message}; retry after ${retryAfterMs} ms`, { retryAfterMs });
}

function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
