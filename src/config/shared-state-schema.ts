import { z } from 'zod';

/**
 * Where state that a client may come back for lives (docs/scaling.md): `memory` keeps it in this process (one
 * replica, or replicas with sticky sessions); `redis` shares it between replicas, so a client whose replica went
 * away resumes on another one: SSE streams by Last-Event-ID and WebSocket sessions' streaming requests by `resume`
 * (their events and the request, re-run by the replica that takes over), and WebSocket tickets. Rate-limit buckets have their own store setting (`rateLimit.store`).
 */
export const sharedStateConfigSchema = z.strictObject({
  store: z.enum(['memory', 'redis']).default('memory'),
  redisUrl: z.string().min(1).default('redis://127.0.0.1:6379'),
  /** Prefix of every key, so several deployments can share one Redis. */
  keyPrefix: z.string().default('rtserve:state:'),
  /** A Redis command slower than this fails. */
  timeoutMs: z.coerce.number().int().min(1).default(1000),
  /**
   * How long a replica's claim on a running stream lasts without renewal (it renews a third of the way through):
   * after a replica dies, a resume waits at most this long before another replica takes the stream over.
   */
  streamLeaseMs: z.coerce.number().int().min(100).default(3000),
});

export type SharedStateConfig = z.infer<typeof sharedStateConfigSchema>;
