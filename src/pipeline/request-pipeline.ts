/**
 * The one request pipeline: the InferenceApi every front end (REST, gRPC, WebSocket, SSE, the OpenAI routes)
 * receives, composed once around the core. From the outside in:
 *
 *   limits          inputs per request and elements per tensor, before anything else is done (limits.ts)
 *   shared memory   inputs read from, outputs written to, system shared memory regions (shared-memory.ts)
 *   classification  top-N of outputs that ask for it (classification.ts)
 *   images          an encoded image in a BYTES input runs through the model's image pipeline (images.ts)
 *   generation      generative models through continuous batching (generation.ts)
 *   core            validation, scheduling, engines (src/core)
 */
import type { InferenceApi } from '../api/inference-api.ts';
import type { InferRequest, InferResponse } from '../api/types.ts';
import type { GenerateService } from '../generate/generate-service.ts';
import type { RequestLimits } from '../security/limits.ts';
import type { SharedMemoryManager } from '../shm/system-shared-memory.ts';
import type { ImageDecoding } from '../preprocess/frame-batcher.ts';
import { withClassification } from './classification.ts';
import { withGeneration } from './generation.ts';
import { withImageRequests } from './images.ts';
import { withRequestLimits } from './limits.ts';
import { withSharedMemory } from './shared-memory.ts';

export interface RequestPipelineOptions {
  readonly generate: GenerateService;
  /** Undefined: system shared memory is off (registration refused, no request may name a region). */
  readonly sharedMemory: SharedMemoryManager | undefined;
  readonly limits: Pick<RequestLimits, 'maxInputsPerRequest' | 'maxElementsPerTensor'>;
  /** Images decoded on a device (the GPU frame batcher); undefined: on the CPU. */
  readonly imageDecoding?: ImageDecoding | undefined;
}

export function requestPipeline<T extends InferenceApi>(
  core: T,
  options: RequestPipelineOptions,
): T & { inferStream(request: InferRequest): AsyncIterable<InferResponse> } {
  return withRequestLimits(
    withSharedMemory(withClassification(withImageRequests(withGeneration(core, options.generate), options.imageDecoding)), options.sharedMemory),
    options.limits,
  );
}
