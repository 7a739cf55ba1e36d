/**
 * FP32 vs FP16 vs INT8 plans built by `rtserve build` for the bundled MLP, the ResNet-style conv net and the
 * transformer encoder: plan size, build time, latency at batch 1, throughput at the best batch, and accuracy
 * against the FP32 source model, on this machine's CPU (onnxruntime-node, CPU provider) or, with
 * `--target ort-webgpu`, on its GPU through onnxruntime's WebGPU provider (plans built with that target).
 *
 *   node --import tsx bench/compiler.ts [--target ort-cpu|ort-webgpu] [--models mlp,resnet_tiny,encoder] [--rounds 5]
 *     [--threads 0] [--save] [--out FILE]
 *
 * The source model (the FP32 ONNX file as generated) runs in the same process, on the same provider, as the
 * `source` row: the baseline of every ratio. The encoder runs at sequence length 32 (its plans carry the shape
 * profile input:1x1x128,8x32x128,128x128x128). With --target ort-webgpu each row also gets `accuracyOnTarget`:
 * the plan on the WebGPU provider against the source on the CPU provider, on the same held-out data as the
 * build's gate (which always runs on the CPU provider).
 *
 * Calibration data is seeded standard-normal input (the bundled models have seeded random weights, so there is
 * no real dataset to be faithful to); 20 % of it is held out as validation data, as `rtserve build` does by
 * default. Timing: every plan gets its own session (graph optimization 'all'); measurements are interleaved
 * across precisions in rounds and the median round is reported, so that load from other processes on a shared
 * machine hits every precision alike. `--save` writes bench/results/compiler-<date>.json (ort-cpu) or
 * compiler-ort-webgpu-<date>.json, or `--out FILE`.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { evaluateAccuracy, type AccuracyReport } from '../src/compiler/accuracy.ts';
import { buildPlan } from '../src/compiler/build.ts';
import type { BuildResult } from '../src/compiler/build-options.ts';
import { holdOut, loadDataset } from '../src/compiler/data/dataset.ts';
import { writeNpy } from '../src/compiler/data/npy.ts';
import { DT } from '../src/tensor/onnx-dtype.ts';
import { mulberry32, randn } from '../src/util/random.ts';
import { loadModel } from '../src/compiler/ir/graph.ts';
import type { HostTensor, RuntimeSession } from '../src/plan/runtime.ts';
import { createOfflineRunner } from '../src/engine/ort/offline-runner.ts';
import { readPlan } from '../src/plan/format.ts';
import type { PlanPrecision, ShapeProfile } from '../src/plan/manifest.ts';

const { values } = parseArgs({
  options: {
    target: { type: 'string', default: 'ort-cpu' },
    models: { type: 'string', default: 'mlp,resnet_tiny,encoder' },
    rounds: { type: 'string', default: '5' },
    threads: { type: 'string', default: '0' },
    'latency-runs': { type: 'string', default: '200' },
    'window-ms': { type: 'string', default: '600' },
    batches: { type: 'string', default: '1,8,32,128' },
    save: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const TARGET = values.target;
if (TARGET !== 'ort-cpu' && TARGET !== 'ort-webgpu') throw new Error(`--target ${String(TARGET)}: expected ort-cpu or ort-webgpu`);
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
  /** One sample's dims (without the batch dim), dynamic dims fixed to the size benchmarked. */
  readonly sampleDims: number[];
  readonly calibrationSamples: number;
  readonly profiles?: readonly ShapeProfile[];
}
const SPECS: Record<string, ModelSpec> = {
  mlp: { path: 'models/mlp/1/model.onnx', input: 'input', sampleDims: [64], calibrationSamples: 640 },
  resnet_tiny: { path: 'models/resnet_tiny/1/model.onnx', input: 'input', sampleDims: [3, 32, 32], calibrationSamples: 320 },
  encoder: {
    path: 'models/encoder/1/model.onnx',
    input: 'input',
    sampleDims: [32, 128],
    calibrationSamples: 320,
    profiles: [{ input: 'input', min: [1, 1, 128], opt: [8, 32, 128], max: [128, 128, 128] }],
  },
};

const rng = mulberry32;

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
  return { [spec.input]: { elemType: DT.FLOAT, dims: [batch, ...spec.sampleDims], data: randn(rng(seed), n) } };
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

/** Builds (calibration, the build's own gate) always on the CPU provider, as `rtserve build` does. */
const runtime = createOfflineRunner();
/** Timing and on-target accuracy: ort-webgpu sessions on the WebGPU provider. */
const targetRuntime = createOfflineRunner({ webgpu: TARGET === 'ort-webgpu' });

interface OutputSummary {
  name: string;
  maxAbsError: number;
  meanRelError: number;
  cosine: number;
  cosineMin: number;
  top1Agreement: number | null;
}
const summarize = (acc: AccuracyReport): OutputSummary[] =>
  acc.outputs.map((o) => ({
    name: o.name,
    maxAbsError: o.maxAbsError,
    meanRelError: o.meanRelError,
    cosine: o.cosine,
    cosineMin: o.cosineMin,
    top1Agreement: o.top1Agreement,
  }));
const loadBefore = loadavg().map((x) => Number(x.toFixed(2)));
const dir = await mkdtemp(join(tmpdir(), 'rtserve-bench-compiler-'));
const results: Record<string, unknown>[] = [];
try {
  for (const name of MODELS) {
    const spec = SPECS[name];
    if (spec === undefined) throw new Error(`unknown model ${name} (known: ${Object.keys(SPECS).join(', ')})`);
    const per = spec.sampleDims.reduce((a, b) => a * b, 1);
    const calibration = join(dir, `${name}-calib.npy`);
    await writeFile(
      calibration,
      writeNpy({ elemType: DT.FLOAT, dims: [spec.calibrationSamples, ...spec.sampleDims], data: randn(rng(42), spec.calibrationSamples * per) }),
    );

    const builds = new Map<PlanPrecision | 'source', { build?: BuildResult; payload: Uint8Array; buildMs: number }>();
    builds.set('source', { payload: new Uint8Array(await readFile(spec.path)), buildMs: 0 });
    for (const precision of PRECISIONS) {
      const t0 = performance.now();
      const build = await buildPlan({
        model: spec.path,
        runtime,
        target: TARGET,
        precision,
        calibration,
        ...(spec.profiles !== undefined ? { profiles: spec.profiles } : {}),
      });
      const buildMs = performance.now() - t0;
      builds.set(precision, { build, payload: readPlan(build.plan).payload, buildMs });
      process.stderr.write(`${name} ${precision}: built in ${buildMs.toFixed(0)} ms, ${build.plan.byteLength} bytes\n`);
    }

    // On the target: each plan (and the source) against the source on the CPU provider, on the build's held-out data.
    const onTarget = new Map<string, AccuracyReport>();
    if (TARGET !== 'ort-cpu') {
      const source = loadModel(new Uint8Array(await readFile(spec.path)), { fileName: spec.path });
      const validation = holdOut(await loadDataset(calibration, source.inputs, 'calibration'), 0.2).heldOut;
      const outputNames = source.outputs.map((o) => o.name);
      const reference = { bytes: builds.get('source')?.payload ?? new Uint8Array(), inputs: source.inputs };
      for (const [k, v] of builds) {
        const inputs = loadModel(v.payload, { fileName: k }).inputs;
        onTarget.set(
          k,
          await evaluateAccuracy(targetRuntime, reference, { bytes: v.payload, inputs }, outputNames, validation, {
            target: TARGET,
            gates: [],
            dataSource: 'calibration-holdout',
          }),
        );
      }
    }

    const sessions = new Map<string, RuntimeSession>();
    for (const [k, v] of builds)
      sessions.set(k, await targetRuntime.createSession(v.payload, { target: TARGET, optimizationLevel: 'all', intraOpThreads: THREADS }));
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
        accuracy:
          acc === undefined || acc === null
            ? null
            : {
                measuredOn: "onnxruntime CPU provider (the build's gate)",
                dataSource: acc.dataSource,
                samples: acc.samples,
                outputs: summarize(acc),
                gates: acc.gates.map((g) => ({ metric: g.metric, threshold: g.threshold, value: g.value, passed: g.passed })),
              },
        ...(onTarget.has(k)
          ? {
              accuracyOnTarget: {
                measuredOn: `${TARGET}, against the source on the CPU provider`,
                samples: onTarget.get(k)?.samples,
                outputs: summarize(onTarget.get(k) as AccuracyReport),
              },
            }
          : {}),
        payloadOps: v.build?.report.ortOptimization?.opTypes,
      });
    }
    const fp32 = rows.find((r) => r.variant === 'fp32') as { bestThroughput: number; latencyBatch1Us: { p50: number } };
    for (const r of rows) {
      const rr = r as { bestThroughput: number; latencyBatch1Us: { p50: number } };
      r.speedupVsFp32 = {
        throughput: Number((rr.bestThroughput / fp32.bestThroughput).toFixed(2)),
        latencyBatch1: Number((fp32.latencyBatch1Us.p50 / rr.latencyBatch1Us.p50).toFixed(2)),
      };
    }
    results.push({
      model: name,
      source: spec.path,
      sampleDims: spec.sampleDims,
      calibrationSamples: spec.calibrationSamples,
      profiles: spec.profiles ?? [],
      rows,
    });

    // Accuracy columns: the worst output's cosine and max-abs, the first output's top-1 agreement; on the target when measured there.
    console.log(`\n${name} (${spec.path}, ${TARGET}, sample [${spec.sampleDims.join(', ')}])`);
    console.log('| variant | plan bytes | build ms | p50 batch-1 µs | best batch | samples/s | vs fp32 | cosine | max-abs | top-1 agree |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    type Row = {
      variant: string;
      fileBytes: number;
      buildMs: number;
      latencyBatch1Us: { p50: number };
      bestBatch: number;
      bestThroughput: number;
      speedupVsFp32: { throughput: number };
      accuracy: { outputs: OutputSummary[] } | null;
      accuracyOnTarget?: { outputs: OutputSummary[] };
    };
    for (const r of rows as Row[]) {
      const outs = (r.accuracyOnTarget ?? r.accuracy)?.outputs ?? [];
      const cos = outs.length === 0 ? '-' : Math.min(...outs.map((o) => o.cosine)).toFixed(6);
      const maxAbs = outs.length === 0 ? '-' : Math.max(...outs.map((o) => o.maxAbsError)).toPrecision(3);
      console.log(
        `| ${r.variant} | ${r.fileBytes} | ${r.buildMs} | ${r.latencyBatch1Us.p50} | ${r.bestBatch} | ${r.bestThroughput} | ${r.speedupVsFp32.throughput}x | ${cos} | ${maxAbs} | ${outs[0]?.top1Agreement?.toFixed(3) ?? '-'} |`,
      );
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

const resnet = results.find((r) => r.model === 'resnet_tiny') as
  | { rows: { variant: string; speedupVsFp32: { throughput: number }; accuracy: { gates: { passed: boolean }[] } | null }[] }
  | undefined;
const int8 = resnet?.rows.find((r) => r.variant === 'int8');
const target =
  int8 === undefined || TARGET !== 'ort-cpu'
    ? null
    : {
        goal: 'INT8 >= 1.5x FP32 throughput on CPU for the conv net, accuracy within the gate',
        int8ThroughputVsFp32: int8.speedupVsFp32.throughput,
        gatePassed: int8.accuracy?.gates.every((g) => g.passed) ?? false,
        met: int8.speedupVsFp32.throughput >= 1.5 && (int8.accuracy?.gates.every((g) => g.passed) ?? false),
      };
if (target !== null)
  console.log(
    `\ntarget: ${target.goal}: ${target.int8ThroughputVsFp32}x, gate ${target.gatePassed ? 'passed' : 'FAILED'} → ${target.met ? 'MET' : 'NOT MET'}`,
  );

if (values.save === true) {
  const date = new Date().toISOString();
  const out = {
    benchmark: 'compiler',
    date,
    command: `node --import tsx bench/compiler.ts ${process.argv.slice(2).join(' ')}`.trim(),
    node: process.version,
    planTarget: TARGET,
    executionProviders: TARGET === 'ort-webgpu' ? ['webgpu'] : ['cpu'],
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
      `latency and throughput are in-process onnxruntime-node runs (${TARGET === 'ort-webgpu' ? 'WebGPU' : 'CPU'} provider, graph optimization all), median of interleaved rounds`,
      'the encoder runs at sequence length 32: one sample is [32, 128], a batch of 8 is 256 tokens',
      'throughput at a batch size = batch / median run time over a window of at least 5 runs (robust to preemption by other processes)',
      'accuracy: each plan vs the FP32 source model on the 20 % of the seeded calibration data held out by rtserve build (CPU provider); accuracyOnTarget: the same on the target provider',
      'the machine is shared with other processes (see loadAverage); round medians are listed to show the spread',
      'under load, long runs (large batches) are preempted more often than short ones, which understates large-batch throughput; batch-1 latency and the INT8/FP32 ratios are the robust numbers',
    ],
    target,
    results,
  };
  const path = values.out ?? `bench/results/compiler-${TARGET === 'ort-cpu' ? '' : `${TARGET}-`}${date.slice(0, 10)}.json`;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`saved ${path}`);
}
