/**
 * End-to-end check of every batch program of a CUDA plan. Tactics are verified layer by layer while tuning (on
 * synthetic data), but a program is a chain of 50-odd tactics chosen separately per batch size; one that passes on
 * its own can still give a program whose output drifts. Here each program runs over one synthetic dataset of
 * max-batch rows, `batch` rows at a time, and its output is compared with onnxruntime FP32 on the source model:
 * relative error = the largest over its runs of max |plan - reference| / max |reference|.
 *
 * A program is an outlier when its error is above `tolerance` (1e-2: the FP16 gate of the CUDA engine's issue)
 * and above `outlierFactor` times the median error of all programs. Outliers are dropped from the plan by the
 * build: requests of their batch sizes run on the next larger program (padded), which passed. When every program
 * is off alike, it is the model's own FP16 sensitivity, not a broken program; that is for the accuracy gates.
 *
 * Served traffic mixes batch sizes, and on ResNet-50 some programs' outputs once depended on what a larger batch left
 * in device memory (they drifted by 1e-2 to 2.7e-1 after one ran: a race between consecutive layers through
 * programmatic dependent launch, fixed in the engine on 2026-12-01; docs/cuda-engine.md). So each smaller program
 * is checked right after the largest program ran over the whole dataset, not on a fresh device: a program that
 * depends on what a larger run left behind then shows its error here and is dropped like any outlier.
 *
 * A program the engine reports as history-dependent (RuntimeSession.historyDependentBatches: its output changed at
 * load when device memory was left holding different values, native/src/engine.cu) is an outlier too, whatever its
 * error here. That load-time check does not catch every such program (on 2026-11-30 it missed one that the drift
 * tool saw change by 4.4e-2), which is why the order above matters. The largest program is never dropped for it (it
 * has nothing above to run on); the build warns instead.
 */
import { rtError } from '../../errors/registry.ts';
import { batches as datasetBatches, type Dataset } from '../data/dataset.ts';
import type { ValueInfo } from '../ir/graph.ts';
import { readNumber } from '../../tensor/onnx-dtype.ts';
import type { HostTensor, OfflineRuntime } from '../../plan/runtime.ts';

export interface ProgramCheck {
  readonly batch: number;
  readonly relMaxError: number;
  readonly outlier: boolean;
  /** The engine found at load that this program's output depends on what earlier runs left in device memory. */
  readonly historyDependent?: boolean;
}

export interface VerifyProgramsOptions {
  readonly tolerance?: number;
  readonly outlierFactor?: number;
}

export const PROGRAM_TOLERANCE = 1e-2;
export const PROGRAM_OUTLIER_FACTOR = 4;

const numbers = (t: HostTensor, count: number): Float64Array => {
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) out[i] = readNumber(t.elemType, t.data, i);
  return out;
};

/** `data` must hold at least max(batches) samples. */
export async function verifyPrograms(
  runtime: OfflineRuntime,
  reference: { bytes: Uint8Array; inputs: readonly ValueInfo[] },
  plan: Uint8Array,
  outputNames: readonly string[],
  data: Dataset,
  programBatches: readonly number[],
  options: VerifyProgramsOptions = {},
): Promise<ProgramCheck[]> {
  const maxB = Math.max(...programBatches);
  if (data.samples < maxB) throw rtError('INTERNAL', `program check: ${data.samples} samples for a batch-${maxB} program`);
  const all = [...datasetBatches(data, maxB, reference.inputs)][0];
  if (all === undefined) throw rtError('INTERNAL', 'program check: no data');
  const refS = await runtime.createSession(reference.bytes, { target: 'ort-cpu', optimizationLevel: 'all' });
  // The reference outputs as numbers, once: every chunk of every program compares against a slice of them.
  const ref = new Map<string, Float64Array>();
  try {
    const out = await refS.run(all.feeds, outputNames);
    for (const name of outputNames) {
      const r = out[name];
      if (r === undefined) throw rtError('INTERNAL', `program check: output '${name}' is missing from the reference`);
      ref.set(name, numbers(r, r.data.length));
    }
  } finally {
    await refS.release();
  }
  const planS = await runtime.createSession(plan, { target: 'cuda', optimizationLevel: 'all' });
  const dependent = new Set(planS.historyDependentBatches?.() ?? []);
  const errors: { batch: number; err: number; historyDependent?: boolean }[] = [];
  try {
    for (const b of [...programBatches].sort((x, y) => x - y)) {
      // What a larger batch leaves in device memory first, as in serving (the largest has no larger one).
      if (b !== maxB) await planS.run(all.feeds, outputNames);
      // Every full chunk of `b` rows of the dataset: each program sees all of it, in maxB / b runs.
      let err = 0;
      for (const chunk of datasetBatches(data, b, reference.inputs)) {
        if (chunk.to - chunk.from !== b) continue;
        const got = await planS.run(chunk.feeds, outputNames);
        for (const name of outputNames) {
          const r = ref.get(name);
          const p = got[name];
          if (r === undefined || p === undefined) throw rtError('INTERNAL', `program check: output '${name}' is missing`);
          const rowElems = r.length / maxB;
          const rv = r.subarray(rowElems * chunk.from, rowElems * chunk.to);
          const pv = numbers(p, rowElems * b);
          let maxDiff = 0;
          let maxRef = 0;
          for (let i = 0; i < pv.length; i++) {
            const d = Math.abs((pv[i] as number) - (rv[i] as number));
            maxDiff = Number.isFinite(d) ? Math.max(maxDiff, d) : Infinity;
            maxRef = Math.max(maxRef, Math.abs(rv[i] as number));
          }
          err = Math.max(err, maxDiff / Math.max(maxRef, 1e-12));
        }
      }
      errors.push(dependent.has(b) ? { batch: b, err, historyDependent: true } : { batch: b, err });
    }
  } finally {
    await planS.release();
  }
  return classifyPrograms(errors, options);
}

/** The outlier rule on measured errors (kept apart so that it is testable without a GPU). */
export function classifyPrograms(
  errors: readonly { batch: number; err: number; historyDependent?: boolean }[],
  options: VerifyProgramsOptions = {},
): ProgramCheck[] {
  const tolerance = options.tolerance ?? PROGRAM_TOLERANCE;
  const factor = options.outlierFactor ?? PROGRAM_OUTLIER_FACTOR;
  const sorted = errors.map((e) => e.err).sort((a, b) => a - b);
  const median = sorted.length === 0 ? 0 : (sorted[Math.floor((sorted.length - 1) / 2)] as number);
  const maxB = Math.max(...errors.map((e) => e.batch));
  return errors.map((e) => {
    const off = !(e.err <= tolerance) && !(e.err <= factor * median);
    const check = { batch: e.batch, relMaxError: e.err, outlier: off || (e.historyDependent === true && e.batch !== maxB) };
    return e.historyDependent === true ? { ...check, historyDependent: true } : check;
  });
}
