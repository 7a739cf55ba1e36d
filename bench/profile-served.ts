/**
 * Where the served path spends CPU: runs one load level against a server in its own process and reports the
 * server's CPU per request by thread (/proc), and, with --cpu-prof, the main thread's self time by area and function
 * during the measured span only (startup and model loading left out).
 *
 *   node --import tsx bench/profile-served.ts [--model simple] [--protocol http-binary] [--concurrency 1]
 *                                             [--seconds 10] [--cpu-prof] [--top 25] [--raw] [--model-repository DIR]
 *                                             [--http-client net|node|fetch] [--workers N] [--worker-detail]
 *
 * Threads are listed one by one (name and id: the engine worker and onnxruntime's pool threads are all called
 * "node"), with the load generator's own CPU per request (it shares the cores with the server on one machine).
 * `--raw` then runs the model on onnxruntime in this process at the batch size the server's batcher formed, with the
 * server's session options, and reports its CPU per inference: the server's engine threads minus that is what the
 * worker hop, wire conversion and batching add.
 *
 * `--workers N` (N > 1) runs the server with N front-end workers (docs/workers.md): the /proc figures are then the
 * engine owner's process alone, and with --cpu-prof the owner's main thread is profiled in full while each worker's
 * profile is summed up in one line (listed in full too with --worker-detail).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultFactories, runBench } from '../src/bench/runner.ts';
import type { HttpStack } from '../src/bench/clients/http-client.ts';
import { formatRate, formatUs } from '../src/bench/format.ts';
import { ownCpuUs, threadCpuUs, threadSwitches } from '../src/bench/process-cpu.ts';
import { serverDefaultEngineOptions } from '../src/bench/engine-defaults.ts';
import { bundledModelRepository } from '../src/util/package-root.ts';
import { startServerProcess } from '../src/bench/server-process.ts';
import { summarizeProfile, type CpuProfile } from './cpu-profile-summary.ts';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'simple' },
    protocol: { type: 'string', default: 'http-binary' },
    concurrency: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '10' },
    'cpu-prof': { type: 'boolean', default: false },
    top: { type: 'string', default: '25' },
    raw: { type: 'boolean', default: false },
    'model-repository': { type: 'string' },
    'http-client': { type: 'string', default: 'net' },
    workers: { type: 'string', default: '1' },
    'worker-detail': { type: 'boolean', default: false },
  },
});

const stack = values['http-client'] as HttpStack;
if (!['net', 'node', 'fetch'].includes(stack)) throw new Error(`--http-client is net, node or fetch, got '${stack}'`);
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(`load average at start: ${load()}`);
const profDir = values['cpu-prof'] ? await mkdtemp(join(tmpdir(), 'rtserve-prof-')) : undefined;
const repository = values['model-repository'];
const workers = Number(values.workers);
if (!Number.isInteger(workers) || workers < 1) throw new Error(`--workers is a whole number ≥ 1, got '${values.workers}'`);
const server = await startServerProcess({
  ...(profDir === undefined ? {} : { cpuProfDir: profDir }),
  args: [...(repository === undefined ? [] : ['--model-repository', repository]), '--workers', String(workers)],
});
if (workers > 1) console.log(`${workers} front-end workers: /proc figures below are the engine owner's process (pid ${server.pid}) alone`);
/** One decimal below 100 µs: per-request shares of a few µs matter here. */
const fine = (us: number): string => (Number.isFinite(us) && Math.abs(us) < 100 ? `${us.toFixed(1)} µs` : formatUs(us));
const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);
/** The server's read and write system calls so far, all threads (/proc/PID/io syscr, syscw): coalesced writes show here. */
const syscalls = async (pid: number): Promise<{ reads: number; writes: number }> => {
  const io = await readFile(`/proc/${pid}/io`, 'utf8').catch(() => '');
  const field = (name: string): number => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(io)?.[1] ?? Number.NaN);
  return { reads: field('syscr'), writes: field('syscw') };
};
let io0 = { reads: 0, writes: 0 };
let io1 = { reads: 0, writes: 0 };
let fromUs = 0;
let toUs = 0;
let requests = 0;
let threads0 = new Map<string, number>();
let threads1 = new Map<string, number>();
let switches0 = new Map<string, { voluntary: number; nonvoluntary: number }>();
let switches1 = new Map<string, { voluntary: number; nonvoluntary: number }>();
let clientUs = 0;
let avgBatch = 1;
try {
  const common = {
    url: server.httpUrl,
    ...(server.grpcAddress === undefined ? {} : { grpcUrl: server.grpcAddress }),
    model: values.model,
    protocols: [values.protocol],
    loads: [{ kind: 'concurrency' as const, concurrency: Number(values.concurrency) }],
    batches: [1],
    input: { kind: 'random' as const },
  };
  // Warm-up run (JIT, first batches), then the measured run.
  await runBench(
    {
      ...common,
      measure: {
        window: { kind: 'time', durationMs: 1000 },
        warmupMs: 500,
        stabilityPercent: 100,
        stabilityWindows: 3,
        maxTrials: 3,
        maxInflight: 1024,
      },
    },
    defaultFactories(stack),
  );
  threads0 = threadCpuUs(server.pid, { byThread: true });
  switches0 = threadSwitches(server.pid);
  io0 = await syscalls(server.pid);
  const client0 = ownCpuUs();
  fromUs = nowUs();
  const report = await runBench(
    {
      ...common,
      measure: {
        window: { kind: 'time', durationMs: Number(values.seconds) * 1000 },
        warmupMs: 0,
        stabilityPercent: 100,
        stabilityWindows: 1,
        maxTrials: 1,
        maxInflight: 1024,
      },
    },
    defaultFactories(stack),
  );
  toUs = nowUs();
  clientUs = ownCpuUs() - client0;
  threads1 = threadCpuUs(server.pid, { byThread: true });
  switches1 = threadSwitches(server.pid);
  io1 = await syscalls(server.pid);
  requests = report.serverTotals?.requests ?? 0;
  const l = report.levels[0];
  if (l !== undefined) {
    const s = l.merged.server;
    console.log(
      `${values.model} ${values.protocol} c=${values.concurrency}: ${requests} requests, ${formatRate(l.merged.inferencesPerSec)} infer/s, avg ${formatUs(l.merged.latency.avgUs)}, p50 ${formatUs(l.merged.latency.p50Us)}`,
    );
    avgBatch = s?.avgBatchSize ?? 1;
    if (s !== undefined)
      console.log(
        `  server: request ${formatUs(s.requestUs)} = queue ${formatUs(s.queueUs)} + compute ${formatUs(s.computeInputUs + s.computeInferUs + s.computeOutputUs)} (infer ${formatUs(s.computeInferUs)}) + overhead ${formatUs(s.overheadUs)}; outside core ${formatUs(l.outsideCoreUs)}`,
      );
  }
} finally {
  await server.stop();
}

console.log(`load average at end: ${load()}; server batch ${avgBatch.toFixed(2)}`);
console.log('\nserver CPU per request by thread (/proc, user + system):');
let total = 0;
const deltas = [...threads1].map(([name, us]) => [name, us - (threads0.get(name) ?? 0)] as const).sort((a, b) => b[1] - a[1]);
for (const [name, d] of deltas) {
  total += d;
  const s0 = switches0.get(name);
  const s1 = switches1.get(name);
  const sw =
    s0 === undefined || s1 === undefined
      ? ''
      : `  (${((s1.voluntary - s0.voluntary) / requests).toFixed(2)} sleeps, ${((s1.nonvoluntary - s0.nonvoluntary) / requests).toFixed(2)} preemptions per request)`;
  if (d / requests >= 0.5) console.log(`  ${fine(d / requests).padStart(9)}  ${name}${sw}`);
}
console.log(`  ${fine(total / requests).padStart(9)}  total`);
console.log(`  ${fine(clientUs / requests).padStart(9)}  load generator (this process, all threads)`);
console.log(
  `server system calls per request (/proc/PID/io, all threads): ${((io1.reads - io0.reads) / requests).toFixed(2)} reads, ${((io1.writes - io0.writes) / requests).toFixed(2)} writes`,
);

if (values.raw) {
  const batch = Math.max(1, Math.round(avgBatch));
  const kind = 'engine-inprocess';
  const cpu0 = ownCpuUs();
  const report = await runBench({
    model: values.model,
    protocols: [],
    loads: [],
    batches: [batch],
    input: { kind: 'random' },
    measure: {
      window: { kind: 'time', durationMs: 3000 },
      warmupMs: 1000,
      stabilityPercent: 100,
      stabilityWindows: 1,
      maxTrials: 1,
      maxInflight: 1024,
    },
    engine: {
      modelPath: join(repository ?? bundledModelRepository(), values.model, '1', 'model.onnx'),
      kinds: [kind],
      options: serverDefaultEngineOptions(),
    },
  });
  const inferences = (report.totals[kind]?.succeeded ?? 0) * batch;
  const l = report.levels[0];
  console.log(
    `\nraw engine in-process at batch ${batch}: ${fine((ownCpuUs() - cpu0) / inferences)} CPU per inference (warm-up included), ${formatRate(l?.merged.inferencesPerSec ?? Number.NaN)} infer/s`,
  );
}

if (profDir !== undefined) {
  const files = (await readdir(profDir)).filter((f) => f.endsWith('.cpuprofile'));
  const top = Number(values.top);
  // node names them CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: the owner is the process started here.
  const isOwner = (f: string): boolean => f.split('.')[3] === String(server.pid);
  for (const f of files.sort((a, b) => Number(isOwner(b)) - Number(isOwner(a)))) {
    const s = summarizeProfile(JSON.parse(await readFile(join(profDir, f), 'utf8')) as CpuProfile, fromUs, toUs);
    const busy = s.byArea.filter((a) => a.name !== '(idle)').reduce((t, a) => t + a.ms, 0);
    if (busy < 1) continue;
    if (workers > 1 && !isOwner(f) && !values['worker-detail']) {
      console.log(`\n${f} (a front-end worker): ${busy.toFixed(0)} ms busy in the measured span = ${fine((busy * 1000) / requests)} per request`);
      continue;
    }
    console.log(`\n${f}: ${busy.toFixed(0)} ms busy in the measured span = ${fine((busy * 1000) / requests)} per request`);
    console.log('  by area (µs per request):');
    for (const a of s.byArea.filter((x) => x.name !== '(idle)').slice(0, top))
      console.log(`    ${fine((a.ms * 1000) / requests).padStart(9)}  ${a.name}`);
    console.log('  by function (µs per request):');
    for (const fn of s.byFunction.filter((x) => !x.name.startsWith('(idle)')).slice(0, top))
      console.log(`    ${fine((fn.ms * 1000) / requests).padStart(9)}  ${fn.name}`);
  }
  await rm(profDir, { recursive: true, force: true });
}
