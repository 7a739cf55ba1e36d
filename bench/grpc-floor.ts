/**
 * The floor under gRPC for large messages on this machine (issue #18, "gRPC at REST's speed"): what the transport
 * alone costs the server per request, with no codec, batching or engine behind it. Three bare servers, each its own
 * process, each reading one message per call and answering 64 bytes:
 *
 *   http     node:http, the body joined with Buffer.concat (what a REST binary server must do at least);
 *   grpc-js  an @grpc/grpc-js Server with identity (de)serializers and the 16 MiB HTTP/2 windows rtserve sets;
 *   h2       node:http2 directly with gRPC framing written by hand: each message allocated once its length prefix
 *            is read and filled as DATA frames arrive (the "faster HTTP/2 path in front" the issue allows).
 *
 * http is loaded by a node:http keep-alive agent, grpc-js and h2 by the same grpc-js client (one channel, 16 MiB
 * window), `concurrency` calls in flight. Modes run interleaved, `--rounds` times; the report is each mode's median
 * round: req/s, the server's CPU per request (/proc, all threads) and the client's.
 *
 *   node --import tsx bench/grpc-floor.ts [--bytes 9633792] [--concurrency 4] [--requests 150] [--rounds 3]
 *                                        [--modes http,grpc-js,h2]
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Client, Server, ServerCredentials, credentials, type ServiceError } from '@grpc/grpc-js';
import { ownCpuUs, processCpuUs } from '../src/bench/process-cpu.ts';
import { widenSessionWindow } from '../src/transport/grpc/flow-control.ts';

const { values } = parseArgs({
  options: {
    serve: { type: 'string' },
    bytes: { type: 'string', default: '9633792' },
    concurrency: { type: 'string', default: '4' },
    requests: { type: 'string', default: '150' },
    rounds: { type: 'string', default: '3' },
    modes: { type: 'string', default: 'http,grpc-js,h2' },
  },
});

const WINDOW = 16 * 1024 * 1024;
const PATH = '/inference.GRPCInferenceService/ModelInfer';
const reply = Buffer.alloc(64, 1);
const identity = (b: Buffer): Buffer => b;
const listening = (port: number): void => console.log(`port ${port}`);

function serveHttp(): void {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      Buffer.concat(chunks);
      res.end(reply);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => listening((server.address() as AddressInfo).port));
}

function serveGrpcJs(): void {
  const server = new Server({ 'grpc.max_receive_message_length': -1 });
  const method = { path: PATH, requestStream: false, responseStream: false };
  const codec = { requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity };
  server.addService({ ModelInfer: { ...method, ...codec } }, { ModelInfer: (_call: unknown, cb: (e: null, r: Buffer) => void) => cb(null, reply) });
  server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, port) => {
    if (err !== null) throw err;
    const internals = server as unknown as { http2Servers: Map<http2.Http2Server, unknown> };
    for (const s of internals.http2Servers.keys()) s.on('session', (session) => widenSessionWindow(session, WINDOW));
    listening(port);
  });
}

function serveH2(): void {
  const server = http2.createServer({ settings: { initialWindowSize: WINDOW } });
  server.on('session', (session) => session.setLocalWindowSize(WINDOW));
  server.on('stream', (stream) => {
    const head = Buffer.alloc(5);
    let headFill = 0;
    let message: Buffer | undefined;
    let fill = 0;
    stream.on('data', (chunk: Buffer) => {
      for (let at = 0; at < chunk.length; ) {
        if (message === undefined) {
          const n = Math.min(5 - headFill, chunk.length - at);
          chunk.copy(head, headFill, at, at + n);
          headFill += n;
          at += n;
          if (headFill === 5) [message, fill, headFill] = [Buffer.allocUnsafeSlow(head.readUInt32BE(1)), 0, 0];
        } else {
          const n = Math.min(message.length - fill, chunk.length - at);
          chunk.copy(message, fill, at, at + n);
          fill += n;
          at += n;
          if (fill === message.length) message = undefined; // one whole message: nothing reads it here
        }
      }
    });
    stream.on('end', () => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      const framed = Buffer.allocUnsafe(5 + reply.length);
      framed[0] = 0;
      framed.writeUInt32BE(reply.length, 1);
      reply.copy(framed, 5);
      stream.end(framed);
    });
  });
  server.listen(0, '127.0.0.1', () => listening((server.address() as AddressInfo).port));
}

type Call = () => Promise<void>;

function httpCaller(port: number, body: Buffer, concurrency: number): { call: Call; close(): void } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const call: Call = () =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'content-length': body.length } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(body);
    });
  return { call, close: () => agent.destroy() };
}

function grpcCaller(port: number, body: Buffer): { call: Call; close(): void } {
  const client = new Client(`127.0.0.1:${port}`, credentials.createInsecure(), {
    'grpc.max_receive_message_length': -1,
    'grpc.max_send_message_length': -1,
    'grpc-node.flow_control_window': WINDOW,
  });
  const call: Call = () =>
    new Promise((resolve, reject) =>
      client.makeUnaryRequest(PATH, identity, identity, body, (err: ServiceError | null) => (err === null ? resolve() : reject(err))),
    );
  return { call, close: () => client.close() };
}

interface Round {
  readonly reqPerSec: number;
  readonly serverUs: number;
  readonly clientUs: number;
}

async function round(mode: string, body: Buffer, concurrency: number, requests: number): Promise<Round> {
  const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, '--serve', mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve) =>
      child.stdout.once('data', (d: Buffer) => resolve(Number(/port (\d+)/.exec(d.toString())?.[1]))),
    );
    const caller = mode === 'http' ? httpCaller(port, body, concurrency) : grpcCaller(port, body);
    const run = async (n: number): Promise<void> => {
      let started = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (started++ < n) await caller.call();
        }),
      );
    };
    await run(Math.max(10, requests / 10));
    const server0 = processCpuUs(child.pid as number) ?? Number.NaN;
    const client0 = ownCpuUs();
    const t0 = performance.now();
    await run(requests);
    const seconds = (performance.now() - t0) / 1000;
    const serverUs = ((processCpuUs(child.pid as number) ?? Number.NaN) - server0) / requests;
    const clientUs = (ownCpuUs() - client0) / requests;
    caller.close();
    return { reqPerSec: requests / seconds, serverUs, clientUs };
  } finally {
    child.kill();
  }
}

if (values.serve !== undefined) {
  const servers: Readonly<Record<string, () => void>> = { http: serveHttp, 'grpc-js': serveGrpcJs, h2: serveH2 };
  servers[values.serve]?.();
} else {
  const body = Buffer.alloc(Number(values.bytes), 7);
  const concurrency = Number(values.concurrency);
  const modes = values.modes.split(',');
  const rounds = new Map<string, Round[]>(modes.map((m) => [m, []]));
  for (let r = 0; r < Number(values.rounds); r++) {
    for (const mode of r % 2 === 0 ? modes : [...modes].reverse())
      rounds.get(mode)?.push(await round(mode, body, concurrency, Number(values.requests)));
  }
  console.log(`${body.length} bytes per message, c=${concurrency}, ${values.requests} requests per round, median of ${values.rounds} rounds`);
  for (const [mode, rs] of rounds) {
    const m = [...rs].sort((a, b) => a.reqPerSec - b.reqPerSec)[Math.floor(rs.length / 2)] as Round;
    console.log(
      `${mode.padEnd(8)} ${m.reqPerSec.toFixed(1).padStart(7)} req/s   server CPU ${m.serverUs.toFixed(0).padStart(6)} µs/req   client CPU ${m.clientUs.toFixed(0).padStart(6)} µs/req`,
    );
  }
}
