/**
 * The GPU decoder behind the TokenEngine seam (src/generate/token-engine.ts): a Hugging Face checkpoint directory
 * (Llama, Mistral, Qwen2, GPT-2; F32, F16 or BF16 safetensors, as src/hf reads them) loaded into the native engine's
 * LLM decoder (native/src/llm, docs/llm-gpu.md). Weights are streamed tensor by tensor: one tensor is in JS memory at
 * a time, converted to FP16 on the device. Every addon call runs off the event loop; steps run one at a time in call
 * order (a promise chain). Rows that break the geometry reject with BAD_REQUEST before anything reaches the device;
 * a device failure rejects with ENGINE_FAILED.
 */
import { join } from 'node:path';
import { rtError, toRtError } from '../../errors/registry.ts';
import type { StepRow, TokenEngine, TokenEngineGeometry } from '../token-engine.ts';
import { DEFAULT_MAX_CONTEXT, GENERATION_CONFIG_FILE, HF_CONFIG_FILE, readJsonFile } from '../../hf/checkpoint.ts';
import { decoderArchOf, type DecoderArch } from '../../hf/hf-config.ts';
import { SafetensorsCheckpoint } from '../../hf/safetensors.ts';
import { type CudaLlmAddon, LLM_DTYPE, loadLlmAddon, type NativeLlmHandle } from './llm-addon.ts';
import { packStep } from './llm-step.ts';
import { type LlmGeometryOptions, nativeConfigJson, type WeightUpload, weightUploads } from './llm-weights.ts';

export interface CudaTokenEngineOptions {
  /** CUDA device ordinal (default 0). */
  readonly device?: number;
  /** Tokens per KV block (default 16). */
  readonly blockTokens?: number;
  /** Rows of one step and sequences in flight (default 64). */
  readonly maxRows?: number;
  /** Tokens of one step (default 2048, at least maxRows). */
  readonly maxStepTokens?: number;
  /** Positions per sequence (default: max_position_embeddings, at most DEFAULT_MAX_CONTEXT). */
  readonly maxContext?: number;
  /** Share of the device memory free after weights and buffers that becomes KV blocks (default 0.9). */
  readonly kvMemoryFraction?: number;
  /** At most this many KV blocks (default: no cap). */
  readonly maxBlocks?: number;
  /** Decode-only steps replay a CUDA graph per batch bucket (default true). */
  readonly cudaGraphs?: boolean;
}

export interface CudaTokenEngineInfo {
  readonly geometry: TokenEngineGeometry;
  readonly weightBytes: number;
  readonly kvBytes: number;
  readonly graphBuckets: readonly number[];
}

function deviceError(what: string, err: unknown): Error {
  return rtError('ENGINE_FAILED', `CUDA decoder ${what}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}

function geometryOptions(arch: DecoderArch, o: CudaTokenEngineOptions): LlmGeometryOptions {
  const maxRows = o.maxRows ?? 64;
  return {
    blockTokens: o.blockTokens ?? 16,
    maxRows,
    maxStepTokens: Math.max(o.maxStepTokens ?? 2048, maxRows),
    maxContext: Math.min(arch.maxPositions, o.maxContext ?? DEFAULT_MAX_CONTEXT),
    kvMemoryFraction: o.kvMemoryFraction ?? 0.9,
    maxBlocks: o.maxBlocks ?? 0,
    cudaGraphs: o.cudaGraphs ?? true,
  };
}

/** One tensor at a time: read from its file, handed to the device, released before the next is read. */
async function uploadWeights(addon: CudaLlmAddon, handle: NativeLlmHandle, ckpt: SafetensorsCheckpoint, uploads: readonly WeightUpload[]) {
  for (const u of uploads) {
    const { dtype, bytes } = await ckpt.readRaw(u.name, u.shape);
    const rows = u.shape.length === 1 ? 1 : (u.shape[0] as number);
    const cols = u.shape.length === 1 ? (u.shape[0] as number) : (u.shape[1] as number);
    await addon.llmUpload(handle, u.slot, u.elemOffset, LLM_DTYPE[dtype], rows, cols, u.transpose, bytes);
  }
}

/** The geometry and sizes llmFinish answers with (native/src/llm/llm-model.cu geometryJson). */
function infoOf(json: string): CudaTokenEngineInfo {
  const g = JSON.parse(json) as TokenEngineGeometry & Omit<CudaTokenEngineInfo, 'geometry'>;
  const geometry: TokenEngineGeometry = {
    numLayers: g.numLayers,
    kvHeads: g.kvHeads,
    headDim: g.headDim,
    vocabSize: g.vocabSize,
    blockTokens: g.blockTokens,
    totalBlocks: g.totalBlocks,
    maxRows: g.maxRows,
    maxStepTokens: g.maxStepTokens,
    maxContext: g.maxContext,
  };
  return { geometry, weightBytes: g.weightBytes, kvBytes: g.kvBytes, graphBuckets: g.graphBuckets };
}

export class CudaTokenEngine implements TokenEngine {
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly addon: CudaLlmAddon,
    private readonly handle: NativeLlmHandle,
    readonly geometry: TokenEngineGeometry,
    readonly info: CudaTokenEngineInfo,
    readonly arch: DecoderArch,
  ) {}

  /** Loads the checkpoint in `dir` onto the GPU. FAILED_PRECONDITION (ENGINE_UNAVAILABLE) where there is no addon or GPU. */
  static async load(dir: string, options: CudaTokenEngineOptions = {}): Promise<CudaTokenEngine> {
    const status = loadLlmAddon();
    if (!status.available) throw rtError('ENGINE_UNAVAILABLE', `the CUDA decoder is not available: ${status.reason}`);
    const addon = status.addon;
    const config = await readJsonFile(join(dir, HF_CONFIG_FILE), HF_CONFIG_FILE, true);
    const arch = decoderArchOf(config, HF_CONFIG_FILE, await readJsonFile(join(dir, GENERATION_CONFIG_FILE), GENERATION_CONFIG_FILE, false));
    const ckpt = await SafetensorsCheckpoint.open(dir);
    const uploads = weightUploads(arch, ckpt);
    for (const u of uploads) ckpt.entry(u.name, u.shape);
    const json = nativeConfigJson(arch, config as Record<string, unknown>, geometryOptions(arch, options));
    let handle: NativeLlmHandle;
    try {
      handle = await addon.llmCreate(json, options.device ?? 0);
    } catch (err) {
      throw rtError('MODEL_LOAD_FAILED', `Hugging Face checkpoint ${dir}: ${(err as Error).message}`, { cause: err });
    }
    try {
      await uploadWeights(addon, handle, ckpt, uploads);
      const info = infoOf(await addon.llmFinish(handle));
      return new CudaTokenEngine(addon, handle, info.geometry, info, arch);
    } catch (err) {
      addon.llmDestroy(handle);
      const e = toRtError(err);
      throw e.category === 'INTERNAL' ? rtError('MODEL_LOAD_FAILED', `Hugging Face checkpoint ${dir}: ${(err as Error).message}`, { cause: err }) : e;
    }
  }

  step(rows: readonly StepRow[]): Promise<Int32Array> {
    if (this.closed) return Promise.reject(rtError('ENGINE_FAILED', 'the CUDA decoder is closed'));
    let packed: ReturnType<typeof packStep>;
    try {
      packed = packStep(rows, this.geometry);
    } catch (err) {
      return Promise.reject(err);
    }
    const out = new Int32Array(packed.rows);
    return this.enqueue(async () => {
      await this.addon.llmStep(this.handle, packed.meta, packed.params, out).catch((err: unknown) => {
        throw deviceError('step', err);
      });
      return out;
    });
  }

  copyBlocks(from: Int32Array, to: Int32Array): Promise<void> {
    if (this.closed) return Promise.reject(rtError('ENGINE_FAILED', 'the CUDA decoder is closed'));
    const n = this.geometry.totalBlocks;
    const bad = [...from, ...to].find((b) => !(b >= 0 && b < n));
    if (from.length !== to.length || bad !== undefined) {
      return Promise.reject(
        rtError('BAD_REQUEST', `copyBlocks: equal lengths and block ids in [0, ${n}) (got ${from.length}, ${to.length}, ${bad})`),
      );
    }
    return this.enqueue(() =>
      this.addon.llmCopyBlocks(this.handle, from, to).catch((err: unknown) => {
        throw deviceError('copyBlocks', err);
      }),
    );
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    return this.chain.then(
      () => this.addon.llmDestroy(this.handle),
      () => this.addon.llmDestroy(this.handle),
    );
  }

  /** Diagnostics: the next `steps` steps run uncaptured and timed per phase on the device (see describe()). */
  profileNext(steps: number): void {
    this.addon.llmProfile(this.handle, steps);
  }

  /** The native side's counters (steps, graph replays), geometry and the last profile (ms per step per phase). */
  describe(): unknown {
    return JSON.parse(this.addon.llmDescribe(this.handle)) as unknown;
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }
}

/** What the generation service asks a device decoder factory for (src/app/token-engines.ts `TokenEngineOptions`). */
export interface TokenEngineRequest {
  readonly blockTokens: number;
  /** KV blocks to allocate; 0 = as many as the free device memory holds. */
  readonly totalBlocks: number;
  readonly maxRows: number;
  readonly maxStepTokens: number;
  readonly maxContext: number;
}

/**
 * The CUDA decoder as a TokenEngine factory for the repository (the `tokenEngineFactory` of the server's start
 * options): the checkpoint directory and the architecture src/hf read from it, the geometry the service asks for.
 */
export function createCudaTokenEngine(dir: string, _arch: DecoderArch, o: TokenEngineRequest, device = 0): Promise<CudaTokenEngine> {
  return CudaTokenEngine.load(dir, {
    device,
    blockTokens: o.blockTokens,
    maxRows: o.maxRows,
    maxStepTokens: o.maxStepTokens,
    maxContext: o.maxContext,
    ...(o.totalBlocks > 0 ? { maxBlocks: o.totalBlocks } : {}),
  });
}
