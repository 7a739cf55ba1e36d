/**
 * The served path for large tensors (issue #7) on any machine: a generated model whose input is [-1,3,224,224]
 * FP32 (ResNet-50's) and whose compute is nothing (a strided Slice to [-1,3,1,1]), served by `rtserve serve` in one
 * process and loaded by `rtserve bench` in another, as bench/cuda/run.sh does on the GPU machine with the
 * resnet50 plan (same model config: max_batch_size 256, preferred 32/64/128, 1 ms delay, 2 instances). With no
 * compute, what is measured is what every ResNet-sized request costs outside the engine: bodies, copies, codecs,
 * the worker hand-off.
 *
 *   node --import tsx bench/bigtensor.ts [--protocols http-binary,grpc] [--batch 16] [--concurrency 4]
 *        [--duration 5] [--cpu-prof [--keep-prof]] [--top 15] [--label NAME] [--out FILE.json] [--workers N]
 *
 * Each protocol runs as its own `node src/cli/main.ts bench` process (so its CPU profile, with --cpu-prof, is its
 * own); the server's profile is cut to each protocol's span. Per protocol it prints and records req/s, img/s,
 * MB/s of request bodies, latency, outsideCoreUs, and the CPU µs per request of the server (by thread) and of the
 * load client.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GraphBuilder } from '../src/onnx/builder.ts';
import { ElemType, saveModel } from '../src/onnx/proto.ts';
import { packageRoot } from '../src/util/package-root.ts';
import { threadCpuUs } from '../src/bench/process-cpu.ts';
import { machineInfo } from '../src/bench/machine.ts';
import { startServerProcess } from '../src/bench/server-process.ts';
import type { BenchReport } from '../src/bench/types.ts';
import { summarizeProfile, type CpuProfile } from './cpu-profile-summary.ts';

const { values } = parseArgs({
  options: {
    protocols: { type: 'string', default: 'http-binary,grpc' },
    batch: { type: 'string', default: '16' },
    concurrency: { type: 'string', default: '4' },
    duration: { type: 'string', default: '5' },
    'cpu-prof': { type: 'boolean', default: false },
    'keep-prof': { type: 'boolean', default: false },
    top: { type: 'string', default: '15' },
    label: { type: 'string', default: '' },
    out: { type: 'string' },
    workers: { type: 'string', default: '1' },
  },
});

const MODEL = 'bigin';
const IMAGE = [3, 224, 224] as const;

/** input [N,3,224,224] FP32 → output = input[:, :, 0:1, 0:1], [N,3,1,1]: no compute, a ResNet-sized input. */
function bigInputModel(): Uint8Array {
  const g = new GraphBuilder(MODEL);
  const x = g.input('input', ElemType.FLOAT, ['batch', ...IMAGE]);
  const starts = g.initializer('starts', new BigInt64Array([0n, 0n]), [2]);
  const ends = g.initializer('ends', new BigInt64Array([1n, 1n]), [2]);
  const axes = g.initializer('axes', new BigInt64Array([2n, 3n]), [2]);
  g.node('Slice', [x, starts, ends, axes], ['output']);
  g.output('output', ElemType.FLOAT, ['batch', 3, 1, 1]);
  return saveModel(g.toModel({ opsetVersion: 13, producerName: 'rtserve bench/bigtensor.ts', producerVersion: '1' }));
}

async function makeRepo(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rtserve-bigtensor-'));
  await mkdir(join(dir, MODEL, '1'), { recursive: true });
  await writeFile(join(dir, MODEL, '1', 'model.onnx'), bigInputModel());
  await writeFile(
    join(dir, MODEL, 'config.json'),
    JSON.stringify({
      name: MODEL,
      max_batch_size: 256,
      input: [{ name: 'input', data_type: 'TYPE_FP32', dims: IMAGE }],
      output: [{ name: 'output', data_type: 'TYPE_FP32', dims: [3, 1, 1] }],
      dynamic_batching: { preferred_batch_size: [32, 64, 128], max_queue_delay_microseconds: 1000 },
      instance_group: [{ count: 2, kind: 'KIND_CPU' }],
    }),
  );
  return dir;
}

const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);
const sum = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);

function run(cmd: string, args: readonly string[]): Promise<{ code: number | null; stderr: string; cpuUs: number }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: packageRoot(), stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString()).slice(-4000);
    });
    // The child's own CPU (user + system, all threads) from wait4's rusage is not exposed by node; /proc of the
    // child, read just before it exits, is: sample it while it runs.
    let cpuUs = 0;
    const timer = setInterval(() => {
      const t = sum(threadCpuUs(child.pid ?? -1));
      if (t > 0) cpuUs = t;
    }, 200);
    child.once('exit', (code) => {
      clearInterval(timer);
      resolve({ code, stderr, cpuUs });
    });
  });
}

interface ProtocolResult {
  protocol: string;
  command: string;
  requestsPerSec: number;
  imagesPerSec: number;
  bodyMBPerSec: number;
  p50Us: number;
  avgUs: number;
  outsideCoreUs: number | undefined;
  server: unknown;
  serverCpuUsPerRequest: Record<string, number>;
  clientCpuUsPerRequest: number;
  requests: number;
  profile?: { server: string[]; client: string[] };
}

const root = packageRoot();
const repo = await makeRepo();
const profDir = values['cpu-prof'] ? await mkdtemp(join(tmpdir(), 'rtserve-bigtensor-prof-')) : undefined;
const server = await startServerProcess({
  // --workers N > 1: the /proc figures are the engine owner's; with --cpu-prof every process's main thread is listed.
  args: ['--model-repository', repo, '--workers', values.workers],
  ...(profDir === undefined ? {} : { cpuProfDir: join(profDir, 'server') }),
});
const batch = Number(values.batch);
const bodyBytes = batch * IMAGE.reduce((a, b) => a * b, 1) * 4;
const results: ProtocolResult[] = [];
const spans: { protocol: string; fromUs: number; toUs: number; requests: number }[] = [];
try {
  for (const protocol of values.protocols.split(',')) {
    const outFile = join(repo, `bench-${protocol}.json`);
    const clientProf = profDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', join(profDir, `client-${protocol}`)];
    const benchArgs = [
      'bench',
      '-m',
      MODEL,
      '-u',
      server.httpUrl,
      ...(server.grpcAddress === undefined ? [] : ['--grpc-url', server.grpcAddress]),
      '--protocol',
      protocol,
      '-b',
      String(batch),
      '--concurrency',
      values.concurrency,
      '--duration',
      values.duration,
      '--warmup',
      '2',
      '--max-trials',
      '4',
      '--stability-percentage',
      '30',
      '-o',
      outFile,
      '--no-progress',
    ];
    const threads0 = threadCpuUs(server.pid);
    const fromUs = nowUs();
    const r = await run(process.execPath, [...clientProf, '--import', 'tsx', join(root, 'src', 'cli', 'main.ts'), ...benchArgs]);
    const toUs = nowUs();
    const threads1 = threadCpuUs(server.pid);
    if (r.code !== 0) throw new Error(`rtserve bench --protocol ${protocol} exited ${r.code}: ${r.stderr}`);
    const report = JSON.parse(await readFile(outFile, 'utf8')) as BenchReport;
    const level = report.levels[0];
    if (level === undefined) throw new Error(`no level in ${outFile}`);
    const requests = report.serverTotals?.requests ?? 0;
    const serverCpu: Record<string, number> = {};
    for (const [name, us] of threads1) {
      const d = us - (threads0.get(name) ?? 0);
      if (d > 0) serverCpu[name] = Math.round(d / requests);
    }
    serverCpu['total'] = Math.round((sum(threads1) - sum(threads0)) / requests);
    const m = level.merged;
    results.push({
      protocol,
      command: `node src/cli/main.ts ${benchArgs.join(' ').replace(repo, '$REPO')}`,
      requestsPerSec: m.requestsPerSec,
      imagesPerSec: m.inferencesPerSec,
      bodyMBPerSec: (m.requestsPerSec * bodyBytes) / 1e6,
      p50Us: m.latency.p50Us,
      avgUs: m.latency.avgUs,
      outsideCoreUs: level.outsideCoreUs,
      server: m.server,
      serverCpuUsPerRequest: serverCpu,
      clientCpuUsPerRequest: Math.round(r.cpuUs / (report.totals[protocol]?.succeeded ?? requests)),
      requests,
    });
    spans.push({ protocol, fromUs, toUs, requests });
    const s = results.at(-1)!;
    console.log(
      `${protocol} b=${batch} c=${values.concurrency}: ${s.requestsPerSec.toFixed(1)} req/s, ${s.imagesPerSec.toFixed(0)} img/s, ` +
        `${s.bodyMBPerSec.toFixed(0)} MB/s, p50 ${(s.p50Us / 1000).toFixed(1)} ms, outside core ${((s.outsideCoreUs ?? NaN) / 1000).toFixed(1)} ms; ` +
        `CPU per request: server ${serverCpu['total']} µs, client ${s.clientCpuUsPerRequest} µs`,
    );
  }
} finally {
  await server.stop();
}

if (profDir !== undefined) {
  const top = Number(values.top);
  const lines = (p: CpuProfile, requests: number, fromUs?: number, toUs?: number): string[] => {
    const s = summarizeProfile(p, fromUs, toUs);
    const busy = s.byArea.filter((a) => a.name !== '(idle)').reduce((t, a) => t + a.ms, 0);
    const per = (ms: number): string => `${((ms * 1000) / requests).toFixed(0).padStart(7)} µs`;
    return [
      `main thread busy ${per(busy)} per request`,
      ...s.byArea
        .filter((a) => a.name !== '(idle)')
        .slice(0, top)
        .map((a) => `  area ${per(a.ms)}  ${a.name}`),
      ...s.byFunction
        .filter((f) => !f.name.startsWith('(idle)'))
        .slice(0, top)
        .map((f) => `  fn   ${per(f.ms)}  ${f.name}`),
    ];
  };
  const serverFiles = (await readdir(join(profDir, 'server'))).filter((f) => f.endsWith('.cpuprofile'));
  const serverProfiles = await Promise.all(
    serverFiles.map(async (f) => JSON.parse(await readFile(join(profDir, 'server', f), 'utf8')) as CpuProfile),
  );
  for (const span of spans) {
    const res = results.find((x) => x.protocol === span.protocol)!;
    // The main thread's profile is the one busy in the span; worker threads write their own files.
    const serverLines = serverProfiles.map((p) => lines(p, span.requests, span.fromUs, span.toUs)).sort((a, b) => b[0]!.localeCompare(a[0]!));
    const clientDir = join(profDir, `client-${span.protocol}`);
    const clientFiles = (await readdir(clientDir)).filter((f) => f.endsWith('.cpuprofile'));
    const clientLines = await Promise.all(
      clientFiles.map(async (f) => lines(JSON.parse(await readFile(join(clientDir, f), 'utf8')) as CpuProfile, span.requests)),
    );
    res.profile = { server: serverLines.flat(), client: clientLines.flat() };
    console.log(`\n== ${span.protocol}: server profile (per request, during its span)\n${serverLines.map((l) => l.join('\n')).join('\n')}`);
    console.log(
      `\n== ${span.protocol}: load client profile (per request, whole run incl. warm-up)\n${clientLines.map((l) => l.join('\n')).join('\n')}`,
    );
  }
  if (values['keep-prof']) console.log(`\nprofiles kept in ${profDir}`);
  else await rm(profDir, { recursive: true, force: true });
}
await rm(repo, { recursive: true, force: true });

if (values.out !== undefined) {
  const doc = {
    label: values.label,
    date: new Date().toISOString(),
    command: `node --import tsx bench/bigtensor.ts ${process.argv.slice(2).join(' ')}`,
    server: server.commandLine.replace(repo, '$REPO'),
    model: `${MODEL}: input [-1,3,224,224] FP32, output Slice [-1,3,1,1]; max_batch_size 256, preferred 32/64/128, 1 ms delay, 2 instances`,
    bodyBytes,
    machine: machineInfo(),
    results,
  };
  await writeFile(values.out, `${JSON.stringify(doc, null, 1)}\n`);
}
