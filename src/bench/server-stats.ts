/**
 * Server-side breakdown from the statistics extension (docs/protocol.md §2.4): perf_analyzer reads
 * GET /v2/models/<m>/stats before and after each window and reports the deltas (docs/protocol.md §4.1, "Server report").
 */
import type { Duration, ModelStatsSnapshot } from '../observability/model-stats.ts';
import type { ServerBreakdown } from './types.ts';

/** The counters a breakdown needs, summed over the model's versions. */
export interface StatsCounters {
  readonly inferenceCount: number;
  readonly executionCount: number;
  readonly success: Duration;
  readonly fail: Duration;
  readonly queue: Duration;
  readonly computeInput: Duration;
  readonly computeInfer: Duration;
  readonly computeOutput: Duration;
}

const sum = (ds: readonly Duration[]): Duration => ({ count: ds.reduce((s, d) => s + d.count, 0), ns: ds.reduce((s, d) => s + d.ns, 0) });

/** Sums the snapshots of every version of a model (GET /v2/models/<m>/stats lists one entry per version). */
export function countersOf(snapshots: readonly ModelStatsSnapshot[]): StatsCounters {
  return {
    inferenceCount: snapshots.reduce((s, m) => s + m.inference_count, 0),
    executionCount: snapshots.reduce((s, m) => s + m.execution_count, 0),
    success: sum(snapshots.map((m) => m.inference_stats.success)),
    fail: sum(snapshots.map((m) => m.inference_stats.fail)),
    queue: sum(snapshots.map((m) => m.inference_stats.queue)),
    computeInput: sum(snapshots.map((m) => m.inference_stats.compute_input)),
    computeInfer: sum(snapshots.map((m) => m.inference_stats.compute_infer)),
    computeOutput: sum(snapshots.map((m) => m.inference_stats.compute_output)),
  };
}

const minus = (a: Duration, b: Duration): Duration => ({ count: a.count - b.count, ns: a.ns - b.ns });
const avgUs = (d: Duration): number => (d.count > 0 ? d.ns / d.count / 1000 : Number.NaN);

/** The breakdown of what happened between two snapshots (`before` taken first). */
export function breakdownBetween(before: StatsCounters, after: StatsCounters): ServerBreakdown {
  const success = minus(after.success, before.success);
  const fail = minus(after.fail, before.fail);
  const queue = minus(after.queue, before.queue);
  const input = minus(after.computeInput, before.computeInput);
  const infer = minus(after.computeInfer, before.computeInfer);
  const output = minus(after.computeOutput, before.computeOutput);
  const inferences = after.inferenceCount - before.inferenceCount;
  const executions = after.executionCount - before.executionCount;
  const requestUs = avgUs(success);
  const queueUs = avgUs(queue);
  const computeInputUs = avgUs(input);
  const computeInferUs = avgUs(infer);
  const computeOutputUs = avgUs(output);
  return {
    requests: success.count,
    failures: fail.count,
    inferences,
    executions,
    avgBatchSize: executions > 0 ? inferences / executions : Number.NaN,
    requestUs,
    queueUs,
    computeInputUs,
    computeInferUs,
    computeOutputUs,
    overheadUs: requestUs - queueUs - computeInputUs - computeInferUs - computeOutputUs,
  };
}

/** Average compute per request (input + infer + output), the part of the latency the engine accounts for. */
export function computeUs(b: ServerBreakdown): number {
  return b.computeInputUs + b.computeInferUs + b.computeOutputUs;
}
