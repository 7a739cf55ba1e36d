/**
 * mulberry32: a small, fast 32-bit PRNG with good statistical quality, reproducible from a seed; floats in [0, 1).
 * The one implementation behind generated model weights (models/generate.ts), sampling (src/generate), benchmark
 * inputs (src/bench) and synthetic calibration data (src/compiler).
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
