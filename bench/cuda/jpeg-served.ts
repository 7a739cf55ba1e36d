/**
 * JPEG frames served (issues #19, #30): a load generator for a running rtserve whose model has a `preprocess` section,
 * on the same machine. Each request holds one JPEG in one BYTES input (the Triton convention for encoded images) and is
 * answered with the classification (top-k) the model's postprocess gives: `--protocol http` a KServe v2 REST request
 * with the binary extension (node:http, keep-alive), `grpc` a KServe ModelInfer and `ws` a WebSocket `infer` event
 * (both through the rtserve client SDK, one connection per process).
 *
 *   node bench/cuda/jpeg-served.ts --url http://127.0.0.1:18000 --model resnet50 --input input --frames DIR
 *        [--protocol http|grpc|ws] [--grpc 127.0.0.1:18001] [--connections 1] [--concurrency 64] [--seconds 8] [--out FILE.json]
 *
 * Reports img/s over the timed window (after a warm-up second), latency percentiles, the errors by status, and this
 * process's CPU time (the load generator's share of the machine).
 */
import { Agent } from 'node:http';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { encodeInferRequest } from '../../src/codec/kserve-client-codec.ts';
import { createNodeClient } from '../../src/client/node.ts';
import { postInfer } from './kserve-post.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:18000' },
    model: { type: 'string', default: 'resnet50' },
    input: { type: 'string', default: 'input' },
    frames: { type: 'string' },
    concurrency: { type: 'string', default: '64' },
    seconds: { type: 'string', default: '8' },
    out: { type: 'string' },
    protocol: { type: 'string', default: 'http' },
    grpc: { type: 'string', default: '127.0.0.1:18001' },
    connections: { type: 'string', default: '1' },
  },
});
if (values.frames === undefined) throw new Error('--frames DIR is required');
const dir = values.frames;
const url = new URL(`/v2/models/${values.model}/infer`, values.url);
const bodies = readdirSync(dir)
  .filter((f) => f.endsWith('.jpg'))
  .sort()
  .map((f) => {
    const jpeg = new Uint8Array(readFileSync(join(dir, f)));
    return { ...encodeInferRequest([{ name: values.input, datatype: 'BYTES', shape: [1], data: [jpeg] }], { binary: true }), jpeg };
  });
/** The first answer of each failing status, to see why. */
const errorSamples = new Map<number, string>();
const agent = new Agent({ keepAlive: true, maxSockets: Number(values.concurrency) });

const protocol = values.protocol;
if (protocol !== 'http' && protocol !== 'grpc' && protocol !== 'ws') throw new Error(`--protocol http|grpc|ws, got ${protocol}`);
// gRPC and WebSocket: `--connections` SDK clients (one connection each), requests spread over them in turn, so that
// the connections reach every front-end worker (node:cluster hands out connections, not requests).
const sdks =
  protocol === 'http'
    ? []
    : Array.from({ length: Number(values.connections) }, () => createNodeClient({ url: values.url, grpcAddress: values.grpc }));

/** One request over gRPC or WebSocket through the SDK; an error counts as status 0 (its message kept). */
async function onceSdk(i: number): Promise<{ status: number; us: number }> {
  const b = bodies[i % bodies.length] as (typeof bodies)[number];
  const t0 = process.hrtime.bigint();
  try {
    await sdks[i % sdks.length]?.infer(
      values.model,
      { [values.input]: { datatype: 'BYTES', shape: [1], data: [b.jpeg] } },
      { transport: protocol as 'grpc' | 'ws' },
    );
    return { status: 200, us: Number(process.hrtime.bigint() - t0) / 1000 };
  } catch (e) {
    if (!errorSamples.has(0)) errorSamples.set(0, e instanceof Error ? e.message : String(e));
    return { status: 0, us: Number(process.hrtime.bigint() - t0) / 1000 };
  }
}

async function once(i: number): Promise<{ status: number; us: number }> {
  if (sdks.length > 0) return onceSdk(i);
  const b = bodies[i % bodies.length] as (typeof bodies)[number];
  const t0 = process.hrtime.bigint();
  const r = await postInfer(url, agent, b);
  if (r.status !== 200 && !errorSamples.has(r.status)) errorSamples.set(r.status, r.error ?? r.body?.toString('utf8') ?? '');
  return { status: r.status, us: Number(process.hrtime.bigint() - t0) / 1000 };
}

const concurrency = Number(values.concurrency);
const seconds = Number(values.seconds);
const latencies: number[] = [];
const statuses = new Map<number, number>();
let next = 0;
let measuring = false;
let stop = false;
async function worker(): Promise<void> {
  while (!stop) {
    const r = await once(next++);
    if (!measuring) continue;
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    if (r.status === 200) latencies.push(r.us);
  }
}
const workers = Array.from({ length: concurrency }, () => worker());
await new Promise((r) => setTimeout(r, 1000));
measuring = true;
const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
await new Promise((r) => setTimeout(r, seconds * 1000));
measuring = false;
const wall = Number(process.hrtime.bigint() - t0) / 1e9;
const cpu = process.cpuUsage(cpu0);
stop = true;
await Promise.all(workers);
agent.destroy();
for (const c of sdks) c.close();
latencies.sort((a, b) => a - b);
const pct = (p: number): number => Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0);
const result = {
  model: values.model,
  protocol: `${protocol === 'http' ? 'http-binary' : protocol}, one JPEG per request (BYTES)`,
  concurrency,
  seconds: wall,
  frames: bodies.length,
  meanJpegBytes: bodies.reduce((a, b) => a + b.body.byteLength, 0) / bodies.length,
  imgPerS: latencies.length / wall,
  latencyUs: { p50: pct(50), p90: pct(90), p99: pct(99) },
  statuses: Object.fromEntries(statuses),
  errors: Object.fromEntries(errorSamples),
  loadGeneratorCpuPercent: Math.round(((cpu.user + cpu.system) / 1e4 / wall) * 10) / 10,
};
console.log(JSON.stringify(result));
if (values.out !== undefined) writeFileSync(values.out, JSON.stringify(result, null, 1));
