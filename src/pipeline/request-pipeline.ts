/**
 * The one request pipeline: the InferenceApi every front end (REST, gRPC, WebSocket, SSE, the OpenAI routes)
 * receives, its layers (layer.ts) folded once around the core. From the outside in:
 *
 *   limits          inputs per request and elements per tensor, before anything else is done (limits.ts)
 *   shared memory   inputs read from, outputs written to, system shared memory regions (shared-memory.ts)
 *   classification  top-N of outputs that ask for it (classification.ts)
 *   images          an encoded image or raw frame runs through the model's image pipeline (images.ts)
 *   generation      generative models through continuous batching (generation.ts)
 *   core            validation, scheduling, engines (src/core)
 *
 * POST /v2/models/{m}/image (`inferImage`) enters at the image layer and runs its model call through the whole
 * pipeline, as the tensor it decoded were any request. Every other method is the core's.
 */
import type { InferenceApi, LoadModelOptions, ModelMetadata, RepositoryIndexEntry, ServerMetadata } from '../api/inference-api.ts';
import type { ModelConfig } from '../config/model-config.ts';
import type { GenerateService } from '../generate/generate-service.ts';
import type { ModelStatsSnapshot } from '../observability/model-stats.ts';
import type { ImageDecoding } from '../preprocess/frame-batcher.ts';
import type { SharedMemoryManager } from '../shm/system-shared-memory.ts';
import { ClassificationLayer } from './classification.ts';
import { GenerationLayer } from './generation.ts';
import { ImageLayer, type ImageFn } from './images.ts';
import { compose, type InferFn, type StreamFn } from './layer.ts';
import { RequestLimitsLayer, type TensorLimits } from './limits.ts';
import { SharedMemoryLayer } from './shared-memory.ts';

export interface RequestPipelineOptions {
  readonly generate: GenerateService;
  /** Undefined: system shared memory is off (registration refused, no request may name a region). */
  readonly sharedMemory: SharedMemoryManager | undefined;
  readonly limits: TensorLimits;
  /** Images decoded on a device (the GPU frame batcher); undefined: on the CPU. */
  readonly imageDecoding?: ImageDecoding | undefined;
}

export class RequestPipeline implements InferenceApi {
  readonly infer: InferFn;
  readonly inferStream: StreamFn;
  readonly inferImage: ImageFn;
  /** The registry of regions; absent when the extension is off. */
  readonly systemSharedMemory?: SharedMemoryManager;
  private readonly generation: GenerationLayer;

  constructor(
    private readonly core: InferenceApi,
    options: RequestPipelineOptions,
  ) {
    this.generation = new GenerationLayer(options.generate);
    const images = new ImageLayer(core, options.imageDecoding);
    const calls = compose(
      [new RequestLimitsLayer(options.limits), new SharedMemoryLayer(options.sharedMemory), new ClassificationLayer(core), images, this.generation],
      core,
    );
    this.infer = calls.infer;
    this.inferStream = calls.stream;
    this.inferImage = images.image(calls.infer);
    if (options.sharedMemory !== undefined) this.systemSharedMemory = options.sharedMemory;
  }

  isLive(): boolean {
    return this.core.isLive();
  }
  isReady(): boolean {
    return this.core.isReady();
  }
  serverMetadata(): ServerMetadata {
    return this.core.serverMetadata();
  }
  /** A generative model shows its text interface (generation.ts). */
  modelMetadata(name: string, version?: string): ModelMetadata {
    return this.generation.metadata(this.core.modelMetadata(name, version), name, version);
  }
  modelReady(name: string, version?: string): boolean {
    return this.core.modelReady(name, version);
  }
  modelConfig(name: string, version?: string): ModelConfig {
    return this.core.modelConfig(name, version);
  }
  modelStatistics(name?: string, version?: string): ModelStatsSnapshot[] | Promise<ModelStatsSnapshot[]> {
    return this.core.modelStatistics(name, version);
  }
  repositoryIndex(readyOnly?: boolean): RepositoryIndexEntry[] {
    return this.core.repositoryIndex(readyOnly);
  }
  loadModel(name: string, options?: LoadModelOptions): Promise<void> {
    return this.core.loadModel(name, options);
  }
  unloadModel(name: string): Promise<void> {
    return this.core.unloadModel(name);
  }
  outputLabels(name: string, version: string, output: string): readonly string[] | undefined {
    return this.core.outputLabels(name, version, output);
  }
  frameInputOf(name: string, version?: string): string | undefined {
    return this.core.frameInputOf?.(name, version);
  }
  recordRefusal(name: string, version: string | undefined, protocol: string, error: { readonly code: string; readonly category: string }): void {
    this.core.recordRefusal?.(name, version, protocol, error);
  }
}
