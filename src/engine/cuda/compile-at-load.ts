/**
 * ONNX models compiled to CUDA plans when they load (docs/cuda-engine.md "Compiled at load"). The CUDA engine hands
 * the model to the compiler that the CLI wires in (`rtserve build --target cuda` as a function: the engine layer
 * never imports the compiler), keeps the plan in a cache directory under a key of the model's bytes, the GPU and
 * the tool versions, and serves it on the native engine. Whatever stops that (no addon or GPU, no compiler, a
 * failed compile or accuracy check, a cached or fresh plan that does not load) is thrown with its reason: the
 * engine logs it and serves the model on its fallback engine.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rtError } from '../../errors/registry.ts';
import type { CudaDeviceInfo } from '../../plan/cuda-network.ts';
import { isPlanBytes, readPlan } from '../../plan/format.ts';
import type { Logger } from '../../observability/logger.ts';
import { RTSERVE_VERSION } from '../../util/version.ts';
import type { EngineLoadOptions } from '../engine.ts';
import { loadCudaAddon } from './addon.ts';

export interface CudaCompileJob {
  readonly modelPath: string;
  /** The model's max_batch_size: the plan gets programs up to it (0: the model's own static shape). */
  readonly maxBatchSize: number;
  /** The GPU ordinal the instance will run on. */
  readonly device: number;
}

/** Compiles an ONNX model file into plan file bytes (what `rtserve build --target cuda -o X.plan` writes). */
export type CudaPlanCompiler = (job: CudaCompileJob) => Promise<Uint8Array>;

export interface CompileAtLoadOptions {
  /** Undefined where nothing wired a compiler in (the library without the CLI): every compile is refused. */
  readonly compiler?: CudaPlanCompiler | undefined;
  /** The server's cudaCompileOnnx: compile every ONNX model that may run on a GPU, not only those asking for it. */
  readonly all: boolean;
  /** Plan cache directory; default rtserve-cuda-plans in the OS temporary directory. */
  readonly cacheDir?: string;
  readonly logger?: Logger;
}

/** What a cached plan was made from: a plan is reused only for the same model bytes, GPU, libraries and tools. */
export interface PlanCacheKeyParts {
  readonly modelSha256: string;
  readonly device: CudaDeviceInfo;
  readonly maxBatchSize: number;
  readonly rtserveVersion: string;
  readonly addonAbi: string;
}

/**
 * The cache key: SHA-256 of the model's hash, the GPU's name and compute capability, the CUDA runtime, cuDNN and
 * cuBLASLt versions the tactics were timed with, the batch range and rtserve's and the addon's versions. The
 * driver is not part of it (plans hold compiled kernels, which a newer driver runs).
 */
export function cudaPlanCacheKey(p: PlanCacheKeyParts): string {
  const d = p.device;
  const identity = [p.modelSha256, d.name, d.cc.join('.'), d.cudaRuntime, d.cudnn, d.cublasLt, p.maxBatchSize, p.rtserveVersion, p.addonAbi];
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex');
}

export function defaultPlanCacheDir(): string {
  return join(tmpdir(), 'rtserve-cuda-plans');
}

/** Whether this load is one to compile: an ONNX model (not a plan file) whose config or server asks for it. */
export function wantsCudaCompile(bytes: Uint8Array, loadOptions: EngineLoadOptions, options: CompileAtLoadOptions): boolean {
  const request = loadOptions.cudaCompile;
  return request !== undefined && (request.requested || options.all) && !isPlanBytes(bytes);
}

export interface CompiledPlan {
  /** The plan's payload (the CUDA network as an ONNX model), what loadCudaSession takes. */
  readonly payload: Uint8Array;
  readonly key: string;
  readonly path: string;
  readonly fromCache: boolean;
  readonly compileMs: number;
}

/** The model's CUDA plan for the instance's GPU: from the cache, else compiled and stored there. */
export async function compiledCudaPlan(
  modelPath: string,
  bytes: Uint8Array,
  loadOptions: EngineLoadOptions,
  options: CompileAtLoadOptions,
): Promise<CompiledPlan> {
  const status = loadCudaAddon();
  if (!status.available) throw rtError('ENGINE_UNAVAILABLE', `the native CUDA engine is unavailable here: ${status.reason}`);
  const device = loadOptions.device ?? 0;
  const info = status.devices[device];
  if (info === undefined) throw rtError('ENGINE_UNAVAILABLE', `no GPU ${device} (${status.devices.length} visible)`);
  const compiler = options.compiler;
  if (compiler === undefined) throw rtError('ENGINE_UNAVAILABLE', 'no CUDA compiler is wired into this process (`rtserve serve` wires one in)');
  const maxBatchSize = loadOptions.cudaCompile?.maxBatchSize ?? 0;
  const key = cudaPlanCacheKey({
    modelSha256: createHash('sha256').update(bytes).digest('hex'),
    device: info,
    maxBatchSize,
    rtserveVersion: RTSERVE_VERSION,
    addonAbi: status.addon.abiVersion,
  });
  const dir = options.cacheDir === undefined || options.cacheDir === '' ? defaultPlanCacheDir() : options.cacheDir;
  const path = join(dir, `${key}.plan`);
  const cached = await readCachedPlan(path, options.logger);
  if (cached !== undefined) return { payload: cached, key, path, fromCache: true, compileMs: 0 };
  const started = performance.now();
  const plan = await compiler({ modelPath, maxBatchSize, device });
  const payload = readPlan(plan, { name: `the plan compiled from ${modelPath}` }).payload;
  await mkdir(dir, { recursive: true });
  // Another process may compile the same model at the same time: each writes its own file, the rename is atomic.
  const partial = `${path}.${process.pid}.${Date.now()}.partial`;
  await writeFile(partial, plan);
  await rename(partial, path);
  return { payload, key, path, fromCache: false, compileMs: Math.round(performance.now() - started) };
}

/** A cached plan's payload; undefined when there is none, or when it is corrupt (then it is removed). */
async function readCachedPlan(path: string, logger: Logger | undefined): Promise<Uint8Array | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch {
    return undefined;
  }
  try {
    return readPlan(bytes, { name: path }).payload;
  } catch (err) {
    logger?.warn({ path, err: err instanceof Error ? err.message : String(err) }, 'cached CUDA plan unreadable; compiling again');
    await rm(path, { force: true });
    return undefined;
  }
}
