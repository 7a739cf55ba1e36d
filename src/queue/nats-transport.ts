/**
 * The async inference queue on NATS JetStream (docs/scaling.md). Two streams:
 *
 * - `<PREFIX>_REQUESTS` (subjects `<prefix>.requests.<model>`, work-queue retention): one durable pull consumer,
 *   `<prefix>-workers`, shared by every replica, explicit acks, `ack_wait` and `max_deliver`: a message leaves the
 *   stream when a replica acknowledges it, and one not acknowledged in time (its replica died mid-batch) is
 *   delivered again to whichever replica fetches next. Publishers set `Nats-Msg-Id` to their idempotency key, so a
 *   request published twice within the duplicate window is stored once.
 * - `<PREFIX>_RESULTS` (subjects `<prefix>.results.<key>`, kept for resultsTtlMs): every answer is published with
 *   `Nats-Msg-Id` = the request's key, so the broker stores one answer per key however many deliveries computed one;
 *   the publish acknowledgement says whether ours was the first (`duplicate: false`); the reply subject gets the
 *   recorded answer either way (a later one marked `Rtserve-Replay`), so a replica dying between recording an
 *   answer and sending it loses nothing. Clients wait on their reply subject or read the results stream.
 */
import { createHash } from 'node:crypto';
import {
  AckPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type StoredMsg,
} from '@nats-io/jetstream';
import { connect, headers as natsHeaders, nanos, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import type { AsyncQueueConfig } from '../config/async-queue-schema.ts';
import type { QueueAnswer, QueuedRequest, QueueTransport, RecordedAnswer } from './queue-transport.ts';

/** Headers of the queue's messages. */
export const QUEUE_HEADERS = {
  /** The client's idempotency key (else Nats-Msg-Id, else the stream sequence). */
  key: 'Rtserve-Idempotency-Key',
  replyTo: 'Rtserve-Reply-To',
  version: 'Rtserve-Model-Version',
  status: 'Rtserve-Status',
  replica: 'Rtserve-Replica',
  /** Which delivery of the request was answered (1 = the first; more after a replica died or a retry). */
  delivery: 'Rtserve-Delivery',
  /** On a reply: 'true' when it is the answer recorded earlier for the key, sent again (not computed again). */
  replay: 'Rtserve-Replay',
} as const;

export function queueNames(prefix: string): {
  requests: string;
  results: string;
  consumer: string;
  requestSubject: (model: string) => string;
  resultSubject: (key: string) => string;
} {
  const up = prefix.toUpperCase().replace(/-/g, '_');
  return {
    requests: `${up}_REQUESTS`,
    results: `${up}_RESULTS`,
    consumer: `${prefix}-workers`,
    requestSubject: (model) => `${prefix}.requests.${model}`,
    resultSubject: (key) => `${prefix}.results.${subjectToken(key)}`,
  };
}

/** A key as one subject token: itself when it is one already, else its SHA-256 (hex). */
export function subjectToken(key: string): string {
  return /^[A-Za-z0-9_-]{1,128}$/.test(key) ? key : createHash('sha256').update(key).digest('hex');
}

function isNotFound(err: unknown): boolean {
  return err instanceof Error && /not found|no message found|10037|10014/i.test(err.message);
}

export class NatsQueueTransport implements QueueTransport {
  private readonly names: ReturnType<typeof queueNames>;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    prefix: string,
  ) {
    this.names = queueNames(prefix);
  }

  /** Connects and makes sure both streams and the workers' consumer exist (every replica does; it is idempotent). */
  static async connect(config: AsyncQueueConfig): Promise<NatsQueueTransport> {
    const nc = await connect({ servers: config.natsUrl, name: 'rtserve-queue-worker', maxReconnectAttempts: -1 });
    const jsm = await jetstreamManager(nc);
    const names = queueNames(config.subjectPrefix);
    const window = nanos(config.duplicateWindowMs);
    await ensureStream(jsm, {
      name: names.requests,
      subjects: [`${config.subjectPrefix}.requests.>`],
      retention: RetentionPolicy.Workqueue,
      duplicate_window: window,
    });
    await ensureStream(jsm, {
      name: names.results,
      subjects: [`${config.subjectPrefix}.results.>`],
      retention: RetentionPolicy.Limits,
      max_age: nanos(config.resultsTtlMs),
      duplicate_window: nanos(Math.min(config.duplicateWindowMs, config.resultsTtlMs)),
    });
    try {
      await jsm.consumers.info(names.requests, names.consumer);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await jsm.consumers.add(names.requests, {
        durable_name: names.consumer,
        ack_policy: AckPolicy.Explicit,
        ack_wait: nanos(config.ackWaitMs),
        max_deliver: config.maxDeliveries,
        filter_subject: `${config.subjectPrefix}.requests.>`,
      });
    }
    return new NatsQueueTransport(nc, jetstream(nc), jsm, config.subjectPrefix);
  }

  async consume(maxInFlight: number, handle: (request: QueuedRequest) => Promise<void>, signal: AbortSignal): Promise<void> {
    const consumer = await this.js.consumers.get(this.names.requests, this.names.consumer);
    const running = new Set<Promise<void>>();
    let wake: (() => void) | undefined;
    const onAbort = (): void => wake?.();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      while (!signal.aborted) {
        const free = maxInFlight - running.size;
        if (free <= 0) {
          // Backpressure: fetch nothing until a request is done.
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        const batch = await consumer.fetch({ max_messages: free, expires: 1000 });
        for await (const m of batch) {
          const p = handle(this.toRequest(m)).finally(() => {
            running.delete(p);
            wake?.();
          });
          running.add(p);
        }
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      // Requests already taken finish (and are acknowledged) before the transport closes.
      await Promise.allSettled([...running]);
    }
  }

  private toRequest(m: JsMsg): QueuedRequest {
    return {
      ...this.requestFields(m.headers, m.subject, m.seq, m.data),
      deliveries: m.info.deliveryCount,
      ack: async () => {
        await m.ackAck();
      },
      nak: (delayMs) => m.nak(delayMs),
      working: () => m.working(),
    };
  }

  /** What a request message says about itself: its key, model, version, body and reply subject. */
  private requestFields(
    h: MsgHdrs | undefined,
    subject: string,
    seq: number,
    body: Uint8Array,
  ): Pick<QueuedRequest, 'key' | 'model' | 'version' | 'body' | 'replyTo'> {
    return {
      key: h?.get(QUEUE_HEADERS.key) || h?.get('Nats-Msg-Id') || `${this.names.requests}-${seq}`,
      model: subject.slice(subject.indexOf('.requests.') + '.requests.'.length),
      version: h?.get(QUEUE_HEADERS.version) || undefined,
      body,
      replyTo: h?.get(QUEUE_HEADERS.replyTo) || undefined,
    };
  }

  async exhausted(handle: (request: QueuedRequest) => Promise<void>, signal: AbortSignal): Promise<void> {
    // JetStream announces a message that reached max_deliver on an advisory subject; a queue group gives each
    // announcement to one replica. The message stays in the work-queue stream until it is deleted.
    const subject = `$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${this.names.requests}.${this.names.consumer}`;
    const sub = this.nc.subscribe(subject, { queue: `${this.names.consumer}-exhausted` });
    const onAbort = (): void => sub.unsubscribe();
    signal.addEventListener('abort', onAbort, { once: true });
    const running = new Set<Promise<void>>();
    try {
      for await (const m of sub) {
        const advisory = JSON.parse(new TextDecoder().decode(m.data)) as { stream_seq?: number; deliveries?: number };
        const seq = advisory.stream_seq;
        if (typeof seq !== 'number') continue;
        const p = this.storedRequest(seq, advisory.deliveries ?? 0)
          .then((req) => (req === undefined ? undefined : handle(req)))
          .finally(() => running.delete(p));
        running.add(p);
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      await Promise.allSettled([...running]);
    }
  }

  /** A request still in the work-queue stream at `seq`, as a QueuedRequest whose ack deletes it; undefined if gone. */
  private async storedRequest(seq: number, deliveries: number): Promise<QueuedRequest | undefined> {
    const m = await this.storedMessage(this.names.requests, { seq });
    if (m === null) return undefined;
    return {
      ...this.requestFields(m.header, m.subject, seq, m.data),
      deliveries,
      ack: async () => {
        await this.jsm.streams.deleteMessage(this.names.requests, seq, false);
      },
      nak: () => undefined,
      working: () => undefined,
    };
  }

  async recorded(key: string): Promise<RecordedAnswer | undefined> {
    const m = await this.storedMessage(this.names.results, { last_by_subj: this.names.resultSubject(key) });
    return m === null ? undefined : { body: m.data, status: m.header?.get(QUEUE_HEADERS.status) || 'ok' };
  }

  /** A stored message, or null when there is none (v3 answers null; a server may still answer "no message found"). */
  private async storedMessage(stream: string, query: Parameters<JetStreamManager['streams']['getMessage']>[1]): Promise<StoredMsg | null> {
    try {
      return await this.jsm.streams.getMessage(stream, query);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async answer(request: QueuedRequest, answer: QueueAnswer): Promise<'recorded' | 'replayed'> {
    const h = this.replyHeaders(request, answer.status);
    h.set(QUEUE_HEADERS.replica, answer.replica);
    const ack = await this.js.publish(this.names.resultSubject(request.key), answer.body, { msgID: subjectToken(request.key), headers: h });
    if (ack.duplicate) {
      // Another delivery recorded its answer first: that one is the key's answer (ours is dropped by the broker).
      const recorded = await this.recorded(request.key);
      await this.replay(request, recorded ?? answer);
      return 'replayed';
    }
    // The reply leaves on the same connection before the request's ack, so a replica killed after its ack has sent
    // it; one killed between recording and the ack may not have, and the redelivery replays the recorded answer.
    if (request.replyTo !== undefined) this.nc.publish(request.replyTo, answer.body, { headers: h });
    return 'recorded';
  }

  async replay(request: QueuedRequest, recorded: RecordedAnswer): Promise<void> {
    if (request.replyTo === undefined) return;
    const h = this.replyHeaders(request, recorded.status);
    h.set(QUEUE_HEADERS.replay, 'true');
    this.nc.publish(request.replyTo, recorded.body, { headers: h });
  }

  private replyHeaders(request: QueuedRequest, status: string): ReturnType<typeof natsHeaders> {
    const h = natsHeaders();
    h.set(QUEUE_HEADERS.key, request.key);
    h.set(QUEUE_HEADERS.status, status);
    h.set(QUEUE_HEADERS.delivery, String(request.deliveries));
    return h;
  }

  async close(): Promise<void> {
    await this.nc.drain();
  }
}

async function ensureStream(jsm: JetStreamManager, config: Parameters<JetStreamManager['streams']['add']>[0]): Promise<void> {
  try {
    await jsm.streams.info(config.name as string);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await jsm.streams.add(config);
  }
}
