/**
 * Which loop decodes a model version (the config's `generate.engine`, docs/generate.md): the paged scheduler over
 * a device TokenEngine the model's loader made (the CUDA decoder), the paged scheduler over the host TokenEngine
 * (`onnx-paged`), or the continuous batcher over the ONNX session (`onnx`, and `auto` without a device engine).
 */
import type { GenerateSection } from '../config/model-config.ts';
import type { EngineSession } from '../engine/engine.ts';
import { rtError } from '../errors/registry.ts';
import type { Logger } from '../observability/logger.ts';
import type { GenerationBatcher } from './batcher.ts';
import { ContinuousBatcher, type BatcherLimits } from './continuous-batcher.ts';
import type { DecoderSpec } from './decoder-spec.ts';
import { HostTokenEngine, type HostEngineSizes } from './host-token-engine.ts';
import type { GenerateMetricsSink } from './metrics.ts';
import { PagedBatcher } from './paged-batcher.ts';
import type { TokenEngine } from './token-engine.ts';

export interface BatcherParts {
  readonly spec: DecoderSpec;
  readonly section: GenerateSection;
  readonly session: EngineSession;
  /** A device decoder made at load for this version (the CUDA decoder), when there is one. */
  readonly tokenEngine: TokenEngine | undefined;
  readonly limits: BatcherLimits;
  readonly metrics: GenerateMetricsSink | undefined;
  readonly logger: Logger | undefined;
}

/** The host engine's sizes from the config's kv_cache section, 0s filled in from the server's limits. */
export function hostEngineSizes(section: GenerateSection, limits: BatcherLimits): HostEngineSizes {
  const kv = section.kv_cache;
  return {
    blockTokens: kv.block_tokens,
    totalBlocks: kv.blocks > 0 ? kv.blocks : Math.ceil(limits.maxTokensInFlight / kv.block_tokens),
    maxRows: limits.maxSequences,
    maxStepTokens: kv.max_step_tokens > 0 ? kv.max_step_tokens : limits.maxPrefillTokens,
  };
}

export function createBatcher(p: BatcherParts): GenerationBatcher {
  const engine = p.section.engine;
  if (p.tokenEngine !== undefined && (engine === 'cuda' || engine === 'auto')) {
    return new PagedBatcher(p.spec, p.tokenEngine, p.limits, p.metrics, p.logger);
  }
  if (engine === 'cuda') {
    throw rtError('ENGINE_UNAVAILABLE', `model '${p.spec.model}': generate.engine 'cuda' needs a Hugging Face checkpoint, the CUDA addon and a GPU`);
  }
  if (engine === 'onnx-paged') {
    const host = new HostTokenEngine(p.spec, p.session, hostEngineSizes(p.section, p.limits));
    return new PagedBatcher(p.spec, host, p.limits, p.metrics, p.logger);
  }
  return new ContinuousBatcher(p.spec, p.session, p.limits, p.metrics, p.logger);
}
