/**
 * The async inference queue's worker (docs/scaling.md): with `asyncQueue.transport` set, the process that holds
 * the core consumes the broker's work queue through the same API as the front ends: the single process, or the
 * engine owner of `--workers N` (it consumes from the broker, not from the ports, so it needs no front end).
 */
import type { ServerConfig } from '../config/server-config.ts';
import type { InferenceApi } from '../api/inference-api.ts';
import type { Logger } from '../observability/logger.ts';
import { startQueueWorker, type QueueWorker } from '../queue/queue-worker.ts';

/**
 * Connects to the configured broker and starts consuming; undefined when the queue is off. The NATS client is
 * loaded only then: a server without the queue never imports it.
 */
export async function startAsyncQueue(
  config: Readonly<ServerConfig>,
  api: InferenceApi,
  replicaId: string,
  logger: Logger,
): Promise<QueueWorker | undefined> {
  if (config.asyncQueue.transport !== 'nats') return undefined;
  const q = config.asyncQueue;
  return startQueueWorker({
    api,
    transport: await (await import('../queue/nats-transport.ts')).NatsQueueTransport.connect(q),
    maxInFlight: q.maxInFlight,
    ackWaitMs: q.ackWaitMs,
    maxDeliveries: q.maxDeliveries,
    replicaId,
    logger,
  });
}
