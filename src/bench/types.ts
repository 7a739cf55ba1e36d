/**
 * Shapes of `rtserve bench` options and results. The measurement follows perf_analyzer (docs/protocol.md §4.1):
 * measurement windows (time or request count), a stability rule over the last three windows, p50/p90/p95/p99
 * client latency, throughput, and the server-side breakdown read from the statistics extension.
 */

/** How load is offered: N requests always outstanding, or requests started at a fixed rate (per second). */
export type LoadMode =
  | { readonly kind: 'concurrency'; readonly concurrency: number }
  | { readonly kind: 'rate'; readonly requestsPerSec: number; readonly distribution: 'constant' | 'poisson' };

/** How a measurement window ends: after a fixed time (perf_analyzer time_windows) or a request count (count_windows). */
export type WindowSpec = { readonly kind: 'time'; readonly durationMs: number } | { readonly kind: 'count'; readonly requests: number };

export interface MeasureOptions {
  readonly window: WindowSpec;
  /** Load applied before the first window; its results are discarded. */
  readonly warmupMs: number;
  /** Stability: max/min of the last `stabilityWindows` windows within this percentage (perf_analyzer default 10). */
  readonly stabilityPercent: number;
  /** How many windows are compared (perf_analyzer uses 3). */
  readonly stabilityWindows: number;
  /** Windows tried before giving up on stability (perf_analyzer --max-trials, default 10). */
  readonly maxTrials: number;
  /** Stabilize on this latency percentile instead of the average (perf_analyzer --percentile). */
  readonly stabilityPercentile?: number;
  /** In rate mode, requests still outstanding beyond this are not sent (counted as `dropped`). */
  readonly maxInflight: number;
}

/** Client-observed latency summary of successful requests, in microseconds. */
export interface LatencySummary {
  readonly count: number;
  readonly avgUs: number;
  readonly stdUs: number;
  readonly minUs: number;
  readonly maxUs: number;
  readonly p50Us: number;
  readonly p90Us: number;
  readonly p95Us: number;
  readonly p99Us: number;
}

/** Failures grouped by what the client saw (HTTP status and server message, or a transport error). */
export interface ErrorCount {
  readonly message: string;
  readonly count: number;
}

/**
 * The server's own account of a window, as deltas of GET /v2/models/<m>/stats (Triton statistics extension,
 * docs/protocol.md §2.4). Durations are per-request averages in microseconds. `overheadUs` is Triton's "overhead":
 * request time minus queue and compute, i.e. time inside the server core that is neither (it starts when the
 * front end hands the decoded request to the core, so HTTP parsing and response encoding are not in it).
 */
export interface ServerBreakdown {
  readonly requests: number;
  readonly failures: number;
  readonly inferences: number;
  readonly executions: number;
  /** inference_count / execution_count: the average batch (in rows) that the batcher formed. */
  readonly avgBatchSize: number;
  readonly requestUs: number;
  readonly queueUs: number;
  readonly computeInputUs: number;
  readonly computeInferUs: number;
  readonly computeOutputUs: number;
  readonly overheadUs: number;
}

export interface WindowResult {
  readonly startMs: number;
  readonly durationMs: number;
  readonly succeeded: number;
  readonly failed: number;
  /** Successful requests per second. */
  readonly requestsPerSec: number;
  /** Successful inferences (requests × batch) per second: perf_analyzer's "infer/sec". */
  readonly inferencesPerSec: number;
  readonly latency: LatencySummary;
  readonly server?: ServerBreakdown;
}

/** One load level (a concurrency or a rate) of one protocol and batch size. */
export interface LevelResult {
  readonly protocol: string;
  readonly batch: number;
  readonly mode: LoadMode;
  /** True when the last `stabilityWindows` windows met the stability rule. */
  readonly stable: boolean;
  /** Why the level stopped early or is not trustworthy (instability, all requests failing). */
  readonly warnings: readonly string[];
  readonly windows: readonly WindowResult[];
  /** The last `stabilityWindows` windows merged (perf_analyzer reports the merge of the stable windows). */
  readonly merged: WindowResult;
  readonly errors: readonly ErrorCount[];
  /** Rate mode: requests not sent because `maxInflight` were outstanding. */
  readonly dropped: number;
  /**
   * Client-observed average latency minus the server's average compute (input + infer + output) over the same
   * windows: everything that is not compute, as the client sees it (both HTTP stacks, codecs, loopback, queue).
   */
  readonly clientOverheadUs?: number;
  /** Client-observed average latency minus the server's average request time: transport + codec outside the core. */
  readonly outsideCoreUs?: number;
}

export interface MachineInfo {
  readonly hostname: string;
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly os: string;
  readonly node: string;
  /** 1-minute load average when the run started (a busy machine skews every number). */
  readonly loadAvg1: number;
}

export interface BenchTotals {
  readonly sent: number;
  readonly succeeded: number;
  readonly failed: number;
}

/** What every results file of `rtserve bench` starts with: the tool, when, how, on what, against what. */
export interface ReportHeader {
  readonly tool: 'rtserve bench';
  readonly version: string;
  readonly date: string;
  readonly command: string;
  readonly machine: MachineInfo;
  readonly model: string;
  readonly modelVersion?: string;
  readonly url?: string;
}

export interface BenchReport extends ReportHeader {
  readonly measure: MeasureOptions;
  /** Present when the server's protocols sent their tensors through system shared memory (--shared-memory system). */
  readonly sharedMemory?: 'system';
  readonly levels: readonly LevelResult[];
  /** Every request the load generator sent during the run (warmup included), per protocol. */
  readonly totals: Readonly<Record<string, BenchTotals>>;
  /**
   * The server's success/failure counts over the whole run (from a statistics snapshot before the first request
   * and one after the last response), to cross-check `totals`; absent when no server was measured.
   */
  readonly serverTotals?: { readonly requests: number; readonly failures: number };
}
