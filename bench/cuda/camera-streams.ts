/**
 * Simulated cameras (issue #30): `--streams` cameras, each sending one 640x480 JPEG every 1/fps seconds (open loop,
 * each camera at its own phase) to a detector with an image pipeline, measuring frame → boxes latency.
 *
 *   node bench/cuda/camera-streams.ts --url http://127.0.0.1:18000 --model shapes --input image --frames DIR
 *        [--protocol ws|http|grpc] [--grpc 127.0.0.1:18001] [--streams 50] [--fps 30] [--connections 4]
 *        [--seconds 5] [--warmup 1] [--out FILE.json] [--map]
 *
 * `ws`: one WebSocket frame stream per camera (docs/ws-protocol.md "Frame streams": the server runs the newest frame
 * and drops a superseded waiting one, `frame.dropped`), cameras spread over `--connections` SDK clients. `http` and
 * `grpc`: one KServe request per frame (BYTES input); a camera whose previous frame is still unanswered skips the
 * frame (the client-side form of latest-frame-wins), counted as `skipped`.
 * Counted over the timed window: frames sent, answered, dropped, skipped, failed, and those still unanswered a second
 * after the window (lost); latency percentiles of the answered ones; this process's CPU time. `latenciesMs` holds
 * every sample so that camera-sweep.ts can merge processes.
 * `--map`: instead, every frame once (8 in flight) with score_threshold 0.05 over the chosen protocol, and the
 * mAP@0.5 of the answers against DIR/truths.json (written by camera_frames.py).
 */
import { Agent } from 'node:http';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { decodeInferResponse, encodeInferRequest } from '../../src/codec/kserve-client-codec.ts';
import { createNodeClient } from '../../src/client/node.ts';
import type { InferResult } from '../../src/client/tensors.ts';
import { meanAveragePrecision, type GroundTruth, type ScoredBox } from '../../src/postprocess/average-precision.ts';
import { postInfer } from './kserve-post.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:18000' },
    grpc: { type: 'string', default: '127.0.0.1:18001' },
    model: { type: 'string', default: 'shapes' },
    input: { type: 'string', default: 'image' },
    frames: { type: 'string' },
    protocol: { type: 'string', default: 'ws' },
    streams: { type: 'string', default: '50' },
    fps: { type: 'string', default: '30' },
    connections: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    out: { type: 'string' },
    map: { type: 'boolean', default: false },
  },
});
if (values.frames === undefined) throw new Error('--frames DIR is required');
const protocol = values.protocol;
if (protocol !== 'ws' && protocol !== 'http' && protocol !== 'grpc') throw new Error(`--protocol ws|http|grpc, got ${protocol}`);
const dir = values.frames;
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.jpg'))
  .sort();
const jpegs = names.map((f) => new Uint8Array(readFileSync(join(dir, f))));
const inferUrl = new URL(`/v2/models/${values.model}/infer`, values.url);
const agent = new Agent({ keepAlive: true, maxSockets: Math.max(1, Number(values.streams)) });
const sdks =
  protocol === 'http'
    ? []
    : Array.from({ length: Number(values.connections) }, () => createNodeClient({ url: values.url, grpcAddress: values.grpc }));
const errorSamples: string[] = [];
const noteError = (m: string): void => {
  if (errorSamples.length < 5) errorSamples.push(m.slice(0, 300));
};

interface Detections {
  readonly boxes: ArrayLike<number>;
  readonly scores: ArrayLike<number>;
  readonly classes: ArrayLike<number>;
}
const detectionsOf = (r: InferResult): Detections => ({
  boxes: r.data('boxes') as Float32Array,
  scores: r.data('scores') as Float32Array,
  classes: r.data('classes') as Int32Array,
});

/** One frame as one KServe request over `http` or `grpc`; resolves with its detections, rejects with the failure. */
async function request(frame: number, parameters?: Record<string, number>): Promise<Detections> {
  const jpeg = jpegs[frame % jpegs.length] as Uint8Array;
  const inputs = [{ name: values.input, datatype: 'BYTES' as const, shape: [1], data: [jpeg] }];
  if (protocol === 'http') {
    const body = encodeInferRequest(inputs, { binary: true, ...(parameters === undefined ? {} : { parameters }) });
    const r = await postInfer(inferUrl, agent, body, true);
    if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${r.error ?? r.body?.toString('utf8')}`);
    const res = decodeInferResponse(new Uint8Array(r.body as Buffer), r.headerLength);
    const by = (n: string) => res.outputs.find((o) => o.name === n)?.data as ArrayLike<number>;
    return { boxes: by('boxes'), scores: by('scores'), classes: by('classes') };
  }
  const sdk = sdks[frame % sdks.length];
  if (sdk === undefined) throw new Error('no client');
  const result = await sdk.infer(
    values.model,
    { [values.input]: { datatype: 'BYTES', shape: [1], data: [jpeg] } },
    {
      transport: protocol as 'grpc' | 'ws',
      ...(parameters === undefined ? {} : { parameters }),
    },
  );
  return detectionsOf(result);
}

/** mAP@0.5 of the served detections over every frame, against truths.json. */
async function mapPass(): Promise<void> {
  const truthsByName = JSON.parse(readFileSync(join(dir, 'truths.json'), 'utf8')) as Record<string, number[][]>;
  const dets: ScoredBox[] = [];
  const truths: GroundTruth[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < names.length; i = next++) {
      for (const [cls, ...box] of truthsByName[names[i] as string] ?? []) truths.push({ image: i, classId: cls as number, box });
      const d = await request(i, { score_threshold: 0.05 });
      for (let k = 0; k < d.scores.length; k++) {
        const box = Array.from({ length: 4 }, (_, j) => d.boxes[k * 4 + j] as number);
        dets.push({ image: i, classId: d.classes[k] as number, score: d.scores[k] as number, box });
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const { map, perClass } = meanAveragePrecision(dets, truths, 0.5);
  const result = { model: values.model, protocol, frames: names.length, mapAt50: map, perClass: Object.fromEntries(perClass) };
  console.log(JSON.stringify(result));
  if (values.out !== undefined) writeFileSync(values.out, JSON.stringify(result, null, 1));
}

const counts = { sent: 0, answered: 0, dropped: 0, skipped: 0, failed: 0 };
const latencies: number[] = [];
let measuring = false;
let stopping = false;
/** Send times of timed frames still unanswered (by camera and frame number). */
const inFlight = new Map<string, number>();

function settle(key: string, outcome: 'answered' | 'dropped' | 'failed'): void {
  const t = inFlight.get(key);
  if (t === undefined) return;
  inFlight.delete(key);
  counts[outcome]++;
  if (outcome === 'answered') latencies.push(performance.now() - t);
}

/** One camera: a frame every period from its phase; `send` returns the frame's key, or undefined when skipped. */
function camera(k: number, period: number, send: (k: number, frame: number) => string | undefined): Promise<void> {
  return new Promise((resolve) => {
    let frame = 0;
    const start = performance.now() + (k / Number(values.streams)) * period;
    const tick = (): void => {
      if (stopping) return resolve();
      const timed = measuring;
      const key = send(k, k * 7 + frame);
      if (timed) {
        counts.sent++;
        if (key === undefined) counts.skipped++;
        else inFlight.set(key, performance.now());
      }
      frame++;
      setTimeout(tick, Math.max(0, start + frame * period - performance.now()));
    };
    setTimeout(tick, Math.max(0, start - performance.now()));
  });
}

function wsSender(): (k: number, frame: number) => string | undefined {
  const streams = Array.from({ length: Number(values.streams) }, (_, k) => {
    const s = (sdks[k % sdks.length] as (typeof sdks)[number]).frameStream(values.model, `cam-${k}`);
    void (async () => {
      for await (const o of s) {
        if (o.kind === 'error') noteError(o.error.message);
        settle(o.id, o.kind === 'result' ? 'answered' : o.kind === 'dropped' ? 'dropped' : 'failed');
      }
    })();
    return s;
  });
  return (k, frame) =>
    (streams[k] as (typeof streams)[number]).send({
      [values.input]: { datatype: 'BYTES', shape: [1], data: [jpegs[frame % jpegs.length] as Uint8Array] },
    });
}

function requestSender(): (k: number, frame: number) => string | undefined {
  const busy = new Set<number>();
  return (k, frame) => {
    if (busy.has(k)) return undefined;
    busy.add(k);
    const key = `${k}#${frame}`;
    request(frame)
      .then(
        () => settle(key, 'answered'),
        (e: unknown) => {
          noteError(e instanceof Error ? e.message : String(e));
          settle(key, 'failed');
        },
      )
      .finally(() => busy.delete(k));
    return key;
  };
}

async function streamsRun(): Promise<void> {
  const period = 1000 / Number(values.fps);
  const send = protocol === 'ws' ? wsSender() : requestSender();
  const cams = Array.from({ length: Number(values.streams) }, (_, k) => camera(k, period, send));
  await new Promise((r) => setTimeout(r, Number(values.warmup) * 1000));
  measuring = true;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, Number(values.seconds) * 1000));
  measuring = false;
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  // Frames of the window still unanswered a second later are lost.
  for (let i = 0; i < 20 && inFlight.size > 0; i++) await new Promise((r) => setTimeout(r, 50));
  stopping = true;
  await Promise.all(cams);
  const lost = inFlight.size;
  latencies.sort((a, b) => a - b);
  const pct = (p: number): number =>
    Math.round((latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0) * 100) / 100;
  const result = {
    model: values.model,
    protocol,
    streams: Number(values.streams),
    fps: Number(values.fps),
    connections: protocol === 'http' ? Number(values.streams) : sdks.length,
    seconds: wall,
    ...counts,
    lost,
    answeredFps: counts.answered / wall,
    meanJpegBytes: jpegs.reduce((a, j) => a + j.byteLength, 0) / jpegs.length,
    latencyMs: { p50: pct(50), p90: pct(90), p99: pct(99), max: pct(100) },
    errors: errorSamples,
    loadGeneratorCpuPercent: Math.round(((cpu.user + cpu.system) / 1e4 / wall) * 10) / 10,
    latenciesMs: latencies.map((l) => Math.round(l * 100) / 100),
  };
  const { latenciesMs: _, ...summary } = result;
  console.log(JSON.stringify(summary));
  if (values.out !== undefined) writeFileSync(values.out, JSON.stringify(result));
}

await (values.map ? mapPass() : streamsRun());
agent.destroy();
for (const c of sdks) c.close();
