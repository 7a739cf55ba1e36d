/**
 * The offline compiler (`rtserve build` / `rtserve inspect`). It imports only plan/, errors/ and small
 * utilities; onnxruntime reaches it through the OfflineRuntime interface (src/plan/runtime.ts), which the CLI wires in
 * from src/engine/ort/offline-runner.ts.
 */
export { buildPlan } from './build.ts';
export { AccuracyGateError, BUILD_STAGES } from './build-options.ts';
export type { BuildOptions, BuildReport, BuildResult, BuildStage, PrecisionReport, ProgressEvent, ProgressListener } from './build-options.ts';
export { inspect, formatInspect, summarizeModel } from './inspect.ts';
export type { InspectResult, ModelSummary } from './inspect.ts';
export { GATE_METRICS, defaultGates, parseGate } from './accuracy.ts';
export type { AccuracyGate, AccuracyReport, GateMetric, GateResult, OutputMetrics } from './accuracy.ts';
export { parseProfile } from './profiles.ts';
export { runModelWith } from '../plan/runtime.ts';
export type {
  Feeds,
  HostTensor,
  OfflineRuntime,
  OptimizationLevel,
  Outputs,
  RunModel,
  RuntimeSession,
  RuntimeSessionOptions,
} from '../plan/runtime.ts';
export {
  EXIT_ACCURACY_GATE,
  EXIT_ERROR,
  EXIT_OK,
  EXIT_USAGE,
  registerCompilerCommands,
  runBuildCommand,
  runInspectCommand,
} from './cli.ts';
export type { BuildFlags, CompilerCommandDeps } from './cli.ts';
export { readNpy, writeNpy } from './data/npy.ts';
export { readNpz, writeNpz } from './data/npz.ts';
export { loadDataset } from './data/dataset.ts';
export type { Dataset } from './data/dataset.ts';
