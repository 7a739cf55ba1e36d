/**
 * The transport-neutral consumer of the async inference queue (docs/scaling.md): each delivered request is a
 * KServe v2 JSON infer request for the subject's model, run through the same InferenceApi as every front end and
 * answered with the same JSON an HTTP client gets (or an error body naming the code). A redelivered request whose
 * answer is already recorded is acknowledged without running; overload (QUEUE_FULL, a model not ready) is not an
 * answer: the request goes back to the queue for another try, up to maxDeliveries.
 */
import type { InferenceApi } from '../api/inference-api.ts';
import { toRtError } from '../errors/registry.ts';
import type { Logger } from '../observability/logger.ts';
import { decodeInferRequestJson, encodeInferResponse, responseOptionsFor, toInferRequest } from '../codec/kserve-json.ts';
import { parseJsonBytes } from '../codec/json-body.ts';
import type { QueueAnswer, QueuedRequest, QueueTransport } from './queue-transport.ts';

export interface QueueWorkerOptions {
  readonly api: InferenceApi;
  readonly transport: QueueTransport;
  readonly maxInFlight: number;
  readonly ackWaitMs: number;
  readonly maxDeliveries: number;
  readonly replicaId: string;
  readonly logger: Logger;
}

export interface QueueWorker {
  /** Stops fetching, lets the requests it holds finish and be acknowledged, then closes the transport. */
  close(): Promise<void>;
}

const encoder = new TextEncoder();
// Requests taken from the queue finish even while the worker stops: a stop only ends fetching.

export function startQueueWorker(options: QueueWorkerOptions): QueueWorker {
  const { api, transport, logger } = options;
  const stop = new AbortController();

  const run = async (req: QueuedRequest): Promise<Omit<QueueAnswer, 'replica'> | 'retry'> => {
    try {
      const decoded = decodeInferRequestJson(parseJsonBytes(req.body, 'the queued request'));
      const response = await api.infer(
        toInferRequest(decoded, { model: req.model, version: req.version, signal: new AbortController().signal, protocol: 'queue' }),
      );
      const encoded = encodeInferResponse(response, { ...responseOptionsFor(decoded), binaryOutputs: 'none' });
      return { body: encoded.json, status: 'ok' };
    } catch (err) {
      const e = toRtError(err);
      if ((e.category === 'RESOURCE_EXHAUSTED' || e.category === 'UNAVAILABLE') && req.deliveries < options.maxDeliveries) return 'retry';
      return { body: encoder.encode(JSON.stringify({ error: e.message, code: e.code })), status: e.code };
    }
  };

  const handle = async (req: QueuedRequest): Promise<void> => {
    try {
      // Answered before (its replica died between recording the answer and the ack, maybe before the reply left):
      // not computed again; the recorded answer goes to the reply subject as a replay.
      const recorded = req.deliveries > 1 ? await transport.recorded(req.key) : undefined;
      if (recorded !== undefined) {
        await transport.replay(req, recorded);
        await req.ack();
        return;
      }
      const keepAlive = setInterval(() => req.working(), Math.max(50, Math.floor(options.ackWaitMs / 3)));
      let outcome: Awaited<ReturnType<typeof run>>;
      try {
        outcome = await run(req);
      } finally {
        clearInterval(keepAlive);
      }
      if (outcome === 'retry') {
        req.nak(1000);
        return;
      }
      const how = await transport.answer(req, { ...outcome, replica: options.replicaId });
      if (how === 'replayed')
        logger.info({ key: req.key }, 'async queue: request already answered by another delivery; its recorded answer was replayed');
      await req.ack();
    } catch (err) {
      // The broker is unreachable or the ack failed: the request is redelivered after ack_wait; the key keeps the
      // answer single.
      logger.warn({ key: req.key, err: err instanceof Error ? err.message : String(err) }, 'async queue: request not acknowledged');
    }
  };

  // The broker stopped delivering a request (maxDeliveries reached, none acknowledged): answer it with an error.
  const giveUp = async (req: QueuedRequest): Promise<void> => {
    try {
      const message = `the request was delivered ${req.deliveries} times (asyncQueue.maxDeliveries) and no replica finished it`;
      const body = encoder.encode(JSON.stringify({ error: message, code: 'QUEUE_MAX_DELIVERIES' }));
      await transport.answer(req, { body, status: 'QUEUE_MAX_DELIVERIES', replica: options.replicaId });
      await req.ack();
      logger.warn(
        { key: req.key, deliveries: req.deliveries },
        'async queue: request given up after its last delivery; answered QUEUE_MAX_DELIVERIES',
      );
    } catch (err) {
      logger.error({ key: req.key, err: err instanceof Error ? err.message : String(err) }, 'async queue: a given-up request could not be answered');
    }
  };

  const logStop = (what: string) => (err: unknown) => {
    logger.error({ err: err instanceof Error ? err.message : String(err) }, `async queue: ${what} stopped`);
  };
  const consuming = transport.consume(options.maxInFlight, handle, stop.signal).catch(logStop('consumer'));
  const watching = transport.exhausted(giveUp, stop.signal).catch(logStop('max-deliveries watcher'));

  return {
    async close() {
      stop.abort();
      await Promise.all([consuming, watching]);
      await transport.close();
    },
  };
}
