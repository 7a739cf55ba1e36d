/**
 * The SDK's REST transport: KServe v2 over HTTP with Triton's binary tensor data extension (docs/protocol.md §2.3) for
 * inference, the metadata and health endpoints, and streaming over SSE (`generate_stream` in its KServe form,
 * with Last-Event-ID resume after a dropped connection; docs/ws-protocol.md "SSE"). Uses `fetch` only, so it
 * runs in browsers and Node alike.
 */
import type { ModelConfig } from '../../../src/config/model-config.ts';
import type { ModelMetadata, RepositoryIndexEntry, ServerMetadata } from '../../../src/api/inference-api.ts';
import type { Parameters, RequestedOutput } from '../../../src/api/types.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import { decodeInferResponse, encodeInferRequest } from '../../../src/codec/kserve-client-codec.ts';
import { encodeWireTensor } from '../../../src/codec/wire-tensor.ts';
import { errorFromHttp, RtserveError } from './errors.ts';
import { readSse } from './sse-reader.ts';
import { InferResult } from './tensors.ts';

export interface RestRequestOptions {
  readonly version?: string;
  readonly id?: string;
  readonly outputs?: readonly RequestedOutput[];
  readonly parameters?: Parameters;
  readonly signal?: AbortSignal;
}

export interface RestTransportOptions {
  /** Base URL, e.g. http://127.0.0.1:8000 */
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly fetch?: typeof fetch;
  /** Send inputs and ask for outputs as binary data (default true). */
  readonly binary?: boolean;
  /** SSE reconnects (with Last-Event-ID) after a dropped stream before giving up (default 5). */
  readonly sseReconnectAttempts?: number;
}

const enc = encodeURIComponent;

export class RestTransport {
  private readonly base: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: RestTransportOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  private modelPath(model: string, version: string | undefined): string {
    return `${this.base}${this.modelPathOf(model, version)}`;
  }

  private async call(url: string, init: RequestInit = {}): Promise<Response> {
    let res: Response;
    try {
      res = await this.fetchFn(url, { ...init, headers: { ...this.options.headers, ...(init.headers as Record<string, string> | undefined) } });
    } catch (err) {
      if (init.signal?.aborted === true) throw new RtserveError('CANCELLED', 'the request was cancelled', { category: 'CANCELLED', cause: err });
      throw new RtserveError('UNAVAILABLE', `cannot reach ${this.base}: ${(err as Error).message}`, {
        category: 'UNAVAILABLE',
        retryable: true,
        cause: err,
      });
    }
    return res;
  }

  private async json<T>(url: string, init: RequestInit = {}): Promise<T> {
    const res = await this.call(url, init);
    const text = await res.text();
    const body: unknown = text === '' ? undefined : JSON.parse(text);
    if (!res.ok) throw errorFromHttp(res.status, body, res.headers.get('retry-after'));
    return body as T;
  }

  private async ok(url: string, signal: AbortSignal | undefined): Promise<boolean> {
    const res = await this.call(url, signal === undefined ? {} : { signal });
    await res.arrayBuffer();
    return res.ok;
  }

  /** A JSON call on the REST API, `path` from the base URL (the control calls of server-calls.ts use it). */
  requestJson<T>(method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    return this.json(`${this.base}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      ...(signal === undefined ? {} : { signal }),
    });
  }

  /** `/v2/models/<model>[/versions/<version>]`, for requestJson. */
  modelPathOf(model: string, version?: string): string {
    return `/v2/models/${enc(model)}${version === undefined ? '' : `/versions/${enc(version)}`}`;
  }

  isServerLive(signal?: AbortSignal): Promise<boolean> {
    return this.ok(`${this.base}/v2/health/live`, signal);
  }
  isServerReady(signal?: AbortSignal): Promise<boolean> {
    return this.ok(`${this.base}/v2/health/ready`, signal);
  }
  isModelReady(model: string, version?: string, signal?: AbortSignal): Promise<boolean> {
    return this.ok(`${this.modelPath(model, version)}/ready`, signal);
  }
  serverMetadata(signal?: AbortSignal): Promise<ServerMetadata> {
    return this.requestJson('GET', '/v2', undefined, signal);
  }
  modelMetadata(model: string, version?: string, signal?: AbortSignal): Promise<ModelMetadata> {
    return this.requestJson('GET', this.modelPathOf(model, version), undefined, signal);
  }
  modelConfig(model: string, version?: string, signal?: AbortSignal): Promise<ModelConfig> {
    return this.requestJson('GET', `${this.modelPathOf(model, version)}/config`, undefined, signal);
  }
  repositoryIndex(readyOnly = false, signal?: AbortSignal): Promise<RepositoryIndexEntry[]> {
    return this.requestJson('POST', '/v2/repository/index', { ready: readyOnly }, signal);
  }

  /** POST /infer, binary tensor data both ways unless `binary: false`. */
  async infer(model: string, inputs: readonly Tensor[], opts: RestRequestOptions = {}): Promise<InferResult> {
    const binary = this.options.binary ?? true;
    const parameters: Parameters | undefined = binary ? { binary_data_output: true, ...opts.parameters } : opts.parameters;
    const encoded = encodeInferRequest(inputs, {
      binary,
      ...(opts.id === undefined ? {} : { id: opts.id }),
      ...(parameters === undefined ? {} : { parameters }),
      ...(opts.outputs === undefined ? {} : { outputs: opts.outputs }),
    });
    const headers: Record<string, string> = { 'content-type': encoded.headerLength === undefined ? 'application/json' : 'application/octet-stream' };
    if (encoded.headerLength !== undefined) headers['inference-header-content-length'] = String(encoded.headerLength);
    const res = await this.call(`${this.modelPath(model, opts.version)}/infer`, {
      method: 'POST',
      headers,
      body: encoded.body as Uint8Array<ArrayBuffer>,
      ...(opts.signal === undefined ? {} : { signal: opts.signal }),
    });
    const body = new Uint8Array(await res.arrayBuffer());
    if (!res.ok) throw errorFromHttp(res.status, parseJsonOrUndefined(body), res.headers.get('retry-after'));
    const hl = res.headers.get('inference-header-content-length');
    return new InferResult(decodeInferResponse(body, hl === null ? undefined : Number(hl)));
  }

  /**
   * Streams a request over SSE (generate_stream, KServe form): one InferResult per response. A dropped
   * connection is resumed with Last-Event-ID, so no response is lost or repeated.
   */
  async *stream(model: string, inputs: readonly Tensor[], opts: RestRequestOptions = {}): AsyncGenerator<InferResult> {
    const chunks: Uint8Array[] = [];
    let text = '{';
    if (opts.id !== undefined) text += `"id":${JSON.stringify(opts.id)},`;
    if (opts.parameters !== undefined) text += `"parameters":${JSON.stringify(opts.parameters)},`;
    text += `"inputs":[${inputs.map((t) => encodeWireTensor('input', t, false, chunks)).join(',')}]`;
    if (opts.outputs !== undefined) text += `,"outputs":${JSON.stringify(opts.outputs)}`;
    text += '}';
    const url = `${this.modelPath(model, opts.version)}/generate_stream`;
    let lastEventId: string | undefined;
    let attempts = 0;
    const maxAttempts = this.options.sseReconnectAttempts ?? 5;
    for (;;) {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
      if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
      const res = await this.call(url, {
        method: 'POST',
        headers,
        body: lastEventId === undefined ? text : '',
        ...(opts.signal === undefined ? {} : { signal: opts.signal }),
      });
      if (!res.ok || res.body === null) {
        const body = new Uint8Array(await res.arrayBuffer());
        throw errorFromHttp(res.status, parseJsonOrUndefined(body), res.headers.get('retry-after'));
      }
      try {
        for await (const msg of readSse(res.body)) {
          attempts = 0;
          if (msg.id !== undefined) lastEventId = msg.id;
          if (msg.event === 'done') return;
          if (msg.event === 'error') {
            const body = JSON.parse(msg.data) as Record<string, unknown>;
            const e = errorFromHttp(0, body, null);
            const retryAfter = body['retry_after_ms'];
            throw new RtserveError(e.code, e.message, {
              ...(e.category === undefined ? {} : { category: e.category }),
              retryable: body['retryable'] === true,
              ...(typeof retryAfter === 'number' ? { retryAfterMs: retryAfter } : {}),
            });
          }
          yield new InferResult(decodeInferResponse(new TextEncoder().encode(msg.data)));
        }
      } catch (err) {
        if (err instanceof RtserveError || opts.signal?.aborted === true) throw err;
        // The connection broke mid-stream: resume below.
      }
      if (opts.signal?.aborted === true) throw new RtserveError('CANCELLED', 'the stream was cancelled', { category: 'CANCELLED' });
      if (lastEventId === undefined || ++attempts > maxAttempts) {
        throw new RtserveError('UNAVAILABLE', 'the event stream ended before its done event', { category: 'UNAVAILABLE', retryable: true });
      }
    }
  }
}

function parseJsonOrUndefined(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}
