/**
 * Per-run overhead of the worker-thread engine path versus onnxruntime on the calling thread, for a tiny model
 * (Add of two [1, 4] float tensors) where the inference itself costs almost nothing.
 *
 *   node --import tsx bench/engine-overhead.ts [--runs 5000] [--warmup 500] [--save]
 *
 * Both paths use the same conversion code (src/engine/ort/ort-backend.ts); the difference is the worker hop:
 * one postMessage each way with transferred buffers. `--save` writes bench/results/engine-overhead.json.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Tensor } from '../src/tensor/tensor.ts';
import type { EngineLoadOptions } from '../src/engine/engine.ts';
import { createOrtEngine, openInProcessOrtSession } from '../src/engine/ort/index.ts';
import { addModel, makeModelDir, writeModel } from '../test/fixtures/onnx-builders.ts';

interface Runner {
  run(feeds: readonly Tensor[], outputNames: readonly string[]): Promise<Tensor[]>;
  close(): Promise<void>;
}

interface Summary {
  readonly runs: number;
  readonly medianUs: number;
  readonly p90Us: number;
  readonly p99Us: number;
  readonly meanUs: number;
}

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5000' },
    warmup: { type: 'string', default: '500' },
    save: { type: 'boolean', default: false },
  },
});
const RUNS = Number(values.runs);
const WARMUP = Number(values.warmup);
const WIDTH = 4;

function feeds(i: number): Tensor[] {
  // Fresh arrays per run: the worker path transfers (detaches) input buffers.
  return [
    { name: 'a', datatype: 'FP32', shape: [1, WIDTH], data: new Float32Array(WIDTH).fill(i) },
    { name: 'b', datatype: 'FP32', shape: [1, WIDTH], data: new Float32Array(WIDTH).fill(1) },
  ];
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

async function measure(runner: Runner): Promise<Summary> {
  for (let i = 0; i < WARMUP; i++) await runner.run(feeds(i), ['y']);
  const samplesUs: number[] = new Array<number>(RUNS);
  for (let i = 0; i < RUNS; i++) {
    const input = feeds(i);
    const t0 = process.hrtime.bigint();
    await runner.run(input, ['y']);
    samplesUs[i] = Number(process.hrtime.bigint() - t0) / 1000;
  }
  const sorted = [...samplesUs].sort((x, y) => x - y);
  const round = (v: number): number => Math.round(v * 10) / 10;
  return {
    runs: RUNS,
    medianUs: round(percentile(sorted, 0.5)),
    p90Us: round(percentile(sorted, 0.9)),
    p99Us: round(percentile(sorted, 0.99)),
    meanUs: round(samplesUs.reduce((s, v) => s + v, 0) / RUNS),
  };
}

async function main(): Promise<void> {
  const dir = await makeModelDir('rtserve-bench-');
  try {
    const modelPath = await writeModel(dir, 'add', addModel(WIDTH));
    const options: EngineLoadOptions = { providers: [{ name: 'cpu' }], intraOpNumThreads: 1, interOpNumThreads: 1 };

    const inProcess = await openInProcessOrtSession(modelPath, options);
    const inProcessResult = await measure(inProcess);
    await inProcess.close();

    const worker = await createOrtEngine().load(modelPath, options);
    const workerResult = await measure(worker);
    await worker.close();

    const result = {
      benchmark: 'engine-overhead',
      date: new Date().toISOString(),
      node: process.version,
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      model: `Add float32 [1, ${WIDTH}] + [1, ${WIDTH}]`,
      warmup: WARMUP,
      inProcess: inProcessResult,
      worker: workerResult,
      workerOverheadMedianUs: Math.round((workerResult.medianUs - inProcessResult.medianUs) * 10) / 10,
    };
    console.log(`engine overhead, ${result.model}, ${RUNS} sequential runs after ${WARMUP} warm-up runs (${result.node})`);
    console.log('path         median µs   p90 µs   p99 µs   mean µs');
    for (const [name, r] of [
      ['in-process', inProcessResult],
      ['worker', workerResult],
    ] as const) {
      console.log(
        `${name.padEnd(12)} ${String(r.medianUs).padStart(9)} ${String(r.p90Us).padStart(8)} ${String(r.p99Us).padStart(8)} ${String(r.meanUs).padStart(9)}`,
      );
    }
    console.log(`worker hop adds ${result.workerOverheadMedianUs} µs per run (median)`);
    if (values.save) {
      const out = join(import.meta.dirname ?? 'bench', 'results', 'engine-overhead.json');
      await mkdir(join(out, '..'), { recursive: true });
      await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
      console.log(`wrote ${out}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
