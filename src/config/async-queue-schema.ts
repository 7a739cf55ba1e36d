import { z } from 'zod';

/**
 * The async inference queue (docs/scaling.md "Async inference queue"): requests published to a broker are
 * consumed by every replica as a work queue, answered on a results stream (and the request's reply subject), with
 * explicit acks, redelivery when a replica dies, and idempotency keys so that no request is answered twice.
 */
export const asyncQueueConfigSchema = z.strictObject({
  /** `nats`: NATS JetStream; `off`: no queue consumer. The transport is one interface (queue-transport.ts). */
  transport: z.enum(['off', 'nats']).default('off'),
  natsUrl: z.string().min(1).default('nats://127.0.0.1:4222'),
  /** Subjects `<prefix>.requests.<model>` and `<prefix>.results.<key>`; streams `<PREFIX>_REQUESTS`, `<PREFIX>_RESULTS`. */
  subjectPrefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default('rtserve'),
  /** Requests this replica works on at once (unacknowledged); it fetches no more until one is done. */
  maxInFlight: z.coerce.number().int().min(1).default(16),
  /** A request not acknowledged within this time (its replica died or hangs) is redelivered to another. */
  ackWaitMs: z.coerce.number().int().min(100).default(30000),
  /** Deliveries of one request before it is answered with an error instead of retried again. */
  maxDeliveries: z.coerce.number().int().min(1).default(5),
  /** How long answers stay in the results stream (a client may come back for its answer by key). */
  resultsTtlMs: z.coerce.number().int().min(1000).default(600000),
  /** Window in which a second publish with the same key (request or answer) is dropped by the broker. */
  duplicateWindowMs: z.coerce.number().int().min(1000).default(120000),
});

export type AsyncQueueConfig = z.infer<typeof asyncQueueConfigSchema>;
