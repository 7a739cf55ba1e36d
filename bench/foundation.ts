/**
 * The foundation benchmark: the served path (REST JSON and REST binary, server in its own process) beside the raw
 * engine (onnxruntime-node in-process, same model file, same session options) measured in the same run.
 *
 *   node --import tsx bench/foundation.ts [--duration 2] [--max-trials 8] [--warmup 1] [--cpu-prof DIR] [--dist]
 *                                         [--intra-op-threads N] [--set MODEL.KEY=JSON ...] [--tag NAME]
 *                                         [--server-cpus LIST --client-cpus LIST] [--models mlp,resnet_tiny]
 *
 * The server serves a temporary repository holding copies of the two models with their shipped configs;
 * `--set resnet_tiny.max_batch_size=16` (repeatable, dotted keys, JSON values) changes a config for an experiment,
 * and `--intra-op-threads N` sets engine.intra_op_num_threads in both configs and for the raw engine alike. With
 * either, the results file name gets `--tag` (default `variant`) so the shipped-config results are not overwritten.
 *
 * `--server-cpus 0,1 --client-cpus 2-5` (Linux, taskset) runs the server on the first CPUs and this load generator on
 * the others, and pins this process to the server's CPUs while it measures the raw engine, so served and raw run on
 * the same cores and the client does not take CPU from the server. Without `--intra-op-threads`, onnxruntime then gets
 * one intra-op thread per server CPU (its own default counts the whole machine's cores). Results get the tag `pinned`.
 *
 * Models: `mlp` at concurrency 1, 8, 64 and `resnet_tiny` at 1, 8, 16, 64. For every served level the average batch
 * the batcher formed is read from the statistics extension (inference_count / execution_count) and the raw engine is
 * measured at that batch size; the raw engine also sweeps batch sizes for its best-batch throughput.
 * Writes bench/results/foundation-<date>.json and .md (the markdown states the machine and the command).
 *
 * Targets (issue: foundation): served throughput of the conv model at concurrency 16 ≥ 0.85× the raw engine's
 * best-batch throughput; per-request overhead of the binary REST path at concurrency 1 < 100 µs.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bundledModelRepository } from '../src/util/package-root.ts';
import { formatNumber, formatRate, formatUs, markdownTable, roundNumbers } from '../src/bench/format.ts';
import { machineInfo } from '../src/bench/machine.ts';
import { runBench } from '../src/bench/runner.ts';
import { suiteMeasureOptions } from '../src/bench/measure.ts';
import { serverDefaultEngineOptions } from '../src/bench/engine-defaults.ts';
import { computeUs } from '../src/bench/server-stats.ts';
import { startServerProcess } from '../src/bench/server-process.ts';
import { ownCpuUs, processCpuUs } from '../src/bench/process-cpu.ts';
import type { LevelResult, MeasureOptions } from '../src/bench/types.ts';
import { parseCpuList, pinProcess } from '../src/bench/cpu-affinity.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '2' },
    'max-trials': { type: 'string', default: '8' },
    warmup: { type: 'string', default: '1' },
    'cpu-prof': { type: 'string' },
    dist: { type: 'boolean', default: false },
    'out-dir': { type: 'string', default: join(import.meta.dirname, 'results') },
    'intra-op-threads': { type: 'string' },
    set: { type: 'string', multiple: true, default: [] },
    tag: { type: 'string' },
    models: { type: 'string' },
    'server-cpus': { type: 'string' },
    'client-cpus': { type: 'string' },
  },
});
const serverCpus = values['server-cpus'];
const clientCpus = values['client-cpus'];
if ((serverCpus === undefined) !== (clientCpus === undefined)) throw new Error('--server-cpus and --client-cpus go together');
const pinned = serverCpus !== undefined && clientCpus !== undefined;
if (pinned && parseCpuList(serverCpus).some((c) => parseCpuList(clientCpus).includes(c)))
  throw new Error(`--server-cpus ${serverCpus} and --client-cpus ${clientCpus} overlap`);
const intraOpThreads =
  values['intra-op-threads'] !== undefined ? Number(values['intra-op-threads']) : pinned ? parseCpuList(serverCpus).length : undefined;
const variant = intraOpThreads !== undefined || values.set.length > 0 || pinned || values.models !== undefined;
/** Where this process runs now: the client's CPUs while it loads the server, the server's while it runs the raw engine. */
const pinSelf = (cpus: string | undefined): void => {
  if (cpus !== undefined) pinProcess(cpus);
};

const ALL_MODELS = [
  { model: 'mlp', concurrency: [1, 8, 64] },
  { model: 'resnet_tiny', concurrency: [1, 8, 16, 64] },
] as const;
const MODELS = values.models === undefined ? ALL_MODELS : ALL_MODELS.filter((m) => values.models?.split(',').includes(m.model));
if (MODELS.length === 0) throw new Error(`--models ${values.models}: the benchmark's models are ${ALL_MODELS.map((m) => m.model).join(', ')}`);
const PROTOCOLS = ['http-json', 'http-binary'] as const;
const SWEEP = [1, 2, 4, 8, 16, 32, 64];

const measure: MeasureOptions = suiteMeasureOptions(Number(values.duration), Number(values.warmup), Number(values['max-trials']));
// A Node that runs TypeScript itself (22.18+, or with --experimental-transform-types, as on the GPU machine) needs no tsx.
const nativeTs = (process.features as { typescript?: string | false }).typescript === 'transform';
const command = `node ${nativeTs ? '' : '--import tsx '}bench/foundation.ts ${process.argv.slice(2).join(' ')}`.trim();
const machine = machineInfo();

// ---- served path: the server in its own process, the load generator here
/** Copies the benchmark's models into a temporary repository, applying the config overrides. */
async function prepareRepository(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rtserve-foundation-'));
  for (const { model } of MODELS) {
    await cp(join(bundledModelRepository(), model), join(dir, model), { recursive: true });
    const configPath = join(dir, model, 'config.json');
    const overrides = values.set.filter((o) => o.startsWith(`${model}.`));
    if (overrides.length === 0 && intraOpThreads === undefined) continue;
    const config = (existsSync(configPath) ? JSON.parse(await readFile(configPath, 'utf8')) : { name: model }) as Record<string, unknown>;
    if (intraOpThreads !== undefined) config['engine'] = { ...(config['engine'] as object | undefined), intra_op_num_threads: intraOpThreads };
    for (const o of overrides) {
      const eq = o.indexOf('=');
      if (eq < 0) throw new Error(`--set ${o}: expected MODEL.KEY=JSON`);
      const path = o.slice(model.length + 1, eq).split('.');
      let at = config;
      for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
      at[path[path.length - 1] as string] = JSON.parse(o.slice(eq + 1)) as unknown;
    }
    await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`);
  }
  return dir;
}
const repository = await prepareRepository();
const server = await startServerProcess({
  useDist: values.dist,
  args: ['--model-repository', repository],
  ...(serverCpus === undefined ? {} : { cpus: serverCpus }),
  ...(values['cpu-prof'] === undefined ? {} : { cpuProfDir: values['cpu-prof'] }),
});
console.error(`server: ${server.commandLine} (pid ${server.pid}) at ${server.httpUrl}`);
// Interrupted: stop the server and remove the temporary repository before exiting.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.stop().finally(() => rm(repository, { recursive: true, force: true }).finally(() => process.exit(130)));
  });
}

type Tagged = LevelResult & { readonly model: string; readonly pairedWith?: string };
const modelOf = (l: LevelResult): string => (l as Tagged).model;
const served: Tagged[] = [];
const raw: Tagged[] = [];
/** CPU µs per request of the server process (all threads) and of this load generator, per served level. */
const cpuOf = new Map<LevelResult, { server: number; client: number }>();
/** The machine's 1-minute load average when each served level ended. */
const loadAfter = new Map<LevelResult, number>();
/** CPU µs of this process per inference (ORT's threads included: the in-process engine runs here). */
const rawCpuPerInference = new Map<LevelResult, number>();
/** The raw engine level measured right after each served level, at the batch size its batcher formed. */
const pairedRaw = new Map<LevelResult, LevelResult>();

// The server's defaults for a config without an engine section (and the same thread count when a variant sets one).
const engineOptions = serverDefaultEngineOptions(intraOpThreads === undefined ? {} : { intraOpNumThreads: intraOpThreads });
async function measureRaw(model: string, kind: 'engine-inprocess' | 'engine-worker', batch: number, pairedWith?: string): Promise<Tagged> {
  pinSelf(serverCpus);
  const cpu0 = ownCpuUs();
  const report = await runBench({
    model,
    protocols: [],
    loads: [],
    batches: [batch],
    input: { kind: 'random' },
    measure,
    engine: { modelPath: join(bundledModelRepository(), model, '1', 'model.onnx'), kinds: [kind], options: engineOptions },
  });
  const l = report.levels[0];
  if (l === undefined) throw new Error(`no raw level for ${model} b=${batch}`);
  const tagged: Tagged = { ...l, model, ...(pairedWith === undefined ? {} : { pairedWith }) };
  raw.push(tagged);
  rawCpuPerInference.set(tagged, (ownCpuUs() - cpu0) / ((report.totals[kind]?.succeeded ?? 0) * batch));
  console.error(
    `  raw ${model} ${kind} b=${batch}: ${formatRate(l.merged.inferencesPerSec)} infer/s, avg ${formatUs(l.merged.latency.avgUs)}${pairedWith === undefined ? '' : ` (after ${pairedWith})`}`,
  );
  return tagged;
}

// The machine is shared, and its load changes over minutes: each served level is followed at once by the raw engine
// at the batch size that level's batcher formed (the server idles meanwhile), so each comparison is made under the
// same conditions. The batch sweep for the best-batch throughput follows each model's served levels.
try {
  for (const { model, concurrency } of MODELS) {
    for (const protocol of PROTOCOLS) {
      for (const c of concurrency) {
        pinSelf(clientCpus);
        const server0 = processCpuUs(server.pid);
        const client0 = ownCpuUs();
        const report = await runBench({
          url: server.httpUrl,
          model,
          protocols: [protocol],
          loads: [{ kind: 'concurrency', concurrency: c }],
          batches: [1],
          input: { kind: 'random' },
          measure,
          onLevel: (l) =>
            console.error(
              `  ${model} ${protocol} c=${c}: ${formatRate(l.merged.inferencesPerSec)} infer/s, p50 ${formatUs(l.merged.latency.p50Us)}, batch ${formatNumber(l.merged.server?.avgBatchSize, 2)}${l.stable ? '' : ' (unstable)'}`,
            ),
        });
        const server1 = processCpuUs(server.pid);
        const clientUs = ownCpuUs() - client0;
        const sent = report.totals[protocol]?.sent ?? 0;
        const counted = report.serverTotals?.requests ?? Number.NaN;
        if (counted !== report.totals[protocol]?.succeeded)
          console.error(`  warning: the server counted ${counted} requests, the client ${report.totals[protocol]?.succeeded}`);
        for (const l of report.levels) {
          const tagged: Tagged = { ...l, model };
          served.push(tagged);
          loadAfter.set(tagged, Math.round((loadavg()[0] ?? 0) * 10) / 10);
          cpuOf.set(tagged, {
            server: server0 === undefined || server1 === undefined ? Number.NaN : (server1 - server0) / counted,
            client: clientUs / sent,
          });
          const formed = Math.max(1, Math.round(l.merged.server?.avgBatchSize ?? 1));
          pairedRaw.set(tagged, await measureRaw(model, 'engine-inprocess', formed, `${protocol} c=${c}`));
        }
      }
    }
    for (const batch of SWEEP) await measureRaw(model, 'engine-inprocess', batch);
    for (const batch of [1, 4]) await measureRaw(model, 'engine-worker', batch);
  }
} finally {
  await server.stop();
  await rm(repository, { recursive: true, force: true });
}

// ---- comparisons
/** The sweep's best in-process batch throughput for a model. */
const bestRaw = (model: string): LevelResult | undefined =>
  raw
    .filter((l) => l.model === model && l.protocol === 'engine-inprocess' && l.pairedWith === undefined)
    .sort((a, b) => b.merged.inferencesPerSec - a.merged.inferencesPerSec)[0];

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
  /** Server process CPU (all threads) per request, and this load generator's CPU per request. */
  readonly serverCpuUs: number;
  readonly clientCpuUs: number;
  /** The raw in-process engine's CPU per inference at the batch the batcher formed. */
  readonly rawCpuUs: number;
  readonly loadAvg1: number;
}
const rows: Row[] = served.map((l) => {
  const s = l.merged.server;
  const r = pairedRaw.get(l);
  const rawBatch = r?.batch ?? Number.NaN;
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
    serverCpuUs: cpuOf.get(l)?.server ?? Number.NaN,
    clientCpuUs: cpuOf.get(l)?.client ?? Number.NaN,
    rawCpuUs: r === undefined ? Number.NaN : (rawCpuPerInference.get(r) ?? Number.NaN),
    loadAvg1: loadAfter.get(l) ?? Number.NaN,
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
  // When the machine is busy, throughput swings with the neighbours; CPU per inference does not swing as much. On a
  // dedicated machine a CPU-bound server's throughput is cores / CPU per request, so the ratio of CPU costs projects
  // the throughput ratio (the load generator's own CPU, which shares the cores here, is left out).
  ...conv16.map((r) => {
    const rawCpu = convBest === undefined ? Number.NaN : (rawCpuPerInference.get(convBest) ?? Number.NaN);
    return {
      target: `resnet_tiny c=16 ${r.protocol} (CPU-based projection): raw best-batch CPU per inference / served CPU per request ≥ 0.85`,
      measured: `${formatUs(rawCpu)} / ${formatUs(r.serverCpuUs)} = ${formatNumber(rawCpu / r.serverCpuUs, 2)}`,
      met: rawCpu / r.serverCpuUs >= 0.85,
    };
  }),
  ...bin1.flatMap((r) => {
    // At c=1 the batcher forms batches of 1, so the paired raw level is the raw engine at batch 1.
    const raw1 = pairedRaw.get(
      served.find(
        (l) => l.model === r.model && l.protocol === r.protocol && l.mode.kind === 'concurrency' && l.mode.concurrency === 1,
      ) as LevelResult,
    );
    const serverSide = r.queueUs + r.coreOverheadUs;
    const clientSide = r.avgUs - r.computeUs;
    const vsRaw = r.avgUs - (raw1?.merged.latency.avgUs ?? Number.NaN);
    const cpuAdded = r.serverCpuUs - (raw1 === undefined ? Number.NaN : (rawCpuPerInference.get(raw1) ?? Number.NaN));
    return [
      {
        target: `${r.model} http-binary c=1: server-side request − compute (queue ${formatUs(r.queueUs)} + core overhead ${formatUs(r.coreOverheadUs)}) < 100 µs`,
        measured: formatUs(serverSide),
        met: serverSide < 100,
      },
      { target: `${r.model} http-binary c=1: client-observed avg − server compute < 100 µs`, measured: formatUs(clientSide), met: clientSide < 100 },
      {
        target: `${r.model} http-binary c=1: client-observed avg − raw in-process engine avg at batch 1 < 100 µs`,
        measured: formatUs(vsRaw),
        met: vsRaw < 100,
      },
      {
        target: `${r.model} http-binary c=1 (CPU, not wall time): server CPU per request − raw engine CPU per inference at batch 1 < 100 µs`,
        measured: `${formatUs(r.serverCpuUs)} − ${formatUs(r.serverCpuUs - cpuAdded)} = ${formatUs(cpuAdded)}`,
        met: cpuAdded < 100,
      },
    ];
  }),
];

// ---- output
const date = new Date().toISOString();
const loadEnd = Math.round((loadavg()[0] ?? 0) * 100) / 100;
const day = date.slice(0, 10);
const md: string[] = [];
md.push(`# Foundation benchmark, ${day}`, '');
md.push(
  `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}; 1-minute load average ${machine.loadAvg1} at the start and ${loadEnd} at the end (the machine is shared: other work running beside the benchmark shows up in every number).`,
  '',
);
md.push(`Command: \`${command}\``, '');
md.push(
  `Server (separate process): \`${server.commandLine.replace(repository, '<tmp repository>')}\`, serving copies of ${MODELS.map((m) => `\`models/${m.model}\``).join(' and ')}${intraOpThreads !== undefined || values.set.length > 0 ? ` with these config changes: ${[...(intraOpThreads === undefined ? [] : [`engine.intra_op_num_threads=${intraOpThreads} (server and raw engine)`]), ...values.set].join(', ')}` : ' with their shipped configs'}.`,
  '',
);
md.push(
  `Method: perf_analyzer's (rtserve bench): ${measure.window.kind === 'time' ? `${measure.window.durationMs / 1000} s` : ''} windows after a ${measure.warmupMs / 1000} s warm-up, stable when the last 3 windows are within 10% (throughput and average latency), at most ${measure.maxTrials} windows; the last 3 windows are merged. Batch 1 per request; the batcher forms larger batches. Raw engine: onnxruntime-node in-process (openInProcessOrtSession), the same model file and session options as the server (${JSON.stringify(engineOptions)}), measured right after each served level at the batch size that level's batcher formed (the server idle meanwhile), then in a batch sweep per model.`,
  '',
);
if (pinned)
  md.push(
    `CPUs (taskset): the server process on ${serverCpus}, the load generator on ${clientCpus}; the raw engine runs on the server's CPUs (${serverCpus}), so served and raw have the same cores and the client takes none of them.`,
    '',
  );
md.push('## Served path beside the raw engine', '');
md.push(
  '| model | protocol | c | infer/s | p50 | p99 | stable | srv batch | srv queue | srv compute | srv core overhead | outside core | raw @ batch | raw infer/s | served / raw | server CPU / req | client CPU / req | raw CPU / infer | load |',
);
md.push('| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  md.push(
    `| ${r.model} | ${r.protocol} | ${r.concurrency} | ${formatRate(r.inferPerSec)} | ${formatUs(r.p50Us)} | ${formatUs(r.p99Us)} | ${r.stable ? 'yes' : 'no'} | ${formatNumber(r.avgBatch, 2)} | ${formatUs(r.queueUs)} | ${formatUs(r.computeUs)} | ${formatUs(r.coreOverheadUs)} | ${formatUs(r.outsideCoreUs)} | ${r.rawBatch} | ${formatRate(r.rawInferPerSec)} | ${formatNumber(r.servedOverRaw, 2)} | ${formatUs(r.serverCpuUs)} | ${formatUs(r.clientCpuUs)} | ${formatUs(r.rawCpuUs)} | ${r.loadAvg1} |`,
  );
}
md.push('', '## Targets', '');
// The benchmark itself keeps up to cores + 2 threads runnable (the engine's intra-op threads, the server's event
// loop, the load generator): a load average above that means other work shared the machine.
const peakLoad = Math.max(loadEnd, ...rows.map((r) => r.loadAvg1).filter(Number.isFinite));
if (peakLoad > machine.cores + 2) {
  md.push(
    `**Other work shared the machine during this run (1-minute load average up to ${peakLoad} on ${machine.cores} cores, where the benchmark alone explains about ${machine.cores + 2}): wall-clock throughput and latency moved with it, so the verdicts below say what was measured, not what rtserve does on a quiet machine. The CPU-based rows are the least affected.**`,
    '',
  );
}
md.push('| target | measured | met |', '| --- | --- | --- |');
for (const t of targets) md.push(`| ${t.target} | ${t.measured} | ${t.met ? 'yes' : '**no**'} |`);
md.push(
  '',
  '## Raw engine',
  '',
  markdownTable(raw, [
    { title: 'model', value: (l) => modelOf(l), left: true },
    { title: 'engine', value: (l) => l.protocol, left: true },
    { title: 'measured', value: (l) => ((l as Tagged).pairedWith === undefined ? 'sweep' : `after ${(l as Tagged).pairedWith ?? ''}`), left: true },
    { title: 'batch', value: (l) => String(l.batch) },
    { title: 'infer/s', value: (l) => formatRate(l.merged.inferencesPerSec) },
    { title: 'avg per batch', value: (l) => formatUs(l.merged.latency.avgUs) },
    { title: 'p50', value: (l) => formatUs(l.merged.latency.p50Us) },
    { title: 'p99', value: (l) => formatUs(l.merged.latency.p99Us) },
    { title: 'stable', value: (l) => (l.stable ? 'yes' : 'no') },
    { title: 'CPU / inference', value: (l) => formatUs(rawCpuPerInference.get(l)) },
  ]),
  '',
);
md.push(
  "Column meanings: docs/bench.md. *srv* columns come from the statistics extension over the same windows: batch = inference_count / execution_count; queue and compute (input + infer + output; infer includes the hop to the engine worker thread) are per-request averages; core overhead = request − queue − compute; outside core = client-observed average − server request time (both HTTP stacks, codecs, loopback). CPU columns: CPU time (user + system, all threads, from /proc and process.cpuUsage) divided by the requests or inferences of the level, warm-up included; on a shared machine they move far less than wall-clock latencies. Where onnxruntime's intra-op threads spin-wait between runs (engine.allow_spinning), the spinning counts as CPU in the server and in the raw engine alike. load: the 1-minute load average when the level ended (2 cores: above 2 the level shared the CPUs with other work).",
  '',
);

const outDir = values['out-dir'];
await mkdir(outDir, { recursive: true });
const base = join(outDir, `foundation-${day}${variant ? `-${values.tag ?? (pinned ? 'pinned' : 'variant')}` : ''}`);
await writeFile(
  `${base}.json`,
  `${JSON.stringify({ benchmark: 'foundation', date, command, server: server.commandLine.replace(repository, '<tmp repository>'), machine, loadAvg1AtEnd: loadEnd, measure, rows, targets, served, raw }, roundNumbers, 2)}\n`,
);
await writeFile(`${base}.md`, `${md.join('\n')}\n`);
console.log(md.join('\n'));
console.error(`wrote ${base}.json and ${base}.md`);
