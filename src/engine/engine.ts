import type { Tensor, TensorMetadata } from '../tensor/tensor.ts';
import type { PlanRuntime } from '../plan/compatibility.ts';
import type { ImageSpec } from '../config/image-spec.ts';
import type { EncodedFrame, FrameFailure } from '../tensor/frames.ts';

/** Execution providers rtserve knows how to ask onnxruntime for, in the order a user lists them. */
export type ExecutionProviderName = 'cpu' | 'webgpu' | 'cuda' | 'tensorrt';

export interface ExecutionProviderSpec {
  readonly name: ExecutionProviderName;
  /** Passed through to onnxruntime's provider options unchanged. */
  readonly options?: Readonly<Record<string, string | number | boolean>>;
}

export interface EngineLoadOptions {
  /**
   * Engines to try, in order. Providers do not fall back inside onnxruntime (a session created for
   * ['webgpu','cpu'] on a machine without a GPU fails), so the engine tries each spec on its own and keeps
   * the first that loads.
   */
  readonly providers: readonly ExecutionProviderSpec[];
  readonly graphOptimizationLevel?: 'disabled' | 'basic' | 'extended' | 'all';
  readonly intraOpNumThreads?: number;
  readonly interOpNumThreads?: number;
  /** Extra onnxruntime session options (free-form `session.*` config entries). */
  readonly sessionConfig?: Readonly<Record<string, string>>;
  /**
   * The GPU this instance runs on: an ordinal among the devices the process sees (instance_group `gpus`, after
   * CUDA_VISIBLE_DEVICES). Engines with devices (CUDA) place the instance there; the others ignore it.
   */
  readonly device?: number;
  /**
   * The model's image pipeline (its `preprocess` section), when it has one: an engine that decodes frames on its
   * device (`EngineSession.runFrames`) preprocesses them into this input by it.
   */
  readonly image?: ImageSpec;
  /**
   * Set for a model that may be compiled to a CUDA plan at load (docs/cuda-engine.md "Compiled at load"): whether
   * its config asks for that itself (a tensorrt GPU accelerator), and the largest batch the plan must run. Unset
   * for a model whose instances are all KIND_CPU. Engines without a CUDA compiler ignore it.
   */
  readonly cudaCompile?: CudaCompileRequest;
}

export interface CudaCompileRequest {
  readonly requested: boolean;
  /** The model's max_batch_size (0: it takes no batch dimension, the plan runs its own static shape). */
  readonly maxBatchSize: number;
}

export interface SessionDescription {
  readonly inputs: readonly TensorMetadata[];
  readonly outputs: readonly TensorMetadata[];
  /** The provider that actually loaded the model. */
  readonly provider: ExecutionProviderName;
}

/** One loaded model instance. It owns its thread and memory; `run` never blocks the event loop. */
export interface EngineSession {
  /** The GPU ordinal this instance runs on (engines with devices); undefined for an instance without a device. */
  readonly device?: number | undefined;
  describe(): SessionDescription;
  /**
   * Runs one batch. `feeds` are full tensors (batch dimension included); `outputNames` selects outputs.
   * Input buffers may be transferred to another thread: callers must not touch them after the call.
   */
  run(feeds: readonly Tensor[], outputNames: readonly string[], signal?: AbortSignal): Promise<Tensor[]>;
  /**
   * False once the session can never run again (its worker thread died, its device was lost). Sessions that
   * leave it out are taken as alive; their device failures surface as ENGINE_DEVICE_FAILED from `run`.
   */
  isAlive?(): boolean;
  /**
   * Optional: runs a batch given as its requests' pieces (checked by the scheduler's planBatch), for engines that
   * can join them where it is cheapest (a worker session joins them on its own thread, into a buffer it reuses).
   * Without it the scheduler joins the batch itself and calls `run`. The same rule about touching inputs applies.
   */
  runBatch?(feeds: readonly BatchFeed[], outputNames: readonly string[], signal?: AbortSignal): Promise<Tensor[]>;
  /**
   * The input this session fills from encoded frames on its own device (tensor/frames.ts), when it can: then a
   * request may carry that input as BYTES, one encoded frame per row, with each frame's placement, and the
   * scheduler runs such batches through `runFrames`. Undefined: every input comes as a tensor.
   */
  readonly frameInput?: string | undefined;
  /**
   * Decodes and preprocesses `frames` (rows in order) into `frameInput` on the device and runs the batch. A frame
   * the device cannot take fails only its own row (`failures[row]`); the other rows' outputs are valid.
   */
  runFrames?(frames: readonly EncodedFrame[], outputNames: readonly string[], signal?: AbortSignal): Promise<FrameRun>;
  close(): Promise<void>;
}

/** A batch of frames run by an engine: outputs for every row, and the rows whose frame failed. */
export interface FrameRun {
  readonly outputs: Tensor[];
  /** Sparse by row: undefined where the frame was decoded. */
  readonly failures: readonly (FrameFailure | undefined)[];
}

/** One input of a batch before it is joined along dim 0: the joined shape, and each request's tensor in order. */
export interface BatchFeed {
  readonly name: string;
  readonly datatype: Tensor['datatype'];
  readonly shape: readonly number[];
  readonly parts: readonly Tensor[];
}

export interface Engine {
  readonly name: string;
  load(modelPath: string, options: EngineLoadOptions): Promise<EngineSession>;
  /**
   * What this engine can run from a `model.plan` (docs/plan-format.md), given the providers a model asks for.
   * Engines without plan support leave it out and plans are refused with a clear error.
   */
  planRuntime?(providers: readonly ExecutionProviderSpec[]): PlanRuntime;
  /**
   * How many GPUs instances can be placed on (instance_group KIND_GPU without `gpus` puts `count` instances on each).
   * Engines without devices leave it out: their instances are counted, never placed.
   */
  deviceCount?(): number;
}
