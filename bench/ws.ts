/**
 * WebSocket benchmark (issue #5): the WebSocket protocol beside REST binary, and frame streams.
 *
 *   node --import tsx bench/ws.ts [--duration 5] [--warmup 1] [--concurrency 32] [--sockets 64]
 *                                 [--streams 16] [--fps 30] [--frame-duration 10] [--frame-model resnet_tiny]
 *
 * The server runs in its own process (src/bench/server-process.ts); the clients are the SDK's (src/client), both
 * transports with binary tensor data.
 * 1. Request/answer, model `mlp` ([1, 64] FP32 in, [1, 10] out), closed loop for `--duration` seconds after a
 *    warmup: one WebSocket with `--concurrency` requests in flight; `--sockets` WebSockets with one request in
 *    flight each; REST binary at the same two concurrencies, driven both by the project's node:http load client
 *    (what `rtserve bench` uses) and by the SDK over fetch. Reported: messages/s (answers per second), p50, p99.
 * 2. Frame streams: `--streams` WebSockets, each a frame stream sending `--fps` frames per second of
 *    `--frame-model` ([1, 3, 32, 32] FP32) for `--frame-duration` seconds. Reported: delivered fps (results per
 *    second, total and per stream), drops, and p50/p99 latency of delivered frames (send → result).
 * Writes bench/results/ws-<date>.json with the exact command and the machine.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { machineInfo } from '../src/bench/machine.ts';
import { startServerProcess } from '../src/bench/server-process.ts';
import { createNodeClient } from '../src/client/node.ts';
import type { RtserveClient, TransportKind } from '../packages/client/src/rtserve-client.ts';
import { toTensors, type Inputs } from '../packages/client/src/tensors.ts';
import { httpClientFactories } from '../src/bench/clients/http-client.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '32' },
    sockets: { type: 'string', default: '64' },
    streams: { type: 'string', default: '16' },
    fps: { type: 'string', default: '30' },
    'frame-duration': { type: 'string', default: '10' },
    'frame-model': { type: 'string', default: 'resnet_tiny' },
    'out-dir': { type: 'string', default: join(import.meta.dirname, 'results') },
  },
});
const DURATION_S = Number(values.duration);
const WARMUP_S = Number(values.warmup);
const CONCURRENCY = Number(values.concurrency);
const SOCKETS = Number(values.sockets);
const STREAMS = Number(values.streams);
const FPS = Number(values.fps);
const FRAME_DURATION_S = Number(values['frame-duration']);
const FRAME_MODEL = values['frame-model'];

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}
const round = (x: number, d = 3): number => Math.round(x * 10 ** d) / 10 ** d;

interface LoadResult {
  readonly name: string;
  readonly transport: string;
  readonly connections: number;
  readonly inFlight: number;
  readonly messages: number;
  readonly errors: number;
  readonly messagesPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

const mlpInputs = (): Inputs => ({ input: { shape: [1, 64], data: Float32Array.from({ length: 64 }, (_, i) => (i % 9) / 9) } });

/** Closed loop: each worker keeps one request in flight until the deadline. */
async function closedLoop(name: string, transport: string, connections: number, workers: (() => Promise<unknown>)[]): Promise<LoadResult> {
  const run = async (seconds: number, record: boolean): Promise<{ n: number; errors: number; lat: number[] }> => {
    const deadline = performance.now() + seconds * 1000;
    const lat: number[] = [];
    let n = 0;
    let errors = 0;
    const loop = async (send: () => Promise<unknown>): Promise<void> => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await send();
          if (record) lat.push(performance.now() - t0);
          n++;
        } catch {
          errors++;
        }
      }
    };
    await Promise.all(workers.map(loop));
    return { n, errors, lat };
  };
  await run(WARMUP_S, false);
  const t0 = performance.now();
  const { n, errors, lat } = await run(DURATION_S, true);
  const elapsedS = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  const result: LoadResult = {
    name,
    transport,
    connections,
    inFlight: workers.length,
    messages: n,
    errors,
    messagesPerSec: round(n / elapsedS, 1),
    p50Ms: round(percentile(lat, 0.5)),
    p99Ms: round(percentile(lat, 0.99)),
  };
  console.log(
    `${name.padEnd(36)} ${String(result.messagesPerSec).padStart(9)} msg/s  p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms  errors ${errors}`,
  );
  return result;
}

/** The SDK's `infer` over one transport, `n` workers sharing `client`. */
const sdkWorkers = (client: RtserveClient, transport: TransportKind, n: number): (() => Promise<unknown>)[] => {
  const inputs = mlpInputs();
  return Array.from({ length: n }, () => () => client.infer('mlp', inputs, { transport }));
};

/** The project's REST load client (node:http keep-alive agent, binary tensor data), as `rtserve bench` uses it. */
async function nodeHttpWorkers(url: string, n: number): Promise<{ workers: (() => Promise<unknown>)[]; close: () => Promise<void> }> {
  const factory = httpClientFactories('node').find((f) => f.protocol === 'http-binary');
  if (factory === undefined) throw new Error('no http-binary load client');
  const tensors = toTensors(mlpInputs());
  const client = await factory.create({ url, model: 'mlp', inputSets: [tensors], concurrency: n });
  let seq = 0;
  return { workers: Array.from({ length: n }, () => () => client.send(seq++)), close: () => client.close() };
}

interface FrameResult {
  readonly model: string;
  readonly streams: number;
  readonly fpsPerStream: number;
  readonly seconds: number;
  readonly sent: number;
  readonly delivered: number;
  readonly dropped: number;
  readonly errors: number;
  readonly deliveredFps: number;
  readonly deliveredFpsPerStream: { readonly min: number; readonly max: number };
  readonly p50LatencyMs: number;
  readonly p99LatencyMs: number;
  readonly maxLatencyMs: number;
}

async function frameStreams(url: string): Promise<FrameResult> {
  const clients = Array.from({ length: STREAMS }, () => createNodeClient({ url }));
  const pixels = Float32Array.from({ length: 3 * 32 * 32 }, (_, i) => (i % 255) / 255);
  // Warm the sockets and the model.
  await Promise.all(clients.map((c) => c.infer(FRAME_MODEL, { input: { shape: [1, 3, 32, 32], data: pixels } }, { transport: 'ws' })));
  const latencies: number[] = [];
  const perStream: number[] = [];
  let sent = 0;
  let dropped = 0;
  let errors = 0;
  const start = performance.now();
  await Promise.all(
    clients.map(async (c, k) => {
      const fs = c.frameStream(FRAME_MODEL, `camera-${k}`);
      const sentAt = new Map<string, number>();
      let delivered = 0;
      const consume = (async () => {
        for await (const o of fs) {
          const t = sentAt.get(o.id);
          sentAt.delete(o.id);
          if (o.kind === 'result') {
            delivered++;
            if (t !== undefined) latencies.push(performance.now() - t);
          } else if (o.kind === 'dropped') dropped++;
          else errors++;
        }
      })();
      const frames = Math.round(FPS * FRAME_DURATION_S);
      const intervalMs = 1000 / FPS;
      // Offset the cameras so their frames do not all land in the same millisecond.
      const t0 = performance.now() + (k * intervalMs) / STREAMS;
      for (let i = 0; i < frames; i++) {
        const due = t0 + i * intervalMs;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const id = fs.send({ input: { shape: [1, 3, 32, 32], data: pixels } });
        sentAt.set(id, performance.now());
        sent++;
      }
      fs.close();
      await consume;
      perStream.push(delivered);
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  for (const c of clients) c.close();
  latencies.sort((a, b) => a - b);
  const delivered = perStream.reduce((a, b) => a + b, 0);
  const result: FrameResult = {
    model: FRAME_MODEL,
    streams: STREAMS,
    fpsPerStream: FPS,
    seconds: round(seconds, 2),
    sent,
    delivered,
    dropped,
    errors,
    deliveredFps: round(delivered / seconds, 1),
    deliveredFpsPerStream: { min: round(Math.min(...perStream) / seconds, 1), max: round(Math.max(...perStream) / seconds, 1) },
    p50LatencyMs: round(percentile(latencies, 0.5)),
    p99LatencyMs: round(percentile(latencies, 0.99)),
    maxLatencyMs: round(latencies[latencies.length - 1] ?? Number.NaN),
  };
  console.log(
    `frame streams: ${STREAMS} x ${FPS} fps of ${FRAME_MODEL}: delivered ${result.deliveredFps} fps, dropped ${dropped} of ${sent}, p50 ${result.p50LatencyMs} ms, p99 ${result.p99LatencyMs} ms`,
  );
  return result;
}

async function main(): Promise<void> {
  const machine = machineInfo();
  const server = await startServerProcess();
  const command = `node --import tsx bench/ws.ts ${process.argv.slice(2).join(' ')}`.trim();
  try {
    const single = createNodeClient({ url: server.httpUrl });
    const many = Array.from({ length: SOCKETS }, () => createNodeClient({ url: server.httpUrl }));
    const load: LoadResult[] = [];
    load.push(await closedLoop(`ws: 1 socket x ${CONCURRENCY} in flight`, 'ws (SDK)', 1, sdkWorkers(single, 'ws', CONCURRENCY)));
    load.push(
      await closedLoop(
        `ws: ${SOCKETS} sockets x 1 in flight`,
        'ws (SDK)',
        SOCKETS,
        many.flatMap((c) => sdkWorkers(c, 'ws', 1)),
      ),
    );
    for (const n of [CONCURRENCY, SOCKETS]) {
      const http = await nodeHttpWorkers(server.httpUrl, n);
      load.push(await closedLoop(`rest binary (node:http): ${n} in flight`, 'http-binary (node:http keep-alive)', n, http.workers));
      await http.close();
    }
    for (const n of [CONCURRENCY, SOCKETS]) {
      load.push(await closedLoop(`rest binary (SDK, fetch): ${n} in flight`, 'http-binary (SDK over fetch)', n, sdkWorkers(single, 'rest', n)));
    }
    single.close();
    for (const c of many) c.close();
    const frames = await frameStreams(server.httpUrl);

    const date = new Date().toISOString();
    const out = {
      benchmark: 'ws',
      date,
      command,
      server: server.commandLine,
      // The machine is shared: its 1-minute load average before (machine.loadAvg1) and after the run says how much
      // else was running.
      machine,
      loadAvg1AtEnd: Math.round((loadavg()[0] ?? 0) * 100) / 100,
      settings: { durationS: DURATION_S, warmupS: WARMUP_S, model: 'mlp', concurrency: CONCURRENCY, sockets: SOCKETS },
      requestAnswer: load,
      frameStreams: frames,
    };
    await mkdir(values['out-dir'], { recursive: true });
    const file = join(values['out-dir'], `ws-${date.slice(0, 10)}.json`);
    await writeFile(file, `${JSON.stringify(out, null, 2)}\n`);
    console.log(`wrote ${file}`);
  } finally {
    await server.stop();
  }
}

await main();
