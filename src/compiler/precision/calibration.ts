import { rtError } from '../../errors/registry.ts';
import type { CalibrationMethod, CalibrationTable, TensorRange } from '../../plan/manifest.ts';
import { DT, readNumber } from '../../tensor/onnx-dtype.ts';
import { saveModel, type Graph } from '../ir/graph.ts';
import { batches, type Dataset } from '../data/dataset.ts';
import type { PlanTarget } from '../../plan/manifest.ts';
import type { OfflineRuntime } from '../../plan/runtime.ts';

/**
 * Activation range calibration for INT8 (post-training static quantization).
 *
 * - minmax: the observed [min, max].
 * - percentile: clip |x| at the given percentile of its histogram (outliers saturate instead of stretching
 *   the scale), as onnxruntime's calibrate.py does.
 * - entropy: TensorRT's KL-divergence method (Migacz, "8-bit Inference with TensorRT", GTC 2017): choose the
 *   threshold whose quantized distribution loses the least information (KL(P‖Q)) with respect to the
 *   2048-bin histogram of |x|. Signed tensors are quantized with 128 levels per side; tensors that are never
 *   negative (after Relu) have all 256 UINT8 levels on [0, T], so Q uses 256 bins for them.
 */

export const HISTOGRAM_BINS = 2048;

export interface CalibrateOptions {
  readonly method: CalibrationMethod;
  /** For `percentile`, e.g. 99.999. */
  readonly percentile?: number;
  readonly batchSize?: number;
  readonly target: PlanTarget;
  readonly graphSha256: string;
  readonly onBatch?: (done: number, total: number) => void;
}

interface Stat {
  min: number;
  max: number;
  hist?: Float64Array;
}

/** A copy of the graph with every tensor in `tensors` exposed as an extra graph output. */
function probeModel(g: Graph, tensors: readonly string[]): Uint8Array {
  const probe = g.clone();
  for (const t of tensors) {
    // graph inputs are read from the feeds instead
    if (probe.isGraphOutput(t) || probe.initializers.has(t) || probe.isGraphInput(t)) continue;
    probe.outputs.push({ name: t, type: { elemType: DT.FLOAT, shape: null } });
  }
  return saveModel(probe);
}

async function runAll(
  runtime: OfflineRuntime,
  model: Uint8Array,
  g: Graph,
  tensors: readonly string[],
  data: Dataset,
  options: CalibrateOptions,
  visit: (tensor: string, values: Float32Array) => void,
  pass: number,
  passes: number,
): Promise<void> {
  // 'basic' only folds constants and drops redundant nodes; tensors exposed as graph outputs stay intact.
  const session = await runtime.createSession(model, { target: options.target, optimizationLevel: 'basic' });
  const fromInputs = tensors.filter((t) => g.isGraphInput(t));
  const fromOutputs = tensors.filter((t) => !g.isGraphInput(t));
  try {
    const all = [...batches(data, options.batchSize ?? 8, g.inputs)];
    let done = 0;
    for (const b of all) {
      const outs = await session.run(b.feeds, fromOutputs);
      for (const t of fromOutputs) {
        const o = outs[t];
        if (o === undefined) throw rtError('INTERNAL', `calibration: the runtime returned no value for '${t}'`);
        visit(t, o.data instanceof Float32Array ? o.data : Float32Array.from(o.data as ArrayLike<number>));
      }
      for (const t of fromInputs) {
        const f = b.feeds[t];
        if (f !== undefined)
          visit(
            t,
            f.data instanceof Float32Array ? f.data : Float32Array.from({ length: f.data.length }, (_, i) => readNumber(f.elemType, f.data, i)),
          );
      }
      done++;
      options.onBatch?.(done + pass * all.length, all.length * passes);
    }
  } finally {
    await session.release();
  }
}

/** Measures the ranges of `tensors` (names in `g`) over `data` and returns a calibration table. */
export async function calibrate(
  runtime: OfflineRuntime,
  g: Graph,
  tensors: readonly string[],
  data: Dataset,
  options: CalibrateOptions,
): Promise<CalibrationTable> {
  const model = probeModel(g, tensors);
  const stats = new Map<string, Stat>(tensors.map((t) => [t, { min: Infinity, max: -Infinity }]));
  const passes = options.method === 'minmax' ? 1 : 2;
  // One run over the data set per pass: pass 0 finds each tensor's range, pass 1 (percentile, entropy) its histogram.
  const pass = (visit: (t: string, v: Float32Array) => void, index: number) =>
    runAll(runtime, model, g, tensors, data, options, visit, index, passes);
  await pass((t, v) => {
    const s = stats.get(t) as Stat;
    let lo = s.min;
    let hi = s.max;
    for (let i = 0; i < v.length; i++) {
      const x = v[i] as number;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    s.min = lo;
    s.max = hi;
  }, 0);
  if (passes === 2) {
    for (const s of stats.values()) s.hist = new Float64Array(HISTOGRAM_BINS);
    await pass((t, v) => {
      const s = stats.get(t) as Stat;
      const absMax = Math.max(Math.abs(s.min), Math.abs(s.max));
      if (absMax === 0 || s.hist === undefined) return;
      const k = HISTOGRAM_BINS / absMax;
      const h = s.hist;
      for (let i = 0; i < v.length; i++) {
        const b = Math.min(HISTOGRAM_BINS - 1, Math.floor(Math.abs(v[i] as number) * k));
        h[b] = (h[b] ?? 0) + 1;
      }
    }, 1);
  }
  const out: Record<string, TensorRange> = {};
  for (const [t, s] of stats) {
    if (!Number.isFinite(s.min) || !Number.isFinite(s.max)) {
      throw rtError('BAD_DATA', `calibration: tensor '${t}' has no finite values (NaN or Inf in the calibration run?)`);
    }
    out[t] = rangeOf(s, options);
  }
  const table: CalibrationTable = {
    version: 1,
    method: options.method,
    graphSha256: options.graphSha256,
    dataSha256: data.sha256,
    samples: data.samples,
    tensors: out,
  };
  if (options.method === 'percentile') table.percentile = options.percentile ?? 99.999;
  return table;
}

function rangeOf(s: Stat, options: CalibrateOptions): TensorRange {
  const observedMin = s.min;
  const observedMax = s.max;
  let threshold = Math.max(Math.abs(s.min), Math.abs(s.max));
  if (s.hist !== undefined && threshold > 0) {
    const binWidth = threshold / HISTOGRAM_BINS;
    const bins =
      options.method === 'percentile' ? percentileBin(s.hist, options.percentile ?? 99.999) : entropyBin(s.hist, observedMin >= 0 ? 256 : 128);
    threshold = Math.min(threshold, bins * binWidth);
  }
  const min = Math.min(0, Math.max(observedMin, -threshold));
  const max = Math.max(0, Math.min(observedMax, threshold));
  return { min, max, observedMin, observedMax };
}

/** Number of bins (from 0) that hold `percentile` % of the mass. */
export function percentileBin(hist: Float64Array, percentile: number): number {
  const total = hist.reduce((a, b) => a + b, 0);
  const target = (total * percentile) / 100;
  let acc = 0;
  for (let i = 0; i < hist.length; i++) {
    acc += hist[i] ?? 0;
    if (acc >= target) return i + 1;
  }
  return hist.length;
}

/**
 * TensorRT's entropy calibration: for every candidate threshold bin i ≥ levels, P is the histogram clipped at
 * i (outliers added to the last bin), Q is P's first i bins merged into `levels` groups and expanded back
 * (each group's mass spread evenly over its non-empty bins); the threshold minimizing KL(P‖Q) wins.
 */
export function entropyBin(histIn: Float64Array, levels: number): number {
  const n = histIn.length;
  if (n <= levels) return n;
  // Exact zeros (half of every post-Relu tensor) pile up in bin 0; merged with their neighbours in Q they
  // would dominate the divergence and drag the threshold down to the smallest candidate. NVIDIA's
  // pytorch-quantization entropy calibrator flattens that spike the same way (bins[0] = bins[1]).
  const hist = Float64Array.from(histIn);
  hist[0] = hist[1] ?? 0;
  const suffix = new Float64Array(n + 1);
  for (let i = n - 1; i >= 0; i--) suffix[i] = (suffix[i + 1] ?? 0) + (hist[i] ?? 0);
  let best = n;
  let bestKl = Infinity;
  const eps = 1e-10;
  const total = suffix[0] ?? 0;
  for (let i = levels; i <= n; i++) {
    // A threshold below most of the data folds it all into P's last bin, where Q matches it exactly (KL = 0):
    // a degenerate optimum for tensors far from zero (a global average pool's output). Saturating more
    // than 1 % of the values is never what the method means, so such candidates are skipped.
    if ((suffix[i] ?? 0) > total * 0.01) continue;
    const p = new Float64Array(i);
    for (let k = 0; k < i; k++) p[k] = hist[k] ?? 0;
    p[i - 1] = (p[i - 1] ?? 0) + (suffix[i] ?? 0);
    const q = new Float64Array(i);
    const merged = i / levels;
    for (let j = 0; j < levels; j++) {
      const start = Math.floor(j * merged);
      const stop = j === levels - 1 ? i : Math.floor((j + 1) * merged);
      let sum = 0;
      let nonzero = 0;
      for (let k = start; k < stop; k++) {
        const v = hist[k] ?? 0;
        sum += v;
        if (v !== 0) nonzero++;
      }
      if (nonzero === 0) continue;
      const avg = sum / nonzero;
      for (let k = start; k < stop; k++) if ((hist[k] ?? 0) !== 0) q[k] = avg;
    }
    let ps = 0;
    let qs = 0;
    for (let k = 0; k < i; k++) {
      ps += p[k] ?? 0;
      qs += q[k] ?? 0;
    }
    if (ps === 0 || qs === 0) continue;
    let kl = 0;
    for (let k = 0; k < i; k++) {
      const pk = (p[k] ?? 0) / ps;
      if (pk === 0) continue;
      const qk = Math.max((q[k] ?? 0) / qs, eps);
      kl += pk * Math.log(pk / qk);
    }
    if (kl < bestKl) {
      bestKl = kl;
      best = i;
    }
  }
  return best;
}
