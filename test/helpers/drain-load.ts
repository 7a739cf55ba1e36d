/**
 * Load clients for the SIGTERM drain tests and bench/drain.ts: REST clients of two kinds (a new connection per
 * request, like Python's urllib; or one keep-alive connection each), each sending requests back to back until the
 * server answers 503 SERVER_DRAINING, or the connection fails. Every request is classified:
 *   answered: an HTTP response came back (200, or 503 SERVER_DRAINING with Retry-After and Connection: close);
 *   refused: the TCP connection was never established (ECONNREFUSED: nothing reached the server);
 *   lost: the request was written on an established connection and no response came back (reset, hang up).
 * Besides: gRPC and WebSocket clients of the same kind, and clients that ignore every answer and reconnect at once
 * (`startHammers`), for the drain-hammer tests.
 */
import { Agent, request as httpRequest } from 'node:http';
import { WebSocket } from 'ws';
import { CLI_FROM_SOURCES, repositoryArgs, startCli, type CliProcess } from './cli.ts';
import { makeRepository, slowMlpConfig } from './server.ts';

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

/** What clients that ignore every answer did: attempts made, and attempts that got no answer. */
export interface HammerCounts {
  sent: number;
  failed: number;
}

/**
 * `clients` clients that ignore every answer (503 SERVER_DRAINING, UNAVAILABLE, an error event) and try again at
 * once, until `stopped()`. `attempt` makes one new connection and one request on it, and resolves whether an answer
 * came back.
 */
export function startHammers(
  clients: number,
  attempt: () => Promise<boolean>,
  stopped: () => boolean,
): { counts: HammerCounts; done: Promise<void> } {
  const counts: HammerCounts = { sent: 0, failed: 0 };
  const one = async (): Promise<void> => {
    while (!stopped()) {
      counts.sent++;
      if (!(await attempt())) counts.failed++;
    }
  };
  const done = Promise.all(Array.from({ length: clients }, () => one())).then(() => undefined);
  return { counts, done };
}

/** One POST on a new connection (REST, or SSE generate_stream): whether a whole response came back. */
export function postOnce(url: URL, body: Buffer): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const req = httpRequest(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': body.length } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(true));
        res.on('error', () => resolve(false));
      },
    );
    req.on('error', () => resolve(false));
    req.end(body);
  });
}

/** One WebSocket session on a new connection, one infer event on it: whether its result or error came back. */
export function wsInferOnce(url: string, infer: Record<string, unknown>): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const ws = new WebSocket(url);
    const id = String(infer['id']);
    let answered = false;
    ws.on('open', () => ws.send(JSON.stringify(infer)));
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary || (JSON.parse(data.toString('utf8')) as { id?: string }).id !== id) return;
      answered = true;
      ws.close();
    });
    ws.on('error', () => {});
    ws.on('close', () => resolve(answered));
  });
}

export function openSocket(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** How a well-behaved WebSocket client's socket ended: its close code, requests left unanswered, errors other than SERVER_DRAINING. */
export interface WsClientEnd {
  code: number;
  unanswered: string[];
  otherErrors: string[];
}

/**
 * Keeps `depth` infer requests (`infer` with a fresh id each) in flight on `ws` until the server closes it; tracks
 * which were answered. After SERVER_DRAINING the client stops sending and waits for the close.
 */
export function runWsClient(ws: WebSocket, depth: number, infer: Record<string, unknown>): { results: number; closed: Promise<WsClientEnd> } {
  const pending = new Set<string>();
  const otherErrors: string[] = [];
  let next = 0;
  let open = true;
  const state = { results: 0, closed: undefined as unknown as Promise<WsClientEnd> };
  const send = (): void => {
    if (!open) return;
    const id = `r${next++}`;
    pending.add(id);
    ws.send(JSON.stringify({ ...infer, type: 'infer', id }));
  };
  ws.on('message', (data: Buffer) => {
    const ev = JSON.parse(data.toString('utf8')) as { type: string; id?: string; error?: { code: string } };
    if (ev.id === undefined || !pending.has(ev.id)) return;
    if (ev.type === 'result') {
      pending.delete(ev.id);
      state.results++;
      send();
    } else if (ev.type === 'error') {
      pending.delete(ev.id);
      if (ev.error?.code !== 'SERVER_DRAINING') otherErrors.push(ev.error?.code ?? 'unknown');
    }
  });
  state.closed = new Promise((resolve) => {
    ws.once('close', (code) => {
      open = false;
      resolve({ code, unanswered: [...pending], otherErrors });
    });
  });
  for (let i = 0; i < depth; i++) send();
  return state;
}

/** The drain's log line (front-ends.ts finishDrain) in the server's JSON log on stderr. */
export function drainLogLine(stderr: string): { msg?: string; acceptQueue?: number; open?: number } | undefined {
  return stderr
    .split('\n')
    .map((l) => {
      try {
        return JSON.parse(l) as { msg?: string; acceptQueue?: number; open?: number };
      } catch {
        return {};
      }
    })
    .find((l) => l.msg?.startsWith('drain: REST port closed') === true);
}

/** The real server of the drain-hammer tests, and when it exited. */
export interface HammeredCli extends CliProcess {
  /** When the process exited (Date.now()); undefined while it runs. */
  exitedAt(): number | undefined;
  /** SIGKILLs the process if it still runs; removes the repository. */
  cleanup(): Promise<void>;
}

/**
 * The real `rtserve serve` (logging at info, for the drain's line) over a model `slow` whose partial batches wait
 * 50 ms, so requests are in flight when the signal comes.
 */
export async function startSlowCli(exitTimeoutSecs: number): Promise<HammeredCli> {
  const repo = await makeRepository({ slow: slowMlpConfig(50_000) });
  const cli = await startCli(CLI_FROM_SOURCES, repositoryArgs(repo.dir, '--exit-timeout-secs', String(exitTimeoutSecs)), {
    env: { ...process.env, RTSERVE_LOG_LEVEL: 'info' },
  });
  let exitedAt: number | undefined;
  void cli.exited.then(() => (exitedAt = Date.now()));
  return {
    ...cli,
    exitedAt: () => exitedAt,
    async cleanup() {
      if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
      await repo.cleanup();
    },
  };
}
