/**
 * One load level, measured as perf_analyzer does (docs/protocol.md §4.1): load is applied (N outstanding requests, or a
 * fixed request rate), a warm-up is discarded, then measurement windows follow until the last three are stable
 * (max/min of throughput and of latency within the stability percentage) or the trial limit is reached. The
 * reported result merges the last three windows; the server breakdown is the statistics delta over the same span.
 */
import { performance } from 'node:perf_hooks';
import { failureKey } from './errors.ts';
import { LatencySamples, isStable, summarizeLatency } from './latency.ts';
import { breakdownBetween, computeUs, type StatsCounters } from './server-stats.ts';
import { seededRandom } from './inputs.ts';
import type { LoadClient } from './clients/load-client.ts';
import type { ErrorCount, LevelResult, LoadMode, MeasureOptions, ServerBreakdown, WindowResult } from './types.ts';

/** What the progress display sees, a few times a second and after each window. */
export interface LevelProgress {
  readonly phase: 'warmup' | 'measuring' | 'draining';
  /** 1-based window number while measuring. */
  readonly window: number;
  readonly maxTrials: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly elapsedMs: number;
  readonly lastWindow?: WindowResult;
}

export interface LevelHooks {
  /** Reads the server's statistics counters; called at every window boundary. */
  readonly snapshot?: () => Promise<StatsCounters>;
  readonly onProgress?: (p: LevelProgress) => void;
}

export interface LevelOutcome {
  readonly result: LevelResult;
  /** Every request sent during the level, warm-up included (for cross-checks against the server's counters). */
  readonly sent: number;
  readonly succeeded: number;
  readonly failed: number;
}

class Bucket {
  readonly samples = new LatencySamples();
  succeeded = 0;
  failed = 0;
  dropped = 0;
  readonly errors = new Map<string, number>();

  fail(key: string): void {
    this.failed += 1;
    this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function windowOf(bucket: Bucket, startMs: number, durationMs: number, batch: number, server: ServerBreakdown | undefined): WindowResult {
  const seconds = durationMs / 1000;
  return {
    startMs,
    durationMs,
    succeeded: bucket.succeeded,
    failed: bucket.failed,
    requestsPerSec: bucket.succeeded / seconds,
    inferencesPerSec: (bucket.succeeded * batch) / seconds,
    latency: summarizeLatency(bucket.samples),
    ...(server === undefined ? {} : { server }),
  };
}

function mergeErrors(buckets: readonly Bucket[]): ErrorCount[] {
  const all = new Map<string, number>();
  for (const b of buckets) for (const [k, n] of b.errors) all.set(k, (all.get(k) ?? 0) + n);
  return [...all].map(([message, count]) => ({ message, count })).sort((a, b) => b.count - a.count);
}

/** Measures one level on an open client. The client is left open (the caller reuses it for the next level). */
export async function measureLevel(
  client: LoadClient,
  level: { readonly batch: number; readonly mode: LoadMode },
  opts: MeasureOptions,
  hooks: LevelHooks = {},
): Promise<LevelOutcome> {
  const { mode, batch } = level;
  let bucket = new Bucket();
  const kept: Bucket[] = [];
  // Failures of the whole level, warm-up and drain included: a failing server is reported, never hidden.
  const allErrors = new Bucket();
  let seq = 0;
  let sent = 0;
  let succeeded = 0;
  let failed = 0;
  let running = true;
  let outstanding = 0;
  let onIdle: (() => void) | undefined;
  let countTarget = Number.POSITIVE_INFINITY;
  let onCount: (() => void) | undefined;

  const record = (startMs: number, err: unknown): void => {
    const b = bucket;
    if (err === undefined) {
      b.samples.push((performance.now() - startMs) * 1000);
      b.succeeded += 1;
      succeeded += 1;
    } else {
      const key = failureKey(err);
      b.fail(key);
      allErrors.fail(key);
      failed += 1;
    }
    if (onCount !== undefined && b.succeeded + b.failed >= countTarget) {
      const f = onCount;
      onCount = undefined;
      f();
    }
  };

  const fire = (): Promise<void> => {
    const n = seq++;
    sent += 1;
    outstanding += 1;
    const t0 = performance.now();
    return client
      .send(n)
      .then(
        () => record(t0, undefined),
        (err: unknown) => record(t0, err ?? new Error('unknown failure')),
      )
      .finally(() => {
        outstanding -= 1;
        if (outstanding === 0 && onIdle !== undefined) onIdle();
      });
  };

  // ---- load generation
  const loops: Promise<void>[] = [];
  let rateTimer: NodeJS.Timeout | undefined;
  if (mode.kind === 'concurrency') {
    for (let i = 0; i < mode.concurrency; i++) {
      loops.push(
        (async () => {
          let lastYieldMs = performance.now();
          while (running) {
            await fire();
            // A client that completes without reaching the event loop (in-process ORT runs synchronously) would
            // starve the window timers; yield every few milliseconds so windows end on time.
            const now = performance.now();
            if (now - lastYieldMs > 5) {
              await yieldToLoop();
              lastYieldMs = performance.now();
            }
          }
        })(),
      );
    }
  } else {
    const intervalMs = 1000 / mode.requestsPerSec;
    const rand = seededRandom(7);
    let nextMs = performance.now();
    const tick = (): void => {
      if (!running) return;
      const now = performance.now();
      // Send every request whose time has come (a late timer sends the overdue ones at once, keeping the rate).
      while (nextMs <= now) {
        if (outstanding >= opts.maxInflight) bucket.dropped += 1;
        else void fire();
        nextMs += mode.distribution === 'poisson' ? -Math.log(1 - rand()) * intervalMs : intervalMs;
      }
      rateTimer = setTimeout(tick, Math.max(0, nextMs - performance.now()));
    };
    tick();
  }

  const levelStartMs = performance.now();
  let progressTimer: NodeJS.Timeout | undefined;
  let phase: LevelProgress['phase'] = 'warmup';
  let windows: WindowResult[] = [];
  const warnings: string[] = [];
  const report = (): void =>
    hooks.onProgress?.({
      phase,
      window: windows.length + 1,
      maxTrials: opts.maxTrials,
      succeeded: bucket.succeeded,
      failed: bucket.failed,
      elapsedMs: performance.now() - levelStartMs,
      ...(windows.length > 0 ? { lastWindow: windows[windows.length - 1] as WindowResult } : {}),
    });
  if (hooks.onProgress !== undefined) {
    progressTimer = setInterval(report, 250);
    progressTimer.unref();
  }

  // One statistics snapshot per window boundary; undefined where reading it failed (the server may be the thing
  // that is failing: the client numbers are still worth reporting).
  const snapshots: (StatsCounters | undefined)[] = [];
  const takeSnapshot = async (): Promise<StatsCounters | undefined> => {
    if (hooks.snapshot === undefined) return undefined;
    try {
      return await hooks.snapshot();
    } catch (err) {
      const message = `server statistics unavailable: ${err instanceof Error ? err.message : String(err)}`;
      if (!warnings.includes(message)) warnings.push(message);
      return undefined;
    }
  };
  const between = (a: StatsCounters | undefined, b: StatsCounters | undefined): ServerBreakdown | undefined =>
    a === undefined || b === undefined ? undefined : breakdownBetween(a, b);
  let stable = false;
  let totalDropped = 0;
  try {
    // ---- warm-up, discarded
    if (opts.warmupMs > 0) await sleep(opts.warmupMs);
    bucket = new Bucket();
    let windowStartMs = performance.now();
    if (hooks.snapshot !== undefined) snapshots.push(await takeSnapshot());
    phase = 'measuring';

    // ---- measurement windows
    for (let trial = 0; trial < opts.maxTrials; trial++) {
      if (opts.window.kind === 'time') {
        await sleep(opts.window.durationMs);
      } else {
        countTarget = opts.window.requests;
        if (bucket.succeeded + bucket.failed < countTarget) await new Promise<void>((resolve) => (onCount = resolve));
      }
      const endMs = performance.now();
      const done = bucket;
      bucket = new Bucket();
      kept.push(done);
      totalDropped += done.dropped;
      let server: ServerBreakdown | undefined;
      if (hooks.snapshot !== undefined) {
        const snap = await takeSnapshot();
        server = between(snapshots[snapshots.length - 1], snap);
        snapshots.push(snap);
      }
      windows = [...windows, windowOf(done, windowStartMs - levelStartMs, endMs - windowStartMs, batch, server)];
      windowStartMs = endMs;
      report();
      if (done.succeeded === 0 && done.failed > 0) {
        warnings.push(`every request of window ${windows.length} failed; stopped this level`);
        break;
      }
      if (isStable(windows, opts.stabilityWindows, opts.stabilityPercent, opts.stabilityPercentile)) {
        stable = true;
        break;
      }
    }
  } finally {
    // ---- stop the load and wait for what is still in flight (it counts in `sent`, not in any window)
    running = false;
    phase = 'draining';
    if (rateTimer !== undefined) clearTimeout(rateTimer);
    if (outstanding > 0) await new Promise<void>((resolve) => (onIdle = resolve));
    await Promise.all(loops);
    if (progressTimer !== undefined) clearInterval(progressTimer);
  }

  if (!stable && !warnings.some((w) => w.startsWith('every request'))) {
    warnings.push(
      `no stable measurement within ${opts.maxTrials} windows (the last ${opts.stabilityWindows} differ by more than ${opts.stabilityPercent}%); ` +
        'the merged numbers are reported anyway: try longer windows',
    );
  }
  const n = Math.min(opts.stabilityWindows, windows.length);
  const lastBuckets = kept.slice(kept.length - n);
  const lastWindows = windows.slice(windows.length - n);
  const mergedBucket = new Bucket();
  mergedBucket.samples.append(LatencySamples.merge(lastBuckets.map((b) => b.samples)));
  for (const b of lastBuckets) {
    mergedBucket.succeeded += b.succeeded;
    mergedBucket.failed += b.failed;
  }
  const mergedDuration = lastWindows.reduce((s, w) => s + w.durationMs, 0);
  const mergedServer = snapshots.length > n ? between(snapshots[snapshots.length - 1 - n], snapshots[snapshots.length - 1]) : undefined;
  const mergedWindow = windowOf(mergedBucket, lastWindows[0]?.startMs ?? 0, mergedDuration, batch, mergedServer);
  const avg = mergedWindow.latency.avgUs;
  return {
    result: {
      protocol: client.protocol,
      batch,
      mode,
      stable,
      warnings,
      windows,
      merged: mergedWindow,
      errors: mergeErrors([allErrors]),
      dropped: totalDropped,
      ...(mergedServer === undefined || !(mergedServer.requests > 0)
        ? {}
        : { clientOverheadUs: avg - computeUs(mergedServer), outsideCoreUs: avg - mergedServer.requestUs }),
    },
    sent,
    succeeded,
    failed,
  };
}

/** The suites' measurement settings: timed windows, stable within 10 % over 3 windows, at most `maxTrials` of them. */
export function suiteMeasureOptions(durationS: number, warmupS: number, maxTrials: number): MeasureOptions {
  return {
    window: { kind: 'time', durationMs: durationS * 1000 },
    warmupMs: warmupS * 1000,
    stabilityPercent: 10,
    stabilityWindows: 3,
    maxTrials,
    maxInflight: 1024,
  };
}
