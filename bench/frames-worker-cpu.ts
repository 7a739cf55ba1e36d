/**
 * What one JPEG frame costs a front-end worker (issues #30, #33): a server with `--workers N` whose engine takes
 * encoded frames (so that the workers only move bytes, as on a GPU host), the bundled `shapes` detector, and
 * bench/cuda/jpeg-served.ts in a child process sending 640x480 scenes as one BYTES input per KServe REST binary
 * request. The engine answers every frame with the outputs of one scene, computed once: the owner's cost
 * is then its share of moving frames, not a decoder's or the model's (on the GPU host nvJPEG and the plan do that
 * work off the CPU). Reports the workers' and the owner's CPU microseconds per answered frame (/proc), so that a change to the
 * per-frame path can be measured on any machine, GPU or not. The bundled models are served (the default repository).
 * Run node with `--cpu-prof --cpu-prof-dir=DIR` to profile every process (the workers inherit node's flags).
 *
 *   node bench/frames-worker-cpu.ts [--workers 2] [--concurrency 16] [--seconds 5] [--protocol http|grpc|ws]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../src/app/rtserve-server.ts';
import { loadServerConfig } from '../src/config/load-server-config.ts';
import { silentLogger } from '../src/observability/logger.ts';
import type { Engine, EngineSession } from '../src/engine/engine.ts';
import { createOrtEngine } from '../src/engine/ort/index.ts';
import { concatBatch } from '../src/engine/batch-tensors.ts';
import type { Tensor } from '../src/tensor/tensor.ts';
import { shapesSceneBatch } from '../test/unit/compiler/detector-models.ts';
import { encodeScene, scene } from '../test/integration/image/image-helpers.ts';

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '5' },
    protocol: { type: 'string', default: 'http' },
  },
});

/** CPU seconds (user + system) of a process, from /proc. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const frames = await mkdtemp(join(tmpdir(), 'frames-'));
for (let seed = 1; seed <= 32; seed++)
  await writeFile(join(frames, `f${String(seed).padStart(3, '0')}.jpg`), await encodeScene(scene(seed, 4), 'jpeg'));
/** onnxruntime whose `shapes` sessions take encoded frames and answer each with one scene's outputs, computed once. */
function cannedFrameEngine(counter: { frames: number }): Engine {
  const ort = createOrtEngine();
  // shapes' input is one 160x120 scene: the answer then carries boxes, as a camera frame's does.
  const canned = (session: EngineSession, input: string, shape: number[], names: readonly string[]): Promise<Tensor[]> =>
    session.run([{ name: input, datatype: 'FP32', shape: [1, ...shape], data: shapesSceneBatch([1]) }], names);
  return {
    ...ort,
    name: 'onnxruntime+canned-frames',
    async load(modelPath, options) {
      const session: EngineSession = await ort.load(modelPath, options);
      const spec = options.image;
      if (spec === undefined || spec.channels !== 3) return session;
      const plane = spec.layout === 'NCHW' ? [3, spec.height, spec.width] : [spec.height, spec.width, 3];
      const cache = new Map<string, Promise<Tensor[]>>();
      const framed: EngineSession = {
        device: session.device,
        describe: () => session.describe(),
        run: (feeds, names, signal) => session.run(feeds, names, signal),
        close: () => session.close(),
        frameInput: spec.inputName,
        async runFrames(frames, names) {
          counter.frames += frames.length;
          const key = names.join(',');
          if (!cache.has(key)) cache.set(key, canned(session, spec.inputName, plane, names));
          const one = await (cache.get(key) as Promise<Tensor[]>);
          // Fresh buffers each time: the answer's buffers are transferred to the front end.
          const copy = (): Tensor[] => one.map((t) => ({ ...t, data: (t.data as Float32Array).slice() }));
          return { outputs: concatBatch(Array.from({ length: frames.length }, copy)), failures: [] };
        },
      };
      return framed;
    },
  };
}

const counter = { frames: 0 };
const config = await loadServerConfig({
  flags: {
    host: '127.0.0.1',
    httpPort: 0,
    grpcPort: 0,
    metricsPort: 0,
    logLevel: 'silent',
    imageDecode: 'auto',
    workers: Number(values.workers),
  },
});
const server = await startServer({ config, logger: silentLogger(), engine: cannedFrameEngine(counter) });
const pids = server.workerPids?.() ?? [];
const before = await Promise.all([process.pid, ...pids].map(cpuSeconds));
const out = join(frames, 'result.json');
const args = ['bench/cuda/jpeg-served.ts', '--url', server.httpUrl, '--model', 'shapes', '--input', 'image', '--frames', frames];
args.push('--protocol', values.protocol, '--grpc', server.grpcAddress ?? '', '--connections', String(Math.max(2, Number(values.workers))));
args.push('--concurrency', values.concurrency, '--seconds', values.seconds, '--out', out);
const child = spawn(process.execPath, [...process.execArgv, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
await new Promise<void>((resolve, reject) =>
  child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`load generator exited ${code}`)))),
);
const after = await Promise.all([process.pid, ...pids].map(cpuSeconds));
const result = JSON.parse(await readFile(out, 'utf8')) as {
  imgPerS: number;
  seconds: number;
  statuses: Record<string, number>;
  latencyUs: unknown;
  errors: unknown;
};
// The warm-up second is not in imgPerS's window but is in the CPU deltas: count its frames too.
const answered = Object.values(result.statuses).reduce((a, b) => a + b, 0) * ((result.seconds + 1) / result.seconds);
const delta = after.map((a, i) => a - (before[i] ?? 0));
const [owner = 0, ...workers] = delta;
const workerUs = (workers.reduce((a, b) => a + b, 0) / answered) * 1e6;
console.log(
  JSON.stringify({
    protocol: values.protocol,
    workers: pids.length,
    imgPerS: Math.round(result.imgPerS),
    latencyUs: result.latencyUs,
    statuses: result.statuses,
    errors: result.errors,
    workerCpuUsPerFrame: Math.round(workerUs),
    ownerCpuUsPerFrame: Math.round((owner / answered) * 1e6),
    framesToEngine: counter.frames,
  }),
);
await server.close();
