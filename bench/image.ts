/**
 * The image path end to end: decode + preprocess + infer + postprocess of the bundled `shapes` detector on
 * 640x480 JPEG frames, over REST POST /image and over WebSocket frame streams (the client SDK, one closed-loop
 * stream per simulated camera), beside the raw engine (onnxruntime-node in this process on ready-made
 * [N, 3, 120, 160] tensors) and beside the decode + preprocess step alone (sharp, in this process).
 *
 *   node --import tsx bench/image.ts [--duration 5] [--levels 1,4,16] [--frames 32] [--save] [--note TEXT]
 *
 * The server runs in its own process (`rtserve serve`, bundled models), so the load generator does not share its
 * event loop. Frames: `--frames` distinct scenes from the test generator (seeds 1..N, held out from training), drawn
 * at 640x480 and JPEG-encoded at quality 85 once, before measuring. Each level runs closed-loop for `--duration`
 * seconds after a 1 s warm-up. `--save` writes bench/results/image-<date>.json with the exact command.
 */
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import ort from 'onnxruntime-node';
import sharp from 'sharp';
import { generateScene, renderScene } from '../models/train/shapes-scene.ts';
import { createNodeClient } from '../src/client/node.ts';
import { bundledModelRepository, packageRoot } from '../src/util/package-root.ts';
import { percentileOf } from '../src/bench/latency.ts';
import { machineInfo } from '../src/bench/machine.ts';
import { startServerProcess } from '../src/bench/server-process.ts';
import { modelConfigSchema } from '../src/config/model-config.ts';
import { imageToTensor } from '../src/preprocess/image-pipeline.ts';
import { imageSpecOf } from '../src/config/image-spec.ts';
import { readFileSync } from 'node:fs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    levels: { type: 'string', default: '1,4,16' },
    frames: { type: 'string', default: '32' },
    save: { type: 'boolean', default: false },
    note: { type: 'string' },
  },
});
const DURATION_MS = Number(values.duration) * 1000;
const WARMUP_MS = 1000;
const LEVELS = values.levels.split(',').map(Number);
const FRAME_COUNT = Number(values.frames);

interface Level {
  readonly concurrency: number;
  readonly requests: number;
  readonly perSec: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  readonly errors: number;
  /** Mean server-side stage times (REST answers carry them), in microseconds. */
  readonly serverUs?: { decode: number; infer: number; postprocess: number };
  /** Mean detections per frame, a sanity check that real work was done. */
  readonly detectionsPerFrame?: number;
  /** The machine's 1-minute load average when the level ended: other work on a shared machine skews a level. */
  readonly loadAvg1: number;
}

const round = (v: number, d = 2): number => Math.round(v * 10 ** d) / 10 ** d;

/**
 * Runs `worker` on `concurrency` closed loops: warm-up, then counts completions and latencies for the duration.
 * `worker` performs one request for loop `i` and returns extra numbers to average.
 */
async function closedLoop(concurrency: number, worker: (loop: number, n: number) => Promise<Record<string, number>>): Promise<Level> {
  const latencies: number[] = [];
  const sums = new Map<string, number>();
  let errors = 0;
  let measuring = false;
  let stop = false;
  const started = performance.now();
  const loops = Array.from({ length: concurrency }, async (_, loop) => {
    for (let n = 0; !stop; n++) {
      const t0 = performance.now();
      try {
        const extra = await worker(loop, n);
        if (measuring && !stop) {
          latencies.push(performance.now() - t0);
          for (const [k, v] of Object.entries(extra)) sums.set(k, (sums.get(k) ?? 0) + v);
        }
      } catch (err) {
        if (measuring) errors++;
        if (errors > 50) throw err;
      }
    }
  });
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  measuring = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, DURATION_MS));
  const elapsed = performance.now() - t0;
  stop = true;
  await Promise.all(loops);
  void started;
  const sorted = [...latencies].sort((a, b) => a - b);
  const n = latencies.length;
  const mean = (k: string): number => (sums.get(k) ?? 0) / Math.max(1, n);
  return {
    concurrency,
    requests: n,
    perSec: round((n / elapsed) * 1000, 1),
    p50Ms: round(percentileOf(sorted, 50)),
    p90Ms: round(percentileOf(sorted, 90)),
    p99Ms: round(percentileOf(sorted, 99)),
    meanMs: round(sorted.reduce((s, v) => s + v, 0) / Math.max(1, n)),
    errors,
    loadAvg1: round(loadavg()[0] ?? 0),
    ...(sums.has('decode')
      ? { serverUs: { decode: Math.round(mean('decode')), infer: Math.round(mean('infer')), postprocess: Math.round(mean('postprocess')) } }
      : {}),
    ...(sums.has('detections') ? { detectionsPerFrame: round(mean('detections')) } : {}),
  };
}

async function makeFrames(): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (let seed = 1; seed <= FRAME_COUNT; seed++) {
    const r = renderScene(generateScene(seed), 4);
    out.push(
      new Uint8Array(
        await sharp(Buffer.from(r.pixels), { raw: { width: r.width, height: r.height, channels: 3 } })
          .jpeg({ quality: 85 })
          .toBuffer(),
      ),
    );
  }
  return out;
}

async function rawEngine(frames: readonly Uint8Array[]): Promise<{ batch1: Level; bestBatch: { batch: number; imagesPerSec: number }[] }> {
  const modelPath = join(bundledModelRepository(), 'shapes', '1', 'model.onnx');
  const session = await ort.InferenceSession.create(modelPath, { graphOptimizationLevel: 'all' });
  // Real preprocessed inputs (the same tensors the server would build), so the engine sees realistic data.
  const config = modelConfigSchema.parse(JSON.parse(readFileSync(join(bundledModelRepository(), 'shapes', 'config.json'), 'utf8')));
  const spec = imageSpecOf(config);
  if (spec === undefined) throw new Error('shapes has no preprocess section');
  const tensors = await Promise.all(frames.map(async (f) => (await imageToTensor(f, spec)).tensor.data as Float32Array));
  const plane = 3 * 120 * 160;
  const feed = (batch: number, k: number): ort.Tensor => {
    const data = new Float32Array(batch * plane);
    for (let b = 0; b < batch; b++) data.set(tensors[(k + b) % tensors.length] as Float32Array, b * plane);
    return new ort.Tensor('float32', data, [batch, 3, 120, 160]);
  };
  const batch1 = await closedLoop(1, async (_loop, n) => {
    await session.run({ image: feed(1, n) });
    return {};
  });
  const bestBatch: { batch: number; imagesPerSec: number }[] = [];
  for (const batch of [1, 4, 16]) {
    const level = await closedLoop(1, async (_loop, n) => {
      await session.run({ image: feed(batch, n) });
      return {};
    });
    bestBatch.push({ batch, imagesPerSec: round(level.perSec * batch, 1) });
  }
  await session.release();
  return { batch1, bestBatch };
}

async function main(): Promise<void> {
  const frames = await makeFrames();
  const meanJpegBytes = Math.round(frames.reduce((s, f) => s + f.length, 0) / frames.length);
  console.log(`frames: ${frames.length} scenes at 640x480, JPEG q85, mean ${meanJpegBytes} bytes`);

  // decode + preprocess alone, in this process (sharp runs in libuv threads)
  const config = modelConfigSchema.parse(JSON.parse(readFileSync(join(bundledModelRepository(), 'shapes', 'config.json'), 'utf8')));
  const spec = imageSpecOf(config);
  if (spec === undefined) throw new Error('shapes has no preprocess section');
  const preprocess: Level[] = [];
  for (const c of [1, 4]) {
    preprocess.push(
      await closedLoop(c, async (loop, n) => {
        await imageToTensor(frames[(loop * 7 + n) % frames.length] as Uint8Array, spec);
        return {};
      }),
    );
    console.log(`preprocess only, concurrency ${c}: ${preprocess.at(-1)?.perSec} img/s, p99 ${preprocess.at(-1)?.p99Ms} ms`);
  }

  const engine = await rawEngine(frames);
  console.log(`raw engine batch 1: ${engine.batch1.perSec} img/s, p99 ${engine.batch1.p99Ms} ms; best batch: ${JSON.stringify(engine.bestBatch)}`);

  const server = await startServerProcess({});
  const rest: Level[] = [];
  const ws: Level[] = [];
  try {
    for (const c of LEVELS) {
      rest.push(
        await closedLoop(c, async (loop, n) => {
          const res = await fetch(`${server.httpUrl}/v2/models/shapes/image`, {
            method: 'POST',
            headers: { 'content-type': 'image/jpeg' },
            body: frames[(loop * 7 + n) % frames.length] as Uint8Array<ArrayBuffer>,
          });
          if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
          const body = (await res.json()) as { timing: { decode_us: number; infer_us: number; postprocess_us: number }; detections: unknown[] };
          return {
            decode: body.timing.decode_us,
            infer: body.timing.infer_us,
            postprocess: body.timing.postprocess_us,
            detections: body.detections.length,
          };
        }),
      );
      console.log(`REST /image, concurrency ${c}: ${rest.at(-1)?.perSec} img/s, p50 ${rest.at(-1)?.p50Ms} ms, p99 ${rest.at(-1)?.p99Ms} ms`);
    }
    for (const c of LEVELS) {
      // One client (one socket) per simulated camera, each a closed-loop frame stream: the next frame is sent when
      // the previous one is answered, so no frame is superseded and every frame's latency is measured.
      const clients = Array.from({ length: c }, () => createNodeClient({ url: server.httpUrl }));
      const streams = clients.map((cl, i) => cl.frameStream('shapes', `cam-${i}`));
      const iterators = streams.map((s) => s[Symbol.asyncIterator]());
      try {
        ws.push(
          await closedLoop(c, async (loop, n) => {
            const stream = streams[loop];
            const it = iterators[loop];
            if (stream === undefined || it === undefined) throw new Error('no stream');
            stream.send({ image: { datatype: 'BYTES', shape: [1], data: [frames[(loop * 7 + n) % frames.length] as Uint8Array] } });
            const next = await it.next();
            if (next.done === true) throw new Error('stream ended');
            if (next.value.kind === 'error') throw next.value.error;
            if (next.value.kind !== 'result') throw new Error(`frame ${next.value.kind}`);
            return { detections: next.value.result.output('scores').shape[0] ?? 0 };
          }),
        );
      } finally {
        for (const s of streams) s.close();
        for (const cl of clients) cl.close();
      }
      console.log(`WebSocket frame streams, ${c} streams: ${ws.at(-1)?.perSec} img/s, p50 ${ws.at(-1)?.p50Ms} ms, p99 ${ws.at(-1)?.p99Ms} ms`);
    }
  } finally {
    await server.stop();
  }

  const results = {
    benchmark: 'image',
    date: new Date().toISOString(),
    command: `node --import tsx bench/image.ts ${process.argv
      .slice(2)
      .map((a) => (/^[\w.,=/-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`))
      .join(' ')}`.trim(),
    server: server.commandLine,
    machine: machineInfo(),
    loadAvgAfter: loadavg().map((v) => round(v)),
    model: 'shapes (models/shapes, 160x120 CenterNet-style detector, onnxruntime-node CPU)',
    note: values.note ?? '',
    input: { frames: frames.length, size: '640x480', format: 'JPEG q85', meanBytes: meanJpegBytes },
    durationSec: DURATION_MS / 1000,
    warmupSec: WARMUP_MS / 1000,
    preprocessOnly: preprocess,
    rawEngine: engine,
    restImage: rest,
    wsFrameStreams: ws,
  };
  console.log(JSON.stringify(results, null, 1));
  if (values.save) {
    const file = join(packageRoot(), 'bench', 'results', `image-${results.date.slice(0, 10)}.json`);
    await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`wrote ${file}`);
  }
}

await main();
