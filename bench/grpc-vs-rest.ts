/**
 * gRPC (unary ModelInfer and streaming ModelStreamInfer) beside REST with binary tensor data, on the bundled `mlp`
 * model (FP32 [batch, 64] → [batch, 10], dynamic batching), at several concurrencies, against one `rtserve serve`
 * child process — the same server for every mode, so the front ends are what differs.
 *
 *   node --import tsx bench/grpc-vs-rest.ts [--concurrency 1,8,64] [--modes rest-binary,grpc-unary,grpc-stream]
 *                                          [--duration-s 5] [--warmup-s 1] [--rounds 3] [--save]
 *
 * Each mode is a closed loop with `concurrency` requests outstanding:
 *   rest-binary  node:http keep-alive agent (one socket per outstanding request), inputs and outputs as binary
 *                tensor data (docs/protocol.md §2.3); the client decodes every response.
 *   grpc-unary   one ModelInfer call per request, all multiplexed on one HTTP/2 channel.
 *   grpc-stream  one ModelStreamInfer stream; a new request is written as each response arrives (matched by id),
 *                perf_analyzer's --streaming mode.
 * Requests are encoded once before measuring (rtserve's client codecs: kserve-client-codec.ts and
 * codec/grpc/infer-client-codec.ts, every input in raw_input_contents); every response is fully decoded.
 * Modes run interleaved, and the whole set `--rounds` times; each (mode, concurrency) reports the round with the
 * median throughput, so that load from other processes drifting during the run hits every mode alike.
 * `--save` writes bench/results/grpc-<date>.json with the exact command, the machine and the numbers.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client, credentials, type ServiceError } from '@grpc/grpc-js';
import type { Tensor } from '../src/tensor/tensor.ts';
import { bundledModelRepository, packageRoot } from '../src/util/package-root.ts';
import { startServerProcess, type ServerProcess } from '../src/bench/server-process.ts';
import { decodeInferResponse, encodeInferRequest } from '../src/codec/kserve-client-codec.ts';
import { decodeModelInferResponse, decodeModelStreamInferResponse, encodeModelInferRequest } from '../src/codec/grpc/infer-client-codec.ts';

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '1,8,64' },
    'duration-s': { type: 'string', default: '5' },
    'warmup-s': { type: 'string', default: '1' },
    modes: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    save: { type: 'boolean', default: false },
  },
});
const CONCURRENCY = values.concurrency.split(',').map(Number);
const MODES = (values.modes ?? 'rest-binary,grpc-unary,grpc-stream').split(',') as Mode[];
const ROUNDS = Number(values.rounds);
const DURATION_MS = Number(values['duration-s']) * 1000;
const WARMUP_MS = Number(values['warmup-s']) * 1000;
const MODEL = 'mlp';
const WIDTH = 64;
const BODIES = 16;

type Mode = 'rest-binary' | 'grpc-unary' | 'grpc-stream';

interface Result {
  readonly mode: Mode;
  readonly concurrency: number;
  readonly requests: number;
  readonly errors: number;
  readonly throughputPerSec: number;
  readonly p50Us: number;
  readonly p90Us: number;
  readonly p99Us: number;
}

function inputs(seed: number): Tensor[] {
  const data = Float32Array.from({ length: WIDTH }, (_, i) => Math.sin(seed * 7 + i));
  return [{ name: 'input', datatype: 'FP32', shape: [1, WIDTH], data }];
}

/** One request: resolves when its response has been received and decoded. */
type Sender = (seq: number) => Promise<void>;

interface Client_ {
  readonly send: Sender;
  close(): void;
}

// ---------------------------------------------------------------------------------------------------------------
// Clients

function restBinary(httpUrl: string, concurrency: number): Client_ {
  const url = new URL(`/v2/models/${MODEL}/infer`, httpUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const bodies = Array.from({ length: BODIES }, (_, i) => {
    const enc = encodeInferRequest(inputs(i), { binary: true, parameters: { binary_data_output: true } });
    return { body: Buffer.from(enc.body.buffer, enc.body.byteOffset, enc.body.byteLength), headerLength: String(enc.headerLength) };
  });
  const send: Sender = (seq) =>
    new Promise((resolve, reject) => {
      const b = bodies[seq % BODIES]!;
      const req = httpRequest(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/octet-stream',
            'content-length': b.body.byteLength,
            'inference-header-content-length': b.headerLength,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}`));
            const hl = res.headers['inference-header-content-length'];
            decodeInferResponse(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), hl === undefined ? undefined : Number(hl));
            resolve();
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(b.body);
    });
  return { send, close: () => agent.destroy() };
}

const identity = (b: Buffer): Buffer => b;
const grpcBodies = (): Buffer[] => Array.from({ length: BODIES }, (_, i) => encodeModelInferRequest({ model: MODEL, inputs: inputs(i) }));

function grpcUnary(client: Client): Client_ {
  const bodies = grpcBodies();
  const send: Sender = (seq) =>
    new Promise((resolve, reject) => {
      client.makeUnaryRequest(
        '/inference.GRPCInferenceService/ModelInfer',
        identity,
        (b: Buffer) => decodeModelInferResponse(b),
        bodies[seq % BODIES]!,
        (err: ServiceError | null) => (err === null ? resolve() : reject(err)),
      );
    });
  return { send, close: () => undefined };
}

/** ModelInferRequest.id (field 3): appended to a pre-encoded request, the last occurrence wins (protobuf merge). */
function withId(body: Buffer, id: string): Buffer {
  const idBytes = Buffer.from(id);
  return Buffer.concat([body, Buffer.from([(3 << 3) | 2, idBytes.byteLength]), idBytes]);
}

function grpcStream(client: Client): Client_ {
  const bodies = grpcBodies();
  const call = client.makeBidiStreamRequest('/inference.GRPCInferenceService/ModelStreamInfer', identity, identity);
  const pending = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  call.on('data', (b: Buffer) => {
    const r = decodeModelStreamInferResponse(b);
    const id = r.response.id ?? '';
    const p = pending.get(id);
    if (p === undefined) return;
    pending.delete(id);
    if (r.error === '') p.resolve();
    else p.reject(new Error(r.error));
  });
  const failAll = (err: Error): void => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  call.on('error', (e: Error) => failAll(e));
  call.on('end', () => failAll(new Error('stream ended')));
  const send: Sender = (seq) =>
    new Promise((resolve, reject) => {
      const id = String(seq);
      pending.set(id, { resolve, reject });
      call.write(withId(bodies[seq % BODIES]!, id));
    });
  return { send, close: () => call.end() };
}

// ---------------------------------------------------------------------------------------------------------------
// Measurement

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

async function measure(mode: Mode, concurrency: number, client: Client_): Promise<Result> {
  let seq = 0;
  let recording = false;
  let stop = false;
  let errors = 0;
  const latenciesUs: number[] = [];
  const worker = async (): Promise<void> => {
    while (!stop) {
      const s = seq++;
      const t0 = process.hrtime.bigint();
      try {
        await client.send(s);
        if (recording) latenciesUs.push(Number(process.hrtime.bigint() - t0) / 1000);
      } catch {
        if (recording) errors++;
      }
    }
  };
  const workers = Array.from({ length: concurrency }, () => worker());
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  recording = true;
  const start = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, DURATION_MS));
  recording = false;
  const elapsedS = Number(process.hrtime.bigint() - start) / 1e9;
  stop = true;
  await Promise.all(workers);
  const sorted = Float64Array.from(latenciesUs).sort();
  const round = (v: number): number => Math.round(v * 10) / 10;
  return {
    mode,
    concurrency,
    requests: sorted.length,
    errors,
    throughputPerSec: Math.round(sorted.length / elapsedS),
    p50Us: round(percentile(sorted, 0.5)),
    p90Us: round(percentile(sorted, 0.9)),
    p99Us: round(percentile(sorted, 0.99)),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Server

function startServer(repo: string): Promise<ServerProcess> {
  // BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p") go to the server only, to profile it under load.
  const nodeArgs = process.env['BENCH_SERVER_NODE_ARGS']?.split(' ').filter((a) => a !== '') ?? [];
  return startServerProcess({ args: ['--model-repository', repo], nodeArgs });
}

async function main(): Promise<void> {
  // A repository with just the model under test, so other models cannot affect readiness or memory.
  const repo = await mkdtemp(join(tmpdir(), 'rtserve-bench-'));
  await cp(join(bundledModelRepository(), MODEL), join(repo, MODEL), { recursive: true });
  const server = await startServer(repo);
  const grpcAddress = server.grpcAddress;
  if (grpcAddress === undefined) throw new Error('rtserve serve reported no gRPC address');
  const rounds: Result[][] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const results: Result[] = [];
      rounds.push(results);
      for (const concurrency of CONCURRENCY) {
        for (const mode of MODES) {
          let channel: Client | undefined;
          let client: Client_;
          if (mode === 'rest-binary') {
            client = restBinary(server.httpUrl, concurrency);
          } else {
            channel = new Client(grpcAddress, credentials.createInsecure());
            await new Promise<void>((resolve, reject) => channel!.waitForReady(Date.now() + 10_000, (e) => (e ? reject(e) : resolve())));
            client = mode === 'grpc-unary' ? grpcUnary(channel) : grpcStream(channel);
          }
          const r = await measure(mode, concurrency, client);
          client.close();
          channel?.close();
          results.push(r);
          process.stderr.write(
            `round ${round + 1}  ${mode.padEnd(12)} c=${String(concurrency).padStart(3)}  ${String(r.throughputPerSec).padStart(7)} req/s  p50 ${r.p50Us} µs  p99 ${r.p99Us} µs${r.errors > 0 ? `  errors ${r.errors}` : ''}\n`,
          );
        }
      }
    }
  } finally {
    await server.stop();
    await rm(repo, { recursive: true, force: true });
  }

  // Per (mode, concurrency): the round with the median throughput.
  const results: Result[] = [];
  for (const concurrency of CONCURRENCY) {
    for (const mode of MODES) {
      const all = rounds
        .map((rs) => rs.find((r) => r.mode === mode && r.concurrency === concurrency)!)
        .sort((a, b) => a.throughputPerSec - b.throughputPerSec);
      results.push(all[Math.floor(all.length / 2)]!);
    }
  }
  const header = `| mode | concurrency | req/s | p50 µs | p90 µs | p99 µs | errors |\n|---|---:|---:|---:|---:|---:|---:|`;
  const rows = results.map((r) => `| ${r.mode} | ${r.concurrency} | ${r.throughputPerSec} | ${r.p50Us} | ${r.p90Us} | ${r.p99Us} | ${r.errors} |`);
  process.stdout.write(`\n${header}\n${rows.join('\n')}\n`);
  const ratio = CONCURRENCY.map((c) => {
    const rest = results.find((r) => r.mode === 'rest-binary' && r.concurrency === c)?.throughputPerSec ?? Number.NaN;
    const stream = results.find((r) => r.mode === 'grpc-stream' && r.concurrency === c)?.throughputPerSec ?? Number.NaN;
    const unary = results.find((r) => r.mode === 'grpc-unary' && r.concurrency === c)?.throughputPerSec ?? Number.NaN;
    return {
      concurrency: c,
      grpcStreamOverRestBinary: Math.round((stream / rest) * 100) / 100,
      grpcUnaryOverRestBinary: Math.round((unary / rest) * 100) / 100,
    };
  });
  process.stdout.write(
    `\n${ratio.map((r) => `c=${r.concurrency}: grpc-stream / rest-binary = ${r.grpcStreamOverRestBinary}, grpc-unary / rest-binary = ${r.grpcUnaryOverRestBinary}`).join('\n')}\n`,
  );

  if (values.save) {
    const date = new Date().toISOString();
    const dir = join(packageRoot(), 'bench', 'results');
    await mkdir(dir, { recursive: true });
    const file = join(dir, `grpc-${date.slice(0, 10)}.json`);
    const report = {
      benchmark: 'grpc-vs-rest',
      date,
      command: `node --import tsx bench/grpc-vs-rest.ts ${process.argv.slice(2).join(' ')}`.trim(),
      node: process.version,
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      loadAverageAtEnd: loadavg().map((v) => Math.round(v * 100) / 100),
      model: `${MODEL}: FP32 [1, ${WIDTH}] per request → [1, 10], dynamic batching (max_batch_size 64, max_queue_delay 200 µs)`,
      durationS: DURATION_MS / 1000,
      warmupS: WARMUP_MS / 1000,
      rounds: ROUNDS,
      note: 'results: per (mode, concurrency) the round with the median throughput; allRounds: every round',
      results,
      allRounds: rounds,
      ratios: ratio,
    };
    await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`\nwrote ${file}\n`);
  }
}

await main();
