import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { RtError, toRtError } from '../errors/registry.ts';
import { CALIBRATION_METHODS, PLAN_PRECISIONS, PLAN_TARGETS, type CalibrationMethod, type PlanPrecision, type PlanTarget } from '../plan/manifest.ts';
import { parseGate, type AccuracyGate } from './accuracy.ts';
import { buildPlan } from './build.ts';
import { AccuracyGateError, BUILD_STAGES, type BuildOptions, type BuildReport, type ProgressEvent } from './build-options.ts';
import { buildCudaPlan } from './cuda/build-cuda.ts';
import type { CudaBuildDeps } from '../plan/cuda-tuning.ts';
import { formatInspect, inspect } from './inspect.ts';
import { parseProfile } from './profiles.ts';
import type { OfflineRuntime, OptimizationLevel } from '../plan/runtime.ts';

/** Exit codes of `rtserve build`: 0 built, 1 failed, 2 bad usage, 3 built but the accuracy gate failed. */
export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;
export const EXIT_ACCURACY_GATE = 3;

/** Flags of `rtserve build` as commander hands them over (strings; repeatable ones as arrays). */
export interface BuildFlags {
  readonly output?: string;
  readonly target?: string;
  readonly precision?: string;
  readonly calibration?: string;
  readonly calibrationMethod?: string;
  readonly percentile?: string;
  readonly calibrationCache?: string;
  readonly calibrationBatch?: string;
  readonly validation?: string;
  readonly profile?: readonly string[];
  readonly accuracyGate?: readonly string[];
  readonly report?: string;
  readonly keepIoTypes?: boolean;
  readonly fp32Ops?: string;
  readonly fp32Nodes?: string;
  readonly perTensor?: boolean;
  readonly ortOptimization?: string;
  readonly disablePass?: readonly string[];
  readonly seed?: string;
  readonly quiet?: boolean;
}

export interface CompilerCommandDeps {
  /**
   * Supplies the in-process runtime (src/engine/ort/offline-runner.ts `createOfflineRunner`). The compiler may
   * not import onnxruntime itself (docs/architecture.md, Layers), so the CLI wires it in. Without one, builds skip
   * calibration, onnxruntime optimization and the accuracy gate (INT8 then needs a calibration cache).
   */
  readonly createRuntime?: () => OfflineRuntime;
  /**
   * `--target cuda`: the device tuner (and the accuracy runtime over `runtime`) from src/engine/cuda/tuner.ts,
   * or why there is none. Called only for that target, so other builds never load the native addon.
   */
  readonly createCudaBuildDeps?: (runtime: OfflineRuntime | undefined) => CudaBuildDeps;
  /** Where progress and results are printed (default: process.stderr / process.stdout). */
  readonly stderr?: (line: string) => void;
  readonly stdout?: (line: string) => void;
}

class UsageError extends Error {}

function pick<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], dflt: T): T {
  if (value === undefined) return dflt;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got '${value}')`);
  return value as T;
}

function number(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`${flag} must be a number (got '${value}')`);
  return n;
}

const list = (v: string | undefined): string[] =>
  v === undefined
    ? []
    : v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');

/** Translates CLI flags into BuildOptions (usage errors throw UsageError). */
export function buildOptionsFromFlags(model: string, flags: BuildFlags, runtime: OfflineRuntime | undefined): BuildOptions {
  const gates = flags.accuracyGate ?? [];
  let accuracyGates: AccuracyGate[] | undefined;
  if (gates.length === 1 && gates[0] === 'none') accuracyGates = [];
  else if (gates.length > 0) accuracyGates = gates.map(parseGate);
  const percentile = number('--percentile', flags.percentile);
  if (percentile !== undefined && (percentile <= 0 || percentile > 100)) throw new UsageError('--percentile must be in (0, 100]');
  const batch = number('--calibration-batch', flags.calibrationBatch);
  const seed = number('--seed', flags.seed);
  const options: BuildOptions = {
    model,
    target: pick<PlanTarget>('--target', flags.target, PLAN_TARGETS, 'ort-cpu'),
    precision: pick<PlanPrecision>('--precision', flags.precision, PLAN_PRECISIONS, 'fp32'),
    calibrationMethod: pick<CalibrationMethod>('--calibration-method', flags.calibrationMethod, CALIBRATION_METHODS, 'minmax'),
    keepIoTypes: flags.keepIoTypes ?? true,
    perChannel: flags.perTensor !== true,
    profiles: (flags.profile ?? []).map(parseProfile),
    fp32Ops: list(flags.fp32Ops),
    fp32Nodes: list(flags.fp32Nodes),
    disablePasses: [...(flags.disablePass ?? [])],
    ortOptimization: pick<OptimizationLevel | 'none'>(
      '--ort-optimization',
      flags.ortOptimization,
      ['none', 'basic', 'extended', 'all'],
      flags.target === 'ort-webgpu' ? 'basic' : 'extended',
    ),
    ...(flags.calibration !== undefined ? { calibration: flags.calibration } : {}),
    ...(flags.calibrationCache !== undefined ? { calibrationCache: flags.calibrationCache } : {}),
    ...(flags.validation !== undefined ? { validation: flags.validation } : {}),
    ...(percentile !== undefined ? { percentile } : {}),
    ...(batch !== undefined ? { calibrationBatchSize: batch } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(accuracyGates !== undefined ? { accuracyGates } : {}),
    ...(runtime !== undefined ? { runtime } : {}),
  };
  return options;
}

/** A line-per-stage progress display ("[3/9] passes ... done in 12 ms: ..."). */
export function progressPrinter(write: (line: string) => void): (e: ProgressEvent) => void {
  const total = BUILD_STAGES.length;
  let lastFraction = 0;
  return (e) => {
    const idx = BUILD_STAGES.indexOf(e.stage) + 1;
    const head = `[${idx}/${total}] ${e.stage.padEnd(12)}`;
    if (e.state === 'start') {
      lastFraction = 0;
      if (e.message !== undefined) write(`${head} ${e.message}`);
    } else if (e.state === 'progress') {
      // at most every 25 %: a build log should stay readable when not on a terminal
      const f = e.fraction;
      if (f !== undefined && Math.floor(f * 4) > Math.floor(lastFraction * 4)) {
        lastFraction = f;
        write(`${head} ${Math.round(f * 100)}%${e.message !== undefined ? ` ${e.message}` : ''}`);
      } else if (f === undefined && e.message !== undefined) write(`${head} ${e.message}`);
    } else if (e.state === 'done') {
      write(`${head} done in ${e.elapsedMs ?? 0} ms${e.message !== undefined ? `: ${e.message}` : ''}`);
    } else {
      write(`${head} skipped${e.message !== undefined ? ` (${e.message})` : ''}`);
    }
  };
}

function summary(report: BuildReport, output: string): string[] {
  const lines = [
    `built ${output}: ${report.target} ${report.precision}, ${report.sizes.planBytes} bytes (source ${report.sizes.sourceBytes}) in ${report.totalMs} ms`,
  ];
  for (const w of report.warnings) lines.push(`warning: ${w}`);
  for (const o of report.accuracy?.outputs ?? []) {
    lines.push(
      `  ${o.name}: max-abs ${o.maxAbsError.toPrecision(4)}, mean-rel ${o.meanRelError.toPrecision(4)}, cosine ${o.cosine.toFixed(6)}` +
        `${o.top1Agreement === null ? '' : `, top1-agreement ${o.top1Agreement.toFixed(4)}`}${o.planAccuracy === null ? '' : `, accuracy ${o.planAccuracy.toFixed(4)} (fp32 ${o.referenceAccuracy?.toFixed(4)})`}`,
    );
  }
  return lines;
}

/** `rtserve build MODEL -o OUT.plan ...`; returns the process exit code. */
export async function runBuildCommand(model: string, flags: BuildFlags, deps: CompilerCommandDeps = {}): Promise<number> {
  const err = deps.stderr ?? ((l: string) => process.stderr.write(`${l}\n`));
  const out = deps.stdout ?? ((l: string) => process.stdout.write(`${l}\n`));
  if (flags.output === undefined) {
    err('error: -o/--output <file.plan> is required');
    return EXIT_USAGE;
  }
  let options: BuildOptions;
  try {
    options = buildOptionsFromFlags(model, flags, deps.createRuntime?.());
  } catch (e) {
    if (e instanceof UsageError) {
      err(`error: ${e.message}`);
      return EXIT_USAGE;
    }
    const r = toRtError(e);
    err(`error [${r.code}]: ${r.message}`);
    return EXIT_USAGE;
  }
  if (options.runtime === undefined) err('warning: no runtime wired in: calibration, onnxruntime optimization and the accuracy gate are skipped');
  const writeReport = async (report: BuildReport): Promise<void> => {
    if (flags.report !== undefined) await writeFile(flags.report, `${JSON.stringify(report, null, 2)}\n`);
  };
  try {
    const progress = flags.quiet === true ? () => {} : progressPrinter(err);
    const result =
      options.target === 'cuda'
        ? await buildCudaPlan(
            options,
            progress,
            deps.createCudaBuildDeps?.(options.runtime) ?? { unavailable: 'the native CUDA engine is not wired into this command' },
          )
        : await buildPlan(options, progress);
    await writeFile(flags.output, result.plan);
    await writeReport(result.report);
    for (const l of summary(result.report, flags.output)) out(l);
    return EXIT_OK;
  } catch (e) {
    if (e instanceof AccuracyGateError) {
      await writeReport(e.report);
      for (const l of summary(e.report, flags.output).slice(1)) err(l);
      err(`error [ACCURACY_GATE]: ${e.message}; no plan was written${flags.report !== undefined ? ` (report: ${flags.report})` : ''}`);
      return EXIT_ACCURACY_GATE;
    }
    if (e instanceof RtError) {
      err(`error [${e.code}]: ${e.message}`);
      return EXIT_ERROR;
    }
    const r = toRtError(e);
    err(`error [${r.code}]: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT_ERROR;
  }
}

/** `rtserve inspect FILE`; returns the process exit code. */
export async function runInspectCommand(path: string, flags: { readonly json?: boolean }, deps: CompilerCommandDeps = {}): Promise<number> {
  const err = deps.stderr ?? ((l: string) => process.stderr.write(`${l}\n`));
  const out = deps.stdout ?? ((l: string) => process.stdout.write(`${l}\n`));
  try {
    const r = await inspect(path);
    out(flags.json === true ? JSON.stringify(r, null, 2) : formatInspect(r));
    return EXIT_OK;
  } catch (e) {
    const r = toRtError(e);
    err(`error [${r.code}]: ${e instanceof RtError ? e.message : e instanceof Error ? e.message : String(e)}`);
    return EXIT_ERROR;
  }
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** Registers `rtserve build` and `rtserve inspect` on a commander program. */
export function registerCompilerCommands(program: Command, deps: CompilerCommandDeps = {}): void {
  program
    .command('build')
    .description('compile an ONNX model into an optimized plan (passes, FP16/INT8, shape profiles, accuracy gate)')
    .argument('<model>', 'the ONNX model')
    .requiredOption('-o, --output <file>', 'plan file to write')
    .option(
      '--target <target>',
      `${PLAN_TARGETS.join(' | ')} (default ort-cpu; cuda needs the native engine and --precision fp16: docs/cuda-engine.md)`,
    )
    .option('--precision <p>', `${PLAN_PRECISIONS.join(' | ')} (default fp32)`)
    .option('--calibration <path>', 'calibration data: FILE.npy | FILE.npz | DIR of them (first dim = samples)')
    .option('--calibration-method <m>', `${CALIBRATION_METHODS.join(' | ')} (default minmax)`)
    .option('--percentile <p>', 'percentile for --calibration-method percentile (default 99.999)')
    .option('--calibration-cache <file>', 'calibration table to reuse (JSON or a .plan); written after calibrating')
    .option('--calibration-batch <n>', 'samples per calibration run (default 8)')
    .option('--validation <path>', 'validation data (.npy/.npz/DIR; an npz may hold `labels`); default: held-out calibration data')
    .option('--profile <spec>', 'shape profile INPUT:MIN,OPT,MAX, shapes like 1x3x32x32 (repeatable)', collect)
    .option(
      '--accuracy-gate <spec>',
      `[OUTPUT:]METRIC=VALUE (repeatable; 'none' disables): max-abs, mean-rel, cosine, top1-agreement, top1-accuracy, accuracy-drop`,
      collect,
    )
    .option('--report <file>', 'write the build report (JSON)')
    .option('--keep-io-types', 'keep FP32 model inputs/outputs under fp16 (the default)')
    .option('--no-keep-io-types', 'make FP16 plans take and return FP16 tensors')
    .option('--fp32-ops <list>', 'operator types to keep in FP32 (added to the FP16 block list), comma-separated')
    .option('--fp32-nodes <list>', 'node names to keep in FP32 (fp16/int8/mixed), comma-separated')
    .option('--per-tensor', 'INT8 weights with one scale per tensor instead of per output channel')
    .option('--ort-optimization <level>', 'onnxruntime offline optimization of the payload: none | basic | extended | all')
    .option('--disable-pass <name>', 'skip a compiler pass (repeatable)', collect)
    .option('--seed <n>', 'seed for synthetic validation data')
    .option('-q, --quiet', 'no progress display')
    .action(async (model: string, flags: BuildFlags) => {
      process.exitCode = await runBuildCommand(model, flags, deps);
    });
  program
    .command('inspect')
    .description('describe an ONNX model or an rtserve plan')
    .argument('<file>', '.onnx or .plan')
    .option('--json', 'machine-readable output')
    .action(async (file: string, flags: { json?: boolean }) => {
      process.exitCode = await runInspectCommand(file, flags, deps);
    });
}
