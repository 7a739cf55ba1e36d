/**
 * Load clients for the SIGTERM drain tests and bench/drain.ts: REST clients of two kinds (a new connection per
 * request, like Python's urllib; or one keep-alive connection each), each sending requests back to back until the
 * server answers 503 SERVER_DRAINING, or the connection fails. Every request is classified:
 *   answered: an HTTP response came back (200, or 503 SERVER_DRAINING with Retry-After and Connection: close);
 *   refused: the TCP connection was never established (ECONNREFUSED: nothing reached the server);
 *   lost: the request was written on an established connection and no response came back (reset, hang up).
 */
import { Agent, request as httpRequest } from 'node:http';

export type RestClientKind = 'per-request' | 'keep-alive';

export interface DrainTally {
  sent: number;
  answered: number;
  ok: number;
  draining: number;
  /** 503 SERVER_DRAINING answers that lacked Retry-After or Connection: close. */
  badDraining: number;
  otherStatus: number;
  refused: number;
  lost: number;
  /** 200 answers received after `markSignal()`: requests admitted before the signal and finished in the drain. */
  okAfterSignal: number;
  lostErrors: string[];
}

export function emptyTally(): DrainTally {
  return { sent: 0, answered: 0, ok: 0, draining: 0, badDraining: 0, otherStatus: 0, refused: 0, lost: 0, okAfterSignal: 0, lostErrors: [] };
}

interface Outcome {
  kind: 'answered' | 'refused' | 'lost';
  status?: number;
  code?: string;
  retryAfter?: string;
  connection?: string;
  error?: string;
}

function once(url: URL, body: Buffer, agent: Agent | false): Promise<Outcome> {
  return new Promise((resolve) => {
    let connected = false;
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length, ...(agent === false ? { connection: 'close' } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => resolve({ kind: 'lost', error: `response: ${err.message}` }));
        res.on('end', () => {
          let code: string | undefined;
          try {
            code = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code?: string }).code;
          } catch {
            code = undefined;
          }
          resolve({
            kind: 'answered',
            status: res.statusCode ?? 0,
            ...(code === undefined ? {} : { code }),
            ...(res.headers['retry-after'] === undefined ? {} : { retryAfter: res.headers['retry-after'] }),
            ...(res.headers['connection'] === undefined ? {} : { connection: res.headers['connection'] }),
          });
        });
      },
    );
    req.on('socket', (socket) => {
      // A reused keep-alive socket is connected already.
      if (!socket.connecting) connected = true;
      else socket.once('connect', () => (connected = true));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (!connected && (err.code === 'ECONNREFUSED' || err.code === 'ECONNRESET')) resolve({ kind: 'refused', error: err.code });
      else resolve({ kind: 'lost', error: `${err.code ?? ''} ${err.message}` });
    });
    req.end(body);
  });
}

export interface RestLoad {
  readonly tally: DrainTally;
  /** Marks the moment the signal was sent (for okAfterSignal). */
  markSignal(): void;
  /** Resolves when every client stopped. */
  readonly done: Promise<void>;
}

/** Starts `clients` clients of `kind` posting `body` to `url` until each is told to go away. */
export function startRestLoad(url: string, body: unknown, clients: number, kind: RestClientKind): RestLoad {
  const tally = emptyTally();
  const target = new URL(url);
  const bytes = Buffer.from(JSON.stringify(body));
  let signalled = false;
  const client = async (): Promise<void> => {
    const agent = kind === 'keep-alive' ? new Agent({ keepAlive: true, maxSockets: 1 }) : false;
    try {
      for (;;) {
        const o = await once(target, bytes, agent);
        if (o.kind === 'refused') {
          tally.refused++;
          return;
        }
        tally.sent++;
        if (o.kind === 'lost') {
          tally.lost++;
          tally.lostErrors.push(o.error ?? '');
          return;
        }
        tally.answered++;
        if (o.status === 200) {
          tally.ok++;
          if (signalled) tally.okAfterSignal++;
          continue;
        }
        if (o.status === 503 && o.code === 'SERVER_DRAINING') {
          tally.draining++;
          if (o.retryAfter === undefined || o.connection !== 'close') tally.badDraining++;
        } else {
          tally.otherStatus++;
        }
        return;
      }
    } finally {
      if (agent !== false) agent.destroy();
    }
  };
  const done = Promise.all(Array.from({ length: clients }, () => client())).then(() => undefined);
  return { tally, markSignal: () => (signalled = true), done };
}

export interface GrpcLoadTally {
  sent: number;
  ok: number;
  /** UNAVAILABLE SERVER_DRAINING from the server. */
  draining: number;
  /** UNAVAILABLE from the client's channel after GOAWAY, with no connection to send on (nothing reached the server). */
  refused: number;
  lost: number;
  okAfterSignal: number;
  lostErrors: string[];
}

/**
 * gRPC clients (one channel each) calling ModelInfer back to back until the server says SERVER_DRAINING or the
 * channel can no longer connect. `call` runs one RPC and resolves with its status code and details.
 */
export function startGrpcLoad(
  clients: number,
  call: (client: number) => Promise<{ code: number; details: string }>,
): { tally: GrpcLoadTally; markSignal: () => void; done: Promise<void> } {
  const tally: GrpcLoadTally = { sent: 0, ok: 0, draining: 0, refused: 0, lost: 0, okAfterSignal: 0, lostErrors: [] };
  let signalled = false;
  const one = async (i: number): Promise<void> => {
    for (;;) {
      const r = await call(i);
      if (r.code === 0) {
        tally.sent++;
        tally.ok++;
        if (signalled) tally.okAfterSignal++;
        continue;
      }
      // 14 = UNAVAILABLE
      if (r.code === 14 && /shutting down|SERVER_DRAINING/.test(r.details)) {
        tally.sent++;
        tally.draining++;
      } else if (r.code === 14 && /No connection established|ECONNREFUSED|connect/i.test(r.details)) {
        tally.refused++;
      } else {
        tally.sent++;
        tally.lost++;
        tally.lostErrors.push(`${r.code} ${r.details}`);
      }
      return;
    }
  };
  const done = Promise.all(Array.from({ length: clients }, (_, i) => one(i))).then(() => undefined);
  return { tally, markSignal: () => (signalled = true), done };
}
