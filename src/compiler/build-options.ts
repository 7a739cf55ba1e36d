import { RtError } from '../errors/registry.ts';
import type { CalibrationMethod, NodePrecision, PlanManifest, PlanPrecision, PlanTarget, ShapeProfile } from '../plan/manifest.ts';
import type { AccuracyGate, AccuracyReport } from './accuracy.ts';
import type { PassReport } from './passes/index.ts';
import type { OfflineRuntime, OptimizationLevel } from '../plan/runtime.ts';

/** What `rtserve build` takes and reports: options, stages and progress events, the report and the result. */

export const BUILD_STAGES = ['load', 'validate', 'passes', 'calibrate', 'precision', 'ort-optimize', 'profiles', 'accuracy', 'write'] as const;
export type BuildStage = (typeof BUILD_STAGES)[number];

export interface ProgressEvent {
  readonly stage: BuildStage;
  readonly state: 'start' | 'progress' | 'done' | 'skipped';
  readonly message?: string;
  /** 0..1 within the stage, for `progress` events. */
  readonly fraction?: number;
  readonly elapsedMs?: number;
}
export type ProgressListener = (e: ProgressEvent) => void;

export interface BuildOptions {
  /** Path of the ONNX model, or its bytes (then `modelName` names it). */
  readonly model: string | Uint8Array;
  readonly modelName?: string;
  readonly target?: PlanTarget;
  readonly precision?: PlanPrecision;
  /** .npy / .npz / directory of them (see data/dataset.ts). */
  readonly calibration?: string;
  readonly calibrationMethod?: CalibrationMethod;
  readonly percentile?: number;
  /** A calibration table JSON (or a .plan holding one): reused when it matches, written after calibrating. */
  readonly calibrationCache?: string;
  readonly calibrationBatchSize?: number;
  readonly validation?: string;
  /** Part of the calibration data held out for validation when no validation data is given (default 0.2). */
  readonly holdoutFraction?: number;
  readonly profiles?: readonly ShapeProfile[];
  /** Gates; undefined = defaults for the precision; [] = no gate. */
  readonly accuracyGates?: readonly AccuracyGate[];
  readonly keepIoTypes?: boolean;
  /** Operator types added to the FP16 block list. */
  readonly fp32Ops?: readonly string[];
  /** Node names kept in FP32 under fp16/int8/mixed. */
  readonly fp32Nodes?: readonly string[];
  /** Per-channel weight scales for INT8 (default true). */
  readonly perChannel?: boolean;
  /** onnxruntime offline optimization level for the payload; default 'extended' (ort-cpu), 'basic' (ort-webgpu). */
  readonly ortOptimization?: OptimizationLevel | 'none';
  /** Pass names to skip. */
  readonly disablePasses?: readonly string[];
  /** Needed for calibration, onnxruntime optimization, profile checks and accuracy; without it those are skipped. */
  readonly runtime?: OfflineRuntime;
  readonly seed?: number;
}

export interface PrecisionReport {
  readonly precision: PlanPrecision;
  readonly nodes: Readonly<Record<NodePrecision, number>>;
  readonly fp16?: {
    readonly castsInserted: number;
    readonly convertedInitializers: number;
    readonly keptFp32: readonly { node: string; op: string; reason: string }[];
  };
  readonly int8?: {
    readonly quantizedTensors: number;
    readonly quantizedWeights: number;
    readonly removedActivations: number;
    readonly perChannel: boolean;
    /** mixed: nodes moved back to FP32 and why. */
    readonly fallbackFp32: readonly string[];
  };
}

export interface BuildReport {
  readonly tool: { readonly name: string; readonly version: string };
  readonly source: PlanManifest['source'];
  readonly target: PlanTarget;
  readonly precision: PlanPrecision;
  readonly stagesMs: Partial<Record<BuildStage, number>>;
  readonly totalMs: number;
  readonly passes: readonly PassReport[];
  readonly precisionReport: PrecisionReport;
  readonly calibration: {
    readonly method: CalibrationMethod;
    readonly samples: number;
    readonly source: string;
    readonly fromCache: boolean;
    readonly tensors: number;
  } | null;
  readonly ortOptimization: {
    readonly level: string;
    readonly nodesBefore: number;
    readonly nodesAfter: number;
    readonly opTypes: Readonly<Record<string, number>>;
  } | null;
  readonly profiles: readonly ShapeProfile[];
  readonly accuracy: AccuracyReport | null;
  readonly sizes: { readonly sourceBytes: number; readonly payloadBytes: number; readonly planBytes: number };
  readonly warnings: readonly string[];
}

export interface BuildResult {
  readonly plan: Uint8Array;
  readonly manifest: PlanManifest;
  readonly report: BuildReport;
}

/** A build whose accuracy gate failed: the report is attached so the CLI can still write it. */
export class AccuracyGateError extends RtError {
  readonly report: BuildReport;
  constructor(message: string, report: BuildReport) {
    super('BAD_CONFIG', message);
    this.name = 'AccuracyGateError';
    this.report = report;
  }
}

/** The build's result, or the AccuracyGateError that carries its report when the accuracy gate failed. */
export function finishBuild(plan: Uint8Array, manifest: PlanManifest, report: BuildReport): BuildResult {
  const accuracy = report.accuracy;
  if (accuracy !== null && !accuracy.passed) {
    const failed = accuracy.gates.filter((x) => !x.passed).map((x) => x.message);
    throw new AccuracyGateError(`accuracy gate failed: ${failed.join('; ')}`, report);
  }
  return { plan, manifest, report };
}
