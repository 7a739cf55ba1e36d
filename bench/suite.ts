/**
 * The standard benchmark suite, for the README's performance section.
 *
 *   node --import tsx bench/suite.ts [--duration 2] [--max-trials 8] [--models simple,mlp,resnet_tiny]
 *                                    [--protocols http-json,http-binary,grpc,grpc-stream,ws] [--concurrency 1,8,64] [--dist]
 *
 * Starts `rtserve serve` in its own process, runs `rtserve bench` (the library) for every model × protocol ×
 * concurrency at batch 1, then the raw engine (onnxruntime in-process) at batch 1 per model, and writes
 * bench/results/<date>-<machine>.json (every report) and .md (one table per model, with the machine and command).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bundledModelRepository } from '../src/util/package-root.ts';
import { defaultFactories, runBench } from '../src/bench/runner.ts';
import { serverDefaultEngineOptions } from '../src/bench/engine-defaults.ts';
import { suiteMeasureOptions } from '../src/bench/measure.ts';
import { formatRate, formatUs, markdownTable, roundNumbers } from '../src/bench/format.ts';
import { machineInfo, machineLabel } from '../src/bench/machine.ts';
import { startServerProcess } from '../src/bench/server-process.ts';
import type { BenchReport, MeasureOptions } from '../src/bench/types.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '2' },
    'max-trials': { type: 'string', default: '8' },
    warmup: { type: 'string', default: '1' },
    models: { type: 'string', default: 'simple,mlp,resnet_tiny' },
    protocols: { type: 'string' },
    concurrency: { type: 'string', default: '1,8,64' },
    dist: { type: 'boolean', default: false },
    'out-dir': { type: 'string', default: join(import.meta.dirname, 'results') },
  },
});

const available = defaultFactories().map((f) => f.protocol);
const protocols = (values.protocols?.split(',') ?? available).filter((p) => p.length > 0);
const models = values.models.split(',').filter((m) => m.length > 0);
const concurrency = values.concurrency.split(',').map(Number);
const measure: MeasureOptions = suiteMeasureOptions(Number(values.duration), Number(values.warmup), Number(values['max-trials']));
const command = `node --import tsx bench/suite.ts ${process.argv.slice(2).join(' ')}`.trim();
const machine = machineInfo();

const reports: BenchReport[] = [];
const server = await startServerProcess({ useDist: values.dist });
// Interrupted: stop the server before exiting.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void server.stop().finally(() => process.exit(130)));
console.error(`server: ${server.commandLine} at ${server.httpUrl}${server.grpcAddress === undefined ? '' : `, gRPC ${server.grpcAddress}`}`);
try {
  for (const model of models) {
    const report = await runBench({
      url: server.httpUrl,
      ...(server.grpcAddress === undefined ? {} : { grpcUrl: server.grpcAddress }),
      model,
      // gRPC needs the gRPC front end; leave those protocols out when the server has none.
      protocols: protocols.filter((p) => !p.startsWith('grpc') || server.grpcAddress !== undefined),
      loads: concurrency.map((c) => ({ kind: 'concurrency', concurrency: c })),
      batches: [1],
      input: { kind: 'random' },
      measure,
      command,
      onLevel: (l) =>
        console.error(
          `  ${model} ${l.protocol} c=${l.mode.kind === 'concurrency' ? l.mode.concurrency : '?'}: ${formatRate(l.merged.inferencesPerSec)} infer/s, p50 ${formatUs(l.merged.latency.p50Us)}, p99 ${formatUs(l.merged.latency.p99Us)}${l.stable ? '' : ' (unstable)'}`,
        ),
    });
    reports.push(report);
  }
} finally {
  await server.stop();
}
for (const model of models) {
  const report = await runBench({
    model,
    protocols: [],
    loads: [],
    batches: [1],
    input: { kind: 'random' },
    measure,
    command,
    engine: {
      modelPath: join(bundledModelRepository(), model, '1', 'model.onnx'),
      kinds: ['engine-inprocess'],
      options: serverDefaultEngineOptions(),
    },
  });
  reports.push(report);
}

const date = new Date().toISOString();
const base = join(values['out-dir'], `${date.slice(0, 10)}-${machineLabel(machine)}`);
await mkdir(values['out-dir'], { recursive: true });
await writeFile(
  `${base}.json`,
  `${JSON.stringify({ benchmark: 'suite', date, command, server: server.commandLine, machine, reports }, roundNumbers, 2)}\n`,
);
const md: string[] = [
  `### Performance (${date.slice(0, 10)})`,
  '',
  `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node} (1-minute load average ${machine.loadAvg1} at the start). ` +
    `Server and load generator are separate processes on the same machine. Command: \`${command}\`. ` +
    `Method: perf_analyzer's (docs/bench.md): ${measure.window.kind === 'time' ? measure.window.durationMs / 1000 : '?'} s windows, stable when the last 3 are within 10%, batch 1 per request.`,
  '',
];
for (const model of models) {
  const levels = reports.filter((r) => r.model === model).flatMap((r) => r.levels);
  md.push(`#### ${model}`, '', markdownTable(levels), '');
}
await writeFile(`${base}.md`, `${md.join('\n')}\n`);
console.log(md.join('\n'));
console.error(`wrote ${base}.json and ${base}.md`);
