/**
 * The compiler `rtserve serve` hands the CUDA engine for ONNX models compiled at load (docs/cuda-engine.md
 * "Compiled at load"): `rtserve build --target cuda --precision fp16` with its default passes and accuracy gates
 * (checked against onnxruntime FP32 in this process), batch programs for 1, 2, 4, ... up to the model's
 * max_batch_size. Loaded on the first compile only: a server that compiles nothing never imports the compiler.
 */
import type { CudaCompileJob } from '../engine/cuda/compile-at-load.ts';

/** Batch sizes a plan compiled at load gets programs for: powers of two below max_batch_size, and it. */
export function compileBatches(maxBatchSize: number): number[] | undefined {
  if (maxBatchSize <= 0) return undefined; // no batch dimension: the model's own static shape
  const batches: number[] = [];
  for (let b = 1; b < maxBatchSize; b *= 2) batches.push(b);
  batches.push(maxBatchSize);
  return batches;
}

/** Compiles the job's ONNX model into a CUDA plan file for the GPU the addon tunes on. */
export async function compileCudaPlan(job: CudaCompileJob): Promise<Uint8Array> {
  const [{ buildCudaPlan }, { cudaBuildDeps }, { createOfflineRunner }] = await Promise.all([
    import('../compiler/cuda/build-cuda.ts'),
    import('../engine/cuda/tuner.ts'),
    import('../engine/ort/offline-runner.ts'),
  ]);
  const runtime = createOfflineRunner();
  const batches = compileBatches(job.maxBatchSize);
  const result = await buildCudaPlan({ model: job.modelPath, target: 'cuda', precision: 'fp16', runtime }, () => undefined, {
    ...cudaBuildDeps(runtime),
    ...(batches === undefined ? {} : { batches }),
  });
  return result.plan;
}
