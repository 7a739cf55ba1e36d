/**
 * KServe v2 REST load clients (docs/protocol.md §2.1): `http-json` sends and receives tensors as JSON `data`, `http-binary`
 * uses Triton's binary tensor data extension both ways (docs/protocol.md §2.3: inputs with binary_data_size, and
 * `binary_data_output: true` so outputs come back binary). Bodies are encoded once, before measuring.
 *
 * Three HTTP stacks: `net`, HTTP/1.1 written and parsed by the load generator itself over node:net keep-alive
 * connections (http1-pool.ts; the default: the leanest, as a load generator sharing the server's CPUs must be),
 * node:http with a keep-alive Agent, and the global fetch (undici). bench/http-client-overhead.ts compares them;
 * see docs/bench.md.
 */
import { Agent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { encodeHttp1Post, Http1Pool } from './http1-pool.ts';
import { decodeInferResponse, encodeInferRequest } from '../../codec/kserve-client-codec.ts';
import { BenchError, RequestFailure } from '../errors.ts';
import type { LoadClient, LoadClientFactory, LoadTarget } from './load-client.ts';
import { openSharedMemoryClient, type SharedMemoryRequest } from '../shared-memory.ts';

export type HttpStack = 'net' | 'node' | 'fetch';

interface PreparedBody {
  readonly body: Buffer;
  readonly headers: OutgoingHttpHeaders;
  /** The same bytes and headers in the shapes fetch takes. */
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly fetchHeaders: Readonly<Record<string, string>>;
}

function inferPath(target: LoadTarget): string {
  const m = encodeURIComponent(target.model);
  return target.version === undefined ? `/v2/models/${m}/infer` : `/v2/models/${m}/versions/${encodeURIComponent(target.version)}/infer`;
}

function prepareBodies(target: LoadTarget, binary: boolean, shm?: readonly SharedMemoryRequest[]): PreparedBody[] {
  const requests = shm ?? target.inputSets.map((inputs) => ({ inputs }));
  return requests.map((r) => {
    // Tensors in shared memory: a small JSON body naming the regions (there are no bytes to send as binary data).
    const enc =
      'sharedMemoryInputs' in r
        ? encodeInferRequest([], { binary: false, sharedMemoryInputs: r.sharedMemoryInputs, outputs: r.outputs })
        : encodeInferRequest(r.inputs, binary ? { binary: true, parameters: { binary_data_output: true } } : { binary: false });
    const body = Buffer.from(enc.body.buffer, enc.body.byteOffset, enc.body.byteLength);
    const headers: OutgoingHttpHeaders = {
      'content-type': enc.headerLength !== undefined ? 'application/octet-stream' : 'application/json',
      'content-length': body.byteLength,
    };
    if (enc.headerLength !== undefined) headers['inference-header-content-length'] = enc.headerLength;
    const fetchHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) if (k !== 'content-length') fetchHeaders[k] = String(v);
    // The encoder allocates a fresh (never shared) buffer: the cast only narrows the type for fetch's BodyInit.
    return { body, headers, bytes: enc.body as Uint8Array<ArrayBuffer>, fetchHeaders };
  });
}

/** The server's `{"error": "..."}` message, or the start of the body when it is not that shape. */
function errorMessage(body: Uint8Array): string {
  const text = new TextDecoder().decode(body);
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
  } catch {
    // not JSON
  }
  return text.slice(0, 200);
}

function checkResponse(status: number, body: Uint8Array, headerLength: string | undefined): void {
  if (status !== 200) throw new RequestFailure(`HTTP ${status}: ${errorMessage(body)}`);
  try {
    decodeInferResponse(body, headerLength === undefined ? undefined : Number(headerLength));
  } catch (err) {
    throw new RequestFailure(`undecodable response: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

function transportFailure(err: unknown): RequestFailure {
  if (err instanceof RequestFailure) return err;
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const code = typeof e.code === 'string' ? e.code : typeof e.cause?.code === 'string' ? e.cause.code : undefined;
  const message = typeof e.cause?.message === 'string' ? e.cause.message : typeof e.message === 'string' ? e.message : String(err);
  return new RequestFailure(`transport: ${code ?? message}`, { cause: err });
}

class NodeHttpClient implements LoadClient {
  private readonly agent: Agent;
  private readonly host: string;
  private readonly port: number;
  private readonly path: string;

  constructor(
    readonly protocol: string,
    target: LoadTarget,
    private readonly bodies: readonly PreparedBody[],
  ) {
    const url = new URL(target.url);
    if (url.protocol !== 'http:') throw new BenchError(`${protocol}: only http:// URLs are supported, got ${target.url}`);
    this.host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    this.port = url.port === '' ? 80 : Number(url.port);
    this.path = inferPath(target);
    // One socket per outstanding request, all kept alive: the measured path never opens a connection.
    this.agent = new Agent({
      keepAlive: true,
      maxSockets: target.concurrency,
      maxFreeSockets: target.concurrency,
      ...(target.timeoutMs === undefined ? {} : { timeout: target.timeoutMs }),
    });
  }

  send(seq: number): Promise<void> {
    const prepared = this.bodies[seq % this.bodies.length] as PreparedBody;
    return new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        { agent: this.agent, host: this.host, port: this.port, method: 'POST', path: this.path, headers: prepared.headers },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (err) => reject(transportFailure(err)));
          res.on('end', () => {
            const buf = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
            const hl = res.headers['inference-header-content-length'];
            try {
              checkResponse(res.statusCode ?? 0, new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), Array.isArray(hl) ? hl[0] : hl);
              resolve();
            } catch (err) {
              reject(err as Error);
            }
          });
        },
      );
      req.on('error', (err) => reject(transportFailure(err)));
      req.on('timeout', () => req.destroy(new Error('ETIMEDOUT')));
      req.end(prepared.body);
    });
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }
}

/** HTTP/1.1 over node:net (http1-pool.ts): each prepared body is encoded once with its request head. */
class NetHttpClient implements LoadClient {
  private readonly pool: Http1Pool;
  private readonly requests: readonly Buffer[];

  constructor(
    readonly protocol: string,
    target: LoadTarget,
    bodies: readonly PreparedBody[],
  ) {
    const url = new URL(target.url);
    if (url.protocol !== 'http:') throw new BenchError(`${protocol}: only http:// URLs are supported, got ${target.url}`);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = url.port === '' ? 80 : Number(url.port);
    const path = inferPath(target);
    this.requests = bodies.map((b) => encodeHttp1Post(url.host, path, b.fetchHeaders, b.bytes));
    // One connection per outstanding request, all kept alive: the measured path never opens a connection.
    this.pool = new Http1Pool(host, port, target.concurrency, target.timeoutMs);
  }

  async send(seq: number): Promise<void> {
    let res;
    try {
      res = await this.pool.request(this.requests[seq % this.requests.length] as Buffer);
    } catch (err) {
      throw transportFailure(err);
    }
    const body = res.body;
    checkResponse(res.status, new Uint8Array(body.buffer, body.byteOffset, body.byteLength), res.headers.get('inference-header-content-length'));
  }

  async close(): Promise<void> {
    this.pool.close();
  }
}

class FetchHttpClient implements LoadClient {
  private readonly url: string;

  constructor(
    readonly protocol: string,
    target: LoadTarget,
    private readonly bodies: readonly PreparedBody[],
    private readonly timeoutMs: number | undefined,
  ) {
    this.url = target.url.replace(/\/+$/, '') + inferPath(target);
  }

  async send(seq: number): Promise<void> {
    const prepared = this.bodies[seq % this.bodies.length] as PreparedBody;
    let res: Response;
    let body: Uint8Array;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: prepared.fetchHeaders,
        body: prepared.bytes,
        ...(this.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(this.timeoutMs) }),
      });
      body = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      throw transportFailure(err);
    }
    checkResponse(res.status, body, res.headers.get('inference-header-content-length') ?? undefined);
  }

  async close(): Promise<void> {
    // undici's global dispatcher owns the connections; nothing to release per client.
  }
}

function httpFactory(protocol: 'http-json' | 'http-binary', stack: HttpStack): LoadClientFactory {
  const binary = protocol === 'http-binary';
  const open = (target: LoadTarget, bodies: PreparedBody[]): LoadClient => {
    if (stack === 'net') return new NetHttpClient(protocol, target, bodies);
    return stack === 'node' ? new NodeHttpClient(protocol, target, bodies) : new FetchHttpClient(protocol, target, bodies, target.timeoutMs);
  };
  return {
    protocol,
    endpoint: 'http',
    sharedMemory: true,
    async create(target) {
      const shm = target.sharedMemory;
      if (shm !== undefined)
        return openSharedMemoryClient(target, shm.controlUrl, async (requests) => open(target, prepareBodies(target, binary, requests)));
      return open(target, prepareBodies(target, binary));
    },
  };
}

/** The REST factories for one HTTP stack (`net` by default). */
export function httpClientFactories(stack: HttpStack = 'net'): LoadClientFactory[] {
  return [httpFactory('http-json', stack), httpFactory('http-binary', stack)];
}
