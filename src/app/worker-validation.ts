/**
 * A front-end worker refuses a bad inference request itself (docs/workers.md), from the model configs the owner
 * mirrors to it, so that a malformed request costs the engine owner's loop nothing: the same checks, in the same
 * order, as the owner's pipeline runs on a request that reaches its core unchanged (the tensor limits first, then the
 * core's validation). Requests the pipeline changes on the way, or whose answer the worker cannot know, go to the
 * owner as before: those naming shared memory regions, image requests, requests of generative models, a model
 * version the mirror does not show ready. The owner validates every request it gets all the same.
 */
import type { InferRequest } from '../api/types.ts';
import type { ModelConfig } from '../config/model-config.ts';
import { validateRequest } from '../core/validate.ts';
import { imageRequestKind } from '../pipeline/image-tensors.ts';
import type { TensorLimits } from '../pipeline/limits.ts';
import { usesSharedMemory } from '../pipeline/shared-memory.ts';
import { ioMetadataOf, type ModelIoMetadata } from '../repository/model-metadata.ts';
import { checkTensorLimits } from '../security/limits.ts';
import { toRtError, type RtError } from '../errors/registry.ts';
import type { RequestCheck, RequestCheckOf } from '../cluster/remote-api.ts';

/** The error `f` throws, if any. */
function refusal(f: () => unknown): RtError | undefined {
  try {
    f();
    return undefined;
  } catch (err) {
    return toRtError(err);
  }
}

/** The ready model's config, when the worker may judge a request of it; undefined: the owner judges. */
function judgedConfig(configs: Parameters<RequestCheckOf>[0], request: InferRequest): ModelConfig | undefined {
  let config: ModelConfig;
  try {
    if (!configs.modelReady(request.model, request.version)) return undefined;
    config = configs.modelConfig(request.model, request.version);
  } catch {
    // Unknown model or version: the owner's answer names what it has.
    return undefined;
  }
  return config.generate !== undefined || imageRequestKind(configs, request) !== undefined ? undefined : config;
}

export function workerRequestCheck(limits: TensorLimits): RequestCheckOf {
  return (configs) => {
    // Built once per config object: a new snapshot brings new objects, so a reloaded model gets its new checks.
    const metadata = new WeakMap<ModelConfig, ModelIoMetadata>();
    const metadataOf = (request: InferRequest, config: ModelConfig): ModelIoMetadata => {
      let meta = metadata.get(config);
      if (meta === undefined) {
        meta = ioMetadataOf(request.model, request.version ?? '', config);
        metadata.set(config, meta);
      }
      return meta;
    };
    const check: RequestCheck = (request: InferRequest) => {
      if (request.frames !== undefined || usesSharedMemory(request)) return undefined;
      // The owner's first layer (pipeline/limits.ts), before it looks at the model: not a failure of the model.
      const overLimit = refusal(() => checkTensorLimits(request.inputs, limits));
      if (overLimit !== undefined) return { error: overLimit, counted: false };
      const config = judgedConfig(configs, request);
      if (config === undefined) return undefined;
      const invalid = refusal(() => validateRequest(request, metadataOf(request, config), 0n));
      return invalid === undefined ? undefined : { error: invalid, counted: true };
    };
    return check;
  };
}
