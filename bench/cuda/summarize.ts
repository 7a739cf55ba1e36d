/**
 * Gathers one GPU-machine run's JSON (engine-bench, torch_bench, ort-webgpu-bench, rtserve bench against the
 * served plan, correctness.py, the GPU unit tests' gpu-tests.json) into one results object and a plain-text table.
 *
 *   node --experimental-transform-types bench/cuda/summarize.ts WORK_DIR SUMMARY.txt
 * Also writes WORK_DIR/cuda-results.json (what bench/results/cuda-<date>.json is copied from).
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir = '.', out = 'summary.txt'] = process.argv.slice(2);
const read = (f: string): unknown => {
  const p = join(dir, f);
  return existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')) : null;
};
interface EngineRow {
  model: string;
  batch: number;
  gpuLatencyUs: number;
  gpuThroughputImgPerS: number;
  nodeLatencyUs: number;
  nodeThroughputImgPerS: number;
  graph: boolean;
}
interface TorchRow {
  model: string;
  mode: string;
  batch: number;
  latencyUs: number;
  throughputImgPerS: number;
}
interface Level {
  protocol: string;
  batch: number;
  mode: { concurrency?: number };
  merged: { inferencesPerSec: number; latency?: { p50Us?: number; avgUs?: number }; server?: { avgBatchSize?: number } };
}

const engines = readdirSync(dir)
  .filter((f) => /^cuda-engine-.*\.json$/.test(f))
  .map((f) => read(f) as { model: string; rows: EngineRow[]; buildMs: number; loadMs: number; tacticsPerBatch: unknown; graphsCaptured: boolean });
const builds = readdirSync(dir)
  .filter((f) => /^cuda-build-.*\.json$/.test(f))
  .map(
    (f) =>
      read(f) as {
        source: { fileName: string };
        cuda: { programChecks?: { batch: number; relMaxError: number; outlier: boolean }[] | null };
        warnings: string[];
        totalMs: number;
      },
  );
const torchFiles = readdirSync(dir)
  .filter((f) => /^torch.*\.json$/.test(f))
  .map((f) => read(f) as { rows: TorchRow[]; torch: string; cudnn: number });
const torch = torchFiles.length === 0 ? null : { ...torchFiles[0], rows: torchFiles.flatMap((t) => t.rows) };
const webgpu = readdirSync(dir)
  .filter((f) => /^webgpu-.*\.json$/.test(f))
  .map((f) => read(f) as { rows: { model: string; batch: number; latencyUs: number; throughputImgPerS: number }[] });
const servedFiles = readdirSync(dir)
  .filter((f) => /^served-resnet50.*\.json$/.test(f))
  .sort();
const served = servedFiles.length === 0 ? null : servedFiles.map((f) => ({ file: f, ...(read(f) as { levels: Level[] }) }));
const gpuTests = read('gpu-tests.json') as {
  commit: string;
  tests: number;
  passed: number;
  failed: number;
  skipped: number;
  evidence: boolean;
  why: string[];
} | null;
const correctness = read('correctness.json') as {
  rows: { model: string; batch: number; relMaxError: number; top1Agreement: number; passed: boolean }[];
  passed: boolean;
} | null;

const lines: string[] = [];
const f0 = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? '-' : x >= 100 ? x.toFixed(0) : x.toFixed(1));
for (const e of engines) {
  lines.push(
    `== ${e.model}: build ${(e.buildMs / 1000).toFixed(1)} s, load ${(e.loadMs / 1000).toFixed(1)} s, CUDA graphs ${e.graphsCaptured ? 'all captured' : 'NOT all captured'}`,
  );
  lines.push(
    'batch | engine GPU us | engine GPU img/s | engine node us | engine node img/s | torch eager us | eager img/s | torch graph us | graph img/s | webgpu us | webgpu img/s',
  );
  for (const r of e.rows) {
    const t = (mode: string): TorchRow | undefined => torch?.rows.find((x) => x.model === e.model && x.batch === r.batch && x.mode.startsWith(mode));
    const w = webgpu.flatMap((x) => x.rows).find((x) => x.model === e.model && x.batch === r.batch);
    lines.push(
      [
        r.batch,
        f0(r.gpuLatencyUs),
        f0(r.gpuThroughputImgPerS),
        f0(r.nodeLatencyUs),
        f0(r.nodeThroughputImgPerS),
        f0(t('eager')?.latencyUs),
        f0(t('eager')?.throughputImgPerS),
        f0(t('cuda-graph')?.latencyUs),
        f0(t('cuda-graph')?.throughputImgPerS),
        f0(w?.latencyUs),
        f0(w?.throughputImgPerS),
      ].join(' | '),
    );
  }
}
for (const b of builds) {
  const checks = b.cuda.programChecks;
  if (checks === undefined || checks === null) continue;
  lines.push(
    `== ${b.source.fileName}: build's program check vs onnxruntime FP32: ${checks.map((c) => `b${c.batch} ${c.relMaxError.toExponential(1)}${c.outlier ? ' DROPPED' : ''}`).join(', ')}`,
  );
  for (const w of b.warnings.filter((x) => x.includes('program'))) lines.push(`  warning: ${w}`);
}
for (const s of served ?? []) {
  lines.push(`== served resnet50 (rtserve bench, batcher on, 2 instances): ${s.file}`);
  for (const l of s.levels) {
    lines.push(
      `${l.protocol} c=${l.mode.concurrency ?? '?'} b=${l.batch}: ${f0(l.merged.inferencesPerSec)} img/s, p50 ${f0(l.merged.latency?.p50Us)} us, avg batch ${f0(l.merged.server?.avgBatchSize)}`,
    );
  }
}
if (correctness !== null) {
  lines.push(`== correctness vs onnxruntime CPU FP32: ${correctness.passed ? 'PASS' : 'FAIL'}`);
  for (const r of correctness.rows)
    lines.push(
      `${r.model} b=${r.batch}: rel max err ${r.relMaxError.toExponential(2)}, top-1 agreement ${r.top1Agreement.toFixed(3)} ${r.passed ? 'ok' : 'FAIL'}`,
    );
}
if (gpuTests !== null) {
  lines.push(
    `== GPU unit tests on ${gpuTests.commit}: ${gpuTests.passed}/${gpuTests.tests} passed, ${gpuTests.failed} failed, ${gpuTests.skipped} skipped: ${gpuTests.evidence ? 'evidence' : `NOT evidence (${gpuTests.why.join('; ')})`}`,
  );
}
const text = `${lines.join('\n')}\n`;
writeFileSync(out, text);
writeFileSync(join(dir, 'cuda-results.json'), `${JSON.stringify({ engines, builds, torch, webgpu, served, correctness, gpuTests }, null, 1)}\n`);
process.stdout.write(text);
