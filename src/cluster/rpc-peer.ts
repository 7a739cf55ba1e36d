/**
 * Calls in both directions over one FrameChannel (docs/workers.md): a call is a message `{c: id, m: method, a: args}`
 * with binary parts; its answer `{r: id, v: value}` or `{r: id, e: error}`; a call may first stream items
 * `{s: id, v}` (inferStream). A notification `{m, a}` has no id and no answer. Errors cross as their RtError code
 * and message, so a front end answers a worker's request exactly as the single process would.
 */
import { type RtError, rtError, toRtError, type ErrorCode } from '../errors/registry.ts';
import type { FrameChannel, FrameHead } from './frame-channel.ts';
import { shareAbortSignal } from '../util/abort-watch.ts';

/** Spare controllers kept for calls of `reusesSignals` methods (at most this many; more are left to the GC). */
const SPARE_CONTROLLERS = 256;

/** A value with the binary parts that travel beside its JSON. */
export interface Payload {
  readonly value: unknown;
  readonly parts?: readonly Uint8Array[];
}

export interface Incoming {
  readonly value: unknown;
  readonly parts: Uint8Array[];
  /** The fresh buffer holding `parts` (undefined when there are none): it belongs to this message alone. */
  readonly frameBuffer: ArrayBuffer | undefined;
}

interface WireError {
  readonly code: string;
  readonly message: string;
  readonly retryAfterMs?: number;
}

export function errorToWire(err: unknown): WireError {
  const e = toRtError(err);
  return { code: e.code, message: e.message, ...(e.retryAfterMs === undefined ? {} : { retryAfterMs: e.retryAfterMs }) };
}

export function errorFromWire(w: WireError): RtError {
  return rtError(w.code as ErrorCode, w.message, w.retryAfterMs === undefined ? {} : { retryAfterMs: w.retryAfterMs });
}

/** What a call's handler gets besides its arguments. */
export interface CallContext {
  /** Aborted when the caller cancels the call or the channel closes. */
  readonly signal: AbortSignal;
  /** Sends one streamed item ahead of the answer. */
  item(payload: Payload): void;
}

export type CallHandler = (method: string, args: Incoming, ctx: CallContext) => Promise<Payload>;

interface Pending {
  resolve(v: Incoming): void;
  reject(e: RtError): void;
  item?: (v: Incoming) => void;
}

export class RpcPeer {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly serving = new Map<number, AbortController>();
  private closedError: RtError | undefined;
  /** Controllers of finished calls that were never aborted, for the next calls of `reusesSignals` methods. */
  private readonly spare: AbortController[] = [];
  /** Notifications (`notify` on the other side). */
  onNotify: (method: string, args: Incoming) => void = () => {};
  /** Called once when the channel closes, after every pending call was rejected and every served call aborted. */
  onClose: (reason: RtError) => void = () => {};

  constructor(
    readonly channel: FrameChannel,
    private readonly handler: CallHandler,
    /** The error pending calls get when the channel closes. */
    closedError: () => RtError,
    /**
     * Methods whose handlers let go of `ctx.signal` when they answer (they watch it with util/abort-watch.ts and
     * stop watching when done, as the core does for a REST connection's signal): a call of one of these gets the
     * signal of an earlier call that finished without being aborted, instead of a new AbortController (node's
     * costs a few µs to create, a large share of the owner's work per request).
     */
    private readonly reusesSignals: ReadonlySet<string> = new Set(),
  ) {
    channel.onMessage = (head, parts, frameBuffer) => this.message(head, { value: head['a'] ?? head['v'], parts, frameBuffer });
    channel.onClose = () => {
      const err = closedError();
      this.closedError = err;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
      for (const c of this.serving.values()) c.abort(err);
      this.serving.clear();
      this.onClose(err);
    };
  }

  get closed(): boolean {
    return this.closedError !== undefined;
  }

  /** Calls `method` on the other side; `onItem` receives streamed items. Aborting `signal` cancels it there. */
  call(method: string, payload: Payload, options: { signal?: AbortSignal; onItem?: (v: Incoming) => void } = {}): Promise<Incoming> {
    if (this.closedError !== undefined) return Promise.reject(this.closedError);
    const id = this.nextId++;
    return new Promise<Incoming>((resolve, reject) => {
      const signal = options.signal;
      const onAbort = (): void => {
        this.channel.send({ x: id });
      };
      const done = (): void => {
        this.pending.delete(id);
        signal?.removeEventListener('abort', onAbort);
      };
      this.pending.set(id, {
        resolve: (v) => {
          done();
          resolve(v);
        },
        reject: (e) => {
          done();
          reject(e);
        },
        ...(options.onItem === undefined ? {} : { item: options.onItem }),
      });
      this.channel.send({ c: id, m: method, a: payload.value }, payload.parts);
      if (signal !== undefined) {
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }
    });
  }

  notify(method: string, payload: Payload): boolean {
    return this.channel.send({ m: method, a: payload.value }, payload.parts);
  }

  private message(head: FrameHead, incoming: Incoming): void {
    const c = head['c'];
    if (typeof c === 'number') {
      this.serve(c, String(head['m']), incoming);
      return;
    }
    const r = head['r'];
    if (typeof r === 'number') {
      const p = this.pending.get(r);
      if (p === undefined) return;
      const e = head['e'] as WireError | undefined;
      if (e !== undefined) p.reject(errorFromWire(e));
      else p.resolve(incoming);
      return;
    }
    const s = head['s'];
    if (typeof s === 'number') {
      this.pending.get(s)?.item?.(incoming);
      return;
    }
    const x = head['x'];
    if (typeof x === 'number') {
      this.serving.get(x)?.abort(rtError('CANCELLED', 'the client cancelled the request'));
      return;
    }
    if (typeof head['m'] === 'string') this.onNotify(head['m'], incoming);
  }

  private serve(id: number, method: string, incoming: Incoming): void {
    const reuse = this.reusesSignals.has(method);
    const controller = (reuse ? this.spare.pop() : undefined) ?? newController(reuse);
    this.serving.set(id, controller);
    const ctx: CallContext = {
      signal: controller.signal,
      item: (p) => {
        this.channel.send({ s: id, v: p.value }, p.parts);
      },
    };
    const finished = (): void => {
      this.serving.delete(id);
      if (reuse && !controller.signal.aborted && this.closedError === undefined && this.spare.length < SPARE_CONTROLLERS) this.spare.push(controller);
    };
    let answer: Promise<Payload>;
    try {
      answer = this.handler(method, incoming, ctx);
    } catch (err) {
      answer = Promise.reject(err);
    }
    answer.then(
      (p) => {
        finished();
        this.channel.send({ r: id, v: p.value }, p.parts);
      },
      (err: unknown) => {
        finished();
        this.channel.send({ r: id, e: errorToWire(err) });
      },
    );
  }
}

/** A controller whose signal is watched through util/abort-watch.ts's shared listener when it will be reused. */
function newController(shared: boolean): AbortController {
  const c = new AbortController();
  if (shared) shareAbortSignal(c.signal);
  return c;
}
