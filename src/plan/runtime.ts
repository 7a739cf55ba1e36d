import type { PlanTarget } from './manifest.ts';
import type { ElemType, NumericData } from '../tensor/onnx-dtype.ts';

/**
 * The compiler never imports onnxruntime (docs/architecture.md, Layers: only engine/ort does). It runs models for
 * calibration, onnxruntime's offline optimization and the accuracy gate through this interface, which
 * `src/engine/ort/offline-runner.ts` implements and the CLI passes in.
 */

/** A dense host tensor in ONNX element-type terms (float16 as raw Uint16 bits, bool as Uint8 0/1). */
export interface HostTensor {
  readonly elemType: ElemType;
  readonly dims: readonly number[];
  readonly data: NumericData;
}

export type Feeds = Readonly<Record<string, HostTensor>>;
export type Outputs = Record<string, HostTensor>;

export type OptimizationLevel = 'disabled' | 'basic' | 'extended' | 'all';

export interface RuntimeSessionOptions {
  readonly target: PlanTarget;
  readonly optimizationLevel?: OptimizationLevel;
  /** 0 lets the runtime choose. */
  readonly intraOpThreads?: number;
}

export interface RuntimeSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Feeds, outputNames?: readonly string[]): Promise<Outputs>;
  /**
   * Optional (the CUDA engine): batch programs whose output was found at load to depend on what earlier runs left in
   * device memory. The build's program check drops them like outliers.
   */
  historyDependentBatches?(): readonly number[];
  release(): Promise<void>;
}

export interface OfflineRuntime {
  /** e.g. 'onnxruntime-node' */
  readonly name: string;
  readonly version: string;
  /** Targets whose payloads this runtime can execute on this machine (accuracy, calibration, benchmarks). */
  readonly runnableTargets: readonly PlanTarget[];
  createSession(model: Uint8Array, options: RuntimeSessionOptions): Promise<RuntimeSession>;
  /** The runtime's own offline graph optimization; returns the optimized model bytes. */
  optimize(model: Uint8Array, options: { readonly target: PlanTarget; readonly level: OptimizationLevel }): Promise<Uint8Array>;
}

/** The one-shot form the brief asks for: run a model once on some feeds. */
export type RunModel = (model: Uint8Array, feeds: Feeds) => Promise<Outputs>;

/** Adapts an OfflineRuntime to the one-shot RunModel form (a session per call; fine for small checks). */
export function runModelWith(runtime: OfflineRuntime, target: PlanTarget = 'ort-cpu'): RunModel {
  return async (model, feeds) => {
    const s = await runtime.createSession(model, { target });
    try {
      return await s.run(feeds);
    } finally {
      await s.release();
    }
  };
}
