/**
 * The broker side of the async inference queue, one interface so that NATS JetStream (nats-transport.ts) and a
 * later Kafka transport plug into the same worker (queue-worker.ts). A transport delivers requests with at most
 * `maxInFlight` unacknowledged, redelivers what is not acknowledged in time, and records each request's answer at
 * most once (by its idempotency key).
 */
export interface QueuedRequest {
  /** The idempotency key: the client's, or the broker's message id when it sent none. */
  readonly key: string;
  /** Model name (from the subject) and version (optional header). */
  readonly model: string;
  readonly version: string | undefined;
  /** The KServe v2 JSON infer request body. */
  readonly body: Uint8Array;
  /** Where the client wants its answer besides the results stream. */
  readonly replyTo: string | undefined;
  /** 1 on the first delivery. */
  readonly deliveries: number;
  /** Done: never delivered again. */
  ack(): Promise<void>;
  /** Not done here: deliver it again (to any replica) after delayMs. */
  nak(delayMs: number): void;
  /** Still working on it: restart its ack timer. */
  working(): void;
}

export interface QueueAnswer {
  readonly body: Uint8Array;
  /** 'ok' or the error code. */
  readonly status: string;
  readonly replica: string;
}

/** An answer already in the results stream. */
export interface RecordedAnswer {
  readonly body: Uint8Array;
  /** 'ok' or the error code. */
  readonly status: string;
}

export interface QueueTransport {
  /**
   * Delivers requests to `handle` (which acks or naks each), never more than maxInFlight unacknowledged at once:
   * backpressure is not fetching. Resolves when the signal aborts.
   */
  consume(maxInFlight: number, handle: (request: QueuedRequest) => Promise<void>, signal: AbortSignal): Promise<void>;
  /** The answer recorded for `key`, if any (a redelivered request that was answered before its ack). */
  recorded(key: string): Promise<RecordedAnswer | undefined>;
  /**
   * Records the answer for the request's key and sends it to its reply subject. When an answer for that key was
   * recorded before (another delivery answered it), that recorded answer is what the reply subject gets, marked as
   * a replay, and the result is 'replayed'. The reply subject therefore hears at least once per request; only the
   * window between a replica recording an answer and acknowledging its request can make it hear twice (the same
   * body, the second marked as a replay).
   */
  answer(request: QueuedRequest, answer: QueueAnswer): Promise<'recorded' | 'replayed'>;
  /** Sends an answer recorded earlier to the request's reply subject, marked as a replay. */
  replay(request: QueuedRequest, recorded: RecordedAnswer): Promise<void>;
  /**
   * Hands over each request the broker gave up on (delivered maxDeliveries times, never acknowledged), to one
   * replica, so that it is answered rather than left in the queue unanswered; its `ack` removes it from the queue.
   * Resolves when the signal aborts.
   */
  exhausted(handle: (request: QueuedRequest) => Promise<void>, signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}
