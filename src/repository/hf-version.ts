/**
 * Model versions that are Hugging Face checkpoints (docs/huggingface.md): detected by their files (config.json
 * plus safetensors), built into an ONNX decoder by src/hf at load, and checked against the model's config.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelConfig } from '../config/model-config.ts';
import { rtError } from '../errors/registry.ts';
import { HF_BACKEND, isHfCheckpoint, loadHfDecoder, type HfDecoder } from '../hf/checkpoint.ts';
import type { VersionEntry } from './scan.ts';

/** Where built decoders are kept between loads (content-addressed, like materialized plans). */
export const HF_CACHE_ROOT = join(tmpdir(), 'rtserve-hf');

export function isHfVersion(version: VersionEntry | undefined): version is VersionEntry {
  return version !== undefined && isHfCheckpoint(version.files.filter((f) => !f.isDirectory).map((f) => f.name));
}

export function loadHfVersion(version: VersionEntry): Promise<HfDecoder> {
  return loadHfDecoder(version.dir, { cacheRoot: HF_CACHE_ROOT });
}

/** A config that asks for the huggingface backend needs a checkpoint, and its context must fit the model's. */
export function checkHfVersion(name: string, config: ModelConfig, version: VersionEntry, hf: HfDecoder | undefined): void {
  if (hf === undefined) {
    if (config.backend === HF_BACKEND) {
      throw rtError(
        'BAD_CONFIG',
        `model '${name}': backend '${HF_BACKEND}' needs a Hugging Face checkpoint in version ${version.version} (config.json and model.safetensors or model.safetensors.index.json)`,
      );
    }
    return;
  }
  const context = config.generate?.max_context;
  if (context !== undefined && context > hf.arch.maxPositions) {
    throw rtError('BAD_CONFIG', `model '${name}': generate.max_context ${context} exceeds the checkpoint's ${hf.arch.maxPositions} positions`);
  }
}
