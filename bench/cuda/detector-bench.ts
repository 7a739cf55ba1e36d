/**
 * The YOLO-style detector (test/unit/compiler/detector-models.ts, 640×480, 3 classes) on the CUDA engine: FP16
 * plan built with the real tuner, GPU-only timings of each batch program (CUDA graph, CUDA events). Writes the
 * ONNX model too, so that bench/cuda/detector_torch.py times the same network (same weights) in PyTorch.
 *
 *   node bench/cuda/detector-bench.ts --out DIR [--batches 1,8,16,32,64] [--channels 16] [--tune-budget-s 60]
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { buildCudaPlan, type CudaBuildReport } from '../../src/compiler/cuda/build-cuda.ts';
import { loadCudaSession } from '../../src/engine/cuda/cuda-engine.ts';
import { createCudaTuner } from '../../src/engine/cuda/tuner.ts';
import { readPlan } from '../../src/plan/format.ts';
import { yoloStyleNet } from '../../test/unit/compiler/detector-models.ts';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: '/tmp/det-out' },
    batches: { type: 'string', default: '1,8,16,32,64' },
    channels: { type: 'string', default: '16' },
    'tune-budget-s': { type: 'string', default: '60' },
  },
});
const batches = values.batches.split(',').map(Number);
const channels = Number(values.channels);
await mkdir(values.out, { recursive: true });
const model = yoloStyleNet({ height: 480, width: 640, channels, classes: 3 });
await writeFile(join(values.out, 'yolo-style.onnx'), model);
const { tuner } = createCudaTuner();
if (tuner === undefined) throw new Error('no CUDA tuner');
const t0 = performance.now();
const built = await buildCudaPlan({ model, precision: 'fp16' }, () => {}, { tuner, batches, tuneBudgetMs: Number(values['tune-budget-s']) * 1000 });
const buildS = (performance.now() - t0) / 1000;
const tuning = (built.report as CudaBuildReport).cuda;
console.log(
  `built in ${buildS.toFixed(0)} s; tactics ${JSON.stringify(tuning.chosen)}; tuned conv time per batch (us) ${JSON.stringify(tuning.tunedUsPerBatch)}`,
);
for (const l of tuning.slowest) console.log(`  slowest at the largest batch: ${l.name} ${l.us.toFixed(0)} us ${JSON.stringify(l.tactic)}`);
const session = await loadCudaSession(readPlan(built.plan).payload, 'yolo-style');
const rows = [];
let profile: { batch: number; byKind: Record<string, number>; top: { name: string; kind: string; us: number }[] } | undefined;
for (const b of batches) {
  const r = await session.bench(b, b <= 8 ? 200 : 50);
  // with RTCUDA_PROFILE=1 the addon also times every layer eagerly (median of 5)
  const layers = (r as { layers?: { name: string; kind: string; us: number }[] }).layers;
  if (layers !== undefined) {
    const byKind: Record<string, number> = {};
    for (const l of layers) byKind[l.kind] = Math.round((byKind[l.kind] ?? 0) + l.us);
    const top = [...layers].sort((x, y) => y.us - x.us).slice(0, 12);
    profile = { batch: b, byKind, top };
    console.log(`  batch ${b} eager per-layer sum by kind (us): ${JSON.stringify(byKind)}`);
    console.log(`  slowest layers: ${top.map((l) => `${l.name}(${l.kind}) ${l.us.toFixed(0)}`).join(', ')}`);
  }
  const lat = [...r.latencyUs].sort((x, y) => x - y);
  const p50 = lat[Math.floor(lat.length / 2)] ?? 0;
  rows.push({ batch: b, graph: r.graph, latencyUsP50: Math.round(p50), imgPerS: Math.round((b * 1e6) / r.throughputUsPerBatch) });
  console.log(
    `rtserve cuda fp16 batch ${b}: latency p50 ${p50.toFixed(0)} us, ${((b * 1e6) / r.throughputUsPerBatch).toFixed(0)} img/s (graph ${r.graph})`,
  );
}
await session.close();
const out = {
  model: `yolo-style 640x480, channels ${channels}, 3 classes`,
  buildS: Math.round(buildS),
  warnings: built.report.warnings,
  tuning,
  rows,
  profile,
};
await writeFile(join(values.out, 'detector-rtserve.json'), `${JSON.stringify(out, null, 2)}\n`);
