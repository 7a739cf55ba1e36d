import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { BucketSpec, BucketStore, TakeOutcome } from './bucket-store.ts';

/**
 * Token buckets in Redis, shared by every replica that points at the same Redis: one Lua script per request
 * refills and takes from all of the request's buckets atomically (Redis runs a script without interleaving other
 * commands), using the Redis server's clock (TIME) so that replicas with skewed clocks agree. Each bucket is a
 * hash {t: tokens, ts: ms} that expires once it would be full again.
 */
const TAKE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local n = #KEYS
local tokens = {}
local wait = 0
local idx = -1
for i = 1, n do
  local rate = tonumber(ARGV[2 * i - 1]) / 1000
  local burst = tonumber(ARGV[2 * i])
  local v = redis.call('HMGET', KEYS[i], 't', 'ts')
  local tk = tonumber(v[1])
  local ts = tonumber(v[2])
  if tk == nil or ts == nil then
    tk = burst
    ts = now
  end
  local elapsed = now - ts
  if elapsed < 0 then elapsed = 0 end
  tk = math.min(burst, tk + elapsed * rate)
  tokens[i] = tk
  if tk < 1 then
    local w = math.ceil((1 - tk) / rate)
    if w > wait then
      wait = w
      idx = i - 1
    end
  end
end
if idx >= 0 then
  return {wait, idx}
end
for i = 1, n do
  local rate = tonumber(ARGV[2 * i - 1]) / 1000
  local burst = tonumber(ARGV[2 * i])
  redis.call('HSET', KEYS[i], 't', tostring(tokens[i] - 1), 'ts', tostring(now))
  redis.call('PEXPIRE', KEYS[i], math.ceil(burst / rate) + 1000)
end
return {0, -1}
`;
const TAKE_SHA = createHash('sha1').update(TAKE_SCRIPT).digest('hex');

export interface RedisBucketStoreOptions {
  readonly url: string;
  readonly keyPrefix: string;
  /** A command slower than this fails (and the caller's fail-open policy decides). */
  readonly timeoutMs: number;
  /** Called on connection errors (ioredis reconnects by itself). */
  readonly onError?: (err: Error) => void;
}

export class RedisBucketStore implements BucketStore {
  private readonly redis: Redis;

  private constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.redis = redis;
  }

  /** Connects (waiting up to timeoutMs × 4 for the first connection; afterwards ioredis reconnects on its own). */
  static async connect(options: RedisBucketStoreOptions): Promise<RedisBucketStore> {
    const redis = new Redis(options.url, {
      lazyConnect: true,
      // Fail fast instead of queueing commands while Redis is away: a rate-limit check must not add latency.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.timeoutMs,
      connectTimeout: Math.max(1000, options.timeoutMs * 4),
      retryStrategy: (times: number) => Math.min(100 * times, 2000),
    });
    redis.on('error', (err: Error) => options.onError?.(err));
    const store = new RedisBucketStore(redis, options.keyPrefix);
    try {
      await redis.connect();
    } catch (err) {
      options.onError?.(err as Error);
    }
    return store;
  }

  async take(specs: readonly BucketSpec[]): Promise<TakeOutcome> {
    const keys = specs.map((s) => this.prefix + s.key);
    const args: (string | number)[] = [];
    for (const s of specs) args.push(s.ratePerSec, s.burst);
    let reply: unknown;
    try {
      reply = await this.redis.evalsha(TAKE_SHA, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      reply = await this.redis.eval(TAKE_SCRIPT, keys.length, ...keys, ...args);
    }
    if (!Array.isArray(reply) || typeof reply[0] !== 'number' || typeof reply[1] !== 'number') {
      throw new Error(`unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
    }
    const [waitMs, index] = reply as [number, number];
    return index < 0 ? { ok: true } : { ok: false, retryAfterMs: Math.max(1, waitMs), index };
  }

  async close(): Promise<void> {
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
