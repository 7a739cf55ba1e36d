/**
 * Scale-out end to end on this machine (docs/scaling.md): Debian's nginx, with the shipped config
 * (deploy/nginx/rtserve.conf) pointed at loopback, in front of three rtserve processes that share state in a
 * Redis (Debian's redis-server on a free loopback port). Under streaming load one replica is killed with SIGKILL:
 * SSE token streams whose replica died resume through nginx on another replica with no event lost or repeated
 * (Last-Event-ID; the stream journal in Redis; the taking-over replica re-runs the request with its pinned seed
 * and sends only what the client lacks), unary requests in flight on the dead replica fail cleanly (a status, no
 * hang), WebSocket token streams of the dead replica resume their session through nginx on another replica with
 * the rest of their tokens (the same journal: the session's streaming requests are journaled), gRPC streams on it
 * end with a status, and the others finish. gRPC and WebSocket upgrades pass through nginx; a WebSocket ticket
 * issued by one replica opens a socket on another. Counts: sent, answered, resumed, lost.
 */
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { hashApiKey } from '../../../src/security/authenticator.ts';
import { makeRepository } from '../../helpers/server.ts';
import * as grpc from '@grpc/grpc-js';
import { inferenceClient, unary, type InferenceClient } from '../grpc/grpc-test-client.ts';
import { freePort, needTool, waitFor } from '../ops/helpers.ts';
import { startProcess, stopProcess } from './processes.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const KEY = 'k-replicas';
const AUTH = { authorization: `Bearer ${KEY}` };
const PROMPT = 'def read_config(path):\n';

interface Replica {
  readonly index: number;
  readonly http: number;
  readonly grpc: number;
  readonly metrics: number;
  proc: ChildProcess;
}

interface SseEvent {
  id: string;
  event: string | undefined;
  data: string;
}
const seqOf = (e: SseEvent): number => Number(e.id.slice(e.id.lastIndexOf(':') + 1));

/** Reads SSE events until the stream ends or breaks; `onEvent` sees each. Returns whether the body ended cleanly. */
async function readEvents(res: Response, onEvent: (e: SseEvent) => void): Promise<boolean> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buf = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return true;
      buf += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        if (block.startsWith(':')) continue;
        const e: SseEvent = { id: '', event: undefined, data: '' };
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) e.id = line.slice(4);
          else if (line.startsWith('event: ')) e.event = line.slice(7);
          else if (line.startsWith('data: ')) e.data += line.slice(6);
        }
        onEvent(e);
      }
    }
  } catch {
    return false; // the connection broke (the replica died)
  }
}

/**
 * The replica that answered, from nginx's $upstream_addr: a list when nginx tried others first (a dead replica
 * refuses the connection, nginx moves on); the last one answered.
 */
function servedBy(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header.join(', ') : (header ?? '');
  return value.split(',').at(-1)?.trim() ?? '';
}

interface StreamResult {
  events: SseEvent[];
  resumes: number;
  /** The replica (host:port, from nginx's $upstream_addr) that began the stream. */
  upstream: string;
}

/**
 * One SSE generate_stream through nginx, as an EventSource would run it: on a broken connection it reconnects
 * with Last-Event-ID until it gets the terminal event (bounded tries).
 */
async function streamThrough(base: string, body: unknown, onFirstEvents: (upstream: string) => void): Promise<StreamResult> {
  const url = `${base}/v2/models/charlm/generate_stream`;
  const events: SseEvent[] = [];
  let resumes = 0;
  let notified = false;
  let res = await fetch(url, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) assert.fail(`generate_stream: ${res.status} ${await res.text()}`);
  const upstream = servedBy(res.headers.get('x-upstream-addr') ?? undefined);
  const onEvent = (e: SseEvent): void => {
    events.push(e);
    if (!notified && events.length >= 3) {
      notified = true;
      onFirstEvents(upstream);
    }
  };
  for (let attempt = 0; attempt < 10; attempt++) {
    await readEvents(res, onEvent);
    const last = events.at(-1);
    if (last !== undefined && (last.event === 'done' || last.event === 'error')) return { events, resumes, upstream };
    assert.ok(last !== undefined, 'the stream broke before its first event');
    resumes++;
    res = await fetch(url, { method: 'POST', headers: { ...AUTH, 'last-event-id': last.id } });
    if (res.status !== 200) assert.fail(`resume after ${last.id}: ${res.status} ${await res.text()}`);
  }
  throw new Error('the stream did not finish within 10 resumes');
}

type WsEvent = {
  type: string;
  id?: string;
  seq?: number;
  session?: { id: string };
  error?: { code: string };
  outputs?: { name: string; data: string[] }[];
};

/** A WebSocket client over nginx with an event queue; resolves once the socket is open, with the replica that took it. */
function openWs(url: string): Promise<{ ws: WebSocket; next: () => Promise<WsEvent | undefined>; upstream: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ['rtserve.v1', `rtserve.bearer.${KEY}`]);
    const queue: (WsEvent | undefined)[] = [];
    const waiters: ((e: WsEvent | undefined) => void)[] = [];
    let upstream = '';
    const push = (e: WsEvent | undefined): void => {
      const w = waiters.shift();
      if (w !== undefined) w(e);
      else queue.push(e);
    };
    ws.on('message', (data, isBinary) => {
      if (!isBinary) push(JSON.parse(data.toString()) as WsEvent);
    });
    // undefined = the socket closed (its replica died, or the server closed it).
    ws.on('close', () => push(undefined));
    ws.once('upgrade', (res) => {
      upstream = servedBy(res.headers['x-upstream-addr']);
    });
    ws.once('open', () => resolve({ ws, upstream, next: () => new Promise((r) => (queue.length > 0 ? r(queue.shift()) : waiters.push(r))) }));
    ws.once('error', reject);
  });
}

const WS_PROMPT_INPUT = [{ name: 'text_input', datatype: 'BYTES', shape: [1, 1], data: [PROMPT] }];

interface WsRequestResult {
  /** How it ended: 'done' on its first socket, 'resumed-done' after a resume, else the error code or 'other'. */
  outcome: string;
  seqs: number[];
  text: string;
}

/**
 * WebSocket token streams through nginx on one session (one socket, one replica): request `id` with `parameters`
 * each. When the socket drops before every request is done, the client reconnects through nginx (which sends it to
 * a live replica) and resumes its session with the last seq of each unfinished request (bounded tries).
 * `onTokens(upstream)` is called once every request has `notifyAfter` deltas.
 */
async function wsSession(
  url: string,
  requests: Record<string, Record<string, number>>,
  notifyAfter: number,
  onTokens: (upstream: string) => void,
): Promise<{ session: string; results: Record<string, WsRequestResult> }> {
  let socket = await openWs(url);
  const upstream = socket.upstream;
  const session = (await socket.next())?.session?.id as string;
  const results: Record<string, WsRequestResult> = {};
  for (const [id, parameters] of Object.entries(requests)) {
    results[id] = { outcome: 'running', seqs: [], text: '' };
    socket.ws.send(JSON.stringify({ type: 'infer', id, model: 'charlm', inputs: WS_PROMPT_INPUT, parameters, stream: true }));
  }
  let notified = false;
  const running = (): string[] => Object.keys(results).filter((id) => results[id]?.outcome === 'running');
  for (let attempt = 0; attempt < 5; attempt++) {
    for (;;) {
      if (running().length === 0) {
        socket.ws.close();
        return { session, results };
      }
      const e = await socket.next();
      if (e === undefined) break;
      const r = e.id === undefined ? undefined : results[e.id];
      if (e.type === 'error' && r === undefined) {
        // The session could not be resumed: every unfinished request ends with that code.
        for (const id of running()) (results[id] as WsRequestResult).outcome = e.error?.code ?? 'error';
        continue;
      }
      if (r === undefined) continue;
      r.seqs.push(e.seq ?? -1);
      if (e.type === 'delta') r.text += e.outputs?.find((o) => o.name === 'text_output')?.data.join('') ?? '';
      else r.outcome = e.type === 'done' ? (attempt === 0 ? 'done' : 'resumed-done') : (e.error?.code ?? e.type);
      if (!notified && Object.values(results).every((x) => x.seqs.length >= notifyAfter)) {
        notified = true;
        onTokens(upstream);
      }
    }
    socket = await openWs(url);
    await socket.next(); // session.created
    socket.ws.send(
      JSON.stringify({ type: 'resume', session, after: Object.fromEntries(running().map((id) => [id, results[id]?.seqs.at(-1) ?? 0])) }),
    );
  }
  throw new Error('the WebSocket session did not finish within 5 resumes');
}

/** The text an undisturbed generation gives (REST generate on one replica). */
async function referenceText(replica: string, parameters: Record<string, number>): Promise<string> {
  const r = await fetch(`${replica}/v2/models/charlm/generate`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ text_input: PROMPT, parameters }),
  });
  assert.equal(r.status, 200);
  return ((await r.json()) as { text_output: string }).text_output;
}

/** One gRPC ModelStreamInfer generation through nginx: 'final' when its last response came, else the status code. */
function grpcStream(client: InferenceClient, md: grpc.Metadata): Promise<string> {
  return new Promise((resolve) => {
    const call = client.ModelStreamInfer(md);
    let final = false;
    call.on('data', (r: { error_message?: string; infer_response?: { parameters?: Record<string, { bool_param?: boolean }> } }) => {
      if (r.error_message) resolve(`error ${r.error_message}`);
      if (r.infer_response?.parameters?.['triton_final_response']?.bool_param === true) {
        final = true;
        call.end();
      }
    });
    call.on('error', (err: grpc.ServiceError) => resolve(grpc.status[err.code] ?? String(err.code)));
    call.on('end', () => resolve(final ? 'final' : 'ended without final'));
    call.write({
      model_name: 'charlm',
      id: 'g',
      parameters: { max_tokens: { int64_param: 400 }, temperature: { double_param: 0 } },
      inputs: [{ name: 'text_input', datatype: 'BYTES', shape: [1, 1], contents: { bytes_contents: [Buffer.from(PROMPT)] } }],
      outputs: [],
      raw_input_contents: [],
    });
  });
}

describe('three replicas behind nginx, state in Redis', {
  skip: needTool('nginx', 'nginx') || needTool('redis-server', 'redis-server'),
  timeout: 10 * 60_000,
}, () => {
  let tmp: string;
  let repo: { dir: string; cleanup: () => Promise<void> };
  let redis: ChildProcess | undefined;
  let nginx: ChildProcess | undefined;
  const replicas: Replica[] = [];
  let httpBase: string;
  let grpcAddress: string;
  let redisPort = 0;
  const keyPrefix = `rtserve-test-${process.pid}:`;

  before(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'rtserve-replicas-'));
    const charlmConfig = JSON.parse(await readFile(join(root, 'models', 'charlm', 'config.json'), 'utf8')) as unknown;
    repo = await makeRepository({ charlm: { from: 'charlm', config: charlmConfig }, simple: { from: 'simple' } });
    redisPort = await freePort();
    redis = await startProcess(
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      /Ready to accept connections/,
      'redis-server',
    );
    const config = (r: Omit<Replica, 'proc'>): string =>
      JSON.stringify({
        host: '127.0.0.1',
        httpPort: r.http,
        grpcPort: r.grpc,
        metricsPort: r.metrics,
        modelRepository: [repo.dir],
        logLevel: 'warn',
        exitTimeoutSecs: 5,
        auth: { enabled: true, apiKeys: [{ id: 'replicas', sha256: hashApiKey(KEY), scopes: ['infer', 'metadata'] }] },
        sharedState: { store: 'redis', redisUrl: `redis://127.0.0.1:${redisPort}`, keyPrefix, streamLeaseMs: 1000 },
        grpcMaxConnectionAgeMs: 60_000,
      });
    const starting: Promise<void>[] = [];
    for (let index = 0; index < 3; index++) {
      const r = { index, http: await freePort(), grpc: await freePort(), metrics: await freePort() };
      const file = join(tmp, `replica-${index}.json`);
      await writeFile(file, config(r));
      starting.push(
        startProcess(process.execPath, ['bin/rtserve.js', 'serve', '--config', file], /^rtserve ready /, `replica ${index}`).then((proc) => {
          replicas.push({ ...r, proc });
        }),
      );
    }
    await Promise.all(starting);
    replicas.sort((a, b) => a.index - b.index);

    // The shipped nginx config with loopback replicas and free ports, under a minimal main config.
    let site = await readFile(join(root, 'deploy', 'nginx', 'rtserve.conf'), 'utf8');
    for (const r of replicas) {
      site = site.replace(`rtserve-${r.index + 1}:8000`, `127.0.0.1:${r.http}`).replace(`rtserve-${r.index + 1}:8001`, `127.0.0.1:${r.grpc}`);
    }
    const [nhttp, ngrpc] = [await freePort(), await freePort()];
    site = site.replace('listen 8080;', `listen 127.0.0.1:${nhttp};`).replace('listen 8081 http2;', `listen 127.0.0.1:${ngrpc} http2;`);
    assert.doesNotMatch(site, /rtserve-\d:|listen 80/, 'every replica and port was substituted');
    await mkdir(join(tmp, 'nginx'), { recursive: true });
    await writeFile(join(tmp, 'nginx', 'rtserve.conf'), site);
    await writeFile(
      join(tmp, 'nginx', 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        `pid ${join(tmp, 'nginx', 'nginx.pid')};`,
        `error_log ${join(tmp, 'nginx', 'error.log')} warn;`,
        'events { worker_connections 256; }',
        'http {',
        '  access_log off;',
        // Which replica answered (the test kills the one serving a stream); not in the shipped config.
        '  add_header X-Upstream-Addr $upstream_addr always;',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(tmp, 'nginx', t)};`),
        `  include ${join(tmp, 'nginx', 'rtserve.conf')};`,
        '}',
      ].join('\n'),
    );
    const check = spawnSync('nginx', ['-t', '-p', join(tmp, 'nginx'), '-c', join(tmp, 'nginx', 'nginx.conf')], { encoding: 'utf8' });
    assert.equal(check.status, 0, `nginx -t: ${check.stderr}`);
    nginx = await startProcess('nginx', ['-p', join(tmp, 'nginx'), '-c', join(tmp, 'nginx', 'nginx.conf')], undefined, 'nginx');
    httpBase = `http://127.0.0.1:${nhttp}`;
    grpcAddress = `127.0.0.1:${ngrpc}`;
    try {
      await waitFor(
        'nginx to listen',
        async () => ((await fetch(`${httpBase}/v2/health/ready`).catch(() => undefined))?.status === 200 ? true : undefined),
        20_000,
        100,
      );
    } catch (err) {
      const log = await readFile(join(tmp, 'nginx', 'error.log'), 'utf8').catch(() => '(no error.log)');
      throw new Error(`${(err as Error).message}; nginx error.log:\n${log.slice(-3000)}`);
    }
  });

  after(async () => {
    await stopProcess(nginx, 'SIGQUIT');
    await Promise.all(replicas.map((r) => stopProcess(r.proc)));
    await stopProcess(redis);
    await repo?.cleanup();
    await rm(tmp, { recursive: true, force: true });
  });

  it('spreads REST requests over the replicas', async () => {
    const body = {
      inputs: [
        { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: new Array(16).fill(1) },
        { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: new Array(16).fill(2) },
      ],
    };
    for (let i = 0; i < 9; i++) {
      const r = await fetch(`${httpBase}/v2/models/simple/infer`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(r.status, 200);
    }
    // Each replica counted some of them (least_conn over sequential requests still rotates through idle peers).
    const counts = await Promise.all(
      replicas.map(async (r) => {
        const text = await (await fetch(`http://127.0.0.1:${r.metrics}/metrics`)).text();
        return Number(/^nv_inference_request_success\{model="simple",version="1"\} (\d+)/m.exec(text)?.[1] ?? 0);
      }),
    );
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      9,
    );
  });

  it('passes gRPC (grpc_pass) and WebSocket upgrades; a ticket from one replica opens a socket on another', async () => {
    const client = inferenceClient(grpcAddress);
    try {
      assert.deepEqual(await unary(client, 'ServerReady', {}), { ready: true });
    } finally {
      client.close();
    }
    // Ticket from replica 0 (directly), socket on replica 1 (directly): only a shared store can redeem it.
    const issued = await fetch(`http://127.0.0.1:${replicas[0]?.http}/v2/auth/ws-ticket`, { method: 'POST', headers: AUTH });
    assert.equal(issued.status, 200);
    const { ticket } = (await issued.json()) as { ticket: string };
    const opened = (url: string, protocols: string[]): Promise<string> =>
      new Promise((resolve) => {
        const ws = new WebSocket(url, protocols);
        ws.once('message', (data) => {
          resolve((JSON.parse(data.toString()) as { type: string }).type);
          ws.close();
        });
        ws.once('unexpected-response', (_req, res) => resolve(`http ${res.statusCode}`));
        ws.once('error', (err) => resolve(`error ${err.message}`));
      });
    assert.equal(await opened(`ws://127.0.0.1:${replicas[1]?.http}/v2/ws`, ['rtserve.v1', `rtserve.ticket.${ticket}`]), 'session.created');
    assert.equal(
      await opened(`ws://127.0.0.1:${replicas[2]?.http}/v2/ws`, ['rtserve.v1', `rtserve.ticket.${ticket}`]),
      'http 401',
      'single use across replicas',
    );
    // Through nginx: the Upgrade passes.
    assert.equal(await opened(`${httpBase.replace(/^http/, 'ws')}/v2/ws`, ['rtserve.v1', `rtserve.bearer.${KEY}`]), 'session.created');
  });

  it('SIGKILL of a replica mid-stream: every SSE stream resumes elsewhere with nothing lost or repeated', async () => {
    const STREAMS = 6;
    const params = (i: number): Record<string, number> =>
      i % 2 === 0 ? { max_tokens: 400, temperature: 0.8, seed: 1000 + i } : { max_tokens: 400, temperature: 0.8 };
    // Reference texts for the seeded streams, from an undisturbed replica.
    const reference = new Map<number, string>();
    for (let i = 0; i < STREAMS; i += 2) {
      const r = await fetch(`http://127.0.0.1:${replicas[1]?.http}/v2/models/charlm/generate`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ text_input: PROMPT, parameters: params(i) }),
      });
      assert.equal(r.status, 200);
      reference.set(i, ((await r.json()) as { text_output: string }).text_output);
    }
    const greedy = await referenceText(`http://127.0.0.1:${replicas[1]?.http}`, { max_tokens: 400, temperature: 0 });
    // Unary requests spread over the replicas, some of them in flight on the victim when it dies: each must end
    // with a status (200, or 502 from nginx for the dead replica's), never hang.
    const unaryBody = JSON.stringify({ text_input: PROMPT, parameters: { max_tokens: 400, temperature: 0 } });
    const unaries: Promise<number>[] = [];
    // The victim: the replica serving stream 0, killed the moment every SSE stream has its first events (all have
    // started, none can have finished its 400 tokens, so the victim dies mid-stream).
    let victim: Replica | undefined;
    let started = 0;
    let stream0Upstream = '';
    const onStarted = (i: number, upstream: string): void => {
      if (i === 0) stream0Upstream = upstream;
      if (++started < STREAMS) return;
      victim = replicas.find((r) => stream0Upstream === `127.0.0.1:${r.http}`);
      assert.ok(victim !== undefined, `stream 0's upstream ${stream0Upstream} is a replica`);
      victim.proc.kill('SIGKILL');
    };
    // WebSocket and gRPC token streams through nginx alongside (they are not journaled: see the counts below).
    const wsUrl = `${httpBase.replace(/^http/, 'ws')}/v2/ws`;
    const wsStreams = Array.from({ length: 3 }, () => wsSession(wsUrl, { r1: { max_tokens: 400, temperature: 0 } }, 1, () => {}));
    const grpcClient = inferenceClient(grpcAddress);
    const md = new grpc.Metadata();
    md.set('authorization', `Bearer ${KEY}`);
    const grpcStreams = Array.from({ length: 3 }, () => grpcStream(grpcClient, md));
    const streams = Array.from({ length: STREAMS }, (_, i) =>
      streamThrough(httpBase, { text_input: PROMPT, parameters: params(i) }, (upstream) => onStarted(i, upstream)),
    );
    for (let i = 0; i < 6; i++) {
      unaries.push(
        fetch(`${httpBase}/v2/models/charlm/generate`, {
          method: 'POST',
          headers: { ...AUTH, 'content-type': 'application/json' },
          body: unaryBody,
        }).then(
          (r) => r.status,
          () => 0,
        ),
      );
    }
    const results = await Promise.all(streams);
    const statuses = await Promise.all(unaries);
    const wsResults = (await Promise.all(wsStreams)).map((r) => r.results['r1'] as WsRequestResult);
    const grpcResults = await Promise.all(grpcStreams);
    grpcClient.close();
    assert.ok(victim !== undefined);
    assert.ok((results[0]?.resumes ?? 0) >= 1, 'stream 0 lost its replica and resumed');

    let answered = 0;
    let resumed = 0;
    let lost = 0;
    for (const [i, r] of results.entries()) {
      const seqs = r.events.map(seqOf);
      const missing = seqs.length === 0 ? 0 : (seqs.at(-1) as number) - new Set(seqs).size;
      lost += Math.max(0, missing);
      assert.deepEqual(
        seqs,
        seqs.map((_, k) => k + 1),
        `stream ${i}: sequence numbers 1..n, no gap and no repeat`,
      );
      assert.equal(r.events.at(-1)?.event, 'done', `stream ${i} ends with done`);
      assert.equal(new Set(r.events.map((e) => e.id.slice(0, e.id.lastIndexOf(':')))).size, 1, `stream ${i} keeps one stream id`);
      const text = r.events
        .filter((e) => e.event === undefined)
        .map((e) => (JSON.parse(e.data) as { text_output: string }).text_output)
        .join('');
      if (reference.has(i)) assert.equal(text, reference.get(i), `stream ${i}: the resumed text equals the undisturbed generation`);
      answered++;
      if (r.resumes > 0) resumed++;
    }
    const tally = (xs: string[]): Record<string, number> => {
      const m: Record<string, number> = {};
      for (const x of xs) m[x] = (m[x] ?? 0) + 1;
      return m;
    };
    const counts = {
      sse: { sent: STREAMS, answered, resumed, lost },
      unary: { sent: unaries.length, ok: statuses.filter((s) => s === 200).length, failed: statuses.filter((s) => s !== 200).length },
      ws: { sent: wsResults.length, ...tally(wsResults.map((r) => r.outcome)) },
      grpc: { sent: grpcResults.length, ...tally(grpcResults) },
    };
    process.stdout.write(`# replicas-nginx counts: ${JSON.stringify(counts)}\n`);
    assert.equal(lost, 0);
    assert.equal(answered, STREAMS);
    assert.ok(resumed >= 1, `at least one stream was on the killed replica and resumed (${JSON.stringify(counts)})`);
    // WebSocket token streams finish, on their replica or resumed on another, with the undisturbed greedy text.
    for (const r of wsResults) {
      assert.ok(['done', 'resumed-done'].includes(r.outcome), `ws outcome ${r.outcome}`);
      assert.deepEqual(
        r.seqs,
        r.seqs.map((_, k) => k + 1),
      );
      assert.equal(r.text, greedy);
    }
    // gRPC streams on the dead replica end with a status; the others get their final response.
    for (const g of grpcResults) assert.ok(g === 'final' || g === 'UNAVAILABLE' || g === 'INTERNAL', `grpc outcome ${g}`);
    // Unary requests on the dead replica fail with a gateway status; the others succeed.
    for (const s of statuses) assert.ok(s === 200 || s === 502, `unary status ${s}`);
  });

  it('SIGKILL of the replica holding a WebSocket session: its token streams resume on another with the undisturbed text', async () => {
    const live = replicas.filter((r) => r.proc.exitCode === null && r.proc.signalCode === null);
    assert.ok(live.length >= 2, 'two replicas left: one to kill, one to resume on');
    const requests = {
      greedy: { max_tokens: 300, temperature: 0 },
      seeded: { max_tokens: 300, temperature: 0.8, seed: 77 },
      // No seed: the producing replica pins one when it journals the request, so the re-run draws the same tokens.
      pinned: { max_tokens: 300, temperature: 0.8 },
    };
    const reference = {
      greedy: await referenceText(`http://127.0.0.1:${live[0]?.http}`, requests.greedy),
      seeded: await referenceText(`http://127.0.0.1:${live[0]?.http}`, requests.seeded),
    };
    let victim: Replica | undefined;
    const { session, results } = await wsSession(`${httpBase.replace(/^http/, 'ws')}/v2/ws`, requests, 5, (upstream) => {
      // Every request has its first tokens (none can have finished 300): the session's replica dies mid-stream.
      victim = live.find((r) => upstream === `127.0.0.1:${r.http}`);
      assert.ok(victim !== undefined, `the session's upstream ${upstream} is a live replica`);
      victim.proc.kill('SIGKILL');
    });
    assert.ok(victim !== undefined, 'the replica was killed mid-stream');
    const counts = { ws: { sent: 3, ...Object.fromEntries(Object.entries(results).map(([id, r]) => [id, r.outcome])) } };
    process.stdout.write(`# replicas-nginx ws resume: ${JSON.stringify(counts)}\n`);
    for (const [id, r] of Object.entries(results)) {
      assert.equal(r.outcome, 'resumed-done', `${id}: resumed on another replica and finished`);
      assert.deepEqual(
        r.seqs,
        r.seqs.map((_, k) => k + 1),
        `${id}: sequence numbers 1..n, no gap and no repeat`,
      );
    }
    assert.equal(results['greedy']?.text, reference.greedy, 'greedy: the resumed text equals the undisturbed generation');
    assert.equal(results['seeded']?.text, reference.seeded, 'seeded: the resumed text equals the undisturbed generation');
    // The pinned request's seed, from the journal in Redis: an undisturbed run with it gives the same text.
    const redisClient = new Redis(`redis://127.0.0.1:${redisPort}`);
    try {
      const key = `${keyPrefix}stream:{ws:${session}:${Buffer.from('pinned').toString('base64url')}}`;
      const body = JSON.parse((await redisClient.hget(key, 'body')) ?? '{}') as { event?: { parameters?: { seed?: number } } };
      const seed = body.event?.parameters?.seed;
      assert.ok(Number.isSafeInteger(seed), `a seed was pinned in the journal (${JSON.stringify(body)})`);
      const pinned = await referenceText(`http://127.0.0.1:${live.find((r) => r !== victim)?.http}`, { ...requests.pinned, seed: seed as number });
      assert.equal(results['pinned']?.text, pinned, 'pinned: the resumed text equals an undisturbed run with the pinned seed');
    } finally {
      redisClient.disconnect();
    }
  });
});
