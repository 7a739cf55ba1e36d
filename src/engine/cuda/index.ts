/** The native CUDA engine's TypeScript side (docs/cuda-engine.md). Only this folder loads the addon. */
export { cudaAddonPath, loadCudaAddon, resetCudaAddonCache } from './addon.ts';
export type { CudaAddon, CudaAddonStatus, NativeEngineHandle } from './addon.ts';
export { createCudaEngine, loadCudaSession } from './cuda-engine.ts';
export type { CudaEngineOptions } from './cuda-engine.ts';
export { CudaSession } from './cuda-session.ts';
export type { CudaBenchResult, CudaEngineDescription } from './cuda-session.ts';
export { decodeCudaPayload, looksLikeCudaPayload } from './payload.ts';
export type { CudaPayload } from './payload.ts';
export { createCudaTuner, cudaAccuracyRuntime, cudaBuildDeps } from './tuner.ts';
