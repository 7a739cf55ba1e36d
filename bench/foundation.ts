/**
 * The foundation benchmark: the served path (REST JSON and REST binary, server in its own process) beside the raw
 * engine (onnxruntime-node in-process, same model file, same session options) measured in the same run.
 *
 *   node --import tsx bench/foundation.ts [--duration 2] [--max-trials 8] [--warmup 1] [--cpu-prof DIR] [--dist]
 *
 * Models: `mlp` at concurrency 1, 8, 64 and `resnet_tiny` at 1, 8, 16, 64. For every served level the average batch
 * the batcher formed is read from the statistics extension (inference_count / execution_count) and the raw engine is
 * measured at that batch size; the raw engine also sweeps batch sizes for its best-batch throughput.
 * Writes bench/results/foundation-<date>.json and .md (the markdown states the machine and the command).
 *
 * Targets (issue: foundation): served throughput of the conv model at concurrency 16 ≥ 0.85× the raw engine's
 * best-batch throughput; per-request overhead of the binary REST path at concurrency 1 < 100 µs.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bundledModelRepository } from '../src/core/package-root.ts';
import { formatNumber, formatRate, formatUs, markdownTable } from '../src/bench/format.ts';
import { machineInfo } from '../src/bench/machine.ts';
import { runBench } from '../src/bench/runner.ts';
import { computeUs } from '../src/bench/server-stats.ts';
import { startServerProcess } from '../src/bench/server-process.ts';
import type { LevelResult, MeasureOptions } from '../src/bench/types.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '2' },
    'max-trials': { type: 'string', default: '8' },
    warmup: { type: 'string', default: '1' },
    'cpu-prof': { type: 'string' },
    dist: { type: 'boolean', default: false },
    'out-dir': { type: 'string', default: join(import.meta.dirname, 'results') },
  },
});

const MODELS = [
  { model: 'mlp', concurrency: [1, 8, 64] },
  { model: 'resnet_tiny', concurrency: [1, 8, 16, 64] },
] as const;
const PROTOCOLS = ['http-json', 'http-binary'] as const;
const SWEEP = [1, 2, 4, 8, 16, 32, 64];

const measure: MeasureOptions = {
  window: { kind: 'time', durationMs: Number(values.duration) * 1000 },
  warmupMs: Number(values.warmup) * 1000,
  stabilityPercent: 10,
  stabilityWindows: 3,
  maxTrials: Number(values['max-trials']),
  maxInflight: 1024,
};
const command = `node --import tsx bench/foundation.ts ${process.argv.slice(2).join(' ')}`.trim();
const machine = machineInfo();

// ---- served path: the server in its own process, the load generator here
const server = await startServerProcess({ useDist: values.dist, ...(values['cpu-prof'] === undefined ? {} : { cpuProfDir: values['cpu-prof'] }) });
console.error(`server: ${server.commandLine} (pid ${server.pid}) at ${server.httpUrl}`);
const served: LevelResult[] = [];
try {
  for (const { model, concurrency } of MODELS) {
    for (const protocol of PROTOCOLS) {
      const report = await runBench({
        url: server.httpUrl,
        model,
        protocols: [protocol],
        loads: concurrency.map((c) => ({ kind: 'concurrency', concurrency: c })),
        batches: [1],
        input: { kind: 'random' },
        measure,
        onLevel: (l) => console.error(`  ${model} ${protocol} c=${l.mode.kind === 'concurrency' ? l.mode.concurrency : '?'}: ${formatRate(l.merged.inferencesPerSec)} infer/s, p50 ${formatUs(l.merged.latency.p50Us)}, batch ${formatNumber(l.merged.server?.avgBatchSize, 2)}${l.stable ? '' : ' (unstable)'}`),
      });
      if (report.serverTotals !== undefined && report.serverTotals.requests !== report.totals[protocol]?.succeeded) {
        console.error(`  warning: the server counted ${report.serverTotals.requests} requests, the client ${report.totals[protocol]?.succeeded}`);
      }
      served.push(...report.levels.map((l) => ({ ...l, model })));
    }
  }
} finally {
  await server.stop();
}

// ---- raw engine, after the server has exited (the machine is the server's alone while it is measured, and the
// engine's alone now)
const modelOf = (l: LevelResult): string => (l as LevelResult & { model: string }).model;
const raw: (LevelResult & { model: string })[] = [];
for (const { model } of MODELS) {
  const formed = served.filter((l) => modelOf(l) === model).map((l) => Math.max(1, Math.round(l.merged.server?.avgBatchSize ?? 1)));
  const modelPath = join(bundledModelRepository(), model, '1', 'model.onnx');
  const options = { providers: [{ name: 'cpu' as const }], graphOptimizationLevel: 'all' as const };
  const inproc = await runBench({
    model,
    protocols: [],
    loads: [],
    batches: [...new Set([...SWEEP, ...formed])].sort((a, b) => a - b),
    input: { kind: 'random' },
    measure,
    engine: { modelPath, kinds: ['engine-inprocess'], options },
    onLevel: (l) => console.error(`  raw ${model} ${l.protocol} b=${l.batch}: ${formatRate(l.merged.inferencesPerSec)} infer/s, avg ${formatUs(l.merged.latency.avgUs)}`),
  });
  const worker = await runBench({
    model,
    protocols: [],
    loads: [],
    batches: [...new Set([1, ...formed])].sort((a, b) => a - b),
    input: { kind: 'random' },
    measure,
    engine: { modelPath, kinds: ['engine-worker'], options },
    onLevel: (l) => console.error(`  raw ${model} ${l.protocol} b=${l.batch}: ${formatRate(l.merged.inferencesPerSec)} infer/s, avg ${formatUs(l.merged.latency.avgUs)}`),
  });
  raw.push(...[...inproc.levels, ...worker.levels].map((l) => ({ ...l, model })));
}

// ---- comparisons
const rawAt = (model: string, kind: string, batch: number): LevelResult | undefined => raw.find((l) => l.model === model && l.protocol === kind && l.batch === batch);
const bestRaw = (model: string): LevelResult | undefined =>
  raw.filter((l) => l.model === model && l.protocol === 'engine-inprocess').sort((a, b) => b.merged.inferencesPerSec - a.merged.inferencesPerSec)[0];

interface Row {
  readonly model: string;
  readonly protocol: string;
  readonly concurrency: number;
  readonly inferPerSec: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly avgUs: number;
  readonly stable: boolean;
  readonly avgBatch: number;
  readonly queueUs: number;
  readonly computeUs: number;
  readonly coreOverheadUs: number;
  readonly outsideCoreUs: number;
  readonly rawBatch: number;
  readonly rawInferPerSec: number;
  readonly servedOverRaw: number;
}
const rows: Row[] = served.map((l) => {
  const s = l.merged.server;
  const rawBatch = Math.max(1, Math.round(s?.avgBatchSize ?? 1));
  const r = rawAt(modelOf(l), 'engine-inprocess', rawBatch);
  return {
    model: modelOf(l),
    protocol: l.protocol,
    concurrency: l.mode.kind === 'concurrency' ? l.mode.concurrency : 0,
    inferPerSec: l.merged.inferencesPerSec,
    p50Us: l.merged.latency.p50Us,
    p99Us: l.merged.latency.p99Us,
    avgUs: l.merged.latency.avgUs,
    stable: l.stable,
    avgBatch: s?.avgBatchSize ?? Number.NaN,
    queueUs: s?.queueUs ?? Number.NaN,
    computeUs: s === undefined ? Number.NaN : computeUs(s),
    coreOverheadUs: s?.overheadUs ?? Number.NaN,
    outsideCoreUs: l.outsideCoreUs ?? Number.NaN,
    rawBatch,
    rawInferPerSec: r?.merged.inferencesPerSec ?? Number.NaN,
    servedOverRaw: l.merged.inferencesPerSec / (r?.merged.inferencesPerSec ?? Number.NaN),
  };
});

const conv16 = rows.filter((r) => r.model === 'resnet_tiny' && r.concurrency === 16);
const convBest = bestRaw('resnet_tiny');
const bin1 = rows.filter((r) => r.protocol === 'http-binary' && r.concurrency === 1);
const targets = [
  ...conv16.map((r) => ({
    target: `resnet_tiny c=16 ${r.protocol}: served ≥ 0.85× raw best-batch`,
    measured: `${formatRate(r.inferPerSec)} / ${formatRate(convBest?.merged.inferencesPerSec ?? Number.NaN)} (raw best at batch ${convBest?.batch ?? '?'}) = ${formatNumber(r.inferPerSec / (convBest?.merged.inferencesPerSec ?? Number.NaN), 2)}×`,
    met: r.inferPerSec >= 0.85 * (convBest?.merged.inferencesPerSec ?? Number.POSITIVE_INFINITY),
  })),
  ...bin1.flatMap((r) => {
    const raw1 = rawAt(r.model, 'engine-inprocess', 1);
    const serverSide = r.queueUs + r.coreOverheadUs;
    const clientSide = r.avgUs - r.computeUs;
    const vsRaw = r.avgUs - (raw1?.merged.latency.avgUs ?? Number.NaN);
    return [
      { target: `${r.model} http-binary c=1: server-side request − compute (queue ${formatUs(r.queueUs)} + core overhead ${formatUs(r.coreOverheadUs)}) < 100 µs`, measured: formatUs(serverSide), met: serverSide < 100 },
      { target: `${r.model} http-binary c=1: client-observed avg − server compute < 100 µs`, measured: formatUs(clientSide), met: clientSide < 100 },
      { target: `${r.model} http-binary c=1: client-observed avg − raw in-process engine avg at batch 1 < 100 µs`, measured: formatUs(vsRaw), met: vsRaw < 100 },
    ];
  }),
];

// ---- output
const date = new Date().toISOString();
const day = date.slice(0, 10);
const md: string[] = [];
md.push(`# Foundation benchmark, ${day}`, '');
md.push(`Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}; 1-minute load average ${machine.loadAvg1} at the start (the machine is shared: other work running beside the benchmark shows up in every number).`, '');
md.push(`Command: \`${command}\``, '');
md.push(`Server (separate process): \`${server.commandLine}\``, '');
md.push(`Method: perf_analyzer's (rtserve bench): ${measure.window.kind === 'time' ? `${measure.window.durationMs / 1000} s` : ''} windows after a ${measure.warmupMs / 1000} s warm-up, stable when the last 3 windows are within 10% (throughput and average latency), at most ${measure.maxTrials} windows; the last 3 windows are merged. Batch 1 per request; the batcher forms larger batches. Raw engine: onnxruntime-node in-process (openInProcessOrtSession), the same model file and session options as the server (cpu, graph optimization all, default threads), measured after the server exited.`, '');
md.push('## Served path beside the raw engine', '');
md.push('| model | protocol | c | infer/s | p50 | p99 | stable | srv batch | srv queue | srv compute | srv core overhead | outside core | raw @ batch | raw infer/s | served / raw |');
md.push('| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  md.push(`| ${r.model} | ${r.protocol} | ${r.concurrency} | ${formatRate(r.inferPerSec)} | ${formatUs(r.p50Us)} | ${formatUs(r.p99Us)} | ${r.stable ? 'yes' : 'no'} | ${formatNumber(r.avgBatch, 2)} | ${formatUs(r.queueUs)} | ${formatUs(r.computeUs)} | ${formatUs(r.coreOverheadUs)} | ${formatUs(r.outsideCoreUs)} | ${r.rawBatch} | ${formatRate(r.rawInferPerSec)} | ${formatNumber(r.servedOverRaw, 2)} |`);
}
md.push('', '## Targets', '', '| target | measured | met |', '| --- | --- | --- |');
for (const t of targets) md.push(`| ${t.target} | ${t.measured} | ${t.met ? 'yes' : '**no**'} |`);
md.push('', '## Raw engine', '', markdownTable(raw, [
  { title: 'model', value: (l) => modelOf(l), left: true },
  { title: 'engine', value: (l) => l.protocol, left: true },
  { title: 'batch', value: (l) => String(l.batch) },
  { title: 'infer/s', value: (l) => formatRate(l.merged.inferencesPerSec) },
  { title: 'avg per batch', value: (l) => formatUs(l.merged.latency.avgUs) },
  { title: 'p50', value: (l) => formatUs(l.merged.latency.p50Us) },
  { title: 'p99', value: (l) => formatUs(l.merged.latency.p99Us) },
  { title: 'stable', value: (l) => (l.stable ? 'yes' : 'no') },
]), '');
md.push('Column meanings: docs/bench.md. *srv* columns come from the statistics extension over the same windows: batch = inference_count / execution_count; queue and compute (input + infer + output; infer includes the hop to the engine worker thread) are per-request averages; core overhead = request − queue − compute; outside core = client-observed average − server request time (both HTTP stacks, codecs, loopback).', '');

const outDir = values['out-dir'];
await mkdir(outDir, { recursive: true });
const base = join(outDir, `foundation-${day}`);
await writeFile(`${base}.json`, `${JSON.stringify({ benchmark: 'foundation', date, command, server: server.commandLine, machine, measure, rows, targets, served, raw }, null, 2)}\n`);
await writeFile(`${base}.md`, `${md.join('\n')}\n`);
console.log(md.join('\n'));
console.error(`wrote ${base}.json and ${base}.md`);
