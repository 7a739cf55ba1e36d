import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../observability/logger.ts';
import { RedisTicketStore } from '../security/redis-ticket-store.ts';
import type { TicketStore } from '../security/ws-tickets.ts';
import type { SharedStateConfig } from '../config/shared-state-schema.ts';
import { closeRedis, connectRedis } from './redis-connection.ts';
import { RedisStreamJournal } from './redis-stream-journal.ts';
import type { StreamJournal } from './stream-journal.ts';

/**
 * The state replicas share (docs/scaling.md), composed once per server from `sharedState`. With the memory
 * store nothing is shared: tickets and replay buffers stay in this process (the front ends' own defaults).
 */
export interface SharedState {
  /** This process among the replicas (stream leases name it). */
  readonly replicaId: string;
  /** WebSocket tickets; undefined = this process's memory. */
  readonly tickets?: TicketStore;
  /** Stream journal (SSE streams, WebSocket streaming requests); undefined = resume only on the replica that holds the stream. */
  readonly journal?: StreamJournal;
  close(): Promise<void>;
}

export interface SharedStateOptions {
  readonly ticketTtlMs: number;
  /** How long a stream stays resumable after its last event (the resume window). */
  readonly resumeWindowMs: number;
  readonly logger?: Logger;
}

export async function createSharedState(config: SharedStateConfig, options: SharedStateOptions): Promise<SharedState> {
  const replicaId = randomUUID();
  if (config.store === 'memory') return { replicaId, close: () => Promise.resolve() };
  let lastError = 0;
  const redis: Redis = await connectRedis({
    url: config.redisUrl,
    timeoutMs: config.timeoutMs,
    onError: (err) => {
      // One line per 10 s at most while Redis is away (ioredis retries on its own).
      if (Date.now() - lastError < 10_000) return;
      lastError = Date.now();
      options.logger?.warn({ err: err.message }, 'shared state: Redis connection error');
    },
  });
  const journal = new RedisStreamJournal(redis, config.keyPrefix, {
    leaseMs: config.streamLeaseMs,
    windowMs: Math.max(1, options.resumeWindowMs),
    timeoutMs: config.timeoutMs,
  });
  return {
    replicaId,
    tickets: new RedisTicketStore(redis, `${config.keyPrefix}ticket:`, options.ticketTtlMs),
    ...(options.resumeWindowMs > 0 ? { journal } : {}),
    close: () => closeRedis(redis),
  };
}
