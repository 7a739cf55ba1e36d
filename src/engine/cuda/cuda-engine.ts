import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { rtError } from '../../errors/registry.ts';
import type { PlanRuntime } from '../../plan/compatibility.ts';
import { deviceEnv } from '../../config/device-env.ts';
import type { ImageSpec } from '../../config/image-spec.ts';
import type { Engine, EngineLoadOptions, EngineSession, ExecutionProviderSpec } from '../engine.ts';
import { loadCudaAddon } from './addon.ts';
import { compiledCudaPlan, wantsCudaCompile, type CompileAtLoadOptions } from './compile-at-load.ts';
import { CudaSession } from './cuda-session.ts';
import { decodeCudaPayload, looksLikeCudaPayload } from './payload.ts';

export interface CudaEngineOptions {
  /** Loads everything that is not a CUDA plan payload (ONNX models, ort-* plans): normally the onnxruntime engine. */
  readonly fallback?: Engine;
  /** ONNX models compiled to CUDA plans at load (compile-at-load.ts); without it they all go to the fallback. */
  readonly compileAtLoad?: CompileAtLoadOptions;
}

/**
 * Loads a CUDA plan payload into a session on GPU `device` (an ordinal among the devices this process sees; the
 * addon must be available). The plan is checked against that device.
 */
export async function loadCudaSession(bytes: Uint8Array, what = 'the plan', device = 0, image?: ImageSpec): Promise<CudaSession> {
  const payload = decodeCudaPayload(bytes, what);
  if (payload === undefined) throw rtError('BAD_CONFIG', `${what} is not a CUDA plan payload (build one with \`rtserve build --target cuda\`)`);
  const status = loadCudaAddon();
  if (!status.available) throw rtError('ENGINE_UNAVAILABLE', `${what} needs the native CUDA engine, which is unavailable here: ${status.reason}`);
  const info = status.devices[device];
  if (info === undefined) throw rtError('BAD_CONFIG', unknownGpu(what, device, status.devices.length));
  return CudaSession.create(status.addon, info, payload, what, device, image);
}

/** The message for an instance placed on a GPU this process does not see. */
function unknownGpu(what: string, device: number, visible: number): string {
  const mask = deviceEnv().cudaVisibleDevices;
  const seen = `${visible} GPU${visible === 1 ? '' : 's'} visible${mask === undefined ? '' : ` (CUDA_VISIBLE_DEVICES=${mask})`}`;
  return `${what}: instance_group places an instance on GPU ${device}, but this process has ${seen}: GPUs are numbered 0..${visible - 1}`;
}

/**
 * An ONNX model's session on its CUDA plan compiled at load; undefined when that failed and a fallback engine serves
 * the model instead (the reason is logged). Without a fallback the failure is the load's error.
 */
async function compiledSession(
  modelPath: string,
  bytes: Uint8Array,
  loadOptions: EngineLoadOptions,
  compile: CompileAtLoadOptions,
  hasFallback: boolean,
): Promise<EngineSession | undefined> {
  const log = compile.logger;
  try {
    const plan = await compiledCudaPlan(modelPath, bytes, loadOptions, compile);
    const session = await loadCudaSession(plan.payload, basename(modelPath), loadOptions.device ?? 0, loadOptions.image);
    log?.info({ modelPath, plan: plan.path, fromCache: plan.fromCache, compileMs: plan.compileMs }, 'ONNX model compiled to a CUDA plan at load');
    return session;
  } catch (err) {
    if (!hasFallback) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    log?.warn({ modelPath, reason }, 'CUDA compile at load failed; serving the model on the configured engine');
    return undefined;
  }
}

/**
 * The native CUDA engine behind the Engine contract. Plans built with `--target cuda` run here, and ONNX models
 * compiled at load where asked; anything else goes to the fallback engine, so one server serves CUDA plans and
 * onnxruntime models side by side through the same batcher and front ends.
 */
export function createCudaEngine(options: CudaEngineOptions = {}): Engine {
  const fallback = options.fallback;
  const compile = options.compileAtLoad;
  return {
    name: fallback === undefined ? 'cuda' : `cuda+${fallback.name}`,
    async load(modelPath: string, loadOptions: EngineLoadOptions): Promise<EngineSession> {
      const bytes = new Uint8Array(await readFile(modelPath));
      if (looksLikeCudaPayload(bytes) && decodeCudaPayload(bytes, basename(modelPath)) !== undefined) {
        return loadCudaSession(bytes, basename(modelPath), loadOptions.device ?? 0, loadOptions.image);
      }
      if (compile !== undefined && wantsCudaCompile(bytes, loadOptions, compile)) {
        const session = await compiledSession(modelPath, bytes, loadOptions, compile, fallback !== undefined);
        if (session !== undefined) return session;
      }
      if (fallback !== undefined) return fallback.load(modelPath, loadOptions);
      throw rtError(
        'ENGINE_UNAVAILABLE',
        `${basename(modelPath)} is not a CUDA plan: the CUDA engine runs plans built with \`rtserve build --target cuda\``,
      );
    },
    deviceCount(): number {
      const status = loadCudaAddon();
      return status.available ? status.devices.length : 0;
    },
    planRuntime(providers: readonly ExecutionProviderSpec[]): PlanRuntime {
      const base: PlanRuntime = fallback?.planRuntime?.(providers) ?? { targets: [], runtime: null };
      // 'cuda' is always offered: when the addon or the GPU is missing, load() says exactly why.
      return { ...base, targets: [...new Set([...base.targets, 'cuda' as const])] };
    },
  };
}
