/**
 * The one event source of rtserve's streaming front ends: WebSocket requests (docs/ws-protocol.md) and SSE
 * generate_stream both run a request into a `ReplayStream` and deliver its events from there. A stream numbers
 * its events (`seq` 1, 2, 3, ... per request, reference streaming-protocols §4 convention 6), keeps them in a
 * bounded replay buffer so that a client that reconnects gets exactly what it missed (convention 10), and ends
 * with exactly one terminal event. Producers (an ordinary model's one response, a generative model's many) plug
 * in through `runIntoStream`, so every front end streams every model the same way.
 *
 * Memory is bounded twice: a registry holds at most `maxBytes` of events (finished streams are evicted oldest
 * first, then the oldest events of running streams), and a stream nobody listens to is dropped — and its
 * producer cancelled — `windowMs` after its listener went away or after it finished.
 */
import type { InferenceApi } from '../../api/inference-api.ts';
import type { InferRequest, InferResponse } from '../../api/types.ts';
import type { Tensor } from '../../tensor/tensor.ts';
import { rtError, toRtError, type RtError } from '../../errors/registry.ts';

export type StreamEventBody =
  /** One response of the request. */
  | { readonly kind: 'data'; readonly response: InferResponse }
  /** The end of a multi-response stream (terminal). */
  | { readonly kind: 'end'; readonly responses: number }
  /** The request failed (terminal). */
  | { readonly kind: 'error'; readonly error: RtError }
  /** A waiting frame of a frame stream was superseded by a newer one (terminal). */
  | { readonly kind: 'dropped'; readonly frameStream: string; readonly supersededBy: string; readonly dropped: number };

export type StreamEvent = StreamEventBody & { readonly seq: number };

/**
 * 'single': one response answers the request (its data event is terminal).
 * 'stream': data events, then one `end` (or `error`).
 */
export type StreamMode = 'single' | 'stream';

export type StreamListener = (event: StreamEvent, stream: ReplayStream) => void;

/** Rough size of an event for the replay budget: tensor bytes plus a fixed overhead. */
function eventBytes(body: StreamEventBody): number {
  if (body.kind !== 'data') return 128;
  let n = 256;
  for (const t of body.response.outputs) n += tensorBytes(t);
  return n;
}

function tensorBytes(t: Tensor): number {
  const d = t.data;
  if (!Array.isArray(d)) return (d as { byteLength: number }).byteLength;
  let n = 0;
  for (const e of d) n += e.byteLength + 4;
  return n;
}

export class ReplayStream {
  /** Cancels the producer (the request's signal). */
  readonly controller = new AbortController();
  /** Free for the front end that owns the stream (encoding options and the like). */
  context: unknown;
  /** Called once when the terminal event was pushed, whether anyone listens or not. */
  onFinish: ((stream: ReplayStream) => void) | undefined;

  private readonly events: StreamEvent[] = [];
  /** Budget size of each retained event, parallel to `events`. */
  private readonly sizes: number[] = [];
  private listener: StreamListener | undefined;
  private nextSeq = 1;
  private finishedFlag = false;
  private bytesHeld = 0;
  private dataCount = 0;
  /** Wall-clock ms when the stream lost its listener or finished, whichever counts (see expiresAt). */
  private detachedAtMs: number | undefined;
  private finishedAtMs: number | undefined;

  constructor(
    readonly key: string,
    readonly mode: StreamMode,
    private readonly registry: StreamRegistry,
  ) {
    this.detachedAtMs = Date.now();
  }

  get finished(): boolean {
    return this.finishedFlag;
  }
  get attached(): boolean {
    return this.listener !== undefined;
  }
  /** The seq the next event will get; `lastSeq` = nextSeq - 1. */
  get lastSeq(): number {
    return this.nextSeq - 1;
  }
  /** Oldest seq still in the replay buffer (lastSeq + 1 when the buffer is empty). */
  get firstRetainedSeq(): number {
    return this.events[0]?.seq ?? this.nextSeq;
  }
  get retainedBytes(): number {
    return this.bytesHeld;
  }
  /** Number of data events pushed so far. */
  get responses(): number {
    return this.dataCount;
  }

  /**
   * Appends an event, delivers it to the listener (if any) and keeps it for replay. Events pushed after the
   * terminal one are ignored (a cancel may race with the producer). Returns the event, or undefined if ignored.
   */
  push(body: StreamEventBody): StreamEvent | undefined {
    if (this.finishedFlag) return undefined;
    const event = { ...body, seq: this.nextSeq++ } as StreamEvent;
    if (body.kind === 'data') this.dataCount++;
    const terminal = body.kind !== 'data' || this.mode === 'single';
    if (terminal) {
      this.finishedFlag = true;
      this.finishedAtMs = Date.now();
    }
    const size = eventBytes(body);
    this.events.push(event);
    this.bytesHeld += size;
    this.sizes.push(size);
    this.listener?.(event, this);
    if (terminal) this.onFinish?.(this);
    this.registry.noteGrowth(this, size);
    return event;
  }

  /**
   * Delivers every retained event with seq > `after` to `fn`, in order. Returns false (and delivers nothing)
   * when some of those events were already evicted: the caller cannot get them exactly once any more.
   */
  replay(after: number, fn: StreamListener): boolean {
    if (after + 1 < this.firstRetainedSeq && after < this.lastSeq) return false;
    for (const e of this.events) if (e.seq > after) fn(e, this);
    return true;
  }

  /** Sets the live listener (replacing any), optionally replaying what came after `after` first. */
  attach(listener: StreamListener, after?: number): boolean {
    if (after !== undefined && !this.replay(after, listener)) return false;
    this.listener = listener;
    this.detachedAtMs = undefined;
    return true;
  }

  /** Removes the live listener (only `listener` when given: a newer one may have replaced it). */
  detach(listener?: StreamListener): void {
    if (this.listener === undefined || (listener !== undefined && this.listener !== listener)) return;
    this.listener = undefined;
    this.detachedAtMs = Date.now();
    if (this.registry.windowMs === 0) this.registry.delete(this.key, this);
  }

  /** Wall-clock ms after which the stream is dropped; undefined while it is attached and running. */
  expiresAtMs(): number | undefined {
    const w = this.registry.windowMs;
    if (this.finishedAtMs !== undefined) return Math.max(this.finishedAtMs, this.detachedAtMs ?? 0) + w;
    if (this.detachedAtMs !== undefined) return this.detachedAtMs + w;
    return undefined;
  }

  /** Drops the oldest retained event; returns its size. */
  evictOldest(): number {
    const size = this.sizes.shift() ?? 0;
    if (this.events.shift() !== undefined) this.bytesHeld -= size;
    return size;
  }

  /** Cancels the producer (idempotent). */
  abort(reason: RtError): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }
}

export interface StreamRegistryOptions {
  /** How long a stream stays after it finished or lost its listener; 0 = dropped at once. */
  readonly windowMs: number;
  /** Budget for retained events over all streams of this registry. */
  readonly maxBytes: number;
  /** Told when a stream leaves the registry (expired, evicted or deleted). */
  readonly onRemove?: (stream: ReplayStream) => void;
}

/** A set of replay streams with one memory budget and one expiry sweep. */
export class StreamRegistry {
  readonly windowMs: number;
  private readonly maxBytes: number;
  private readonly streams = new Map<string, ReplayStream>();
  private bytes = 0;
  private sweepTimer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly options: StreamRegistryOptions) {
    this.windowMs = options.windowMs;
    this.maxBytes = options.maxBytes;
  }

  get size(): number {
    return this.streams.size;
  }
  get retainedBytes(): number {
    return this.bytes;
  }

  get(key: string): ReplayStream | undefined {
    return this.streams.get(key);
  }

  keys(): IterableIterator<string> {
    return this.streams.keys();
  }

  /** A new stream under `key`; a previous finished stream with that key is replaced. */
  create(key: string, mode: StreamMode): ReplayStream {
    const old = this.streams.get(key);
    if (old !== undefined) this.delete(key, old);
    const stream = new ReplayStream(key, mode, this);
    this.streams.set(key, stream);
    this.ensureSweep();
    return stream;
  }

  /** Removes a stream, cancelling its producer when it has not finished. */
  delete(key: string, expected?: ReplayStream): void {
    const stream = this.streams.get(key);
    if (stream === undefined || (expected !== undefined && stream !== expected)) return;
    this.streams.delete(key);
    this.bytes -= stream.retainedBytes;
    if (!stream.finished) stream.abort(rtError('CANCELLED', 'the stream was dropped: nobody resumed it within the resume window'));
    this.options.onRemove?.(stream);
  }

  /** Called by a stream after it kept a new event: enforce the budget. */
  noteGrowth(stream: ReplayStream, size: number): void {
    if (this.streams.get(stream.key) !== stream) {
      // A stream that left the registry keeps nothing.
      stream.evictOldest();
      return;
    }
    this.bytes += size;
    if (this.windowMs === 0 && stream.finished && stream.attached) {
      // No resume: a delivered terminal event needs no keeping.
      this.delete(stream.key, stream);
      return;
    }
    if (this.bytes <= this.maxBytes) return;
    // Finished streams first, oldest first (Map iteration is insertion order).
    for (const [key, s] of this.streams) {
      if (this.bytes <= this.maxBytes) return;
      if (s.finished) this.delete(key, s);
    }
    // Then the oldest events of running streams; a client resuming before them gets RESUME_EXPIRED.
    for (const s of this.streams.values()) {
      while (this.bytes > this.maxBytes && s.retainedBytes > 0) this.bytes -= s.evictOldest();
      if (this.bytes <= this.maxBytes) return;
    }
  }

  /** Drops streams whose window has passed. */
  sweep(nowMs = Date.now()): void {
    for (const [key, s] of this.streams) {
      const at = s.expiresAtMs();
      if (at !== undefined && at <= nowMs) this.delete(key, s);
    }
    if (this.streams.size === 0) this.stopSweep();
  }

  /** Drops everything (cancelling running producers) and stops the sweep. */
  clear(): void {
    for (const [key, s] of [...this.streams]) this.delete(key, s);
    this.stopSweep();
  }

  private ensureSweep(): void {
    if (this.sweepTimer !== undefined || this.windowMs === 0) return;
    const every = Math.max(20, Math.min(1000, Math.floor(this.windowMs / 4)));
    this.sweepTimer = setInterval(() => this.sweep(), every);
    // Node timers have unref; browsers' numeric ids do not (this module is server-side, but stays portable).
    (this.sweepTimer as { unref?: () => void }).unref?.();
  }

  private stopSweep(): void {
    if (this.sweepTimer !== undefined) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }
}

/**
 * Runs `request` and pushes its responses into `stream`: one data event in 'single' mode; in 'stream' mode the
 * model's responses as data events (through `api.inferStream` when the core provides it, else one `infer`)
 * followed by `end`. Any failure becomes the terminal error event. Never rejects.
 */
export async function runIntoStream(stream: ReplayStream, api: InferenceApi, request: InferRequest): Promise<void> {
  try {
    if (stream.mode === 'single' || api.inferStream === undefined) {
      const response = await api.infer(request);
      stream.push({ kind: 'data', response });
      if (stream.mode === 'stream') stream.push({ kind: 'end', responses: stream.responses });
      return;
    }
    for await (const response of api.inferStream(request)) {
      if (stream.finished) break;
      stream.push({ kind: 'data', response });
    }
    stream.push({ kind: 'end', responses: stream.responses });
  } catch (err) {
    stream.push({ kind: 'error', error: toRtError(err) });
  }
}
