/**
 * The native CUDA engine on the GPU machine, per model: `rtserve build --target cuda` (tactics timed on the
 * device for every batch size of the profile), load, a correctness dump (fresh random inputs and the engine's
 * outputs as .npy, checked by correctness.py against onnxruntime CPU FP32), then timings per batch size:
 *   gpu:  the captured CUDA graph alone (CUDA events; no host copies): latency = median of single launches,
 *         throughput = images / (time per batch with launches back to back);
 *   node: session.run() from JavaScript as the server calls it (pinned host buffers, H2D, graph, D2H, on a
 *         libuv worker thread): latency = median wall time, throughput = images / that time.
 *
 *   node --experimental-transform-types bench/cuda/engine-bench.ts --model resnet50 --models-dir DIR \
 *        --out-dir OUT [--batches 1,2,...,256] [--dump-dir DIR] [--plan-dir DIR] [--graph-candidates 3]
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { buildCudaPlan, type CudaBuildReport } from '../../src/compiler/cuda/build-cuda.ts';
import { progressPrinter } from '../../src/compiler/cli.ts';
import { writeNpy } from '../../src/compiler/data/npy.ts';
import { loadCudaSession } from '../../src/engine/cuda/cuda-engine.ts';
import { createCudaTuner, cudaAccuracyRuntime } from '../../src/engine/cuda/tuner.ts';
import { createOfflineRunner } from '../../src/engine/ort/offline-runner.ts';
import { readPlan } from '../../src/plan/format.ts';
import { randn } from '../../src/util/random.ts';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'resnet50' },
    'models-dir': { type: 'string', default: '/tmp/models' },
    'out-dir': { type: 'string', default: '/tmp/out' },
    'dump-dir': { type: 'string' },
    'plan-dir': { type: 'string' },
    batches: { type: 'string', default: '1,2,4,8,16,32,64,128,256' },
    'graph-candidates': { type: 'string', default: '3' },
    'budget-ms': { type: 'string', default: '1500' },
    'tune-iters': { type: 'string', default: '8' },
    'tune-budget-s': { type: 'string', default: '90' },
  },
});
const model = values.model;
const batches = values.batches.split(',').map(Number);
const maxB = Math.max(...batches);
const budgetMs = Number(values['budget-ms']);

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const pct = (xs: readonly number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0;

/** Fresh each run (not seeded): normal pixels like a normalized image batch. */
const randomImages = (n: number): Float32Array => randn(Math.random, n * 3 * 224 * 224);

async function main(): Promise<void> {
  const outDir = values['out-dir'];
  await mkdir(outDir, { recursive: true });
  const { tuner, unavailable } = createCudaTuner();
  if (tuner === undefined) throw new Error(`CUDA engine unavailable: ${unavailable ?? '?'}`);
  const source = join(values['models-dir'], `${model}.onnx`);
  const t0 = performance.now();
  const built = await buildCudaPlan(
    {
      model: source,
      precision: 'fp16',
      profiles: [{ input: 'input', min: [1, 3, 224, 224], opt: [32, 3, 224, 224], max: [maxB, 3, 224, 224] }],
    },
    progressPrinter((l) => process.stderr.write(`${l}\n`)),
    {
      tuner,
      batches,
      tuneOptions: { graphCandidates: Number(values['graph-candidates']), iters: Number(values['tune-iters']) },
      tuneBudgetMs: Number(values['tune-budget-s']) * 1000,
      // The build's accuracy stage as `rtserve build` runs it: every batch program against onnxruntime CPU FP32
      // (outliers dropped), then the FP16 gate.
      accuracyRuntime: cudaAccuracyRuntime(createOfflineRunner()),
    },
  );
  const buildMs = performance.now() - t0;
  const report = built.report as CudaBuildReport;
  await writeFile(join(outDir, `cuda-build-${model}.json`), `${JSON.stringify(report, null, 1)}\n`);
  if (values['plan-dir'] !== undefined) {
    await mkdir(values['plan-dir'], { recursive: true });
    await writeFile(join(values['plan-dir'], `${model}.plan`), built.plan);
  }
  console.log(
    `${model}: built in ${(buildMs / 1000).toFixed(1)} s (tuning ${(report.cuda.tuningMs / 1000).toFixed(1)} s, ${report.cuda.uniqueProblems} problems), plan ${(built.plan.byteLength / 2 ** 20).toFixed(1)} MiB`,
  );

  const t1 = performance.now();
  const session = await loadCudaSession(readPlan(built.plan).payload, `${model}.plan`);
  const loadMs = performance.now() - t1;
  const native = session.nativeDescription();
  console.log(
    `${model}: loaded in ${(loadMs / 1000).toFixed(1)} s; graphs ${native.programs.map((p) => `${p.batch}:${p.graph ? 'yes' : `no (${p.captureError})`}`).join(' ')}`,
  );
  const replaced = native.programs.flatMap((p) => p.replaced.map((r) => ({ batch: p.batch, ...r })));
  console.log(
    `${model}: load-time history check: ${
      native.programs
        .filter((p) => p.historyDependent)
        .map((p) => `b${p.batch}`)
        .join(', ') || 'no'
    } program(s) depend on earlier runs`,
  );
  console.log(
    `${model}: programmatic (PDL) edges made full dependencies: ${native.programs.map((p) => `b${p.batch} ${p.pdlEdges ?? '?'}`).join(', ')}`,
  );
  console.log(
    `${model}: load-time memory check replaced ${replaced.length} layer tactic(s)${replaced.length === 0 ? '' : `: ${replaced.map((r) => `b${r.batch} ${r.layer}`).join(', ')}`}`,
  );

  // Correctness dump: fresh random inputs at every batch size, plus a ragged one (program padding).
  const dumpDir = values['dump-dir'];
  const determinism: { batch: number; program: number; relMaxDrift: number }[] = [];
  if (dumpDir !== undefined) {
    await mkdir(dumpDir, { recursive: true });
    await writeFile(join(dumpDir, `${model}.onnx`), await readFile(source));
    for (const n of [...batches, 3, maxB > 100 ? 100 : maxB - 1].filter((x, i, a) => x >= 1 && a.indexOf(x) === i)) {
      const x = randomImages(n);
      const [y] = await session.run([{ name: 'input', datatype: 'FP32', shape: [n, 3, 224, 224], data: x }], ['logits']);
      if (y === undefined) throw new Error('no output');
      // Run-to-run determinism of the program on the same input: the largest change over 4 more runs, relative.
      const y0 = y.data as Float32Array;
      let maxRef = 0;
      for (const v of y0) maxRef = Math.max(maxRef, Math.abs(v));
      let drift = 0;
      for (let k = 0; k < 4; k++) {
        const [yk] = await session.run([{ name: 'input', datatype: 'FP32', shape: [n, 3, 224, 224], data: x.slice() }], ['logits']);
        const d = yk?.data as Float32Array;
        for (let i = 0; i < y0.length; i++) drift = Math.max(drift, Math.abs((d[i] as number) - (y0[i] as number)));
      }
      determinism.push({ batch: n, program: session.batches.find((b) => b >= n) ?? maxB, relMaxDrift: drift / Math.max(maxRef, 1e-12) });
      console.log(
        `${model} b=${n} (program ${session.batches.find((b) => b >= n) ?? maxB}): run-to-run relative drift over 5 runs ${(drift / Math.max(maxRef, 1e-12)).toExponential(2)}`,
      );
      await writeFile(join(dumpDir, `${model}__b${n}__x.npy`), writeNpy({ elemType: 1, dims: [n, 3, 224, 224], data: x }));
      await writeFile(join(dumpDir, `${model}__b${n}__y.npy`), writeNpy({ elemType: 1, dims: [...y.shape], data: y.data as Float32Array }));
    }
  }

  const rows: Record<string, unknown>[] = [];
  for (const b of batches) {
    if (!session.batches.includes(b)) {
      console.log(
        `${model} b=${b}: no program (dropped by the build's program check); batch ${b} runs on the batch-${session.batches.find((x) => x > b) ?? maxB} program`,
      );
      continue;
    }
    const probe = await session.bench(b, 3);
    const per = Math.max(probe.throughputUsPerBatch, 1);
    const iters = Math.max(10, Math.min(2000, Math.floor((budgetMs * 1000) / 2 / per)));
    const gpu = await session.bench(b, iters);
    const x = randomImages(b);
    const wall: number[] = [];
    const nodeIters = Math.max(5, Math.min(300, Math.floor((budgetMs * 1000) / 2 / (per * 1.5 + 200))));
    for (let i = 0; i < nodeIters + 2; i++) {
      const s = performance.now();
      await session.run([{ name: 'input', datatype: 'FP32', shape: [b, 3, 224, 224], data: x }], ['logits']);
      if (i >= 2) wall.push((performance.now() - s) * 1000);
    }
    const row = {
      model,
      batch: b,
      graph: gpu.graph,
      gpuLatencyUs: median(gpu.latencyUs),
      gpuLatencyP90Us: pct(gpu.latencyUs, 0.9),
      gpuLatencyMinUs: Math.min(...gpu.latencyUs),
      gpuThroughputImgPerS: b / (gpu.throughputUsPerBatch / 1e6),
      nodeLatencyUs: median(wall),
      nodeLatencyP90Us: pct(wall, 0.9),
      nodeThroughputImgPerS: b / (median(wall) / 1e6),
      tunedUs: report.cuda.tunedUsPerBatch[String(b)] ?? null,
      iters,
      nodeIters,
    };
    rows.push(row);
    console.log(
      `${model} b=${b}: gpu ${row.gpuLatencyUs.toFixed(0)} us (${row.gpuThroughputImgPerS.toFixed(0)} img/s), node ${row.nodeLatencyUs.toFixed(0)} us (${row.nodeThroughputImgPerS.toFixed(0)} img/s)`,
    );
  }
  const tactics: Record<string, Record<string, number>> = {};
  for (const p of native.programs) {
    const t: Record<string, number> = {};
    for (const x of p.tactics) t[String(x.tactic.impl)] = (t[String(x.tactic.impl)] ?? 0) + 1;
    tactics[String(p.batch)] = t;
  }
  await session.close();
  const result = {
    model,
    device: tuner.device,
    buildMs: Math.round(buildMs),
    loadMs: Math.round(loadMs),
    planBytes: built.plan.byteLength,
    arenaBytes: native.arenaBytes,
    workspaceBytes: native.workspaceBytes,
    weightBytes: native.weightBytes,
    graphsCaptured: native.programs.every((p) => p.graph),
    tacticsPerBatch: tactics,
    replacedAtLoad: replaced,
    historyDependent: native.programs.filter((p) => p.historyDependent).map((p) => p.batch),
    rows,
    determinism,
  };
  await writeFile(join(outDir, `cuda-engine-${model}.json`), `${JSON.stringify(result, null, 1)}\n`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(1);
});
