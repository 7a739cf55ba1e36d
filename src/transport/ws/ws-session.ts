/**
 * A WebSocket session (docs/ws-protocol.md): the requests a client has in flight, its frame streams and the
 * replay buffer that lets it resume after a dropped socket. A session outlives its socket by the resume window;
 * a `WsConnection` (ws-connection.ts) is the socket side and delivers the session's events while attached.
 *
 * Every accepted `infer` gets a ReplayStream (stream-registry.ts) keyed by the client's id: its events are
 * numbered, kept for resume, and end with exactly one terminal event. Frame streams run one frame at a time per
 * stream name and keep at most `max_pending_frames` waiting; an overflow drops the oldest waiting frame (latest
 * frame wins) with a `frame.dropped` terminal event.
 */
import { randomUUID } from 'node:crypto';
import type { InferenceApi } from '../../api/inference-api.ts';
import { rtError, toRtError, type RtError } from '../../errors/registry.ts';
import type { Logger } from '../../observability/logger.ts';
import type { OtelTracing } from '../../observability/otel-tracing.ts';
import { edgeContext } from '../../observability/request-context.ts';
import { decodeInferRequestJson, toInferRequest } from '../../codec/kserve-json.ts';
import { describeValue } from '../../codec/tensor-data.ts';
import { runIntoStream, StreamRegistry } from '../streaming/stream-registry.ts';
import type { WsAdmit, WsPrincipal } from './ws-auth.ts';
import { pinWsSeed, type FoundWsRequest, type WsJournalOptions } from './ws-journal.ts';
import { WsRelays } from './ws-relays.ts';
import type { FrameStreamState, WsRequestEntry, WsSessionPort, WsSessionSink, WsTakeOver } from './ws-session-types.ts';
import { WS_MAX_ID_LENGTH, WS_SUBPROTOCOL, type WsLimits, type WsSessionInfo } from '../../codec/ws-protocol.ts';

/** What a session needs from the front end. */
export interface WsSessionContext {
  readonly api: InferenceApi;
  readonly logger: Logger;
  readonly limits: WsLimits;
  /** Replay budget per session. */
  readonly resumeBufferBytes: number;
  readonly store: WsSessionStore;
  /** Per-request admission (security); absent: every request is admitted. */
  readonly admit?: WsAdmit;
  /** Client events per second per socket (token bucket, burst 2 s worth); 0 or absent = unlimited (docs/security.md). */
  readonly maxMessagesPerSec?: number;
  /** Counts a dropped frame or refused message by reason (metrics). */
  readonly onDrop?: (reason: 'superseded' | 'too_large' | 'malformed') => void;
  /** A client too slow to read its results: a request refused (`ws_refused`) or the socket closed (`ws_closed`). */
  readonly onSlowClient?: (kind: 'ws_refused' | 'ws_closed') => void;
  /** OpenTelemetry spans of infer events; an event's `traceparent` field joins the caller's trace. */
  readonly tracing?: OtelTracing;
  /** Shared stream journal: streaming requests resume on any replica (ws-journal.ts); this replica only when absent. */
  readonly journal?: WsJournalOptions;
}

/** Retry hint for per-connection limits: long enough for a few results to come back. */
const LIMIT_RETRY_AFTER_MS = 50;

export class WsSession implements WsSessionPort {
  binaryOutputs = false;
  private sink: WsSessionSink | undefined;
  readonly streams: StreamRegistry;
  /** Unfinished requests by client id. */
  private readonly requests = new Map<string, WsRequestEntry>();
  private readonly frames = new Map<string, FrameStreamState>();
  /** Journaled requests relayed from the journal (ws-relays.ts); undefined without a journal. */
  private readonly relays: WsRelays | undefined;
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  private destroyed = false;

  constructor(
    private readonly ctx: WsSessionContext,
    readonly principal: WsPrincipal,
    /** The client's address (rate limits by IP). */
    readonly remoteAddress?: string,
    /** A session adopted from the journal keeps the id its client knows. */
    readonly id: string = randomUUID(),
  ) {
    this.streams = new StreamRegistry({
      windowMs: ctx.limits.resume_window_ms,
      maxBytes: ctx.resumeBufferBytes,
      onRemove: (stream) => {
        const entry = this.requests.get(stream.key);
        if (entry !== undefined && entry.stream === stream) this.settle(entry);
      },
    });
    this.relays = ctx.journal === undefined ? undefined : new WsRelays(ctx.journal, this, ctx.logger);
  }

  get inFlight(): number {
    return this.requests.size + (this.relays?.size ?? 0);
  }
  get attachedSink(): WsSessionSink | undefined {
    return this.sink;
  }
  get isDestroyed(): boolean {
    return this.destroyed;
  }

  info(): WsSessionInfo {
    return { id: this.id, protocol: WS_SUBPROTOCOL, binary_outputs: this.binaryOutputs };
  }

  /** Pending frames of a frame stream (for tests and introspection). */
  pendingFrames(name: string): number {
    return this.frames.get(name)?.pending.length ?? 0;
  }

  attach(sink: WsSessionSink): void {
    if (this.expiryTimer !== undefined) clearTimeout(this.expiryTimer);
    this.expiryTimer = undefined;
    this.sink = sink;
  }

  /** The socket went away: keep the session for the resume window, or end it now when there is nothing to keep. */
  detach(sink: WsSessionSink): void {
    if (this.sink !== sink) return;
    this.sink = undefined;
    this.relays?.stopAll();
    if (this.ctx.limits.resume_window_ms === 0 || this.streams.size === 0) {
      this.destroy();
      return;
    }
    for (const key of [...this.streams.keys()]) this.streams.get(key)?.detach();
    this.expiryTimer = setTimeout(() => this.destroy(true), this.ctx.limits.resume_window_ms);
    this.expiryTimer.unref();
  }

  /**
   * Ends the session: unfinished requests are cancelled, buffers dropped. `handOff` (the resume window passed, the
   * server shuts down): journaled requests are left to the journal unfinished, for a replica the client resumes on.
   */
  destroy(handOff = false): void {
    if (this.destroyed) return;
    this.destroyed = true;
    if (this.expiryTimer !== undefined) clearTimeout(this.expiryTimer);
    this.sink = undefined;
    this.relays?.stopAll();
    if (handOff) for (const entry of this.requests.values()) entry.journal?.handOff();
    this.streams.clear();
    this.requests.clear();
    this.frames.clear();
    this.ctx.store.delete(this);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Requests

  /**
   * Handles an `infer` event (already parsed; `binary` is its binary section when it declared one). `failure`
   * makes the request fail at once with that error (framing problems found by the connection).
   */
  submit(event: Readonly<Record<string, unknown>>, binary: Uint8Array | undefined, failure?: RtError, takeOver?: WsTakeOver): void {
    const receivedNs = process.hrtime.bigint();
    const sink = this.sink;
    if (sink === undefined) return;
    const clientEventId = typeof event['event_id'] === 'string' ? event['event_id'] : undefined;
    const id = event['id'];
    if (typeof id !== 'string' || id.length === 0 || id.length > WS_MAX_ID_LENGTH) {
      sink.refuse(
        rtError(
          'BAD_REQUEST',
          `an infer event needs an 'id': a non-empty string of at most ${WS_MAX_ID_LENGTH} characters, got ${describeValue(id)}`,
        ),
        'id',
        clientEventId,
      );
      return;
    }
    if (this.requests.has(id) || this.relays?.has(id) === true) {
      sink.refuse(
        rtError('BAD_REQUEST', `request id '${id}' is already in flight on this session; ids must be unique among unfinished requests`),
        'id',
        clientEventId,
      );
      return;
    }
    const streamFlag = event['stream'];
    const frameName = event['frame_stream'];
    const mode = streamFlag === true ? 'stream' : 'single';
    const stream = this.streams.create(id, mode);
    const binaryOutputs = takeOver?.binaryOutputs ?? this.binaryOutputs;
    const entry: WsRequestEntry = {
      id,
      stream,
      encoding: { binaryDefault: binaryOutputs },
      frame: undefined,
      request: undefined,
      started: false,
      settled: false,
      admission: undefined,
    };
    stream.context = entry;
    // A request taken over: the client has the events through `sent` (the re-run produces them again).
    const sent = takeOver?.sent ?? 0;
    stream.attach((e) => {
      if (e.seq > sent) this.sink?.deliver(entry, e);
      else if (e.kind !== 'data') this.sink?.deliver(entry, { ...e, seq: sent + 1 });
    });
    stream.onFinish = () => this.settle(entry);
    this.requests.set(id, entry);

    const fail = (err: RtError): void => {
      stream.push({ kind: 'error', error: err });
    };
    if (failure !== undefined) return fail(failure);
    const journalable = this.ctx.journal !== undefined && streamFlag === true && binary === undefined && frameName === undefined;
    let recorded: Promise<void> | undefined;
    try {
      const model = event['model'];
      if (typeof model !== 'string' || model.length === 0)
        throw rtError('BAD_REQUEST', `infer '${id}': 'model' must be a non-empty string, got ${describeValue(model)}`);
      const version = event['version'];
      if (version !== undefined && typeof version !== 'string')
        throw rtError('BAD_REQUEST', `infer '${id}': 'version' must be a string, got ${describeValue(version)}`);
      if (streamFlag !== undefined && typeof streamFlag !== 'boolean')
        throw rtError('BAD_REQUEST', `infer '${id}': 'stream' must be a boolean, got ${describeValue(streamFlag)}`);
      if (frameName !== undefined) {
        if (typeof frameName !== 'string' || frameName.length === 0 || frameName.length > WS_MAX_ID_LENGTH) {
          throw rtError(
            'BAD_REQUEST',
            `infer '${id}': 'frame_stream' must be a non-empty string of at most ${WS_MAX_ID_LENGTH} characters, got ${describeValue(frameName)}`,
          );
        }
        if (mode === 'stream')
          throw rtError('BAD_REQUEST', `infer '${id}': a frame of frame stream '${frameName}' cannot also ask for 'stream': true`);
      }

      if (journalable && takeOver === undefined) event = pinWsSeed(this.ctx.api, model, version, event);

      // Admission: per-session bounds before any decoding work (docs/ws-protocol.md "Backpressure and limits").
      const fs = typeof frameName === 'string' ? this.frames.get(frameName) : undefined;
      const supersedes =
        fs?.running !== undefined && fs.pending.length >= this.ctx.limits.max_pending_frames && this.ctx.limits.max_pending_frames > 0;
      // The entry itself is already counted in `requests`.
      if (!supersedes && this.inFlight > this.ctx.limits.max_in_flight) {
        throw rtError(
          'TOO_MANY_IN_FLIGHT',
          `this session already has ${this.ctx.limits.max_in_flight} unfinished requests (max_in_flight); wait for results before sending more`,
          { retryAfterMs: LIMIT_RETRY_AFTER_MS },
        );
      }
      const buffered = sink.bufferedAmount;
      if (buffered > this.ctx.limits.max_buffered_bytes) {
        this.ctx.onSlowClient?.('ws_refused');
        throw rtError(
          'SLOW_CONSUMER',
          `${buffered} bytes of results are waiting to be read on this socket (max_buffered_bytes ${this.ctx.limits.max_buffered_bytes}); read them before sending more requests`,
          { retryAfterMs: LIMIT_RETRY_AFTER_MS },
        );
      }

      // `inputs`, `outputs`, `parameters` and `id` are exactly a KServe $inference_request.
      const decoded = decodeInferRequestJson(event, binary === undefined ? undefined : { bytes: binary });
      entry.request = toInferRequest(decoded, {
        model,
        version,
        id,
        signal: stream.controller.signal,
        protocol: 'ws',
        principal: this.principal.subject,
      });
      // The event's `traceparent` / `tracestate` fields join the caller's trace; with tracing on it becomes spans.
      const field = (k: string): string | undefined => (typeof event[k] === 'string' ? (event[k] as string) : undefined);
      entry.trace = edgeContext('ws', { requestId: id }, { traceparent: field('traceparent'), tracestate: field('tracestate') }, receivedNs);
      entry.request = { ...entry.request, context: entry.trace };
      entry.encoding = {
        parameters: decoded.parameters,
        outputs: decoded.outputs,
        binaryDefault: binaryOutputs,
      };
      if (journalable) recorded = this.relays?.record(entry, event, version, takeOver);
    } catch (err) {
      return fail(err as RtError);
    }

    const admit = this.ctx.admit;
    const model = entry.request?.model ?? '';
    const proceed = (): void => {
      if (entry.stream.finished) return;
      if (typeof frameName === 'string') this.enqueueFrame(entry, frameName);
      else this.start(entry);
    };
    if (admit === undefined && recorded === undefined) {
      proceed();
      return;
    }
    Promise.resolve(recorded)
      .then(() => admit?.(this.principal, model, this.remoteAddress))
      .then(
        (admission) => {
          // Cancelled (or the session ended) while admission was pending: give the slot straight back.
          if (entry.settled) admission?.release();
          else entry.admission = admission;
          proceed();
        },
        (err: unknown) => fail(toRtError(err)),
      );
  }

  /** `cancel`: the request ends with CANCELLED (if it has not finished) and its work is abandoned. */
  cancel(id: string): void {
    const err = rtError('CANCELLED', `request '${id}' was cancelled by the client`);
    if (this.relays?.cancel(id, err) === true) return;
    const entry = this.requests.get(id);
    if (entry === undefined) return;
    entry.stream.push({ kind: 'error', error: err });
    entry.stream.abort(err);
  }

  private start(entry: WsRequestEntry): void {
    if (entry.request === undefined || entry.stream.finished) return;
    entry.started = true;
    void runIntoStream(entry.stream, this.ctx.api, entry.request);
  }

  private enqueueFrame(entry: WsRequestEntry, name: string): void {
    let fs = this.frames.get(name);
    if (fs === undefined) {
      fs = { name, running: undefined, pending: [], dropped: 0 };
      this.frames.set(name, fs);
    }
    entry.frame = fs;
    if (fs.running === undefined) {
      fs.running = entry;
      this.start(entry);
      return;
    }
    const max = this.ctx.limits.max_pending_frames;
    if (max === 0) {
      this.dropFrame(fs, entry, fs.running.id);
      return;
    }
    fs.pending.push(entry);
    while (fs.pending.length > max) {
      const oldest = fs.pending.shift() as WsRequestEntry;
      this.dropFrame(fs, oldest, entry.id);
    }
  }

  private dropFrame(fs: FrameStreamState, entry: WsRequestEntry, supersededBy: string): void {
    fs.dropped++;
    this.ctx.onDrop?.('superseded');
    entry.stream.push({ kind: 'dropped', frameStream: fs.name, supersededBy, dropped: fs.dropped });
  }

  /** Bookkeeping once a request has its terminal event (or its stream left the registry). */
  private settle(entry: WsRequestEntry): void {
    if (entry.settled) return;
    entry.settled = true;
    if (entry.trace?.model !== undefined) this.ctx.tracing?.finish(entry.trace, process.hrtime.bigint());
    entry.admission?.release();
    if (this.requests.get(entry.id) === entry) this.requests.delete(entry.id);
    this.sink?.touch();
    const fs = entry.frame;
    if (fs === undefined) return;
    const i = fs.pending.indexOf(entry);
    if (i >= 0) fs.pending.splice(i, 1);
    if (fs.running === entry) {
      fs.running = fs.pending.shift();
      if (fs.running !== undefined) this.start(fs.running);
    }
    if (fs.running === undefined && fs.pending.length === 0 && this.frames.get(fs.name) === fs) this.frames.delete(fs.name);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Resume

  /**
   * Takes the session over for a resuming client: requests not listed in `after` are cancelled and forgotten.
   * Returns how many requests were taken over. Call `replayListed` after announcing `session.resumed`.
   */
  takeOver(sink: WsSessionSink, after: ReadonlyMap<string, number>): number {
    this.relays?.stopAll();
    for (const key of [...this.streams.keys()]) {
      if (after.has(key)) continue;
      this.cancel(key);
      this.streams.delete(key);
    }
    this.attach(sink);
    let n = 0;
    for (const id of after.keys()) if (this.streams.get(id) !== undefined) n++;
    return n;
  }

  /**
   * Replays, for each listed id, the events after the client's last seq, then keeps the stream live on the
   * attached sink; a request this replica does not hold comes from the journal when there is one. `expired` is
   * told the ids that cannot be resumed (unknown, or their missed events were evicted).
   */
  replayListed(after: ReadonlyMap<string, number>, expired: (id: string) => void): void {
    for (const [id, seq] of after) {
      const stream = this.streams.get(id);
      const entry = stream?.context as WsRequestEntry | undefined;
      if (stream === undefined && this.relays !== undefined) {
        this.relays.start(id, seq, expired);
      } else if (stream === undefined || entry === undefined || !stream.attach((e) => this.sink?.deliver(entry, e), seq)) {
        expired(id);
        if (stream !== undefined) {
          this.cancel(id);
          this.streams.delete(id);
        }
      }
    }
  }

  /** Resumes request `id` from the journal (ws-relays.ts); `found` is its record when already read. */
  resumeFromJournal(id: string, after: number, expired: (id: string) => void, found?: FoundWsRequest): void {
    if (this.relays === undefined) expired(id);
    else this.relays.start(id, after, expired, found);
  }
}

/** All sessions of the front end, by id (for resume). */
export class WsSessionStore {
  private readonly sessions = new Map<string, WsSession>();

  add(session: WsSession): void {
    this.sessions.set(session.id, session);
  }
  get(id: string): WsSession | undefined {
    return this.sessions.get(id);
  }
  delete(session: WsSession): void {
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
  }
  get size(): number {
    return this.sessions.size;
  }
  /** Server shutdown: every session ends; journaled requests are handed off to the replicas their clients resume on. */
  destroyAll(): void {
    for (const s of [...this.sessions.values()]) s.destroy(true);
  }
}
