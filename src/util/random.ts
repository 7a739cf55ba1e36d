/**
 * mulberry32: a small, fast 32-bit PRNG with good statistical quality, reproducible from a seed; floats in [0, 1).
 * The one implementation behind generated model weights (models/generate.ts), sampling (src/generate), benchmark
 * inputs (src/bench) and synthetic calibration data (src/compiler); `normal`/`randn` below are the one normal sampler.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One standard-normal sample from two draws of `rand` (Box–Muller, cosine branch; the first draw kept above 0). */
export function normal(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/** `n` normal samples `offset + scale * normal(rand)`, as FP32. */
export function randn(rand: () => number, n: number, scale = 1, offset = 0): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = offset + scale * normal(rand);
  return out;
}
