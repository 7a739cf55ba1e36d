/**
 * One WebSocket connection (docs/ws-protocol.md): reads client events, pairs binary frames with the `infer`
 * event that announced them, writes server events (a JSON text frame, then one binary frame per binary output),
 * and enforces the per-socket rules: heartbeat, idle timeout, outgoing-buffer bound, resume takeover.
 * The request bookkeeping lives in the session (ws-session.ts), which outlives the socket.
 */
import type { WebSocket } from 'ws';
import { rtError, type RtError } from '../../errors/registry.ts';
import { describeValue } from '../../codec/tensor-data.ts';
import { parseJsonBytes } from '../../codec/json-body.ts';
import { isPlainObject } from '../../codec/wire-tensor.ts';
import type { StreamEvent } from '../streaming/stream-registry.ts';
import { wsError, wsErrorBody } from './ws-errors.ts';
import { encodeWsEvent, type EncodedWsEvent } from './ws-event-encoding.ts';
import { findWsRequest, fromJournalChunk, type FoundWsRequest } from './ws-journal.ts';
import { WS_CLOSE, WS_CLOSE_REASON_SEE_ERROR, WS_MAX_ID_LENGTH } from '../../codec/ws-protocol.ts';
import { WsSession, type WsSessionContext } from './ws-session.ts';
import type { WsRequestEntry, WsSessionSink } from './ws-session-types.ts';
import { MessageRateLimiter } from '../../security/limits.ts';
import { rateLimited } from '../../security/rate-limiter.ts';

/** A socket whose queue grows past this multiple of max_buffered_bytes is closed (4429); see the protocol doc. */
const HARD_BUFFER_FACTOR = 4;

interface PendingBinary {
  readonly event: Record<string, unknown>;
  readonly expected: number;
  readonly frames: Uint8Array[];
  received: number;
}

export class WsConnection implements WsSessionSink {
  private eventCounter = 0;
  private clientEvents = 0;
  private lastActivityMs = Date.now();
  private awaitingPong = false;
  private heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private pendingBinary: PendingBinary | undefined;
  private closed = false;
  /** Whether send() corked the socket for the current tick (corkTick). */
  private corked = false;
  /** Client messages that arrived while a resume was looked up in the journal, handled after it. */
  private held: [Buffer, boolean][] | undefined;
  private readonly messageRate: MessageRateLimiter;

  constructor(
    readonly ws: WebSocket,
    private session: WsSession,
    private readonly ctx: WsSessionContext,
    private readonly onClosed: (conn: WsConnection) => void,
    /** The connection's socket (the one handed to ws's handleUpgrade): corked while one tick's events are written. */
    private readonly socket?: { cork(): void; uncork(): void },
  ) {
    this.messageRate = new MessageRateLimiter(ctx.maxMessagesPerSec ?? 0);
    session.attach(this);
    ws.on('message', (data, isBinary) => this.onMessage(data as Buffer, isBinary));
    ws.on('pong', () => {
      this.awaitingPong = false;
    });
    // 'error' is followed by 'close'; ws has already chosen the close code (1002, 1007, 1009).
    ws.on('error', (err: Error & { code?: string }) => {
      if (err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') this.ctx.onDrop?.('too_large');
    });
    ws.on('close', (code) => this.onClose(code));
    this.sendJson({ type: 'session.created', session: session.info(), limits: ctx.limits });

    const hb = ctx.limits.heartbeat_interval_ms;
    if (hb > 0) {
      this.heartbeatTimer = setInterval(() => this.heartbeat(), hb);
      this.heartbeatTimer.unref();
    }
    if (ctx.limits.idle_timeout_ms > 0) this.scheduleIdleCheck(ctx.limits.idle_timeout_ms);
  }

  get currentSession(): WsSession {
    return this.session;
  }

  get bufferedAmount(): number {
    return this.ws.bufferedAmount;
  }

  touch(): void {
    this.lastActivityMs = Date.now();
  }

  // ------------------------------------------------------------------------------------------------------------
  // Reading

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (this.closed) return;
    if (this.held !== undefined) {
      this.held.push([data, isBinary]);
      return;
    }
    this.lastActivityMs = Date.now();
    if (isBinary) {
      this.onBinary(data);
      return;
    }
    const pending = this.pendingBinary;
    if (pending !== undefined) {
      this.pendingBinary = undefined;
      this.session.submit(
        pending.event,
        undefined,
        rtError(
          'BAD_REQUEST',
          `a text frame arrived before the binary section of this request was complete: ${pending.received} of ${pending.expected} bytes received`,
        ),
      );
    }
    this.clientEvents++;
    if (!this.messageRate.take()) {
      // Over wsMaxMessagesPerSec: the event is refused unread (a flood costs no parsing); the socket stays open.
      this.refuse(rateLimited(`more than ${this.ctx.maxMessagesPerSec ?? 0} client events per second on this socket`, this.messageRate.retryAfterMs));
      return;
    }
    let event: unknown;
    try {
      event = parseJsonBytes(data, 'the client event');
    } catch (err) {
      this.ctx.onDrop?.('malformed');
      this.refuse(wsError(err, this.ctx.logger));
      return;
    }
    if (!isPlainObject(event)) {
      this.refuse(rtError('BAD_JSON', `a client event must be a JSON object, got ${describeValue(event)}`));
      return;
    }
    const clientEventId = typeof event['event_id'] === 'string' ? event['event_id'] : undefined;
    try {
      this.dispatch(event, clientEventId);
    } catch (err) {
      this.refuse(wsError(err, this.ctx.logger), undefined, clientEventId);
    }
  }

  private dispatch(event: Record<string, unknown>, clientEventId: string | undefined): void {
    const type = event['type'];
    switch (type) {
      case 'infer': {
        const declared = declaredBinaryBytes(event['inputs']);
        if (declared === 0) {
          this.session.submit(event, undefined);
          return;
        }
        if (declared > this.ctx.limits.max_message_bytes) {
          // The section would have to be buffered whole before decoding: the same limit as one frame.
          this.ctx.onDrop?.('too_large');
          this.fail(
            rtError(
              'PAYLOAD_TOO_LARGE',
              `the binary section of request ${describeValue(event['id'])} declares ${declared} bytes, more than max_message_bytes ${this.ctx.limits.max_message_bytes}`,
            ),
            WS_CLOSE.MESSAGE_TOO_BIG,
          );
          return;
        }
        this.pendingBinary = { event, expected: declared, frames: [], received: 0 };
        return;
      }
      case 'cancel': {
        const id = event['id'];
        if (typeof id !== 'string' || id.length === 0 || id.length > WS_MAX_ID_LENGTH) {
          throw rtError('BAD_REQUEST', `a cancel event needs the 'id' of a request, got ${describeValue(id)}`);
        }
        this.session.cancel(id);
        return;
      }
      case 'session.update': {
        const patch = event['session'];
        if (!isPlainObject(patch)) throw rtError('BAD_REQUEST', `session.update needs a 'session' object, got ${describeValue(patch)}`);
        for (const key of Object.keys(patch)) {
          if (key !== 'binary_outputs') throw rtError('BAD_REQUEST', `session.update: '${key}' cannot be changed (patchable: binary_outputs)`);
        }
        const binary = patch['binary_outputs'];
        if (binary !== undefined && typeof binary !== 'boolean')
          throw rtError('BAD_REQUEST', `session.update: 'binary_outputs' must be a boolean, got ${describeValue(binary)}`);
        if (binary !== undefined) this.session.binaryOutputs = binary;
        this.sendJson({ type: 'session.updated', session: this.session.info() });
        return;
      }
      case 'ping': {
        const id = event['id'];
        this.sendJson(typeof id === 'string' ? { type: 'pong', id } : { type: 'pong' });
        return;
      }
      case 'keepalive':
        return;
      case 'resume':
        this.resume(event, clientEventId);
        return;
      default:
        throw rtError('BAD_REQUEST', `unknown event type ${describeValue(type)} (expected infer, cancel, session.update, ping, keepalive or resume)`);
    }
  }

  private onBinary(data: Buffer): void {
    const pending = this.pendingBinary;
    if (pending === undefined) {
      this.refuse(rtError('BAD_REQUEST', `a binary frame of ${data.byteLength} bytes arrived with no infer event waiting for binary data`));
      return;
    }
    pending.frames.push(data);
    pending.received += data.byteLength;
    if (pending.received < pending.expected) return;
    this.pendingBinary = undefined;
    if (pending.received > pending.expected) {
      this.session.submit(
        pending.event,
        undefined,
        rtError('BAD_DATA', `the binary frames carry ${pending.received} bytes but the inputs' binary_data_size add up to ${pending.expected}`),
      );
      return;
    }
    const section = pending.frames.length === 1 ? (pending.frames[0] as Uint8Array) : Buffer.concat(pending.frames);
    this.session.submit(pending.event, section);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Resume (docs/ws-protocol.md "Resume")

  private resume(event: Record<string, unknown>, clientEventId: string | undefined): void {
    if (this.clientEvents !== 1 || this.session.inFlight > 0) {
      throw rtError('BAD_REQUEST', 'resume must be the first event on a new connection');
    }
    const sid = event['session'];
    if (typeof sid !== 'string' || sid.length === 0)
      throw rtError('BAD_REQUEST', `resume needs the 'session' id to resume, got ${describeValue(sid)}`);
    const rawAfter = event['after'] ?? {};
    if (!isPlainObject(rawAfter))
      throw rtError('BAD_REQUEST', `resume: 'after' must map request ids to the last seq received, got ${describeValue(rawAfter)}`);
    const after = new Map<string, number>();
    for (const [id, seq] of Object.entries(rawAfter)) {
      if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) {
        throw rtError('BAD_REQUEST', `resume: after['${id}'] must be a non-negative integer seq, got ${describeValue(seq)}`);
      }
      after.set(id, seq);
    }
    const old = this.ctx.store.get(sid);
    const subject = this.session.principal.subject;
    if (old === undefined && this.ctx.journal !== undefined && after.size > 0 && sid.length <= WS_MAX_ID_LENGTH) {
      // Not held here: maybe a session of another replica (or of one that died), from the shared journal.
      this.held = [];
      this.adopt(sid, after, clientEventId)
        .catch((err: unknown) => {
          // The journal is away (Redis down): the session cannot be resumed here, as if unknown.
          this.ctx.logger.warn({ session: sid, err: err instanceof Error ? err.message : String(err) }, 'WebSocket journal: resume lookup failed');
          this.resumeExpired(sid, clientEventId);
        })
        .finally(() => {
          const held = this.held ?? [];
          this.held = undefined;
          for (const [data, isBinary] of held) this.onMessage(data, isBinary);
        });
      return;
    }
    if (old === undefined || old === this.session || old.isDestroyed || old.principal.subject !== subject) {
      this.resumeExpired(sid, clientEventId);
      return;
    }
    const previous = old.attachedSink;
    if (previous instanceof WsConnection) previous.takenOver();
    const requests = this.switchTo(old).takeOver(this, after);
    this.sendJson({ type: 'session.resumed', session: old.info(), limits: this.ctx.limits, requests });
    old.replayListed(after, (id) => this.requestExpired(old, id));
  }

  /** Resumes session `sid` of another replica from the journal: the requests of `after` that it has for this principal. */
  private async adopt(sid: string, after: ReadonlyMap<string, number>, clientEventId: string | undefined): Promise<void> {
    const journal = this.ctx.journal;
    if (journal === undefined) return;
    const subject = this.session.principal.subject;
    const found = new Map<string, FoundWsRequest>();
    await Promise.all(
      [...after.keys()].map(async (id) => {
        const request = await findWsRequest(journal, sid, id, subject ?? '');
        if (request !== undefined) found.set(id, request);
      }),
    );
    if (this.closed) return;
    if (found.size === 0 || this.ctx.store.get(sid) !== undefined) {
      this.resumeExpired(sid, clientEventId);
      return;
    }
    const adopted = new WsSession(this.ctx, this.session.principal, this.session.remoteAddress, sid);
    adopted.binaryOutputs = [...found.values()][0]?.body.binaryOutputs === true;
    this.ctx.store.add(adopted);
    this.switchTo(adopted).attach(this);
    this.sendJson({ type: 'session.resumed', session: adopted.info(), limits: this.ctx.limits, requests: found.size });
    const expired = (id: string): void => this.requestExpired(adopted, id);
    for (const [id, seq] of after) {
      const request = found.get(id);
      if (request === undefined) expired(id);
      else adopted.resumeFromJournal(id, seq, expired, request);
    }
  }

  /** This connection continues `session` (its own fresh one ends). */
  private switchTo(session: WsSession): WsSession {
    const fresh = this.session;
    this.session = session;
    fresh.destroy();
    return session;
  }

  private resumeExpired(sid: string, clientEventId: string | undefined): void {
    this.refuse(
      rtError(
        'RESUME_EXPIRED',
        `session '${sid}' cannot be resumed: it is unknown or its resume window (${this.ctx.limits.resume_window_ms} ms) has passed; this connection continues as session '${this.session.id}'`,
      ),
      'session',
      clientEventId,
    );
  }

  private requestExpired(session: WsSession, id: string): void {
    if (this.session !== session) return;
    this.sendJson({
      type: 'error',
      id,
      error: wsErrorBody(
        rtError(
          'RESUME_EXPIRED',
          `request '${id}' cannot be resumed: it is unknown to session '${session.id}' or the events after the given seq were evicted from the replay buffer`,
        ),
      ),
    });
  }

  /** Another connection resumed this one's session: stop delivering and close. */
  takenOver(): void {
    this.closed = true;
    this.stopTimers();
    this.ws.close(WS_CLOSE.NORMAL, 'session resumed on another connection');
  }

  // ------------------------------------------------------------------------------------------------------------
  // Writing

  private nextEventId(): string {
    return `e${++this.eventCounter}`;
  }

  private sendJson(body: { readonly type: string } & Record<string, unknown>): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    const { type, ...rest } = body;
    this.ws.send(JSON.stringify({ type, event_id: this.nextEventId(), ...rest }), { binary: false });
    this.boundQueue();
  }

  refuse(err: RtError, param?: string, clientEventId?: string): void {
    this.sendJson({
      type: 'error',
      ...(clientEventId === undefined ? {} : { client_event_id: clientEventId }),
      error: wsErrorBody(err, param),
    });
  }

  deliver(entry: WsRequestEntry, event: StreamEvent): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    const source = { id: entry.id, mode: entry.stream.mode, encoding: entry.encoding };
    this.send(encodeWsEvent(source, event, this.nextEventId(), this.ctx.logger));
  }

  deliverJournaled(chunk: string): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.send(fromJournalChunk(chunk, this.nextEventId()));
  }

  /**
   * The events written in one tick (an event's JSON and binary frames; every result of a batch, which the scheduler
   * answers together) leave in one write: the socket stays corked until the tick's work is done. ws corks each
   * frame's header and payload the same way, and cork/uncork nest. One writev per tick instead of one per frame was
   * the largest syscall cut on the WS path (bench/results/cpu-budget-after-2026-12-02.md).
   */
  private corkTick(): void {
    const socket = this.socket;
    if (socket === undefined || this.corked) return;
    this.corked = true;
    socket.cork();
    process.nextTick(() => {
      this.corked = false;
      socket.uncork();
    });
  }

  private send(encoded: EncodedWsEvent): void {
    this.corkTick();
    this.ws.send(encoded.json, { binary: false });
    for (const chunk of encoded.binary) this.ws.send(chunk, { binary: true });
    this.boundQueue();
  }

  /**
   * The bound on what waits unread, after every event written (results and errors alike: a client that never
   * reads while it sends bad events must not queue their error events without end): past 4 × max_buffered_bytes
   * a last error event and close 4429.
   */
  private boundQueue(): void {
    if (this.closed || this.ws.bufferedAmount <= HARD_BUFFER_FACTOR * this.ctx.limits.max_buffered_bytes) return;
    this.ctx.onSlowClient?.('ws_closed');
    this.fail(
      rtError(
        'SLOW_CONSUMER',
        `the client reads too slowly: ${this.ws.bufferedAmount} bytes are queued on the socket (limit ${HARD_BUFFER_FACTOR} × max_buffered_bytes ${this.ctx.limits.max_buffered_bytes}); resume the session to get the rest`,
      ),
    );
  }

  /** A fatal error: an error event, then the close code the registry gives its category. */
  fail(err: RtError, closeCode = err.wsCloseCode): void {
    if (this.closed) return;
    // Closed before the error event is written, so that write is not bounded again (boundQueue).
    this.closed = true;
    this.refuse(err);
    this.stopTimers();
    this.ws.close(closeCode, WS_CLOSE_REASON_SEE_ERROR);
  }

  /** Server shutdown: 1001 going away (RFC 6455 §7.4.1). */
  goAway(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopTimers();
    this.ws.close(WS_CLOSE.GOING_AWAY, 'server shutting down');
  }

  // ------------------------------------------------------------------------------------------------------------
  // Timers

  private heartbeat(): void {
    if (this.awaitingPong) {
      // No pong since the last ping: the peer or the path is gone. The session stays resumable.
      this.stopTimers();
      this.ws.terminate();
      return;
    }
    this.awaitingPong = true;
    if (this.ws.readyState === this.ws.OPEN) this.ws.ping();
  }

  private scheduleIdleCheck(delayMs: number): void {
    this.idleTimer = setTimeout(() => this.checkIdle(), delayMs);
    this.idleTimer.unref();
  }

  private checkIdle(): void {
    if (this.closed) return;
    const limit = this.ctx.limits.idle_timeout_ms;
    const idleFor = Date.now() - this.lastActivityMs;
    if (this.session.inFlight === 0 && idleFor >= limit) {
      this.fail(
        rtError(
          'IDLE_TIMEOUT',
          `the connection was idle for ${limit} ms (no request in flight and no client message); send keepalive events to keep it open`,
        ),
      );
      return;
    }
    this.scheduleIdleCheck(this.session.inFlight > 0 ? limit : Math.max(1, limit - idleFor));
  }

  private stopTimers(): void {
    if (this.heartbeatTimer !== undefined) clearInterval(this.heartbeatTimer);
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.heartbeatTimer = undefined;
    this.idleTimer = undefined;
  }

  private onClose(code: number): void {
    const initiatedHere = this.closed;
    this.closed = true;
    this.stopTimers();
    this.pendingBinary = undefined;
    // A client that says goodbye (1000 normal closure, 1001 going away) has nothing to resume: end its session
    // now rather than holding its buffers for the resume window. Drops (1006) and our own error closes keep it.
    if (!initiatedHere && (code === 1000 || code === 1001) && this.session.attachedSink === this) this.session.destroy();
    else this.session.detach(this);
    this.onClosed(this);
  }
}

/** Sum of the inputs' `parameters.binary_data_size` (malformed values are left for the decoder to report). */
function declaredBinaryBytes(inputs: unknown): number {
  if (!Array.isArray(inputs)) return 0;
  let total = 0;
  for (const input of inputs) {
    if (!isPlainObject(input)) continue;
    const p = input['parameters'];
    if (!isPlainObject(p)) continue;
    const size = p['binary_data_size'];
    if (typeof size === 'number' && Number.isSafeInteger(size) && size > 0) total += size;
  }
  return total;
}
