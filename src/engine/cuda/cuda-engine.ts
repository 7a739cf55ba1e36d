import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { rtError } from '../../errors/registry.ts';
import type { PlanRuntime } from '../../plan/compatibility.ts';
import type { Engine, EngineLoadOptions, EngineSession, ExecutionProviderSpec } from '../engine.ts';
import { loadCudaAddon } from './addon.ts';
import { CudaSession } from './cuda-session.ts';
import { decodeCudaPayload, looksLikeCudaPayload } from './payload.ts';

export interface CudaEngineOptions {
  /** Loads everything that is not a CUDA plan payload (ONNX models, ort-* plans): normally the onnxruntime engine. */
  readonly fallback?: Engine;
}

/** Loads a CUDA plan payload into a session (the addon must be available). */
export async function loadCudaSession(bytes: Uint8Array, what = 'the plan'): Promise<CudaSession> {
  const payload = decodeCudaPayload(bytes, what);
  if (payload === undefined) throw rtError('BAD_CONFIG', `${what} is not a CUDA plan payload (build one with \`rtserve build --target cuda\`)`);
  const status = loadCudaAddon();
  if (!status.available) throw rtError('ENGINE_UNAVAILABLE', `${what} needs the native CUDA engine, which is unavailable here: ${status.reason}`);
  return CudaSession.create(status.addon, status.device, payload, what);
}

/**
 * The native CUDA engine behind the Engine contract. Plans built with `--target cuda` run here; anything else
 * goes to the fallback engine, so one server serves CUDA plans and onnxruntime models side by side through the
 * same batcher and front ends.
 */
export function createCudaEngine(options: CudaEngineOptions = {}): Engine {
  const fallback = options.fallback;
  return {
    name: fallback === undefined ? 'cuda' : `cuda+${fallback.name}`,
    async load(modelPath: string, loadOptions: EngineLoadOptions): Promise<EngineSession> {
      const bytes = new Uint8Array(await readFile(modelPath));
      if (looksLikeCudaPayload(bytes) && decodeCudaPayload(bytes, basename(modelPath)) !== undefined) {
        return loadCudaSession(bytes, basename(modelPath));
      }
      if (fallback !== undefined) return fallback.load(modelPath, loadOptions);
      throw rtError(
        'ENGINE_UNAVAILABLE',
        `${basename(modelPath)} is not a CUDA plan: the CUDA engine runs plans built with \`rtserve build --target cuda\``,
      );
    },
    planRuntime(providers: readonly ExecutionProviderSpec[]): PlanRuntime {
      const base: PlanRuntime = fallback?.planRuntime?.(providers) ?? { targets: [], runtime: null };
      // 'cuda' is always offered: when the addon or the GPU is missing, load() says exactly why.
      return { ...base, targets: [...new Set([...base.targets, 'cuda' as const])] };
    },
  };
}
