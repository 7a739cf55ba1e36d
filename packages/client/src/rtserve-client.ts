/**
 * RtserveClient, the TypeScript SDK (docs/client-sdk.md): one client over REST (KServe v2 with binary tensor
 * data), WebSocket (docs/ws-protocol.md) and, in Node, gRPC — typed arrays in, typed arrays out; `infer`, `stream` (async
 * iterators over WebSocket or SSE), frame streams with latest-frame-wins, cancellation through AbortSignal,
 * automatic reconnect + resume on WebSocket, and the metadata and health calls.
 *
 * Browser-safe: no Node-only imports. In Node < 22 (no global WebSocket) use `createNodeClient` from
 * node.ts, which injects the `ws` package.
 */
import type { Parameters, RequestedOutput } from '../../../src/api/types.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import type { CallPolicy, RetryOptions } from './call-policy.ts';
import { RtserveError } from './errors.ts';
import { ServerCalls } from './server-calls.ts';
import { RestTransport } from './rest-transport.ts';
import { type InferResult, toTensors, type Inputs } from './tensors.ts';
import type { WebSocketFactory } from './websocket-like.ts';
import { WsTransport, type WsRequestEvent, type WsRequestSpec, type WsTransportOptions } from './ws-transport.ts';

export type TransportKind = 'rest' | 'ws' | 'grpc';

interface TransportCallOptions {
  readonly version?: string;
  readonly id?: string;
  readonly outputs?: readonly RequestedOutput[];
  readonly parameters?: Parameters;
  readonly signal?: AbortSignal;
}

/**
 * What the client needs of a gRPC transport. The implementation (grpc-transport.ts) imports `@grpc/grpc-js`, so
 * only the Node entry (createNodeClient with `grpcAddress`) plugs it in.
 */
export interface GrpcTransportLike {
  infer(model: string, inputs: readonly Tensor[], opts?: TransportCallOptions): Promise<InferResult>;
  stream(model: string, inputs: readonly Tensor[], opts?: TransportCallOptions): AsyncGenerator<InferResult>;
  close(): void;
}

export interface RtserveClientOptions {
  /** The server's HTTP base URL, e.g. http://127.0.0.1:8000 */
  readonly url: string;
  /** Transport for `infer` and `stream` (default 'rest'; 'grpc' needs `grpc`; frame streams always use WebSocket). */
  readonly transport?: TransportKind;
  /** Bearer token: `Authorization` on REST, a `rtserve.bearer.<token>` subprotocol on WebSocket. */
  readonly token?: string;
  /** Extra headers on REST calls. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly fetch?: typeof fetch;
  /** How to open WebSockets; default: the platform's WebSocket. */
  readonly webSocket?: WebSocketFactory;
  /** Whether the WebSocket factory sends the token itself (the Node entry sends an Authorization header). */
  readonly webSocketSendsToken?: boolean;
  /** Tensors as binary data (default true). */
  readonly binary?: boolean;
  readonly reconnect?: WsTransportOptions['reconnect'];
  /** The gRPC transport, for transport 'grpc' (createNodeClient builds one from `grpcAddress`). */
  readonly grpc?: GrpcTransportLike;
  /** Fail a call (infer and every REST call; not streams) with DEADLINE_EXCEEDED after this long; calls may override it. */
  readonly timeoutMs?: number;
  /** Retries of calls the server refused retryably (429, 503), after its Retry-After (call-policy.ts); default none. */
  readonly retry?: RetryOptions;
}

export interface InferOptions {
  readonly version?: string;
  /** Outputs to return (names, or KServe requested outputs with parameters); default all. */
  readonly outputs?: readonly (string | RequestedOutput)[];
  readonly parameters?: Parameters;
  readonly id?: string;
  /**
   * Aborting rejects the call with CANCELLED. Over WebSocket the server cancels the request at once (a queued
   * request leaves its queue); over REST the fetch is aborted and the server notices when the HTTP connection
   * closes.
   */
  readonly signal?: AbortSignal;
  /** Overrides the client's default transport. */
  readonly transport?: TransportKind;
  /** Overrides the client's `timeoutMs` for this call (`infer` only: a stream runs until it ends or is aborted). */
  readonly timeoutMs?: number;
}

export type FrameOutcome =
  | { readonly kind: 'result'; readonly id: string; readonly result: InferResult }
  | { readonly kind: 'dropped'; readonly id: string; readonly supersededBy: string }
  | { readonly kind: 'error'; readonly id: string; readonly error: RtserveError };

function requestedOutputs(outputs: InferOptions['outputs']): RequestedOutput[] | undefined {
  return outputs?.map((o) => (typeof o === 'string' ? { name: o } : o));
}

function cancelledError(): RtserveError {
  return new RtserveError('CANCELLED', 'the request was cancelled', { category: 'CANCELLED' });
}

/** An async queue fed by callbacks and drained by an async iterator. */
class EventQueue<T> {
  private readonly items: T[] = [];
  private wake: (() => void) | undefined;
  push(item: T): void {
    this.items.push(item);
    this.wake?.();
    this.wake = undefined;
  }
  async next(): Promise<T> {
    while (this.items.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
    return this.items.shift() as T;
  }
  get size(): number {
    return this.items.length;
  }
}

export class RtserveClient extends ServerCalls {
  readonly rest: RestTransport;
  protected readonly policy: CallPolicy;
  private wsTransport: WsTransport | undefined;

  constructor(private readonly options: RtserveClientOptions) {
    super();
    this.policy = {
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.retry === undefined ? {} : { retry: options.retry }),
    };
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
    this.rest = new RestTransport({
      url: options.url,
      headers,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(options.binary === undefined ? {} : { binary: options.binary }),
    });
  }

  /** The WebSocket transport (connects on first use). */
  get ws(): WsTransport {
    this.wsTransport ??= new WsTransport({
      url: this.options.url,
      ...(this.options.webSocket === undefined ? {} : { webSocket: this.options.webSocket }),
      ...(this.options.token === undefined || this.options.webSocketSendsToken === true ? {} : { token: this.options.token }),
      ...(this.options.binary === undefined ? {} : { binary: this.options.binary }),
      ...(this.options.reconnect === undefined ? {} : { reconnect: this.options.reconnect }),
    });
    return this.wsTransport;
  }

  // ---- inference

  /** One request, one answer, under the client's timeout and retry policy. */
  infer(model: string, inputs: Inputs, opts: InferOptions = {}): Promise<InferResult> {
    const tensors = toTensors(inputs);
    return this.run(opts, (signal) => this.inferOnce(model, tensors, { ...opts, ...(signal === undefined ? {} : { signal }) }));
  }

  private inferOnce(model: string, tensors: Tensor[], opts: InferOptions): Promise<InferResult> {
    const outputs = requestedOutputs(opts.outputs);
    const transport = opts.transport ?? this.options.transport ?? 'rest';
    if (transport === 'grpc') return this.grpc.infer(model, tensors, this.callOptions(opts, outputs));
    if (transport === 'rest') {
      return this.rest.infer(model, tensors, {
        ...(opts.version === undefined ? {} : { version: opts.version }),
        ...(opts.id === undefined ? {} : { id: opts.id }),
        ...(outputs === undefined ? {} : { outputs }),
        ...(opts.parameters === undefined ? {} : { parameters: opts.parameters }),
        ...(opts.signal === undefined ? {} : { signal: opts.signal }),
      });
    }
    return new Promise<InferResult>((resolve, reject) => {
      if (opts.signal?.aborted === true) {
        reject(cancelledError());
        return;
      }
      const handle = this.ws.request(this.spec(model, tensors, opts, outputs), (e) => {
        opts.signal?.removeEventListener('abort', onAbort);
        if (e.type === 'result') resolve(e.result);
        else if (e.type === 'error') reject(e.error);
        else reject(new RtserveError('INTERNAL', `unexpected '${e.type}' event for a single request`));
      });
      const onAbort = (): void => handle.cancel();
      opts.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Every response of a request as it is produced: over WebSocket (`delta` events) or, with transport 'rest',
   * over SSE. An ordinary model yields one result. Breaking out of the loop cancels the request.
   */
  async *stream(model: string, inputs: Inputs, opts: InferOptions = {}): AsyncGenerator<InferResult> {
    const tensors = toTensors(inputs);
    const outputs = requestedOutputs(opts.outputs);
    const transport = opts.transport ?? this.options.transport ?? 'rest';
    if (transport === 'grpc') {
      yield* this.grpc.stream(model, tensors, this.callOptions(opts, outputs));
      return;
    }
    if (transport === 'rest') {
      yield* this.rest.stream(model, tensors, {
        ...(opts.version === undefined ? {} : { version: opts.version }),
        ...(opts.id === undefined ? {} : { id: opts.id }),
        ...(outputs === undefined ? {} : { outputs }),
        ...(opts.parameters === undefined ? {} : { parameters: opts.parameters }),
        ...(opts.signal === undefined ? {} : { signal: opts.signal }),
      });
      return;
    }
    const queue = new EventQueue<WsRequestEvent>();
    let finished = false;
    const handle = this.ws.request({ ...this.spec(model, tensors, opts, outputs), stream: true }, (e) => queue.push(e));
    const onAbort = (): void => handle.cancel();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        const e = await queue.next();
        if (e.type === 'delta' || e.type === 'result') yield e.result;
        if (e.type === 'done' || e.type === 'result') {
          finished = true;
          return;
        }
        if (e.type === 'error') {
          finished = true;
          throw e.error;
        }
      }
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      if (!finished) handle.cancel();
    }
  }

  /**
   * A frame stream over WebSocket (docs/ws-protocol.md "Frame streams"): send frames as fast as they come;
   * the server runs the newest and drops superseded ones, and every frame gets exactly one outcome.
   */
  frameStream(model: string, name: string, opts: Omit<InferOptions, 'transport' | 'signal' | 'id'> = {}): FrameStream {
    return new FrameStream(this.ws, model, name, opts);
  }

  /** Closes the WebSocket (pending WebSocket requests fail with CANCELLED) and the gRPC channel. */
  close(): void {
    this.wsTransport?.close();
    this.options.grpc?.close();
  }

  private get grpc(): GrpcTransportLike {
    const g = this.options.grpc;
    if (g === undefined)
      throw new RtserveError('UNSUPPORTED', "transport 'grpc' needs a gRPC transport: create the client with createNodeClient({ grpcAddress })", {
        category: 'UNIMPLEMENTED',
      });
    return g;
  }

  private callOptions(opts: InferOptions, outputs: RequestedOutput[] | undefined): TransportCallOptions {
    return {
      ...(opts.version === undefined ? {} : { version: opts.version }),
      ...(opts.id === undefined ? {} : { id: opts.id }),
      ...(outputs === undefined ? {} : { outputs }),
      ...(opts.parameters === undefined ? {} : { parameters: opts.parameters }),
      ...(opts.signal === undefined ? {} : { signal: opts.signal }),
    };
  }

  private spec(model: string, tensors: WsRequestSpec['inputs'], opts: InferOptions, outputs: RequestedOutput[] | undefined): WsRequestSpec {
    return {
      model,
      inputs: tensors,
      ...(opts.version === undefined ? {} : { version: opts.version }),
      ...(opts.id === undefined ? {} : { id: opts.id }),
      ...(outputs === undefined ? {} : { outputs }),
      ...(opts.parameters === undefined ? {} : { parameters: opts.parameters }),
    };
  }
}

/** See RtserveClient.frameStream. Iterate it for outcomes; `close()` ends the iteration after the last one. */
export class FrameStream implements AsyncIterable<FrameOutcome> {
  private readonly queue = new EventQueue<FrameOutcome | undefined>();
  private counter = 0;
  private closed = false;
  private outstanding = 0;
  readonly stats = { sent: 0, results: 0, dropped: 0, errors: 0 };

  constructor(
    private readonly ws: WsTransport,
    readonly model: string,
    readonly name: string,
    private readonly opts: Omit<InferOptions, 'transport' | 'signal' | 'id'>,
  ) {}

  /** Frames sent whose outcome has not arrived yet. */
  get pending(): number {
    return this.outstanding;
  }

  /** Sends a frame; returns its id. */
  send(inputs: Inputs): string {
    if (this.closed) throw new RtserveError('BAD_REQUEST', `frame stream '${this.name}' is closed`, { category: 'INVALID_ARGUMENT' });
    const id = `${this.name}#${++this.counter}`;
    const outputs = requestedOutputs(this.opts.outputs);
    this.outstanding++;
    this.stats.sent++;
    this.ws.request(
      {
        model: this.model,
        inputs: toTensors(inputs),
        frameStream: this.name,
        id,
        ...(this.opts.version === undefined ? {} : { version: this.opts.version }),
        ...(outputs === undefined ? {} : { outputs }),
        ...(this.opts.parameters === undefined ? {} : { parameters: this.opts.parameters }),
      },
      (e) => this.onEvent(id, e),
    );
    return id;
  }

  private onEvent(id: string, e: WsRequestEvent): void {
    this.outstanding--;
    if (e.type === 'result') {
      this.stats.results++;
      this.queue.push({ kind: 'result', id, result: e.result });
    } else if (e.type === 'frame.dropped') {
      this.stats.dropped++;
      this.queue.push({ kind: 'dropped', id, supersededBy: e.supersededBy });
    } else if (e.type === 'error') {
      this.stats.errors++;
      this.queue.push({ kind: 'error', id, error: e.error });
    }
    if (this.closed && this.outstanding === 0) this.queue.push(undefined);
  }

  /** No more frames; the iteration ends once every sent frame has its outcome. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.outstanding === 0) this.queue.push(undefined);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<FrameOutcome> {
    for (;;) {
      const item = await this.queue.next();
      if (item === undefined) return;
      yield item;
    }
  }
}
