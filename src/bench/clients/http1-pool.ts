/**
 * A lean HTTP/1.1 client for the REST load generator (the `net` stack of http-client.ts): keep-alive connections
 * over node:net, one request at a time on each, requests written as ready-made bytes (head and body in one write)
 * and responses parsed here (RFC 9112: status line, header fields, a body framed by Content-Length, chunked
 * transfer coding or the end of the connection). A load generator that shares the CPUs with the server it measures
 * must spend little per request; node:http's ClientRequest, Agent and stream machinery cost ~100 µs of CPU per
 * request on the 2-core development VM at the rates the conv model is served, this ~30-40 µs
 * (bench/results/hotpath-2026-11-30.md). perf_analyzer, the reference, is C++.
 */
import { connect, type Socket } from 'node:net';

export interface Http1Response {
  readonly status: number;
  /** Header fields by lowercase name (a repeated field keeps its last value). */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Buffer;
}

/** A transport failure; `code` is node's (ECONNRESET, ECONNREFUSED, ...) or ETIMEDOUT / EPROTO from here. */
export class Http1Error extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'Http1Error';
    this.code = code;
  }
}

/** Request bytes for `POST path` with these headers and body: the head and the body in one buffer. */
export function encodeHttp1Post(host: string, path: string, headers: Readonly<Record<string, string | number>>, body: Uint8Array): Buffer {
  let head = `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    if (/[\r\n]/.test(`${name}${value}`)) throw new TypeError(`header ${name}: line breaks are not allowed`);
    head += `${name}: ${value}\r\n`;
  }
  head += `Content-Length: ${body.byteLength}\r\n\r\n`;
  const headBytes = Buffer.from(head, 'latin1');
  const out = Buffer.allocUnsafe(headBytes.byteLength + body.byteLength);
  headBytes.copy(out, 0);
  out.set(body, headBytes.byteLength);
  return out;
}

/** Longest response head accepted (node's default --max-http-header-size is 16 KiB). */
const MAX_HEAD_BYTES = 64 * 1024;
const CRLFCRLF = Buffer.from('\r\n\r\n', 'latin1');

interface Pending {
  readonly resolve: (r: Http1Response) => void;
  readonly reject: (e: Http1Error) => void;
}

type Framing = { readonly kind: 'length'; readonly length: number } | { readonly kind: 'chunked' } | { readonly kind: 'close' };

class Connection {
  readonly socket: Socket;
  #pending: Pending | undefined;
  /** Bytes received for the current response and not consumed yet. */
  #chunks: Buffer[] = [];
  #bytes = 0;
  /** Set once the current response's head is parsed. */
  #head: { status: number; headers: Map<string, string>; framing: Framing; keepAlive: boolean } | undefined;
  #closed = false;

  constructor(
    host: string,
    port: number,
    private readonly timeoutMs: number | undefined,
    private readonly onDone: (c: Connection, reusable: boolean) => void,
  ) {
    this.socket = connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    this.socket.on('error', (err: NodeJS.ErrnoException) => this.#fail(new Http1Error(err.code ?? 'ECONNRESET', err.message, { cause: err })));
    this.socket.on('end', () => this.#onEnd());
    this.socket.on('close', () => this.#onClose());
    this.socket.on('timeout', () => {
      this.#fail(new Http1Error('ETIMEDOUT', 'ETIMEDOUT'));
    });
  }

  get busy(): boolean {
    return this.#pending !== undefined;
  }

  get closed(): boolean {
    return this.#closed;
  }

  send(bytes: Buffer, pending: Pending): void {
    this.#pending = pending;
    if (this.timeoutMs !== undefined) this.socket.setTimeout(this.timeoutMs);
    this.socket.write(bytes);
  }

  destroy(): void {
    this.#closed = true;
    this.socket.destroy();
  }

  #onData(chunk: Buffer): void {
    if (this.#pending === undefined) {
      // Bytes nobody asked for: the connection is out of step; drop it.
      this.#fail(new Http1Error('EPROTO', 'the server sent data without a request'));
      return;
    }
    this.#chunks.push(chunk);
    this.#bytes += chunk.byteLength;
    try {
      this.#parse(false);
    } catch (err) {
      this.#fail(err instanceof Http1Error ? err : new Http1Error('EPROTO', String(err)));
    }
  }

  /** All received bytes of the current response as one buffer (no copy when they came in one chunk). */
  #joined(): Buffer {
    if (this.#chunks.length !== 1) this.#chunks = [Buffer.concat(this.#chunks, this.#bytes)];
    return this.#chunks[0] as Buffer;
  }

  #consume(n: number): void {
    const buf = this.#joined();
    const rest = buf.subarray(n);
    this.#chunks = rest.byteLength > 0 ? [rest] : [];
    this.#bytes = rest.byteLength;
  }

  #parse(ended: boolean): void {
    for (;;) {
      if (this.#head === undefined) {
        const buf = this.#joined();
        const end = buf.indexOf(CRLFCRLF);
        if (end < 0) {
          if (buf.byteLength > MAX_HEAD_BYTES) throw new Http1Error('EPROTO', `response head over ${MAX_HEAD_BYTES} bytes`);
          return;
        }
        const head = parseHead(buf.toString('latin1', 0, end));
        this.#consume(end + 4);
        // 1xx: an interim response; the final one follows on the same connection.
        if (head.status < 200) continue;
        this.#head = head;
      }
      const head = this.#head;
      let body: Buffer | undefined;
      if (head.status === 204 || head.status === 304) body = Buffer.alloc(0);
      else if (head.framing.kind === 'length') {
        if (this.#bytes < head.framing.length) return;
        body = this.#joined().subarray(0, head.framing.length);
        this.#consume(head.framing.length);
      } else if (head.framing.kind === 'chunked') {
        const decoded = decodeChunked(this.#joined());
        if (decoded === undefined) return;
        body = decoded.body;
        this.#consume(decoded.consumed);
      } else {
        if (!ended) return;
        body = this.#bytes === 0 ? Buffer.alloc(0) : this.#joined();
        this.#consume(this.#bytes);
      }
      const pending = this.#pending;
      this.#pending = undefined;
      this.#head = undefined;
      const reusable = head.keepAlive && head.framing.kind !== 'close' && this.#bytes === 0 && !ended;
      if (this.timeoutMs !== undefined) this.socket.setTimeout(0);
      if (!reusable) this.destroy();
      pending?.resolve({ status: head.status, headers: head.headers, body });
      this.onDone(this, reusable);
      return;
    }
  }

  #onEnd(): void {
    if (this.#pending !== undefined && this.#head !== undefined && this.#head.framing.kind === 'close') {
      try {
        this.#parse(true);
        return;
      } catch (err) {
        this.#fail(err instanceof Http1Error ? err : new Http1Error('EPROTO', String(err)));
        return;
      }
    }
    this.#fail(new Http1Error('ECONNRESET', 'the server closed the connection'));
  }

  #onClose(): void {
    this.#fail(new Http1Error('ECONNRESET', 'the connection closed'));
  }

  #fail(err: Http1Error): void {
    const pending = this.#pending;
    this.#pending = undefined;
    const wasClosed = this.#closed;
    this.destroy();
    pending?.reject(err);
    if (!wasClosed) this.onDone(this, false);
  }
}

function parseHead(text: string): { status: number; headers: Map<string, string>; framing: Framing; keepAlive: boolean } {
  const lines = text.split('\r\n');
  const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0] ?? '');
  if (statusLine === null) throw new Http1Error('EPROTO', `not an HTTP/1.x status line: ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`);
  const headers = new Map<string, string>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Http1Error('EPROTO', `malformed header line: ${JSON.stringify(line.slice(0, 80))}`);
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  const connection = headers.get('connection')?.toLowerCase();
  const keepAlive = statusLine[1] === '1' ? connection !== 'close' : connection === 'keep-alive';
  const te = headers.get('transfer-encoding');
  let framing: Framing;
  if (te !== undefined && /(?:^|,)\s*chunked\s*$/i.test(te)) framing = { kind: 'chunked' };
  else if (headers.has('content-length')) {
    const cl = headers.get('content-length') as string;
    if (!/^\d+$/.test(cl)) throw new Http1Error('EPROTO', `bad Content-Length: ${JSON.stringify(cl)}`);
    framing = { kind: 'length', length: Number(cl) };
  } else framing = { kind: 'close' };
  return { status: Number(statusLine[2]), headers, framing, keepAlive };
}

/** A whole chunked body (RFC 9112 §7.1) at the start of `buf`, or undefined while it is incomplete. */
function decodeChunked(buf: Buffer): { body: Buffer; consumed: number } | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = buf.indexOf('\r\n', at, 'latin1');
    if (lineEnd < 0) return undefined;
    const sizeText = buf.toString('latin1', at, lineEnd).split(';')[0]?.trim() ?? '';
    if (!/^[0-9a-fA-F]+$/.test(sizeText)) throw new Http1Error('EPROTO', `bad chunk size: ${JSON.stringify(sizeText.slice(0, 20))}`);
    const size = Number.parseInt(sizeText, 16);
    at = lineEnd + 2;
    if (size === 0) {
      // Trailer fields, then an empty line.
      for (;;) {
        const end = buf.indexOf('\r\n', at, 'latin1');
        if (end < 0) return undefined;
        const empty = end === at;
        at = end + 2;
        if (empty) return { body: Buffer.concat(parts), consumed: at };
      }
    }
    if (buf.byteLength < at + size + 2) return undefined;
    parts.push(buf.subarray(at, at + size));
    at += size + 2;
  }
}

/**
 * Up to `maxConnections` keep-alive connections to one server; a request waits for a free connection when all are
 * busy (as node:http's Agent with maxSockets does).
 */
export class Http1Pool {
  readonly #idle: Connection[] = [];
  readonly #all = new Set<Connection>();
  readonly #waiting: { readonly bytes: Buffer; readonly pending: Pending }[] = [];
  #closed = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly maxConnections: number,
    private readonly timeoutMs?: number,
  ) {}

  /** Kept-alive connections waiting for a request whose close this pool has not seen yet. */
  get idleConnections(): number {
    return this.#idle.filter((c) => !c.closed).length;
  }

  request(bytes: Buffer): Promise<Http1Response> {
    return new Promise<Http1Response>((resolve, reject) => {
      if (this.#closed) {
        reject(new Http1Error('ECONNRESET', 'the client is closed'));
        return;
      }
      const pending: Pending = { resolve, reject };
      let c = this.#idle.pop();
      while (c?.closed) c = this.#idle.pop();
      if (c === undefined && this.#all.size < this.maxConnections) {
        c = new Connection(this.host, this.port, this.timeoutMs, (conn, reusable) => this.#done(conn, reusable));
        this.#all.add(c);
      }
      if (c === undefined) this.#waiting.push({ bytes, pending });
      else c.send(bytes, pending);
    });
  }

  #done(c: Connection, reusable: boolean): void {
    if (!reusable || this.#closed) {
      this.#all.delete(c);
      const i = this.#idle.indexOf(c);
      if (i >= 0) this.#idle.splice(i, 1);
    }
    const next = this.#waiting.shift();
    if (next === undefined) {
      if (reusable && !this.#closed) this.#idle.push(c);
      return;
    }
    if (reusable && !this.#closed) {
      c.send(next.bytes, next.pending);
      return;
    }
    const fresh = new Connection(this.host, this.port, this.timeoutMs, (conn, r) => this.#done(conn, r));
    this.#all.add(fresh);
    fresh.send(next.bytes, next.pending);
  }

  close(): void {
    this.#closed = true;
    for (const w of this.#waiting.splice(0)) w.pending.reject(new Http1Error('ECONNRESET', 'the client is closed'));
    for (const c of this.#all) c.destroy();
    this.#all.clear();
    this.#idle.length = 0;
  }
}
