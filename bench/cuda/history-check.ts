/**
 * Do a CUDA plan's batch programs depend on what earlier runs left in device memory? (GPU machine; issue #20.)
 *
 *   node bench/cuda/history-check.ts build   --model DIR/resnet50.onnx --plan FILE [--batches 8,16,32,64] [--tune-budget-s 40]
 *   node bench/cuda/history-check.ts history --plan FILE --out FILE.json [--model DIR/resnet50.onnx] [--label L]
 *   node bench/cuda/history-check.ts once    --plan FILE --batch B
 *
 * build: tunes and writes the plan payload with every program kept (no program check), so the same tactics can be
 * loaded again by other processes (under compute-sanitizer, with RTCUDA_DEBUG diagnostics, native/src/engine.cu).
 * history: for every program b below the largest: the largest program runs on dataset A, then b on rows [0, b)
 * (h1); the largest on dataset B, then b on the same rows (h2); b once more right after itself (h3). Reported:
 * rel(h1, h2) (history dependence), rel(h2, h3), each against the largest program's output on those rows and,
 * with --model, against onnxruntime CPU FP32; then every program in served order (the largest over all rows, then
 * each chunk of b rows) against onnxruntime. rel = max |a - b| / max |b|.
 * once: one run of program B on seeded random input (what compute-sanitizer watches).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { buildCudaPlan } from '../../src/compiler/cuda/build-cuda.ts';
import { DT } from '../../src/tensor/onnx-dtype.ts';
import { loadCudaSession } from '../../src/engine/cuda/cuda-engine.ts';
import { createCudaTuner } from '../../src/engine/cuda/tuner.ts';
import { createOfflineRunner } from '../../src/engine/ort/offline-runner.ts';
import { readPlan } from '../../src/plan/format.ts';
import { mulberry32, randn } from '../../src/util/random.ts';
import { relMaxError } from './rel-error.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    model: { type: 'string' },
    plan: { type: 'string', default: '/tmp/rtcuda-history.payload' },
    out: { type: 'string', default: '/tmp/history-check.json' },
    batches: { type: 'string', default: '8,16,32,64' },
    batch: { type: 'string', default: '16' },
    label: { type: 'string', default: '' },
    'tune-budget-s': { type: 'string', default: '40' },
  },
});
const ROW = 3 * 224 * 224;
const images = (n: number, seed: number): Float32Array => randn(mulberry32(seed), n * ROW);

const rel = relMaxError;

async function build(): Promise<void> {
  if (values.model === undefined) throw new Error('--model is required');
  const batches = values.batches.split(',').map(Number);
  const maxB = Math.max(...batches);
  const { tuner, unavailable } = createCudaTuner();
  if (tuner === undefined) throw new Error(`CUDA engine unavailable: ${unavailable ?? '?'}`);
  const built = await buildCudaPlan(
    {
      model: values.model,
      precision: 'fp16',
      profiles: [{ input: 'input', min: [1, 3, 224, 224], opt: [maxB, 3, 224, 224], max: [maxB, 3, 224, 224] }],
    },
    () => {},
    { tuner, batches, tuneBudgetMs: Number(values['tune-budget-s']) * 1000 },
  );
  await writeFile(values.plan, readPlan(built.plan).payload);
  console.log(`wrote ${values.plan}: programs ${batches.join(',')}`);
}

async function history(): Promise<void> {
  const payload = new Uint8Array(await readFile(values.plan));
  const session = await loadCudaSession(payload, 'history-check plan');
  const batches = [...session.batches].sort((a, b) => a - b);
  const maxB = batches[batches.length - 1] as number;
  const native = session.nativeDescription();
  console.log(
    `programmatic (PDL) edges made full dependencies per program: ${native.programs.map((p) => `b${p.batch} ${p.pdlEdges ?? '?'}`).join(', ')}`,
  );
  const a = images(maxB, 1001);
  const bData = images(maxB, 2002);
  const run = async (n: number, x: Float32Array): Promise<Float32Array> => {
    const [y] = await session.run([{ name: 'input', datatype: 'FP32', shape: [n, 3, 224, 224], data: x.subarray(0, n * ROW) }], ['logits']);
    return Float32Array.from(y?.data as Float32Array);
  };
  let ort: Float32Array | undefined;
  if (values.model !== undefined) {
    const rt = createOfflineRunner();
    const s = await rt.createSession(new Uint8Array(await readFile(values.model)), { target: 'ort-cpu', optimizationLevel: 'all' });
    const out = await s.run({ input: { elemType: DT.FLOAT, dims: [maxB, 3, 224, 224], data: a } }, ['logits']);
    ort = Float32Array.from(out.logits?.data as Float32Array);
    await s.release();
  }
  const yMax = await run(maxB, a);
  const perRow = yMax.length / maxB;
  const programs: Record<string, unknown>[] = [];
  for (const b of batches.filter((v) => v !== maxB)) {
    await run(maxB, a);
    const h1 = await run(b, a);
    await run(maxB, bData);
    const h2 = await run(b, a);
    const h3 = await run(b, a);
    const rows = yMax.subarray(0, b * perRow);
    const entry = {
      batch: b,
      historyDependence: rel(h1, h2),
      selfRepeat: rel(h3, h2),
      h1VsLargest: rel(h1, rows),
      h2VsLargest: rel(h2, rows),
      ...(ort === undefined ? {} : { h1VsOrt: rel(h1, ort.subarray(0, b * perRow)), h2VsOrt: rel(h2, ort.subarray(0, b * perRow)) }),
    };
    console.log(JSON.stringify(entry));
    programs.push(entry);
  }
  // Served order against onnxruntime: the largest over all rows, then every chunk of b rows.
  const served: { batch: number; relVsOrt: number }[] = [];
  if (ort !== undefined) {
    for (const b of [...batches].reverse()) {
      await run(maxB, bData);
      let err = 0;
      for (let c = 0; c + b <= maxB; c += b) {
        const y = await run(b, a.subarray(c * ROW, (c + b) * ROW));
        err = Math.max(err, rel(y, ort.subarray(c * perRow, (c + b) * perRow)));
      }
      served.push({ batch: b, relVsOrt: err });
      console.log(`served order: program ${b} vs onnxruntime FP32 ${err.toExponential(2)}`);
    }
  }
  // GPU time per program (CUDA graph or eager launches, no copies): what a fix costs.
  const gpu: { batch: number; latencyUs: number; imgPerS: number }[] = [];
  for (const b of batches) {
    const r = await session.bench(b, 200);
    const lat = [...r.latencyUs].sort((x, y) => x - y)[Math.floor(r.latencyUs.length / 2)] ?? 0;
    gpu.push({ batch: b, latencyUs: lat, imgPerS: (b * 1e6) / r.throughputUsPerBatch });
  }
  console.log(`gpu: ${gpu.map((g) => `b${g.batch} ${g.latencyUs.toFixed(0)} us ${g.imgPerS.toFixed(0)} img/s`).join(', ')}`);
  await session.close();
  const report = {
    label: values.label,
    debug: process.env.RTCUDA_DEBUG ?? '',
    programs,
    served,
    gpu,
    loadCheck: native.programs.map((p) => ({
      batch: p.batch,
      graph: p.graph,
      historyDependent: p.historyDependent,
      replaced: p.replaced.length,
      pdlEdges: p.pdlEdges,
    })),
    tactics: native.programs.map((p) => ({ batch: p.batch, tactics: p.tactics.map((t) => t.tactic) })),
  };
  await writeFile(values.out, `${JSON.stringify(report, null, 1)}\n`);
}

async function once(): Promise<void> {
  const b = Number(values.batch);
  const session = await loadCudaSession(new Uint8Array(await readFile(values.plan)), 'history-check plan');
  const [y] = await session.run([{ name: 'input', datatype: 'FP32', shape: [b, 3, 224, 224], data: images(b, 1001) }], ['logits']);
  const d = y?.data as Float32Array;
  let sum = 0;
  for (const v of d) sum += Math.abs(v);
  console.log(`program ${b}: sum |logits| ${sum}`);
  await session.close();
}

const mode = positionals[0] ?? 'history';
if (mode === 'build') await build();
else if (mode === 'history') await history();
else if (mode === 'once') await once();
else throw new Error(`unknown mode '${mode}' (build | history | once)`);
