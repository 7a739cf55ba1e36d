/**
 * A decoder that a device engine builds from a Hugging Face checkpoint when the version loads (the CUDA decoder,
 * src/engine/cuda/llm-engine.ts), beside the ONNX graph the version serves otherwise. The repository keeps it with
 * the version and closes it with the version; what it is (a TokenEngine, src/generate/token-engine.ts) is for the
 * composition (src/app) and the generation service, which drive it.
 */
import type { ModelConfig } from '../config/model-config.ts';
import type { DecoderArch } from '../hf/hf-config.ts';

export interface DeviceDecoder {
  close(): Promise<void>;
}

/** Builds the device decoder of a checkpoint version, or undefined when this model does not get one. */
export type DeviceDecoderFactory = (checkpointDir: string, arch: DecoderArch, config: ModelConfig) => Promise<DeviceDecoder | undefined>;

/**
 * The loaded version with its device decoder (when the factory makes one). A factory failure fails the load: the
 * version's sessions are closed through `discard`.
 */
export async function withDeviceDecoder<V extends { deviceDecoder?: DeviceDecoder | undefined }>(
  loaded: V,
  factory: DeviceDecoderFactory | undefined,
  checkpoint: { readonly dir: string; readonly arch: DecoderArch; readonly config: ModelConfig },
  discard: (v: V) => Promise<void>,
): Promise<V> {
  if (factory === undefined) return loaded;
  try {
    const decoder = await factory(checkpoint.dir, checkpoint.arch, checkpoint.config);
    return decoder === undefined ? loaded : Object.assign(loaded, { deviceDecoder: decoder });
  } catch (err) {
    await discard(loaded);
    throw err;
  }
}
