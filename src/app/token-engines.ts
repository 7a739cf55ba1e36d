/**
 * The device decoders of generative Hugging Face checkpoints (`generate.engine`, docs/generate.md): made by a
 * TokenEngine factory (the CUDA decoder's, src/engine/cuda/llm-engine.ts) when the repository loads a version,
 * kept with the version (repository/device-decoder.ts), and handed to the generation service, whose paged
 * scheduler drives them. Without a factory (no CUDA addon or no GPU), `auto` serves the ONNX graph and `cuda`
 * fails the load.
 */
import type { BatcherLimits } from '../generate/continuous-batcher.ts';
import type { TokenEngine } from '../generate/token-engine.ts';
import { rtError, toRtError } from '../errors/registry.ts';
import type { Logger } from '../observability/logger.ts';
import type { DeviceDecoder, DeviceDecoderFactory } from '../repository/device-decoder.ts';

/** What a TokenEngine factory is asked for; the geometry it answers with (TokenEngine.geometry) is what it made. */
export interface TokenEngineOptions {
  readonly blockTokens: number;
  /** KV blocks to allocate; 0 = as many as free device memory holds. */
  readonly totalBlocks: number;
  readonly maxRows: number;
  readonly maxStepTokens: number;
  readonly maxContext: number;
}

export type TokenEngineFactory = (
  checkpointDir: string,
  arch: Parameters<DeviceDecoderFactory>[1],
  options: TokenEngineOptions,
) => Promise<TokenEngine>;

export class DeviceTokenEngines {
  private readonly engines = new WeakMap<DeviceDecoder, TokenEngine>();

  constructor(
    private readonly create: TokenEngineFactory | undefined,
    private readonly limits: BatcherLimits,
    private readonly logger: Logger,
  ) {}

  /** The repository's hook: a TokenEngine for versions whose generate.engine is `cuda`, or `auto` when one can be made. */
  readonly factory: DeviceDecoderFactory = async (dir, arch, config) => {
    const g = config.generate;
    if (g === undefined || (g.engine !== 'cuda' && g.engine !== 'auto')) return undefined;
    if (this.create === undefined) {
      if (g.engine === 'auto') return undefined;
      throw rtError('ENGINE_UNAVAILABLE', `model '${config.name}': generate.engine 'cuda' needs the CUDA addon and a GPU`);
    }
    const options: TokenEngineOptions = {
      blockTokens: g.kv_cache.block_tokens,
      totalBlocks: g.kv_cache.blocks,
      maxRows: this.limits.maxSequences,
      maxStepTokens: g.kv_cache.max_step_tokens > 0 ? g.kv_cache.max_step_tokens : this.limits.maxPrefillTokens,
      maxContext: g.max_context,
    };
    try {
      const engine = await this.create(dir, arch, options);
      this.engines.set(engine, engine);
      return engine;
    } catch (err) {
      if (g.engine === 'cuda') throw err;
      const e = toRtError(err);
      this.logger.warn(
        { model: config.name, code: e.code, err: e.message },
        'generate.engine auto: the CUDA decoder did not load; serving the ONNX graph',
      );
      return undefined;
    }
  };

  /** The TokenEngine of a loaded version, when it has one. */
  of(v: { readonly deviceDecoder?: DeviceDecoder | undefined }): TokenEngine | undefined {
    return v.deviceDecoder === undefined ? undefined : this.engines.get(v.deviceDecoder);
  }
}
