/**
 * onnxruntime's threading options on this machine: the default (intra-op threads = cores, spin-waiting), one intra-op
 * thread, and the default thread count without spinning (`session.intra_op.allow_spinning = 0`), for the raw engine
 * in-process and through the server's worker-thread engine. Throughput, latency and CPU per inference (this
 * process's CPU time, every thread).
 *
 *   node --import tsx bench/ort-threading.ts [--duration 1.5] [--models mlp,resnet_tiny] [--batches 1,4] [--save]
 *
 * `--save` writes bench/results/ort-threading-<date>.json.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bundledModelRepository } from '../src/util/package-root.ts';
import type { EngineLoadOptions } from '../src/engine/engine.ts';
import { formatRate, formatUs } from '../src/bench/format.ts';
import { machineInfo } from '../src/bench/machine.ts';
import { ownCpuUs } from '../src/bench/process-cpu.ts';
import { runBench } from '../src/bench/runner.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '1.5' },
    models: { type: 'string', default: 'mlp,resnet_tiny' },
    batches: { type: 'string', default: '1,4' },
    save: { type: 'boolean', default: false },
  },
});

const VARIANTS: readonly [string, Partial<EngineLoadOptions>][] = [
  ['default', {}],
  ['intra-op 1', { intraOpNumThreads: 1 }],
  ['no spinning', { sessionConfig: { 'session.intra_op.allow_spinning': '0' } }],
];
const machine = machineInfo();
const rows: Record<string, unknown>[] = [];
for (const model of values.models.split(',')) {
  for (const kind of ['engine-inprocess', 'engine-worker'] as const) {
    for (const batch of values.batches.split(',').map(Number)) {
      for (const [variant, extra] of VARIANTS) {
        const cpu0 = ownCpuUs();
        const report = await runBench({
          model,
          protocols: [],
          loads: [],
          batches: [batch],
          input: { kind: 'random' },
          measure: {
            window: { kind: 'time', durationMs: Number(values.duration) * 1000 },
            warmupMs: 300,
            stabilityPercent: 10,
            stabilityWindows: 3,
            maxTrials: 5,
            maxInflight: 64,
          },
          engine: {
            modelPath: join(bundledModelRepository(), model, '1', 'model.onnx'),
            kinds: [kind],
            options: { providers: [{ name: 'cpu' }], graphOptimizationLevel: 'all', ...extra },
          },
        });
        const l = report.levels[0];
        if (l === undefined) continue;
        const cpuPerInferenceUs = (ownCpuUs() - cpu0) / ((report.totals[kind]?.succeeded ?? 0) * batch);
        const load = Math.round((loadavg()[0] ?? 0) * 10) / 10;
        rows.push({
          model,
          engine: kind,
          batch,
          variant,
          inferPerSec: l.merged.inferencesPerSec,
          p50Us: l.merged.latency.p50Us,
          avgUs: l.merged.latency.avgUs,
          cpuPerInferenceUs,
          stable: l.stable,
          loadAvg1: load,
        });
        console.log(
          `${model.padEnd(11)} ${kind.padEnd(16)} b=${batch}  ${variant.padEnd(11)} ${formatRate(l.merged.inferencesPerSec).padStart(8)} infer/s  p50 ${formatUs(l.merged.latency.p50Us).padStart(8)}  avg ${formatUs(l.merged.latency.avgUs).padStart(8)}  CPU/infer ${formatUs(cpuPerInferenceUs).padStart(8)}  load ${load}${l.stable ? '' : '  (unstable)'}`,
        );
      }
    }
  }
}
if (values.save) {
  const out = join(import.meta.dirname, 'results', `ort-threading-${new Date().toISOString().slice(0, 10)}.json`);
  await mkdir(join(out, '..'), { recursive: true });
  await writeFile(
    out,
    `${JSON.stringify({ benchmark: 'ort-threading', date: new Date().toISOString(), command: `node --import tsx bench/ort-threading.ts ${process.argv.slice(2).join(' ')}`.trim(), machine, rows }, null, 2)}\n`,
  );
  console.log(`wrote ${out}`);
}
