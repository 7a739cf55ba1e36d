/**
 * The pieces of `rtserve bench` that turn samples into numbers: perf_analyzer's stability rule, its percentile
 * index, and the server breakdown from statistics deltas. Synthetic inputs, so every edge is pinned down.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LatencySamples, isStable, percentileOf, summarizeLatency } from '../../../src/bench/latency.ts';
import { breakdownBetween, countersOf } from '../../../src/bench/server-stats.ts';
import type { ModelStatsSnapshot } from '../../../src/observability/model-stats.ts';
import type { WindowResult } from '../../../src/bench/types.ts';

function win(inferencesPerSec: number, avgUs: number, p99Us = avgUs * 2): WindowResult {
  return {
    startMs: 0,
    durationMs: 1000,
    succeeded: inferencesPerSec,
    failed: 0,
    requestsPerSec: inferencesPerSec,
    inferencesPerSec,
    latency: { count: 1, avgUs, stdUs: 0, minUs: avgUs, maxUs: p99Us, p50Us: avgUs, p90Us: avgUs, p95Us: avgUs, p99Us },
  };
}

describe('stability rule (perf_analyzer: last 3 windows, max/min within the percentage)', () => {
  test('needs three windows', () => {
    assert.equal(isStable([win(100, 1000), win(100, 1000)], 3, 10), false);
    assert.equal(isStable([win(100, 1000), win(100, 1000), win(100, 1000)], 3, 10), true);
  });
  test('throughput max/min at 10% is stable, above is not', () => {
    assert.equal(isStable([win(100, 1000), win(110, 1000), win(105, 1000)], 3, 10), true);
    assert.equal(isStable([win(100, 1000), win(110.5, 1000), win(105, 1000)], 3, 10), false);
  });
  test('latency must be stable too', () => {
    assert.equal(isStable([win(100, 1000), win(100, 1100), win(100, 1050)], 3, 10), true);
    assert.equal(isStable([win(100, 1000), win(100, 1120), win(100, 1050)], 3, 10), false);
  });
  test('only the last three count', () => {
    assert.equal(isStable([win(10, 9000), win(100, 1000), win(101, 1000), win(102, 1000)], 3, 10), true);
  });
  test('a window without throughput is never stable', () => {
    assert.equal(isStable([win(0, 1000), win(0, 1000), win(0, 1000)], 3, 10), false);
  });
  test('--percentile stabilizes on that percentile instead of the average', () => {
    const ws = [win(100, 1000, 2000), win(100, 1000, 3000), win(100, 1000, 2500)];
    assert.equal(isStable(ws, 3, 10), true);
    assert.equal(isStable(ws, 3, 10, 99), false);
  });
  test('the percentage is a parameter', () => {
    const ws = [win(100, 1000), win(120, 1000), win(110, 1000)];
    assert.equal(isStable(ws, 3, 10), false);
    assert.equal(isStable(ws, 3, 25), true);
  });
});

describe('latency summary', () => {
  test('percentile index is round(p/100 × (n − 1)), as perf_analyzer picks it', () => {
    const sorted = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    assert.equal(percentileOf(sorted, 50), 51); // round(49.5) = 50 → the 51st value
    assert.equal(percentileOf(sorted, 99), 99); // round(98.01) = 98
    assert.equal(percentileOf(sorted, 90), 90);
    assert.ok(Number.isNaN(percentileOf(new Float64Array(0), 50)));
  });
  test('summary of unsorted samples', () => {
    const s = new LatencySamples();
    for (const v of [5, 1, 4, 2, 3]) s.push(v);
    const sum = summarizeLatency(s);
    assert.deepEqual([sum.count, sum.minUs, sum.maxUs, sum.avgUs, sum.p50Us], [5, 1, 5, 3, 3]);
    assert.equal(sum.stdUs, Math.sqrt(2));
  });
  test('samples grow past their first buffer and merge in order', () => {
    const a = new LatencySamples();
    for (let i = 0; i < 3000; i++) a.push(i);
    const b = new LatencySamples();
    b.push(-1);
    const m = LatencySamples.merge([a, b]);
    assert.equal(m.length, 3001);
    assert.equal(m.values()[2999], 2999);
    assert.equal(m.values()[3000], -1);
  });
});

describe('server breakdown from statistics deltas', () => {
  const d = (count: number, ns: number) => ({ count, ns });
  const snap = (version: string, k: number): ModelStatsSnapshot => ({
    name: 'm',
    version,
    last_inference: 0,
    inference_count: 40 * k,
    execution_count: 10 * k,
    inference_stats: {
      success: d(20 * k, 20 * k * 500_000),
      fail: d(k, 1000),
      queue: d(20 * k, 20 * k * 100_000),
      compute_input: d(20 * k, 20 * k * 10_000),
      compute_infer: d(20 * k, 20 * k * 300_000),
      compute_output: d(20 * k, 20 * k * 20_000),
      cache_hit: d(0, 0),
      cache_miss: d(0, 0),
    },
    batch_stats: [],
  });
  test('deltas, per-request averages in µs, average batch and Triton overhead', () => {
    // Two versions are summed; the window saw k go from 1 to 3 in both.
    const b = breakdownBetween(countersOf([snap('1', 1), snap('2', 1)]), countersOf([snap('1', 3), snap('2', 3)]));
    assert.equal(b.requests, 80);
    assert.equal(b.failures, 4);
    assert.equal(b.inferences, 160);
    assert.equal(b.executions, 40);
    assert.equal(b.avgBatchSize, 4);
    assert.equal(b.requestUs, 500);
    assert.equal(b.queueUs, 100);
    assert.equal(b.computeInputUs, 10);
    assert.equal(b.computeInferUs, 300);
    assert.equal(b.computeOutputUs, 20);
    assert.equal(b.overheadUs, 70);
  });
  test('an idle window has no averages rather than zeros', () => {
    const b = breakdownBetween(countersOf([snap('1', 2)]), countersOf([snap('1', 2)]));
    assert.equal(b.requests, 0);
    assert.ok(Number.isNaN(b.requestUs) && Number.isNaN(b.avgBatchSize));
  });
});
