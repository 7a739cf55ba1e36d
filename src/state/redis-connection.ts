import { Redis } from 'ioredis';

export interface RedisConnectionOptions {
  readonly url: string;
  /** A command slower than this fails. */
  readonly timeoutMs: number;
  /** Called on connection errors (ioredis reconnects by itself). */
  readonly onError?: (err: Error) => void;
}

/**
 * A Redis connection for shared state: connects now (a wrong URL fails at startup, not at the first resume),
 * then reconnects on its own. Commands issued while it is away wait in ioredis' offline queue up to timeoutMs.
 */
export async function connectRedis(options: RedisConnectionOptions): Promise<Redis> {
  const redis = new Redis(options.url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    commandTimeout: options.timeoutMs,
    connectTimeout: Math.max(1000, options.timeoutMs * 4),
    retryStrategy: (times: number) => Math.min(100 * times, 2000),
  });
  redis.on('error', (err: Error) => options.onError?.(err));
  await redis.connect();
  return redis;
}

/** Closes a connection politely, or at once when Redis does not answer. */
export async function closeRedis(redis: Redis): Promise<void> {
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}
