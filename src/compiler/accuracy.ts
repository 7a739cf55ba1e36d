import { rtError } from '../errors/registry.ts';
import type { PlanPrecision, PlanTarget } from '../plan/manifest.ts';
import { batches, type Dataset } from './data/dataset.ts';
import { DT, allocData, readNumber, writeNumber } from '../tensor/onnx-dtype.ts';
import type { ValueInfo } from './ir/graph.ts';
import type { Feeds, HostTensor, OfflineRuntime, Outputs, RuntimeSession } from '../plan/runtime.ts';

/**
 * The accuracy gate: the built plan and the FP32 original run on the same validation data, output by output.
 *
 * Metrics per output (docs/plan-format.md, "Accuracy"):
 * - maxAbsError: max |ref − plan| over all elements;
 * - meanRelError: Σ|ref − plan| / Σ|ref| (relative L1, stable where single elements are near zero);
 * - cosine: mean over samples of the cosine similarity of one sample's output (cosineMin: the worst sample);
 * - top1Agreement: fraction of rows (last axis = classes, > 1) whose argmax agrees;
 * - planAccuracy / referenceAccuracy: top-1 against labels, for a [N, C] output when labels are given.
 */

export const GATE_METRICS = ['max-abs', 'mean-rel', 'cosine', 'top1-agreement', 'top1-accuracy', 'accuracy-drop'] as const;
export type GateMetric = (typeof GATE_METRICS)[number];

export interface AccuracyGate {
  readonly metric: GateMetric;
  readonly threshold: number;
  /** Restrict to one output; all outputs (the worst one decides) when absent. */
  readonly output?: string;
}

export interface OutputMetrics {
  readonly name: string;
  readonly elements: number;
  readonly maxAbsError: number;
  readonly meanRelError: number;
  readonly cosine: number;
  readonly cosineMin: number;
  readonly top1Agreement: number | null;
  readonly referenceAccuracy: number | null;
  readonly planAccuracy: number | null;
}

export interface GateResult {
  readonly metric: GateMetric;
  readonly threshold: number;
  readonly output: string | null;
  /** The decisive (worst) value, null when the metric does not apply (no classification output, no labels). */
  readonly value: number | null;
  readonly passed: boolean;
  readonly message: string;
}

export interface AccuracyReport {
  readonly dataSource: 'validation' | 'calibration-holdout' | 'synthetic';
  readonly dataPath: string;
  readonly samples: number;
  /** Where the plan ran: offline checks always use the CPU provider. */
  readonly measuredOn: string;
  readonly outputs: readonly OutputMetrics[];
  readonly gates: readonly GateResult[];
  readonly passed: boolean;
}

/** Gates applied when the user names none: loose enough for a healthy build, tight enough to catch a broken one. */
export function defaultGates(precision: PlanPrecision): AccuracyGate[] {
  switch (precision) {
    case 'fp32':
      return [{ metric: 'cosine', threshold: 0.9999 }];
    case 'fp16':
      return [{ metric: 'cosine', threshold: 0.999 }];
    case 'int8':
    case 'mixed':
      return [{ metric: 'cosine', threshold: 0.99 }];
  }
}

/** Parses `METRIC=VALUE` or `OUTPUT:METRIC=VALUE` (e.g. `cosine=0.995`, `logits:top1-agreement=0.98`). */
export function parseGate(spec: string): AccuracyGate {
  const m = /^(?:([^:=]+):)?([a-z0-9-]+)=([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)$/i.exec(spec.trim());
  const metric = m?.[2]?.toLowerCase();
  if (m === null || metric === undefined || !(GATE_METRICS as readonly string[]).includes(metric)) {
    throw rtError(
      'BAD_CONFIG',
      `--accuracy-gate '${spec}': expected METRIC=VALUE or OUTPUT:METRIC=VALUE with METRIC one of ${GATE_METRICS.join(', ')}`,
    );
  }
  const threshold = Number(m[3]);
  const gate: AccuracyGate =
    m[1] !== undefined ? { metric: metric as GateMetric, threshold, output: m[1] } : { metric: metric as GateMetric, threshold };
  return gate;
}

function toNumbers(t: HostTensor): Float64Array {
  const out = new Float64Array(t.data.length);
  for (let i = 0; i < out.length; i++) out[i] = readNumber(t.elemType, t.data, i);
  return out;
}

/** Converts feeds to the element types a session's model expects (FP16 inputs without --keep-io-types). */
function adaptFeeds(feeds: Feeds, inputs: readonly ValueInfo[]): Feeds {
  const out: Record<string, HostTensor> = {};
  for (const [k, t] of Object.entries(feeds)) {
    const want = inputs.find((i) => i.name === k)?.type.elemType ?? t.elemType;
    if (want === t.elemType) {
      out[k] = t;
      continue;
    }
    const data = allocData(want, t.data.length);
    for (let i = 0; i < data.length; i++) writeNumber(want, data, i, readNumber(t.elemType, t.data, i));
    out[k] = { elemType: want, dims: t.dims, data };
  }
  return out;
}

interface Acc {
  elements: number;
  maxAbs: number;
  absErrSum: number;
  absRefSum: number;
  cosSum: number;
  cosMin: number;
  rows: number;
  agree: number;
  classRows: number;
  refCorrect: number;
  planCorrect: number;
  labelled: number;
}

function argmax(v: Float64Array, from: number, len: number): number {
  let best = from;
  for (let i = from + 1; i < from + len; i++) if ((v[i] ?? -Infinity) > (v[best] ?? -Infinity)) best = i;
  return best - from;
}

function accumulate(acc: Acc, ref: HostTensor, got: HostTensor, name: string, labels: Int32Array | undefined, samples: number): void {
  if (ref.data.length !== got.data.length) {
    throw rtError('INTERNAL', `accuracy: output '${name}' has ${got.data.length} elements in the plan but ${ref.data.length} in the original`);
  }
  const a = toNumbers(ref);
  const b = toNumbers(got);
  acc.elements += a.length;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs((a[i] ?? 0) - (b[i] ?? 0));
    if (d > acc.maxAbs || Number.isNaN(d)) acc.maxAbs = Number.isNaN(d) ? Infinity : d;
    acc.absErrSum += d;
    acc.absRefSum += Math.abs(a[i] ?? 0);
  }
  const per = samples > 0 && a.length % samples === 0 ? a.length / samples : a.length;
  for (let s = 0; s * per < a.length; s++) {
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let i = s * per; i < (s + 1) * per; i++) {
      dot += (a[i] ?? 0) * (b[i] ?? 0);
      na += (a[i] ?? 0) ** 2;
      nb += (b[i] ?? 0) ** 2;
    }
    const cos = na === 0 && nb === 0 ? 1 : na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
    acc.cosSum += cos;
    acc.cosMin = Math.min(acc.cosMin, cos);
    acc.rows++;
  }
  const classes = ref.dims[ref.dims.length - 1] ?? 0;
  if (ref.dims.length >= 2 && classes > 1 && (ref.elemType === DT.FLOAT || ref.elemType === DT.FLOAT16 || ref.elemType === DT.DOUBLE)) {
    const rowsN = a.length / classes;
    for (let r = 0; r < rowsN; r++) {
      const ra = argmax(a, r * classes, classes);
      const rb = argmax(b, r * classes, classes);
      if (ra === rb) acc.agree++;
      acc.classRows++;
      if (labels !== undefined && ref.dims.length === 2 && rowsN === labels.length) {
        const l = labels[r] ?? -1;
        if (ra === l) acc.refCorrect++;
        if (rb === l) acc.planCorrect++;
        acc.labelled++;
      }
    }
  }
}

export interface EvaluateOptions {
  readonly target: PlanTarget;
  readonly batchSize?: number;
  readonly gates: readonly AccuracyGate[];
  readonly dataSource: AccuracyReport['dataSource'];
  readonly onBatch?: (done: number, total: number) => void;
}

/** Runs reference and plan over `data` and evaluates the gates. */
export async function evaluateAccuracy(
  runtime: OfflineRuntime,
  reference: { bytes: Uint8Array; inputs: readonly ValueInfo[] },
  plan: { bytes: Uint8Array; inputs: readonly ValueInfo[] },
  outputNames: readonly string[],
  data: Dataset,
  options: EvaluateOptions,
): Promise<AccuracyReport> {
  const accs = new Map<string, Acc>(
    outputNames.map((n) => [
      n,
      {
        elements: 0,
        maxAbs: 0,
        absErrSum: 0,
        absRefSum: 0,
        cosSum: 0,
        cosMin: Infinity,
        rows: 0,
        agree: 0,
        classRows: 0,
        refCorrect: 0,
        planCorrect: 0,
        labelled: 0,
      },
    ]),
  );
  const target = runtime.runnableTargets.includes(options.target) ? options.target : 'ort-cpu';
  let refS: RuntimeSession | undefined;
  let planS: RuntimeSession | undefined;
  try {
    refS = await runtime.createSession(reference.bytes, { target: 'ort-cpu', optimizationLevel: 'disabled' });
    planS = await runtime.createSession(plan.bytes, { target, optimizationLevel: 'all' });
    const all = [...batches(data, options.batchSize ?? 32, reference.inputs)];
    let done = 0;
    for (const b of all) {
      const ref: Outputs = await refS.run(adaptFeeds(b.feeds, reference.inputs), outputNames);
      const got: Outputs = await planS.run(adaptFeeds(b.feeds, plan.inputs), outputNames);
      for (const name of outputNames) {
        const r = ref[name];
        const p = got[name];
        if (r === undefined || p === undefined) throw rtError('INTERNAL', `accuracy: output '${name}' is missing from a run`);
        accumulate(accs.get(name) as Acc, r, p, name, data.labels?.subarray(b.from, b.to), b.to - b.from);
      }
      options.onBatch?.(++done, all.length);
    }
  } finally {
    await refS?.release();
    await planS?.release();
  }
  const outputs: OutputMetrics[] = outputNames.map((name) => {
    const a = accs.get(name) as Acc;
    return {
      name,
      elements: a.elements,
      maxAbsError: a.maxAbs,
      meanRelError: a.absRefSum === 0 ? (a.absErrSum === 0 ? 0 : Infinity) : a.absErrSum / a.absRefSum,
      cosine: a.rows === 0 ? 1 : a.cosSum / a.rows,
      cosineMin: a.rows === 0 ? 1 : a.cosMin,
      top1Agreement: a.classRows === 0 ? null : a.agree / a.classRows,
      referenceAccuracy: a.labelled === 0 ? null : a.refCorrect / a.labelled,
      planAccuracy: a.labelled === 0 ? null : a.planCorrect / a.labelled,
    };
  });
  const gates = options.gates.map((g) => checkGate(g, outputs));
  return {
    dataSource: options.dataSource,
    dataPath: data.source,
    samples: data.samples,
    measuredOn: `${runtime.name} ${runtime.version} (${target === 'ort-webgpu' ? 'CPU provider, standing in for WebGPU' : 'CPU provider'})`,
    outputs,
    gates,
    passed: gates.every((g) => g.passed),
  };
}

function checkGate(gate: AccuracyGate, outputs: readonly OutputMetrics[]): GateResult {
  const selected = gate.output === undefined ? outputs : outputs.filter((o) => o.name === gate.output);
  if (gate.output !== undefined && selected.length === 0) {
    throw rtError(
      'BAD_CONFIG',
      `--accuracy-gate names output '${gate.output}', which the model does not have (outputs: ${outputs.map((o) => o.name).join(', ')})`,
    );
  }
  const higherIsBetter = gate.metric === 'cosine' || gate.metric === 'top1-agreement' || gate.metric === 'top1-accuracy';
  const metricOf = (o: OutputMetrics): number | null => {
    switch (gate.metric) {
      case 'max-abs':
        return o.maxAbsError;
      case 'mean-rel':
        return o.meanRelError;
      case 'cosine':
        return o.cosine;
      case 'top1-agreement':
        return o.top1Agreement;
      case 'top1-accuracy':
        return o.planAccuracy;
      case 'accuracy-drop':
        return o.referenceAccuracy === null || o.planAccuracy === null ? null : o.referenceAccuracy - o.planAccuracy;
    }
  };
  let worst: { value: number; output: string } | undefined;
  for (const o of selected) {
    const v = metricOf(o);
    if (v === null) continue;
    if (worst === undefined || (higherIsBetter ? v < worst.value : v > worst.value) || Number.isNaN(v)) worst = { value: v, output: o.name };
  }
  const op = higherIsBetter ? '>=' : '<=';
  if (worst === undefined) {
    const why =
      gate.metric === 'top1-accuracy' || gate.metric === 'accuracy-drop'
        ? 'it needs labels (a `labels` array in the validation data) and an [N, classes] output'
        : 'no output has a class axis';
    return {
      metric: gate.metric,
      threshold: gate.threshold,
      output: gate.output ?? null,
      value: null,
      passed: false,
      message: `${gate.metric} ${op} ${gate.threshold}: cannot be measured: ${why}`,
    };
  }
  const passed = higherIsBetter ? worst.value >= gate.threshold : worst.value <= gate.threshold;
  return {
    metric: gate.metric,
    threshold: gate.threshold,
    output: worst.output,
    value: worst.value,
    passed,
    message: `${gate.metric} of '${worst.output}' is ${formatNum(worst.value)}, gate ${op} ${gate.threshold}: ${passed ? 'passed' : 'FAILED'}`,
  };
}

function formatNum(v: number): string {
  return Math.abs(v) >= 1e-3 || v === 0 ? v.toPrecision(6) : v.toExponential(3);
}
