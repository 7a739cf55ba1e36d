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
import type { InferenceApi, ModelMetadata } from '../api/inference-api.ts';
import type { GenerateService } from '../generate/generate-service.ts';
import type { ImageDecoding } from '../preprocess/frame-batcher.ts';
import type { SharedMemoryManager } from '../shm/system-shared-memory.ts';
import { ClassificationLayer } from './classification.ts';
import { DelegatingApi } from './delegating-api.ts';
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

export class RequestPipeline extends DelegatingApi {
  readonly infer: InferFn;
  readonly inferStream: StreamFn;
  readonly inferImage: ImageFn;
  /** The registry of regions; absent when the extension is off. */
  readonly systemSharedMemory?: SharedMemoryManager;
  private readonly generation: GenerationLayer;

  constructor(core: InferenceApi, options: RequestPipelineOptions) {
    super(core);
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

  /** A generative model shows its text interface (generation.ts). */
  override modelMetadata(name: string, version?: string): ModelMetadata {
    return this.generation.metadata(this.inner.modelMetadata(name, version), name, version);
  }
}
