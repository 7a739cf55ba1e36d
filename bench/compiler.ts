/**
 * FP32 vs FP16 vs INT8 plans built by `rtserve build` for the bundled MLP and the ResNet-style conv net:
 * plan size, build time, latency at batch 1, throughput at the best batch, and accuracy against the FP32
 * source model, on this machine's CPU (onnxruntime-node, CPU provider).
 *
 *   node --import tsx bench/compiler.ts [--models mlp,resnet_tiny] [--rounds 5] [--threads 0] [--save]
 *
 * Calibration data is seeded standard-normal input (the bundled models have seeded random weights, so there is
 * no real dataset to be faithful to); 20 % of it is held out as validation data, as `rtserve build` does by
 * default. Timing: every plan gets its own session (graph optimization 'all'); measurements are interleaved
 * across precisions in rounds and the median round is reported, so that load from other processes on a shared
 * machine hits every precision alike. `--save` writes bench/results/compiler-<date>.json.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { buildPlan, type BuildResult } from '../src/compiler/build.ts';
import { writeNpy } from '../src/compiler/data/npy.ts';
import { DT } from '../src/compiler/ir/dtype.ts';
import type { HostTensor, RuntimeSession } from '../src/compiler/runtime.ts';
import { createOfflineRunner } from '../src/engine/ort/offline-runner.ts';
import { readPlan } from '../src/plan/format.ts';
import type { PlanPrecision } from '../src/plan/manifest.ts';

const { values } = parseArgs({
  options: {
    models: { type: 'string', default: 'mlp,resnet_tiny' },
    rounds: { type: 'string', default: '5' },
    threads: { type: 'string', default: '0' },
    'latency-runs': { type: 'string', default: '200' },
    'window-ms': { type: 'string', default: '600' },
    batches: { type: 'string', default: '1,8,32,128' },
    save: { type: 'boolean', default: false },
  },
});
const MODELS = (values.models ?? '').split(',').filter((s) => s !== '');
const ROUNDS = Number(values.rounds);
const THREADS = Number(values.threads);
const LATENCY_RUNS = Number(values['latency-runs']);
const WINDOW_MS = Number(values['window-ms']);
const BATCHES = (values.batches ?? '').split(',').map(Number);
const PRECISIONS: PlanPrecision[] = ['fp32', 'fp16', 'int8'];

interface ModelSpec {
  readonly path: string;
  readonly input: string;
  readonly sampleDims: number[];
  readonly calibrationSamples: number;
}
const SPECS: Record<string, ModelSpec> = {
  mlp: { path: 'models/mlp/1/model.onnx', input: 'input', sampleDims: [64], calibrationSamples: 640 },
  resnet_tiny: { path: 'models/resnet_tiny/1/model.onnx', input: 'input', sampleDims: [3, 32, 32], calibrationSamples: 320 },
};

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randn(n: number, seed: number): Float32Array {
  const r = rng(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.sqrt(-2 * Math.log(Math.max(r(), 1e-12))) * Math.cos(2 * Math.PI * r());
  return out;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : ((s[(s.length - 1) >> 1] ?? 0) + (s[s.length >> 1] ?? 0)) / 2;
};
const pct = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? Number.NaN;
};

function input(spec: ModelSpec, batch: number, seed: number): Record<string, HostTensor> {
  const n = batch * spec.sampleDims.reduce((a, b) => a * b, 1);
  return { [spec.input]: { elemType: DT.FLOAT, dims: [batch, ...spec.sampleDims], data: randn(n, seed) } };
}

async function latencyUs(s: RuntimeSession, spec: ModelSpec): Promise<number[]> {
  const feeds = input(spec, 1, 7);
  const out: number[] = [];
  for (let i = 0; i < LATENCY_RUNS; i++) {
    const t0 = performance.now();
    await s.run(feeds);
    out.push((performance.now() - t0) * 1000);
  }
  return out;
}

/**
 * Samples per second at `batch`: batch / median run time over a window (at least 5 runs). The median, not the
 * window's wall average, because on a shared machine a window's average mostly measures who else was running.
 */
async function throughput(s: RuntimeSession, spec: ModelSpec, batch: number): Promise<number> {
  const feeds = input(spec, batch, 11);
  const t0 = performance.now();
  const runs: number[] = [];
  while (performance.now() - t0 < WINDOW_MS || runs.length < 5) {
    const t = performance.now();
    await s.run(feeds);
    runs.push(performance.now() - t);
  }
  return batch / (median(runs) / 1000);
}

const runtime = createOfflineRunner();
const loadBefore = loadavg().map((x) => Number(x.toFixed(2)));
const dir = await mkdtemp(join(tmpdir(), 'rtserve-bench-compiler-'));
const results: Record<string, unknown>[] = [];
try {
  for (const name of MODELS) {
    const spec = SPECS[name];
    if (spec === undefined) throw new Error(`unknown model ${name} (known: ${Object.keys(SPECS).join(', ')})`);
    const per = spec.sampleDims.reduce((a, b) => a * b, 1);
    const calibration = join(dir, `${name}-calib.npy`);
    await writeFile(calibration, writeNpy({ elemType: DT.FLOAT, dims: [spec.calibrationSamples, ...spec.sampleDims], data: randn(spec.calibrationSamples * per, 42) }));

    const builds = new Map<PlanPrecision | 'source', { build?: BuildResult; payload: Uint8Array; buildMs: number }>();
    builds.set('source', { payload: new Uint8Array(await readFile(spec.path)), buildMs: 0 });
    for (const precision of PRECISIONS) {
      const t0 = performance.now();
      const build = await buildPlan({ model: spec.path, runtime, precision, calibration });
      const buildMs = performance.now() - t0;
      builds.set(precision, { build, payload: readPlan(build.plan).payload, buildMs });
      process.stderr.write(`${name} ${precision}: built in ${buildMs.toFixed(0)} ms, ${build.plan.byteLength} bytes\n`);
    }

    const sessions = new Map<string, RuntimeSession>();
    for (const [k, v] of builds) sessions.set(k, await runtime.createSession(v.payload, { target: 'ort-cpu', optimizationLevel: 'all', intraOpThreads: THREADS }));
    // warm-up: every session, every batch size
    for (const s of sessions.values()) for (const b of BATCHES) for (let i = 0; i < 5; i++) await s.run(input(spec, b, 3));

    const lat = new Map<string, number[][]>();
    const thr = new Map<string, Map<number, number[]>>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [k, s] of sessions) {
        const l = lat.get(k) ?? [];
        l.push(await latencyUs(s, spec));
        lat.set(k, l);
        const t = thr.get(k) ?? new Map<number, number[]>();
        for (const b of BATCHES) t.set(b, [...(t.get(b) ?? []), await throughput(s, spec, b)]);
        thr.set(k, t);
      }
      process.stderr.write(`${name}: round ${round + 1}/${ROUNDS}\n`);
    }
    for (const s of sessions.values()) await s.release();

    const rows: Record<string, unknown>[] = [];
    for (const [k, v] of builds) {
      const rounds = lat.get(k) ?? [];
      const roundMedians = rounds.map((r) => median(r));
      const mid = rounds[roundMedians.indexOf(median(roundMedians))] ?? rounds[0] ?? [];
      const t = thr.get(k) ?? new Map<number, number[]>();
      const perBatch = Object.fromEntries([...t].map(([b, xs]) => [b, Math.round(median(xs))]));
      const best = [...t].map(([b, xs]) => ({ batch: b, samplesPerSec: median(xs) })).sort((a, b) => b.samplesPerSec - a.samplesPerSec)[0];
      const acc = v.build?.report.accuracy;
      rows.push({
        variant: k,
        fileBytes: v.build?.plan.byteLength ?? v.payload.byteLength,
        payloadBytes: v.payload.byteLength,
        buildMs: Math.round(v.buildMs),
        buildStagesMs: v.build?.report.stagesMs,
        latencyBatch1Us: { p50: Math.round(median(mid)), p90: Math.round(pct(mid, 0.9)), roundMedians: roundMedians.map(Math.round) },
        throughputSamplesPerSec: perBatch,
        bestBatch: best?.batch,
        bestThroughput: Math.round(best?.samplesPerSec ?? 0),
        accuracy: acc === undefined || acc === null ? null : {
          dataSource: acc.dataSource,
          samples: acc.samples,
          outputs: acc.outputs.map((o) => ({ name: o.name, maxAbsError: o.maxAbsError, meanRelError: o.meanRelError, cosine: o.cosine, cosineMin: o.cosineMin, top1Agreement: o.top1Agreement })),
          gates: acc.gates.map((g) => ({ metric: g.metric, threshold: g.threshold, value: g.value, passed: g.passed })),
        },
        payloadOps: v.build?.report.ortOptimization?.opTypes,
      });
    }
    const fp32 = rows.find((r) => r.variant === 'fp32') as { bestThroughput: number; latencyBatch1Us: { p50: number } };
    for (const r of rows) {
      const rr = r as { bestThroughput: number; latencyBatch1Us: { p50: number } };
      r.speedupVsFp32 = { throughput: Number((rr.bestThroughput / fp32.bestThroughput).toFixed(2)), latencyBatch1: Number((fp32.latencyBatch1Us.p50 / rr.latencyBatch1Us.p50).toFixed(2)) };
    }
    results.push({ model: name, source: spec.path, calibrationSamples: spec.calibrationSamples, rows });

    console.log(`\n${name} (${spec.path})`);
    console.log('| variant | plan bytes | build ms | p50 batch-1 µs | best batch | samples/s | vs fp32 | cosine | max-abs | top-1 agree |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of rows as { variant: string; fileBytes: number; buildMs: number; latencyBatch1Us: { p50: number }; bestBatch: number; bestThroughput: number; speedupVsFp32: { throughput: number }; accuracy: { outputs: { cosine: number; maxAbsError: number; top1Agreement: number | null }[] } | null }[]) {
      const o = r.accuracy?.outputs[0];
      console.log(`| ${r.variant} | ${r.fileBytes} | ${r.buildMs} | ${r.latencyBatch1Us.p50} | ${r.bestBatch} | ${r.bestThroughput} | ${r.speedupVsFp32.throughput}x | ${o?.cosine.toFixed(6) ?? '-'} | ${o?.maxAbsError.toPrecision(3) ?? '-'} | ${o?.top1Agreement?.toFixed(3) ?? '-'} |`);
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

const resnet = results.find((r) => r.model === 'resnet_tiny') as { rows: { variant: string; speedupVsFp32: { throughput: number }; accuracy: { gates: { passed: boolean }[] } | null }[] } | undefined;
const int8 = resnet?.rows.find((r) => r.variant === 'int8');
const target = int8 === undefined ? null : {
  goal: 'INT8 >= 1.5x FP32 throughput on CPU for the conv net, accuracy within the gate',
  int8ThroughputVsFp32: int8.speedupVsFp32.throughput,
  gatePassed: int8.accuracy?.gates.every((g) => g.passed) ?? false,
  met: int8.speedupVsFp32.throughput >= 1.5 && (int8.accuracy?.gates.every((g) => g.passed) ?? false),
};
if (target !== null) console.log(`\ntarget: ${target.goal}: ${target.int8ThroughputVsFp32}x, gate ${target.gatePassed ? 'passed' : 'FAILED'} → ${target.met ? 'MET' : 'NOT MET'}`);

if (values.save === true) {
  const date = new Date().toISOString();
  const out = {
    benchmark: 'compiler',
    date,
    command: `node --import tsx bench/compiler.ts ${process.argv.slice(2).join(' ')}`.trim(),
    node: process.version,
    runtime: `${runtime.name} ${runtime.version}`,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    intraOpThreads: THREADS === 0 ? 'onnxruntime default' : THREADS,
    loadAverage: { before: loadBefore, after: loadavg().map((x) => Number(x.toFixed(2))) },
    rounds: ROUNDS,
    latencyRunsPerRound: LATENCY_RUNS,
    throughputWindowMs: WINDOW_MS,
    batches: BATCHES,
    notes: [
      'latency and throughput are in-process onnxruntime-node runs (CPU provider, graph optimization all), median of interleaved rounds',
      'throughput at a batch size = batch / median run time over a window of at least 5 runs (robust to preemption by other processes)',
      'accuracy: each plan vs the FP32 source model on the 20 % of the seeded calibration data held out by rtserve build',
      'the machine is shared with other processes (see loadAverage); round medians are listed to show the spread',
      'under load, long runs (large batches) are preempted more often than short ones, which understates large-batch throughput; batch-1 latency and the INT8/FP32 ratios are the robust numbers',
    ],
    target,
    results,
  };
  await mkdir('bench/results', { recursive: true });
  const path = `bench/results/compiler-${date.slice(0, 10)}.json`;
  await writeFile(path, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`saved ${path}`);
}
