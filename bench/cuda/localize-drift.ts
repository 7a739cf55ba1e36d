/**
 * Which layer makes a CUDA plan's batch program drift (GPU machine). The build's program check
 * (src/compiler/cuda/verify-programs.ts) finds programs whose output is off against onnxruntime FP32 and drops
 * them; this finds where. It builds ResNet-50 for a few batch sizes with the check off (every program kept), runs
 * every program over the same 64 images and compares it with the largest program on the same rows; for a program
 * that is off, it runs both programs layer by layer (addon `probe`: the first k layers eagerly, then that layer's
 * output read back) and reports the first layer whose output differs, with both programs' tactics there.
 *
 *   node bench/cuda/localize-drift.ts --model DIR/resnet50.onnx --out FILE [--batches 8,16,32,64] [--rounds 2] [--history-only]
 *
 * Then, for every layer of every smaller program, whether its output depends on memory it was not given: the layer's
 * output range, and the rest of each operand's arena slot past this batch's rows (slots are planned at the largest
 * batch), are filled with two different byte values just before the layer runs (addon `probe` with a fill); an
 * output that changes reads that memory. A layer that writes past its output's rows shows as a changed slot tail.
 *
 * Rows are batch-outermost in every layout the engine uses (NHWC activations, [n, k] GEMM outputs), so a program
 * of batch b and the reference program hold the same b rows as a prefix of each layer's output.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { buildCudaPlan } from '../../src/compiler/cuda/build-cuda.ts';
import type { CudaLayer, CudaNetwork, OperandRef } from '../../src/plan/cuda-network.ts';
import { halfToFloat } from '../../src/tensor/onnx-dtype.ts';
import { loadCudaSession } from '../../src/engine/cuda/cuda-engine.ts';
import { decodeCudaPayload } from '../../src/engine/cuda/payload.ts';
import { createCudaTuner } from '../../src/engine/cuda/tuner.ts';
import { readPlan } from '../../src/plan/format.ts';
import { mulberry32, randn } from '../../src/util/random.ts';
import { relMaxError } from './rel-error.ts';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: '/tmp/rtcuda-work/models/resnet50.onnx' },
    out: { type: 'string', default: '/tmp/localize-drift.json' },
    batches: { type: 'string', default: '8,16,32,64' },
    rounds: { type: 'string', default: '2' },
    'tune-budget-s': { type: 'string', default: '40' },
    threshold: { type: 'string', default: '1e-2' },
    'history-only': { type: 'boolean', default: false },
  },
});
const batches = values.batches.split(',').map(Number);
const ref = Math.max(...batches);
const threshold = Number(values.threshold);
const ROW = 3 * 224 * 224;

const images = (n: number, seed: number): Float32Array => randn(mulberry32(seed), n * ROW);

/** The elements of a layer output as numbers: FP16 inside the engine, the output's own type after convert_out. */
function decode(layer: CudaLayer, bytes: Uint8Array): Float64Array {
  const f32 = layer.kind === 'convert_out' && layer.dstType === 'f32';
  const n = bytes.byteLength / (f32 ? 4 : 2);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = f32 ? dv.getFloat32(i * 4, true) : halfToFloat(dv.getUint16(i * 2, true));
  return out;
}

const relErr = relMaxError;

interface LayerRow {
  readonly k: number;
  readonly name: string;
  readonly kind: string;
  readonly rel: number;
  readonly tactic: unknown;
  readonly refTactic: unknown;
}

interface Sensitivity {
  readonly k: number;
  readonly name: string;
  readonly tactic: unknown;
  /** 'reads y' | 'reads past <operand>' | 'writes past y' */
  readonly finding: string;
  readonly rel: number;
}

/** Arena operands of a layer by field name (weights excluded). */
function arenaOperands(l: CudaLayer): [string, { off: number; bytes: number }][] {
  return Object.entries(l).filter((e): e is [string, { off: number; bytes: number }] => {
    const v = e[1] as unknown;
    return typeof v === 'object' && v !== null && 'off' in v && 'bytes' in v;
  });
}

async function sensitivities(
  session: Awaited<ReturnType<typeof loadCudaSession>>,
  network: CudaNetwork,
  b: number,
  x: Float32Array,
): Promise<Sensitivity[]> {
  const pb = network.programs.find((p) => p.batch === b);
  const pr = network.programs.find((p) => p.batch === ref);
  if (pb === undefined || pr === undefined) return [];
  const found: Sensitivity[] = [];
  for (let k = 0; k < pb.layers.length; k++) {
    const l = pb.layers[k] as CudaLayer;
    const lr = pr.layers[k] as CudaLayer;
    const y = yOf(l) as { off: number; bytes: number };
    const slotOf = (field: string): number => (lr as unknown as Record<string, { bytes: number }>)[field]?.bytes ?? 0;
    const fills: { finding: string; off: number; bytes: number }[] = [{ finding: 'reads y', off: y.off, bytes: y.bytes }];
    for (const [field, op] of arenaOperands(l)) {
      const tail = slotOf(field) - op.bytes;
      if (field !== 'y' && tail > 0) fills.push({ finding: `reads past ${field}`, off: op.off + op.bytes, bytes: tail });
    }
    // Control: the same fill twice. A probe that differs from itself is not deterministic (eager execution),
    // and its other findings mean nothing.
    const c0 = await session.probe(b, b, [x], k + 1, y.off, y.bytes, { offset: y.off, bytes: y.bytes, byte: 0x00 });
    const c1 = await session.probe(b, b, [x], k + 1, y.off, y.bytes, { offset: y.off, bytes: y.bytes, byte: 0x00 });
    const noise = relErr(decode(l, c0), decode(l, c1));
    if (noise > 0) {
      found.push({ k, name: l.name, tactic: tacticOf(l), finding: 'probe not deterministic', rel: noise });
      continue;
    }
    for (const f of fills) {
      const a = await session.probe(b, b, [x], k + 1, y.off, y.bytes, { offset: f.off, bytes: f.bytes, byte: 0x00 });
      const c = await session.probe(b, b, [x], k + 1, y.off, y.bytes, { offset: f.off, bytes: f.bytes, byte: 0x3c });
      const rel = relErr(decode(l, a), decode(l, c));
      if (rel > 0) found.push({ k, name: l.name, tactic: tacticOf(l), finding: f.finding, rel });
    }
    const yTail = slotOf('y') - y.bytes;
    if (yTail > 0) {
      // The tail of y's slot, filled before the layer runs and read back after: changed means written.
      const t = await session.probe(b, b, [x], k + 1, y.off + y.bytes, yTail, { offset: y.off + y.bytes, bytes: yTail, byte: 0x3c });
      const changed = t.findIndex((v) => v !== 0x3c);
      if (changed >= 0) found.push({ k, name: l.name, tactic: tacticOf(l), finding: `writes past y (first at +${changed} bytes)`, rel: Number.NaN });
    }
  }
  return found;
}

const yOf = (l: CudaLayer): OperandRef => (l as { y: OperandRef }).y;
const tacticOf = (l: CudaLayer): unknown => (l as { tactic?: unknown }).tactic ?? null;

async function main(): Promise<void> {
  const { tuner, unavailable } = createCudaTuner();
  if (tuner === undefined) throw new Error(`CUDA engine unavailable: ${unavailable ?? '?'}`);
  const report: Record<string, unknown>[] = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    // No accuracy runtime: the build keeps every program (its program check needs one).
    const built = await buildCudaPlan(
      {
        model: values.model,
        precision: 'fp16',
        profiles: [{ input: 'input', min: [1, 3, 224, 224], opt: [ref, 3, 224, 224], max: [ref, 3, 224, 224] }],
      },
      () => {},
      { tuner, batches, tuneBudgetMs: Number(values['tune-budget-s']) * 1000 },
    );
    const bytes = readPlan(built.plan).payload;
    const network = decodeCudaPayload(bytes)?.network as CudaNetwork;
    const session = await loadCudaSession(bytes, 'resnet50 (all programs)');
    const x = images(ref, 1000 + round);
    const [yRef] = await session.run([{ name: 'input', datatype: 'FP32', shape: [ref, 3, 224, 224], data: x }], ['logits']);
    const refOut = Float64Array.from(yRef?.data as Float32Array);
    const perRow = refOut.length / ref;
    const programs: Record<string, unknown>[] = [];
    for (const b of batches.filter((v) => v !== ref)) {
      // Every chunk of b rows through program b, against the same rows of the reference program.
      let worst = { chunk: 0, rel: 0 };
      for (let c = 0; c + b <= ref; c += b) {
        const [y] = await session.run(
          [{ name: 'input', datatype: 'FP32', shape: [b, 3, 224, 224], data: x.slice(c * ROW, (c + b) * ROW) }],
          ['logits'],
        );
        const rel = relErr(Float64Array.from(y?.data as Float32Array), refOut.subarray(c * perRow, (c + b) * perRow));
        if (rel > worst.rel) worst = { chunk: c, rel };
      }
      const entry: Record<string, unknown> = { batch: b, worstChunkRow: worst.chunk, relToRefProgram: worst.rel };
      console.log(`round ${round} program ${b}: worst chunk at row ${worst.chunk}: ${worst.rel.toExponential(2)} vs program ${ref}`);
      if (worst.rel > threshold && !values['history-only']) {
        // Layer by layer on that chunk: program b on its b rows, the reference on the same rows first.
        const xb = x.slice(worst.chunk * ROW, (worst.chunk + b) * ROW);
        const xr = new Float32Array(ref * ROW);
        xr.set(xb, 0);
        xr.set(x.subarray(0, worst.chunk * ROW), b * ROW);
        xr.set(x.subarray((worst.chunk + b) * ROW), (worst.chunk + b) * ROW);
        const pb = network.programs.find((p) => p.batch === b);
        const pr = network.programs.find((p) => p.batch === ref);
        if (pb === undefined || pr === undefined || pb.layers.length !== pr.layers.length) throw new Error('programs differ in layers');
        const layers: LayerRow[] = [];
        let first: LayerRow | null = null;
        let prev = 0;
        for (let k = 0; k < pb.layers.length; k++) {
          const lb = pb.layers[k] as CudaLayer;
          const lr = pr.layers[k] as CudaLayer;
          const yb = yOf(lb);
          const yr = yOf(lr);
          const outB = await session.probe(b, b, [xb], k + 1, (yb as { off: number }).off, yb.bytes);
          const outR = await session.probe(ref, ref, [xr], k + 1, (yr as { off: number }).off, yb.bytes);
          const rel = relErr(decode(lb, outB), decode(lr, outR));
          const row: LayerRow = { k, name: lb.name, kind: lb.kind, rel, tactic: tacticOf(lb), refTactic: tacticOf(lr) };
          layers.push(row);
          if (first === null && rel > threshold && rel > 4 * prev) first = row;
          prev = Math.max(prev, rel);
        }
        entry.firstOffLayer = first;
        entry.layers = layers;
        console.log(`  first layer off: ${JSON.stringify(first)}`);
        const jumps = layers
          .map((l, i) => ({ ...l, jump: l.rel / Math.max(i === 0 ? 1e-6 : (layers[i - 1]?.rel ?? 0), 1e-6) }))
          .sort((a, c) => c.jump - a.jump)
          .slice(0, 5);
        for (const j of jumps)
          console.log(
            `  jump x${j.jump.toFixed(1)} at ${j.k} ${j.name} (${j.kind}) rel ${j.rel.toExponential(2)} tactic ${JSON.stringify(j.tactic)} ref ${JSON.stringify(j.refTactic)}`,
          );
      }
      // History: the same b rows through program b (CUDA graph, as served) after the reference program ran on two
      // different datasets. A difference means the program's output depends on what an earlier run left in the arena.
      const xh = x.slice(0, b * ROW);
      await session.run([{ name: 'input', datatype: 'FP32', shape: [ref, 3, 224, 224], data: x }], ['logits']);
      const [h1] = await session.run([{ name: 'input', datatype: 'FP32', shape: [b, 3, 224, 224], data: xh }], ['logits']);
      await session.run([{ name: 'input', datatype: 'FP32', shape: [ref, 3, 224, 224], data: images(ref, 77 + round) }], ['logits']);
      const [h2] = await session.run([{ name: 'input', datatype: 'FP32', shape: [b, 3, 224, 224], data: xh }], ['logits']);
      entry.historyDependence = relErr(Float64Array.from(h1?.data as Float32Array), Float64Array.from(h2?.data as Float32Array));
      console.log(`  program ${b}: output change with what ran before it: ${(entry.historyDependence as number).toExponential(2)}`);
      const xs = x.slice(worst.chunk * ROW, (worst.chunk + b) * ROW);
      const sens = values['history-only'] ? [] : await sensitivities(session, network, b, xs);
      entry.sensitivities = sens;
      console.log(`  program ${b}: ${sens.length} layer(s) depend on memory they were not given`);
      for (const f of sens.slice(0, 12))
        console.log(`    ${f.k} ${f.name} ${f.finding} (rel ${f.rel.toExponential(2)}) tactic ${JSON.stringify(f.tactic)}`);
      programs.push(entry);
    }
    await session.close();
    report.push({ round, programs });
    await writeFile(values.out, `${JSON.stringify({ model: values.model, batches, reference: ref, threshold, rounds: report }, null, 1)}\n`);
  }
}

await main();
