/**
 * `rtserve bench`: a perf_analyzer-style load generator for rtserve (or any KServe v2 server with the statistics
 * extension). See docs/bench.md.
 */
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { bundledModelRepository } from '../util/package-root.ts';
import { ENGINE_KINDS, type EngineKind } from './clients/engine-client.ts';
import type { HttpStack } from './clients/http-client.ts';
import { serverDefaultEngineOptions } from './engine-defaults.ts';
import type { BenchFlags } from './bench-flags.ts';
import { BenchError } from './errors.ts';
import { positiveInts, positiveNumber } from './flag-values.ts';
import { describeLoad, markdownTable, textTable } from './format.ts';
import { refuseGenerateOnlyFlags, runGenerateCommand, type GenerateFlags } from './generate/command.ts';
import { createProgress } from './progress.ts';
import { renderHtmlReport } from './report-html.ts';
import { defaultFactories, runBench, type BenchOptions, type InputSource } from './runner.ts';
import type { BenchReport, LoadMode, MeasureOptions } from './types.ts';
import { nativeBenchFlags, perfAnalyzerCsv, registerPerfAnalyzerFlags, type PerfAnalyzerFlags } from './perf-analyzer.ts';

export type { BenchFlags } from './bench-flags.ts';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** `name:d1,d2` → [name, dims] (perf_analyzer's --shape; dims without the batch dimension). */
export function parseShapeFlag(text: string): [string, number[]] {
  const at = text.lastIndexOf(':');
  if (at <= 0) throw new BenchError(`--shape takes NAME:D1,D2,..., got '${text}'`);
  return [text.slice(0, at), positiveInts(`--shape ${text.slice(0, at)}`, text.slice(at + 1))];
}

/** The model file the raw-engine baseline loads: `<repo>/<model>/<version or highest>/model.onnx`. */
export async function resolveModelFile(repository: string, model: string, version?: string): Promise<string> {
  const dir = join(repository, model);
  let v = version;
  if (v === undefined) {
    const entries = existsSync(dir) ? await readdir(dir, { withFileTypes: true }) : [];
    const versions = entries
      .filter((e) => e.isDirectory() && /^\d+$/.test(e.name))
      .map((e) => Number(e.name))
      .sort((a, b) => b - a);
    v = versions.find((n) => existsSync(join(dir, String(n), 'model.onnx')))?.toString();
  }
  const file = v === undefined ? undefined : join(dir, v, 'model.onnx');
  if (file === undefined || !existsSync(file))
    throw new BenchError(
      `no model.onnx for '${model}'${version === undefined ? '' : ` version ${version}`} under ${repository}; pass --engine <file>`,
    );
  return file;
}

/** Turns the CLI flags into BenchOptions (exported for tests). */
export async function benchOptionsFromFlags(flags: BenchFlags, command: string): Promise<BenchOptions> {
  if (flags.concurrency !== undefined && flags.requestRate !== undefined) throw new BenchError('give --concurrency or --request-rate, not both');
  if (flags.duration !== undefined && flags.requests !== undefined) throw new BenchError('give --duration or --requests, not both');
  const distribution = flags.requestDistribution;
  if (distribution !== 'constant' && distribution !== 'poisson')
    throw new BenchError(`--request-distribution is constant or poisson, got '${distribution}'`);
  const loads: LoadMode[] =
    flags.requestRate !== undefined
      ? positiveInts('--request-rate', flags.requestRate).map((r) => ({ kind: 'rate', requestsPerSec: r, distribution }))
      : positiveInts('--concurrency', flags.concurrency ?? '1').map((c) => ({ kind: 'concurrency', concurrency: c }));
  const percentile = flags.percentile === undefined ? undefined : Number(flags.percentile);
  if (percentile !== undefined && ![50, 90, 95, 99].includes(percentile))
    throw new BenchError(`--percentile is 50, 90, 95 or 99, got '${flags.percentile}'`);
  const measure: MeasureOptions = {
    window:
      flags.requests !== undefined
        ? { kind: 'count', requests: positiveInts('--requests', flags.requests)[0] as number }
        : { kind: 'time', durationMs: positiveNumber('--duration', flags.duration ?? '5') * 1000 },
    warmupMs: positiveNumber('--warmup', flags.warmup, true) * 1000,
    stabilityPercent: positiveNumber('--stability-percentage', flags.stabilityPercentage),
    stabilityWindows: 3,
    maxTrials: Math.max(3, positiveInts('--max-trials', flags.maxTrials)[0] as number),
    ...(percentile === undefined ? {} : { stabilityPercentile: percentile }),
    maxInflight: positiveInts('--max-inflight', flags.maxInflight)[0] as number,
  };
  const sharedMemory = flags.sharedMemory;
  if (sharedMemory !== 'none' && sharedMemory !== 'system')
    throw new BenchError(`--shared-memory is none or system, got '${sharedMemory}' (cuda is not supported)`);
  const input: InputSource =
    flags.input === 'random' ? { kind: 'random' } : flags.input === 'zero' ? { kind: 'zero' } : { kind: 'file', path: flags.input };
  const shapes = new Map((flags.shape ?? []).map(parseShapeFlag));

  let engine: BenchOptions['engine'];
  if (flags.engine !== undefined && flags.engine !== false) {
    const modelPath =
      typeof flags.engine === 'string'
        ? flags.engine
        : await resolveModelFile(flags.modelRepository ?? bundledModelRepository(), flags.model, flags.modelVersion);
    const kinds = flags.engineKinds.split(',').map((k) => (k.trim().startsWith('engine-') ? k.trim() : `engine-${k.trim()}`));
    for (const k of kinds)
      if (!(ENGINE_KINDS as readonly string[]).includes(k)) throw new BenchError(`--engine-kinds takes inprocess and/or worker, got '${k}'`);
    const threads = flags.engineThreads === undefined ? undefined : positiveInts('--engine-threads', flags.engineThreads)[0];
    engine = {
      modelPath,
      kinds: kinds as EngineKind[],
      // The server's defaults for a model config without an engine section.
      options: serverDefaultEngineOptions(threads === undefined ? {} : { intraOpNumThreads: threads }),
    };
  }
  const url = flags.url ?? (engine === undefined ? 'http://127.0.0.1:8000' : undefined);
  return {
    ...(url === undefined ? {} : { url }),
    ...(flags.grpcUrl === undefined ? {} : { grpcUrl: flags.grpcUrl }),
    ...(flags.wsUrl === undefined ? {} : { wsUrl: flags.wsUrl }),
    model: flags.model,
    ...(flags.modelVersion === undefined ? {} : { version: flags.modelVersion }),
    protocols: flags.protocol
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p.length > 0),
    loads,
    batches: positiveInts('--batch', flags.batch),
    input,
    ...(shapes.size === 0 ? {} : { shapes }),
    measure,
    ...(flags.timeoutMs === undefined ? {} : { timeoutMs: positiveNumber('--timeout-ms', flags.timeoutMs) }),
    ...(sharedMemory === 'system' ? { sharedMemory } : {}),
    ...(engine === undefined ? {} : { engine }),
    command,
  };
}

/** Problems worth a non-zero exit: failed requests, levels cut short. Instability alone is only a warning. */
export function reportProblems(report: BenchReport): string[] {
  const problems: string[] = [];
  for (const l of report.levels) {
    const failed = l.errors.reduce((s, e) => s + e.count, 0);
    const label = `${l.protocol} b=${l.batch} ${describeLoad(l.mode)}`;
    if (failed > 0) problems.push(`${label}: ${failed} failed requests: ${l.errors.map((e) => `${e.count} × ${e.message}`).join('; ')}`);
  }
  return problems;
}

export function registerBenchCommand(program: Command): void {
  const bench = program
    .command('bench')
    .description('measure throughput and latency of a model (perf_analyzer method: windows, stability rule, percentiles, server breakdown)')
    .requiredOption('-m, --model <name>', 'model to measure')
    .option('--model-version <v>', 'model version (default: the server picks)')
    .option('-u, --url <url>', 'server REST URL (default http://127.0.0.1:8000 unless only --engine is measured)')
    .option('--grpc-url <host:port>', 'gRPC address, for the grpc protocols')
    .option('--ws-url <url>', 'WebSocket URL, for the ws protocol')
    .option('--protocol <list>', 'protocols, comma-separated: http-json, http-binary (and grpc, grpc-stream, ws where built)', 'http-binary')
    .option('--concurrency <list>', 'concurrency levels, e.g. 1,8,64 (default 1)')
    .option('--request-rate <list>', 'request rates per second instead of concurrency, e.g. 100,500')
    .option('--request-distribution <d>', 'constant | poisson (request-rate mode)', 'constant')
    .option('--duration <s>', 'length of each measurement window in seconds (default 5)')
    .option('-n, --requests <n>', 'end each window after n requests instead of a time')
    .option('--warmup <s>', 'seconds of load before the first window, discarded', '1')
    .option('--stability-percentage <p>', 'stable when the last 3 windows are within p% (throughput and latency)', '10')
    .option('-r, --max-trials <n>', 'windows tried before giving up on stability', '10')
    .option('--percentile <p>', 'stabilize on p50/p90/p95/p99 latency instead of the average')
    .option('--max-inflight <n>', 'request-rate mode: most outstanding requests before sends are dropped', '1024')
    .option('-b, --batch <list>', 'rows per request (batch dimension), comma-separated', '1')
    .option('--input <src>', 'random | zero | FILE (KServe request JSON or perf_analyzer {"data": [...]})', 'random')
    .option('--shape <name:dims>', 'shape of an input with dynamic dims, without the batch dim (repeatable)', collect)
    .option('--timeout-ms <ms>', 'fail a request unanswered after this long')
    .option('--http-client <stack>', 'net (HTTP/1.1 over node:net, the leanest) | node (node:http, keep-alive agent) | fetch', 'net')
    .option(
      '--shared-memory <mode>',
      'none | system: tensors through /dev/shm regions on the server host (http-*, grpc*; the server must run with --allow-client-shm=true; docs/shared-memory.md)',
      'none',
    )
    .option('--engine [model.onnx]', 'also run the model in-process as the raw-engine baseline (default file: from --model-repository)')
    .option('--engine-kinds <list>', "inprocess (ORT on this thread) and/or worker (the server's worker-thread engine)", 'inprocess,worker')
    .option('--engine-threads <n>', "intra-op threads for the raw engine (default: onnxruntime's)")
    .option('--model-repository <dir>', 'where --engine finds the model (default: the bundled models/)')
    .option('-o, --out <file>', 'write the results as JSON')
    .option('--report <file>', 'write an HTML report (inline SVG charts)')
    .option('--markdown <file>', 'write the results table as markdown')
    .option('--no-progress', 'no progress line on stderr')
    .option('--generate', "a generative model's token streams: time to first token, inter-token latency, tokens/s (docs/bench.md)")
    .option('--prompt-tokens <n>', `--generate: synthetic prompts of n ASCII characters (n tokens on a byte-level tokenizer; default 64)`)
    .option('--prompt-file <file>', '--generate: prompts, one per line (or JSON strings / {"prompt": ...} lines, or a JSON array)')
    .option('--output-tokens <n>', '--generate: max_tokens of every request (default 128)')
    .option('--temperature <t>', "--generate: sampling temperature (default: the server's)");
  // perf_analyzer's flags (-i, --concurrency-range, --measurement-interval, -f, ...): src/bench/perf-analyzer.ts.
  registerPerfAnalyzerFlags(bench);
  bench.action(async (given: BenchFlags & PerfAnalyzerFlags & GenerateFlags) => {
    if (given.generate === true) return runGenerateCommand(given, bench);
    refuseGenerateOnlyFlags(bench);
    const flags = nativeBenchFlags(given);
    const command = `rtserve bench ${process.argv.slice(3).join(' ')}`.trim();
    const options = await benchOptionsFromFlags(flags, command);
    const stack = flags.httpClient;
    if (stack !== 'net' && stack !== 'node' && stack !== 'fetch') throw new BenchError(`--http-client is net, node or fetch, got '${stack}'`);
    const progress = createProgress(process.stderr, flags.progress);
    const report = await runBench(
      { ...options, onProgress: (label, p) => progress.update(label, p), onLevel: () => progress.clear() },
      defaultFactories(stack as HttpStack),
    );
    progress.clear();
    process.stdout.write(`${textTable(report.levels)}\n`);
    for (const l of report.levels)
      for (const w of l.warnings) process.stderr.write(`warning: ${l.protocol} b=${l.batch} ${describeLoad(l.mode)}: ${w}\n`);
    if (flags.out !== undefined) await writeFile(flags.out, `${JSON.stringify(report, null, 2)}\n`);
    if (flags.report !== undefined) await writeFile(flags.report, renderHtmlReport(report));
    if (flags.markdown !== undefined) await writeFile(flags.markdown, `${markdownTable(report.levels)}\n`);
    if (given.f !== undefined) await writeFile(given.f, perfAnalyzerCsv(report.levels));
    const problems = reportProblems(report);
    for (const p of problems) process.stderr.write(`error: ${p}\n`);
    if (problems.length > 0) process.exitCode = 1;
  });
}
