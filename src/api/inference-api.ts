import type { InferRequest, InferResponse } from './types.ts';
import type { ImageRequest, ImageResult } from './image-types.ts';
import type { TensorMetadata } from '../tensor/tensor.ts';
import type { ModelConfig } from '../config/model-config.ts';
import type { ModelStatsSnapshot } from '../observability/model-stats.ts';
import type { SystemSharedMemoryApi } from '../shm/system-shared-memory.ts';

/**
 * What every front end (REST, gRPC, WebSocket, SSE) calls. Transports decode their wire format into these
 * calls and encode the results; they never reach into the repository, scheduler or engines themselves.
 * Every method throws RtError (src/errors) for client-visible failures.
 */
export interface ServerMetadata {
  readonly name: string;
  readonly version: string;
  readonly extensions: readonly string[];
}

export interface ModelMetadata {
  readonly name: string;
  readonly versions: readonly string[];
  /** KServe platform string, e.g. "onnxruntime_onnx". */
  readonly platform: string;
  /** Shapes include the batch dimension (-1) when the model batches, as KServe metadata does. */
  readonly inputs: readonly TensorMetadata[];
  readonly outputs: readonly TensorMetadata[];
}

export type ModelState = 'UNKNOWN' | 'LOADING' | 'READY' | 'UNLOADING' | 'UNAVAILABLE';

export interface RepositoryIndexEntry {
  readonly name: string;
  readonly version?: string;
  readonly state: ModelState;
  readonly reason: string;
}

export interface LoadModelOptions {
  /** A JSON ModelConfig that overrides the one on disk (Triton's load `config` parameter). */
  readonly config?: string;
}

export interface InferenceApi {
  /** Liveness: the process is up and serving the API. */
  isLive(): boolean;
  /** Readiness: live, not draining, and (with strict readiness) every model ready. */
  isReady(): boolean;
  serverMetadata(): ServerMetadata;
  modelMetadata(name: string, version?: string): ModelMetadata;
  /** Throws MODEL_NOT_FOUND / VERSION_NOT_FOUND for unknown names; false while loading or failed. */
  modelReady(name: string, version?: string): boolean;
  modelConfig(name: string, version?: string): ModelConfig;
  /**
   * All models when name is undefined (Triton's statistics extension). A front-end worker asks the engine owner
   * (docs/workers.md), hence the promise.
   */
  modelStatistics(name?: string, version?: string): ModelStatsSnapshot[] | Promise<ModelStatsSnapshot[]>;
  repositoryIndex(readyOnly?: boolean): RepositoryIndexEntry[];
  loadModel(name: string, options?: LoadModelOptions): Promise<void>;
  unloadModel(name: string): Promise<void>;
  /**
   * Validates the request against the model and runs it through the model's scheduler. The returned
   * response holds only the requested outputs. Labels for the classification extension come from
   * `outputLabels`.
   */
  infer(request: InferRequest): Promise<InferResponse>;
  /**
   * Optional: every response of one request as it is produced (decoupled / generative models). Streaming front
   * ends (WebSocket `stream: true`, SSE generate_stream) use it when present and otherwise stream an ordinary
   * `infer` as one response; an implementation must therefore serve ordinary models too (one response).
   * Cancellation goes through `request.signal`; errors are RtError, thrown from the iterator.
   */
  inferStream?(request: InferRequest): AsyncIterable<InferResponse>;
  /**
   * Optional: one image through the model's image pipeline, answered as classes, boxes or tensors (POST
   * /v2/models/{m}/image, docs/image.md). The request pipeline has it (pipeline/images.ts); without it the route
   * answers UNSUPPORTED. Throws RtError.
   */
  inferImage?(request: ImageRequest): Promise<ImageResult>;
  /**
   * Optional: a request a front-end worker refused itself, by the model's config mirrored from the owner
   * (docs/workers.md), is counted where every other is: a failure of the model version it addressed.
   */
  recordRefusal?(name: string, version: string | undefined, protocol: string, error: { readonly code: string; readonly category: string }): void;
  /** Labels of an output (from its config `label_filename`), for the classification extension. */
  outputLabels(name: string, version: string, output: string): readonly string[] | undefined;
  /**
   * Optional: the input that a model version's engine fills from encoded frames on its own device (tensor/frames.ts),
   * or undefined when it takes tensors only; the image layer then sends such a model its JPEGs undecoded.
   */
  frameInputOf?(name: string, version?: string): string | undefined;
  /**
   * Triton's system shared memory extension (register / unregister / status of regions; docs/shared-memory.md).
   * Undefined when the server has it turned off (server setting `allowClientShm`, off by default).
   */
  readonly systemSharedMemory?: SystemSharedMemoryApi;
}
