/** max |a - b| / max |b| over the first a.length elements (Infinity when either side is not finite): the CUDA benches' error. */
export function relMaxError(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0;
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (!Number.isFinite(x) || !Number.isFinite(y)) return Number.POSITIVE_INFINITY;
    d = Math.max(d, Math.abs(x - y));
    m = Math.max(m, Math.abs(y));
  }
  return d / Math.max(m, 1e-12);
}
