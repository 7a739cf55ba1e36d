import type { ConvLayer, CudaDeviceInfo, GemmLayer, Tactic } from './cuda-network.ts';
import type { OfflineRuntime } from './runtime.ts';

/**
 * The contract between the CUDA compiler (src/compiler/cuda) and the device that times tactics for it
 * (src/engine/cuda/tuner.ts): the compiler never loads the addon; the CLI hands it a tuner.
 */

/** One timed candidate of a layer (what the addon's `tune` reports). */
export interface TuneCandidate {
  readonly tactic: Tactic;
  readonly ok: boolean;
  readonly us?: number;
  readonly ws?: number;
  readonly err?: number;
  readonly why?: string;
  readonly setupMs?: number;
}

export interface TuneResult {
  readonly candidates: readonly TuneCandidate[];
  readonly notes: readonly string[];
  readonly best: Tactic | null;
  readonly bestUs: number | null;
  readonly fallback: Tactic | null;
}

export interface TuneOptions {
  /** Largest workspace a tactic may ask for (bytes). */
  readonly workspaceLimit: number;
  /** cuDNN graph-API engine configurations tried per convolution (heuristic order). */
  readonly graphCandidates: number;
  /** Timed runs per candidate (median reported). */
  readonly iters: number;
  /** Check every candidate's output against the engine's reference kernel. */
  readonly verify: boolean;
}

/**
 * Times tactics on the device. The compiler never loads the addon itself (docs/architecture.md, Layers): the CLI passes
 * the one from src/engine/cuda/addon.ts.
 */
export interface CudaTuner {
  readonly device: CudaDeviceInfo;
  tune(layer: ConvLayer | GemmLayer, options: TuneOptions): TuneResult;
}

export interface CudaBuildDeps {
  readonly tuner?: CudaTuner;
  /** Why there is no tuner (no addon, no device): the build fails naming it. */
  readonly unavailable?: string;
  /** Runs target 'cuda' payloads (and delegates the FP32 reference to onnxruntime) for the accuracy gate. */
  readonly accuracyRuntime?: OfflineRuntime;
  readonly tuneOptions?: Partial<TuneOptions>;
  /** Overrides the batch sizes derived from the profile. */
  readonly batches?: readonly number[];
  /** CUDA graphs in the plan (default on). */
  readonly cudaGraphs?: boolean;
  /**
   * Wall-clock budget for tactic timing: once spent, the remaining problems try no cuDNN graph-API engines
   * (their plans can compile kernels at run time) and time fewer runs. Default: no limit.
   */
  readonly tuneBudgetMs?: number;
}
