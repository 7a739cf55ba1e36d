/**
 * The SDK's WebSocket transport (protocol: docs/ws-protocol.md): one socket, many requests in flight keyed by
 * client ids, tensors as binary frames, and — when the socket drops — automatic reconnect with `resume`, so a
 * request's events arrive exactly once (the transport also drops any event whose `seq` it has already seen).
 * Requests that never reached the server before a drop are sent again on the new socket.
 *
 * Runs in browsers (globalThis.WebSocket) and in Node (a `ws` factory injected by node.ts); no
 * Node-only imports.
 */
import type { Parameters, RequestedOutput } from '../../../src/api/types.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import { BinarySection, decodeWireTensor, encodeWireTensor } from '../../../src/codec/wire-tensor.ts';
import {
  binaryOutputCount,
  WS_BEARER_PROTOCOL_PREFIX,
  WS_PATH,
  WS_SUBPROTOCOL,
  type WsErrorBody,
  type WsLimits,
  type WsWireOutput,
} from '../../../src/codec/ws-protocol.ts';
import { RtserveError } from './errors.ts';
import { InferResult } from './tensors.ts';
import { platformWebSocketFactory, WS_OPEN, type WebSocketFactory, type WebSocketLike } from './websocket-like.ts';

export interface WsTransportOptions {
  /** The server's HTTP base URL (http:// or https://; ws:// and wss:// work too). */
  readonly url: string;
  /** How to open a socket; default: the platform's WebSocket. */
  readonly webSocket?: WebSocketFactory;
  /** Sent as a `rtserve.bearer.<token>` subprotocol (browsers cannot send headers on a WebSocket). */
  readonly token?: string;
  /** Send inputs and ask for outputs as binary frames (default true). */
  readonly binary?: boolean;
  readonly reconnect?: {
    /** Attempts per outage before pending requests fail (default 8). */
    readonly attempts?: number;
    readonly initialDelayMs?: number;
    readonly maxDelayMs?: number;
  };
}

export interface WsRequestSpec {
  readonly model: string;
  readonly inputs: readonly Tensor[];
  readonly version?: string;
  readonly outputs?: readonly RequestedOutput[];
  readonly parameters?: Parameters;
  readonly stream?: boolean;
  readonly frameStream?: string;
  readonly id?: string;
}

/** What a request's handler receives, decoded. */
export type WsRequestEvent =
  | { readonly type: 'result' | 'delta'; readonly seq: number; readonly result: InferResult }
  | { readonly type: 'done'; readonly seq: number; readonly responses: number }
  | { readonly type: 'frame.dropped'; readonly seq: number; readonly frameStream: string; readonly supersededBy: string }
  | { readonly type: 'error'; readonly seq: number | undefined; readonly error: RtserveError };

export interface WsRequestHandle {
  readonly id: string;
  cancel(): void;
}

interface Pending {
  readonly id: string;
  readonly spec: WsRequestSpec;
  readonly handler: (e: WsRequestEvent) => void;
  /** Written to a socket of the current session. */
  sent: boolean;
  lastSeq: number;
}

type RawEvent = Record<string, unknown> & { type?: unknown };

export function errorFromWs(body: WsErrorBody | undefined, closeCode?: number): RtserveError {
  return new RtserveError(body?.code ?? 'INTERNAL', body?.message ?? 'unknown error', {
    ...(body?.category === undefined ? {} : { category: body.category }),
    retryable: body?.retryable ?? false,
    ...(body?.retry_after_ms === undefined ? {} : { retryAfterMs: body.retry_after_ms }),
    ...(closeCode === undefined ? {} : { closeCode }),
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class WsTransport {
  private readonly factory: WebSocketFactory;
  private readonly wsUrl: string;
  private socket: WebSocketLike | undefined;
  /** Resolves when a session is established on the current socket. */
  private ready: Promise<void> | undefined;
  private readonly pending = new Map<string, Pending>();
  private binaryWait: { event: RawEvent; frames: Uint8Array[]; left: number } | undefined;
  private counter = 0;
  private closedByUser = false;
  private session: string | undefined;
  private serverLimits: WsLimits | undefined;
  /** The fresh session a resuming socket was given, used when the old one cannot be resumed. */
  private pendingNewSession: string | undefined;
  /** Connections opened so far (1 + reconnects), for tests and diagnostics. */
  connections = 0;

  constructor(private readonly options: WsTransportOptions) {
    const factory = options.webSocket ?? platformWebSocketFactory();
    if (factory === undefined) {
      throw new RtserveError(
        'UNSUPPORTED',
        "this platform has no WebSocket: pass `webSocket` (in Node, use createNodeClient from the SDK's node entry)",
        { category: 'UNIMPLEMENTED' },
      );
    }
    this.factory = factory;
    this.wsUrl = `${options.url.replace(/\/+$/, '').replace(/^http/, 'ws')}${WS_PATH}`;
  }

  get sessionId(): string | undefined {
    return this.session;
  }
  get limits(): WsLimits | undefined {
    return this.serverLimits;
  }
  get inFlight(): number {
    return this.pending.size;
  }
  /** The current socket (tests use it to simulate a dropped connection). */
  get currentSocket(): WebSocketLike | undefined {
    return this.socket;
  }

  /** Sends a request; `handler` gets its events until (and including) the terminal one. */
  request(spec: WsRequestSpec, handler: (e: WsRequestEvent) => void): WsRequestHandle {
    if (this.closedByUser) throw new RtserveError('CANCELLED', 'the client is closed', { category: 'CANCELLED' });
    const id = spec.id ?? `c${++this.counter}`;
    if (this.pending.has(id)) throw new RtserveError('BAD_REQUEST', `request id '${id}' is already in flight`, { category: 'INVALID_ARGUMENT' });
    const p: Pending = { id, spec, handler, sent: false, lastSeq: 0 };
    this.pending.set(id, p);
    this.sendWhenReady(p);
    return { id, cancel: () => this.cancel(id) };
  }

  cancel(id: string): void {
    const p = this.pending.get(id);
    if (p === undefined) return;
    if (p.sent && this.socket?.readyState === WS_OPEN) {
      this.socket.send(JSON.stringify({ type: 'cancel', id }));
      return;
    }
    // Not on the wire (yet, or any more): end it here.
    this.finish(p, {
      type: 'error',
      seq: undefined,
      error: new RtserveError('CANCELLED', `request '${id}' was cancelled`, { category: 'CANCELLED' }),
    });
  }

  close(): void {
    this.closedByUser = true;
    const s = this.socket;
    this.socket = undefined;
    if (s !== undefined) s.close(1000, 'client closed');
    const err = new RtserveError('CANCELLED', 'the client was closed', { category: 'CANCELLED' });
    for (const p of [...this.pending.values()]) this.finish(p, { type: 'error', seq: undefined, error: err });
  }

  // ------------------------------------------------------------------------------------------------------------

  private sendWhenReady(p: Pending): void {
    this.ensureConnected().then(
      () => this.write(p),
      (err: unknown) =>
        this.finish(p, {
          type: 'error',
          seq: undefined,
          error: err instanceof RtserveError ? err : new RtserveError('UNAVAILABLE', String(err), { retryable: true }),
        }),
    );
  }

  private write(p: Pending): void {
    if (this.pending.get(p.id) !== p || p.sent) return;
    const s = this.socket;
    if (s === undefined || s.readyState !== WS_OPEN) {
      // The socket dropped between ready and now: the reconnect will send it.
      return;
    }
    const { spec } = p;
    const binary = this.options.binary ?? true;
    const chunks: Uint8Array[] = [];
    let text = `{"type":"infer","id":${JSON.stringify(p.id)},"model":${JSON.stringify(spec.model)}`;
    if (spec.version !== undefined) text += `,"version":${JSON.stringify(spec.version)}`;
    if (spec.stream === true) text += ',"stream":true';
    if (spec.frameStream !== undefined) text += `,"frame_stream":${JSON.stringify(spec.frameStream)}`;
    const parameters = binary ? { binary_data_output: true, ...spec.parameters } : spec.parameters;
    if (parameters !== undefined) text += `,"parameters":${JSON.stringify(parameters)}`;
    if (spec.outputs !== undefined) text += `,"outputs":${JSON.stringify(spec.outputs)}`;
    try {
      text += `,"inputs":[${spec.inputs.map((t) => encodeWireTensor('input', t, binary, chunks)).join(',')}]}`;
    } catch (err) {
      this.finish(p, {
        type: 'error',
        seq: undefined,
        error: new RtserveError('BAD_DATA', (err as Error).message, { category: 'INVALID_ARGUMENT', cause: err }),
      });
      return;
    }
    s.send(text);
    for (const c of chunks) s.send(c);
    p.sent = true;
  }

  private ensureConnected(): Promise<void> {
    if (this.ready !== undefined) return this.ready;
    this.ready = this.connectWithRetry(false);
    // A failed connect is reported to the waiting requests; the next request tries again.
    this.ready.catch(() => {
      this.ready = undefined;
    });
    return this.ready;
  }

  private async connectWithRetry(resume: boolean): Promise<void> {
    const attempts = this.options.reconnect?.attempts ?? 8;
    let delay = this.options.reconnect?.initialDelayMs ?? 100;
    const maxDelay = this.options.reconnect?.maxDelayMs ?? 5000;
    let lastError: unknown;
    for (let i = 0; i < attempts; i++) {
      if (this.closedByUser) throw new RtserveError('CANCELLED', 'the client was closed', { category: 'CANCELLED' });
      if (i > 0) {
        await sleep(delay);
        delay = Math.min(maxDelay, delay * 2);
      }
      try {
        await this.connectOnce(resume);
        return;
      } catch (err) {
        lastError = err;
        if (err instanceof RtserveError && !err.retryable && err.details.closeCode === undefined) throw err;
      }
    }
    throw new RtserveError('UNAVAILABLE', `cannot connect to ${this.wsUrl}: ${(lastError as Error | undefined)?.message ?? 'unknown error'}`, {
      category: 'UNAVAILABLE',
      retryable: true,
      cause: lastError,
    });
  }

  /** Opens a socket and establishes a session (fresh, or the old one resumed). */
  private connectOnce(resume: boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const protocols = [WS_SUBPROTOCOL];
      if (this.options.token !== undefined) protocols.push(`${WS_BEARER_PROTOCOL_PREFIX}${this.options.token}`);
      let s: WebSocketLike;
      try {
        s = this.factory(this.wsUrl, protocols);
      } catch (err) {
        reject(err);
        return;
      }
      this.connections++;
      s.binaryType = 'arraybuffer';
      let established = false;
      let resuming = false;
      const settle = (err?: RtserveError): void => {
        if (established) return;
        established = true;
        if (err === undefined) resolve();
        else reject(err);
      };
      s.onerror = () => {};
      s.onclose = (ev) => {
        if (this.socket === s) this.socket = undefined;
        this.binaryWait = undefined;
        if (!established) {
          settle(
            new RtserveError(
              'UNAVAILABLE',
              `the connection closed before the session started (${ev.code}${ev.reason === '' ? '' : ` ${ev.reason}`})`,
              { category: 'UNAVAILABLE', retryable: true, closeCode: ev.code },
            ),
          );
          return;
        }
        this.onSocketClosed(ev.code, ev.reason);
      };
      s.onmessage = (ev) => {
        if (typeof ev.data !== 'string') {
          this.onBinary(ev.data);
          return;
        }
        let event: RawEvent;
        try {
          event = JSON.parse(ev.data) as RawEvent;
        } catch {
          return;
        }
        if (!established) {
          if (event.type === 'session.created') {
            const oldSession = this.session;
            this.serverLimits = event['limits'] as WsLimits;
            const after = this.resumeCursor();
            if (resume && oldSession !== undefined && Object.keys(after).length > 0) {
              resuming = true;
              this.session = (event['session'] as { id: string }).id;
              s.send(JSON.stringify({ type: 'resume', session: oldSession, after }));
              // Until session.resumed, the ids stay in flight on the old session.
              this.pendingNewSession = this.session;
              this.session = oldSession;
              return;
            }
            this.session = (event['session'] as { id: string }).id;
            this.socket = s;
            this.onNewSession();
            settle();
            return;
          }
          if (resuming && event.type === 'session.resumed') {
            this.socket = s;
            settle();
            // Requests queued during the outage go out now; replays follow from the server.
            for (const p of this.pending.values()) if (!p.sent) this.write(p);
            return;
          }
          if (resuming && event.type === 'error' && event['id'] === undefined) {
            // The old session is gone (window passed): continue on the fresh one.
            this.session = this.pendingNewSession;
            this.socket = s;
            this.onNewSession(errorFromWs(event['error'] as WsErrorBody));
            settle();
            return;
          }
        }
        this.onEvent(event);
      };
    });
  }

  /** `after` for resume: the last seq seen of every request the old session has. */
  private resumeCursor(): Record<string, number> {
    const after: Record<string, number> = {};
    for (const p of this.pending.values()) if (p.sent) after[p.id] = p.lastSeq;
    return after;
  }

  /**
   * A fresh session: requests sent on an older one either never reached the server or are lost with it. Those
   * with no event yet are sent again (nothing was delivered, so nothing repeats); the others fail.
   */
  private onNewSession(lost?: RtserveError): void {
    for (const p of [...this.pending.values()]) {
      if (!p.sent) continue;
      if (p.lastSeq === 0 && p.spec.frameStream === undefined) {
        p.sent = false;
        continue;
      }
      this.finish(p, {
        type: 'error',
        seq: undefined,
        error: lost ?? new RtserveError('RESUME_EXPIRED', `request '${p.id}' was lost with its session`, { category: 'NOT_FOUND' }),
      });
    }
    for (const p of this.pending.values()) if (!p.sent) this.write(p);
  }

  private onSocketClosed(code: number, reason: string): void {
    this.ready = undefined;
    if (this.closedByUser) return;
    // Nothing in flight (e.g. the idle timeout, 4408): reconnect lazily on the next request.
    if (this.pending.size === 0) return;
    const reconnect = this.connectWithRetry(true);
    this.ready = reconnect;
    reconnect.catch((err: unknown) => {
      this.ready = undefined;
      const e = err instanceof RtserveError ? err : new RtserveError('UNAVAILABLE', `connection lost (${code} ${reason})`, { retryable: true });
      for (const p of [...this.pending.values()]) this.finish(p, { type: 'error', seq: undefined, error: e });
    });
  }

  private onBinary(data: unknown): void {
    const w = this.binaryWait;
    if (w === undefined) return;
    const bytes =
      data instanceof ArrayBuffer
        ? new Uint8Array(data)
        : ArrayBuffer.isView(data)
          ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
          : new Uint8Array(0);
    w.frames.push(bytes);
    if (--w.left > 0) return;
    this.binaryWait = undefined;
    this.dispatch(w.event, w.frames);
  }

  private onEvent(event: RawEvent): void {
    const outputs = event['outputs'];
    if ((event.type === 'result' || event.type === 'delta') && Array.isArray(outputs)) {
      const n = binaryOutputCount(outputs as WsWireOutput[]);
      if (n > 0) {
        this.binaryWait = { event, frames: [], left: n };
        return;
      }
    }
    this.dispatch(event, []);
  }

  private dispatch(event: RawEvent, frames: Uint8Array[]): void {
    const id = event['id'];
    if (typeof id !== 'string') return;
    const p = this.pending.get(id);
    if (p === undefined) return;
    const seq = typeof event['seq'] === 'number' ? event['seq'] : undefined;
    if (seq !== undefined) {
      // Exactly once: a replayed event the transport already delivered is dropped.
      if (seq <= p.lastSeq) return;
      p.lastSeq = seq;
    }
    switch (event.type) {
      case 'result':
      case 'delta': {
        let result: InferResult;
        try {
          result = decodeResult(event, frames);
        } catch (err) {
          this.finish(p, {
            type: 'error',
            seq,
            error: new RtserveError('BAD_DATA', `cannot decode the answer to '${id}': ${(err as Error).message}`, { cause: err }),
          });
          return;
        }
        if (event.type === 'result') this.finish(p, { type: 'result', seq: seq ?? 1, result });
        else p.handler({ type: 'delta', seq: seq ?? 0, result });
        return;
      }
      case 'done':
        this.finish(p, { type: 'done', seq: seq ?? 0, responses: Number(event['responses'] ?? 0) });
        return;
      case 'frame.dropped':
        this.finish(p, {
          type: 'frame.dropped',
          seq: seq ?? 1,
          frameStream: String(event['frame_stream']),
          supersededBy: String(event['superseded_by']),
        });
        return;
      case 'error': {
        const err = errorFromWs(event['error'] as WsErrorBody);
        // A per-id RESUME_EXPIRED for a request the server never saw: send it again (no event was delivered).
        if (err.code === 'RESUME_EXPIRED' && seq === undefined && p.lastSeq === 0 && p.spec.frameStream === undefined) {
          p.sent = false;
          this.write(p);
          return;
        }
        this.finish(p, { type: 'error', seq, error: err });
        return;
      }
      default:
        return;
    }
  }

  private finish(p: Pending, e: WsRequestEvent): void {
    if (this.pending.get(p.id) !== p) return;
    this.pending.delete(p.id);
    p.handler(e);
  }
}

function decodeResult(event: RawEvent, frames: Uint8Array[]): InferResult {
  const rawOutputs = event['outputs'] as unknown[];
  let k = 0;
  const empty = new BinarySection(undefined);
  const outputs = rawOutputs.map((raw, i) => {
    const hasBinary = typeof (raw as WsWireOutput).parameters?.['binary_data_size'] === 'number';
    const section = hasBinary ? new BinarySection(frames[k++]) : empty;
    const t = decodeWireTensor('output', i, raw, section);
    if (hasBinary) section.finish();
    return t;
  });
  const parameters = event['parameters'] as Parameters | undefined;
  return new InferResult({
    model_name: String(event['model_name']),
    model_version: String(event['model_version'] ?? ''),
    id: String(event['id']),
    ...(parameters === undefined ? {} : { parameters }),
    outputs,
  });
}
