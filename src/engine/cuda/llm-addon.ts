import { type CudaAddon, loadCudaAddon } from './addon.ts';

/** Opaque handle of one native decoder (native/src/llm/llm-addon.cu). */
export interface NativeLlmHandle {
  readonly __rtcudaLlm: never;
}

/** Checkpoint dtypes as the addon numbers them (native/src/llm/llm-kernels.cuh `Dtype`). */
export const LLM_DTYPE = { F16: 0, BF16: 1, F32: 2 } as const;

/** The LLM decoder's part of the addon (issue #31); builds before it lack these functions. */
export interface CudaLlmAddon {
  /** Allocates the weights of the decoder `configJson` describes (llm-config.ts) on `device` (default 0). */
  llmCreate(configJson: string, device?: number): Promise<NativeLlmHandle>;
  /** Converts one checkpoint tensor (rows x cols of dtype, transposed when asked) into a weight slot at an element offset. */
  llmUpload(
    handle: NativeLlmHandle,
    slot: string,
    elemOffset: number,
    dtype: number,
    rows: number,
    cols: number,
    transpose: boolean,
    bytes: Uint8Array,
  ): Promise<void>;
  /** KV blocks from free memory, step buffers, CUDA graphs; resolves with the geometry as JSON. */
  llmFinish(handle: NativeLlmHandle): Promise<string>;
  /** One step (llm-step.ts packs `meta` and `params`); the sampled ids land in `out`. */
  llmStep(handle: NativeLlmHandle, meta: Int32Array, params: Float32Array, out: Int32Array): Promise<void>;
  llmCopyBlocks(handle: NativeLlmHandle, from: Int32Array, to: Int32Array): Promise<void>;
  /** The next `steps` steps run uncaptured with CUDA events between phases; llmDescribe reports ms per phase. */
  llmProfile(handle: NativeLlmHandle, steps: number): void;
  llmDescribe(handle: NativeLlmHandle): string;
  llmDestroy(handle: NativeLlmHandle): void;
}

export type CudaLlmAddonStatus =
  | { readonly available: true; readonly addon: CudaLlmAddon; readonly path: string }
  | { readonly available: false; readonly reason: string };

/** The addon's decoder functions, or why there are none here (no addon, no GPU, or an addon built before #31). */
export function loadLlmAddon(): CudaLlmAddonStatus {
  const s = loadCudaAddon();
  if (!s.available) return s;
  const addon = s.addon as CudaAddon & Partial<CudaLlmAddon>;
  if (typeof addon.llmCreate !== 'function') {
    return { available: false, reason: `the native CUDA engine at ${s.path} has no LLM decoder: rebuild it with native/build.sh` };
  }
  return { available: true, addon: addon as CudaAddon & CudaLlmAddon, path: s.path };
}
