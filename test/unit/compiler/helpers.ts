/**
 * Shared helpers for the compiler tests: a seeded PRNG, random feeds for a graph, and running a graph through
 * the offline onnxruntime runner with onnxruntime's own optimizations off (so a test checks our rewrite, not
 * onnxruntime's).
 */
import assert from 'node:assert/strict';
import { DT } from '../../../src/tensor/onnx-dtype.ts';
import { saveModel, type Graph } from '../../../src/compiler/ir/graph.ts';
import type { Feeds, HostTensor, Outputs } from '../../../src/plan/runtime.ts';
import { createOfflineRunner } from '../../../src/engine/ort/offline-runner.ts';
import { mulberry32, randn } from '../../../src/util/random.ts';

export const runtime = createOfflineRunner();

/** mulberry32: small, fast, seeded. */
export const rng = mulberry32;

/** Seeded normal samples (src/util/random.ts). */
export { randn };

/** An FP32 initializer of seeded normal values (mean `offset`, standard deviation `scale`). */
export function f32(rand: () => number, dims: number[], scale = 1, offset = 0) {
  const count = dims.reduce((a, b) => a * b, 1);
  return { elemType: DT.FLOAT, dims, data: randn(rand, count, scale, offset) };
}

export function floatT(data: Float32Array, dims: readonly number[]): HostTensor {
  return { elemType: DT.FLOAT, dims, data };
}

/** Random float feeds for every graph input, symbolic dims set to `dynamicDim`. */
export function randomFeeds(g: Graph, seed: number, dynamicDim = 2): Feeds {
  const rand = rng(seed);
  const feeds: Record<string, HostTensor> = {};
  for (const i of g.inputs) {
    const dims = (i.type.shape ?? []).map((d) => (typeof d === 'number' ? d : dynamicDim));
    const n = dims.reduce((a, b) => a * b, 1);
    feeds[i.name] = floatT(randn(rand, n), dims);
  }
  return feeds;
}

export async function runBytes(model: Uint8Array, feeds: Feeds, level: 'disabled' | 'all' = 'disabled'): Promise<Outputs> {
  const s = await runtime.createSession(model, { target: 'ort-cpu', optimizationLevel: level });
  try {
    return await s.run(feeds);
  } finally {
    await s.release();
  }
}

export function runGraph(g: Graph, feeds: Feeds, level: 'disabled' | 'all' = 'disabled'): Promise<Outputs> {
  return runBytes(saveModel(g), feeds, level);
}

export function assertAllClose(actual: HostTensor | undefined, expected: HostTensor | undefined, atol = 1e-4, rtol = 1e-4): void {
  assert.ok(actual !== undefined && expected !== undefined, 'both outputs exist');
  assert.deepEqual([...actual.dims], [...expected.dims], 'same shape');
  const a = actual.data as Float32Array;
  const e = expected.data as Float32Array;
  let worst = 0;
  let at = -1;
  for (let i = 0; i < e.length; i++) {
    const err = Math.abs((a[i] ?? 0) - (e[i] ?? 0)) - rtol * Math.abs(e[i] ?? 0);
    if (err > worst) {
      worst = err;
      at = i;
    }
  }
  assert.ok(worst <= atol, `max error ${worst} > ${atol} at ${at}: got ${a[at]}, expected ${e[at]}`);
}

/** Checks that `after` computes the same outputs as `before` on random inputs (both run without ORT rewrites). */
export async function assertEquivalent(before: Uint8Array, after: Graph, seed = 1, atol = 1e-4, dynamicDim = 2): Promise<void> {
  const feeds = randomFeeds(after, seed, dynamicDim);
  const ref = await runBytes(before, feeds);
  const got = await runGraph(after, feeds);
  for (const o of after.outputs) assertAllClose(got[o.name], ref[o.name], atol);
}

export function opTypes(g: Graph): string[] {
  return g.nodes.map((n) => n.opType);
}
