import { cpus, freemem, totalmem } from 'node:os';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { ModelStatsSnapshot } from './model-stats.ts';
import { MODEL_LABELS } from './model-labels.ts';
import { registerModelStatCounters } from './model-stat-metrics.ts';
import { LocalHistogram } from './local-histogram.ts';

/** What the metrics read at scrape time; everything but statistics and pending is optional. */
export interface MetricsSource {
  /** Statistics of every loaded model version. */
  statistics(): readonly ModelStatsSnapshot[];
  /** Queued (not yet executing) requests per model version. */
  pending(): readonly { model: string; version: string; pending: number }[];
  /** Engine instances per loaded model version: the provider that loaded them and how many are busy now. */
  instances?(): readonly { model: string; version: string; provider: string; instances: number; busy?: number }[];
  /** State of every model the repository knows (Triton's repository index states). */
  modelStates?(): readonly { model: string; state: string }[];
  /**
   * Engine chains (engine.failover): every link of each loaded version's chain, the one serving (position) and
   * the breaker state. Versions without a chain are left out.
   */
  engineChains?(): readonly EngineChainSample[];
  /** The response cache, when one is configured. */
  cache?(): { bytes: number; capacityBytes: number; entries: number; evictions: number } | undefined;
}

/** One model version's engine chain as the metrics read it (src/engine/engine-chain.ts). */
export interface EngineChainSample {
  readonly model: string;
  readonly version: string;
  readonly links: readonly EngineLinkLabel[];
  /** The position of the link serving now; undefined while none does. */
  readonly active: number | undefined;
  readonly state: 'closed' | 'open' | 'half_open';
}

/** A link of an engine chain: provider name and position (0 = primary). */
export interface EngineLinkLabel {
  readonly provider: string;
  readonly position: number;
}

/** Breaker states as gauge values (docs/metrics.md). */
const BREAKER_STATE_VALUE = { closed: 0, open: 1, half_open: 2 } as const;

export interface MetricsOptions {
  /** Latency and batch-size histograms (on by default; Triton has them off, docs/protocol.md §3). */
  readonly histograms?: boolean;
}

/** Triton's `reason` label values of nv_inference_request_failure (S:docs/user_guide/metrics.md). */
export type FailureReason = 'REJECTED' | 'CANCELED' | 'BACKEND' | 'OTHER';

/** Error categories (src/errors/registry.ts) → Triton failure reasons. */
export function failureReasonOf(category: string): FailureReason {
  switch (category) {
    case 'RESOURCE_EXHAUSTED':
    case 'DEADLINE_EXCEEDED':
    case 'UNAVAILABLE':
      return 'REJECTED';
    case 'CANCELLED':
      return 'CANCELED';
    case 'INTERNAL':
      return 'BACKEND';
    default:
      return 'OTHER';
  }
}

/**
 * Per-model-version observations fed by the statistics hooks (see observed-stats.ts): one object per loaded
 * version holds its labelled histogram children, so the hot path does no label hashing.
 */
export interface VersionObserver {
  /** A request succeeded: seconds from arrival to response, seconds queued. */
  success(totalSeconds: number, queueSeconds: number): void;
  /** One batch execution: rows in the batch, seconds of input preparation + engine run + output split. */
  execution(rows: number, computeSeconds: number): void;
}

// Seconds: from 50 µs (a tiny model's engine run) to 10 s (a queue under overload).
const LATENCY_BUCKETS_S = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LATENCY_BUCKETS_MS = LATENCY_BUCKETS_S.map((s) => s * 1000);
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

type ModelLabel = (typeof MODEL_LABELS)[number];

/**
 * The server's Prometheus metrics (prom-client). Triton's nv_inference_* families keep Triton's names, types
 * and {model, version} labels (docs/protocol.md §3) so existing dashboards work; rtserve adds latency and batch-size
 * histograms (on by default), per-protocol request counts, front-end counters and engine gauges under
 * rtserve_*. Counters that Triton derives from statistics are read from the models' statistics at scrape
 * time, so the hot path pays nothing for them.
 *
 * Front ends use the small API below: `wsConnections.inc()/dec()`, `wsDroppedFrames.inc({reason})`,
 * `rateLimited.inc({protocol})`; the core calls `inferDone` once per inference request.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  /** Open WebSocket connections (the WebSocket front end calls inc() on open and dec() on close). */
  readonly wsConnections: Gauge;
  /** WebSocket frames dropped (backpressure, oversize, malformed): `inc({ reason })`. */
  readonly wsDroppedFrames: Counter<'reason'>;
  /**
   * Clients bounded for being too slow: `http_head` (request head not complete within headersTimeoutMs: slowloris),
   * `http_body` (body not complete within requestTimeoutMs), `ws_refused` (a WebSocket request refused because
   * results wait unread past wsMaxBufferedBytes), `ws_closed` (a socket closed at 4 × that), `grpc_closed` (a
   * ModelStreamInfer stream ended at 4 × that), `sse_closed` (a generate_stream response cut past it).
   */
  readonly slowClients: Counter<'kind'>;
  /** Requests refused by a rate limit or concurrency cap: `inc({ protocol })`. */
  readonly rateLimited: Counter<'protocol'>;
  /** Every HTTP request by route pattern (bounded cardinality) and status code. */
  readonly httpRequests: Counter<'route' | 'code'>;
  private readonly failures: Counter<ModelLabel | 'reason'>;
  private readonly queueFull: Counter<ModelLabel>;
  private readonly failovers: Counter<ModelLabel | 'from' | 'to' | 'reason'>;
  private readonly recoveries: Counter<ModelLabel | 'from' | 'to'>;
  private readonly probes: Counter<ModelLabel | 'provider' | 'position' | 'result'>;
  private readonly requestHist: LocalHistogram | undefined;
  private readonly queueHist: LocalHistogram | undefined;
  private readonly computeHist: LocalHistogram | undefined;
  private readonly firstResponseHist: LocalHistogram | undefined;
  private readonly batchHist: LocalHistogram | undefined;
  /**
   * Counts of the two per-request counters, kept here and added to the prom-client counters when they are read
   * (their `collect`): a labelled `inc` hashes its labels on every call. protocol → [success, failure];
   * route → status code → count.
   */
  private readonly inferCounts = new Map<string, [number, number]>();
  private readonly httpCounts = new Map<string, Map<number, number>>();
  private source: MetricsSource;

  constructor(source: MetricsSource, options: MetricsOptions = {}) {
    this.source = source;
    const registry = this.registry;
    // prom-client's names already start with process_ / nodejs_: rtserve_process_cpu_seconds_total, rtserve_nodejs_*.
    collectDefaultMetrics({ register: registry, prefix: 'rtserve_' });
    const self = this;

    // The model statistics (Triton's per-model families, rtserve's per-GPU ones), read at scrape time.
    registerModelStatCounters(registry, () => self.source.statistics());

    // Failures are counted where the reason is known (the core sees every failed request of a known model).
    this.failures = new Counter({
      name: 'nv_inference_request_failure',
      help: 'Number of failed inference requests, all batch sizes, by reason (REJECTED, CANCELED, BACKEND, OTHER)',
      labelNames: [...MODEL_LABELS, 'reason'],
      registers: [registry],
    });
    new Gauge({
      name: 'nv_inference_pending_request_count',
      help: 'Instantaneous number of pending requests awaiting execution per-model',
      labelNames: MODEL_LABELS,
      registers: [registry],
      collect() {
        this.reset();
        for (const p of self.source.pending()) this.set({ model: p.model, version: p.version }, p.pending);
      },
    });

    if (options.histograms !== false) {
      const hist = (name: string, help: string, buckets: number[]): LocalHistogram => new LocalHistogram(name, help, MODEL_LABELS, buckets, registry);
      this.requestHist = hist(
        'rtserve_inference_request_duration_seconds',
        'Inference request duration from arrival to response (successful requests)',
        LATENCY_BUCKETS_S,
      );
      this.queueHist = hist(
        'rtserve_inference_queue_duration_seconds',
        'Time a successful request waited in the queue before its batch was dispatched',
        LATENCY_BUCKETS_S,
      );
      this.computeHist = hist(
        'rtserve_inference_compute_duration_seconds',
        'Duration of one batch execution: input preparation, engine run and output split',
        LATENCY_BUCKETS_S,
      );
      this.firstResponseHist = hist(
        'nv_inference_first_response_histogram_ms',
        'Duration from request arrival to its first response in milliseconds',
        LATENCY_BUCKETS_MS,
      );
      this.batchHist = hist('rtserve_inference_batch_size', 'Rows (batch size) of each model execution', BATCH_BUCKETS);
    }

    // Registered with the registry and filled on each scrape from inferCounts: nothing else holds it.
    new Counter({
      name: 'rtserve_inference_requests_total',
      help: 'Inference requests by front-end protocol (http, grpc, ws, ...) and outcome (success, failure)',
      labelNames: ['protocol', 'outcome'],
      registers: [registry],
      collect() {
        for (const [protocol, counts] of self.inferCounts) {
          if (counts[0] > 0) this.inc({ protocol, outcome: 'success' }, counts[0]);
          if (counts[1] > 0) this.inc({ protocol, outcome: 'failure' }, counts[1]);
          counts[0] = 0;
          counts[1] = 0;
        }
      },
    });
    this.queueFull = new Counter({
      name: 'rtserve_queue_full_rejections_total',
      help: 'Requests rejected at once because the model queue was full (QUEUE_FULL, HTTP 429)',
      labelNames: MODEL_LABELS,
      registers: [registry],
    });
    this.rateLimited = new Counter({
      name: 'rtserve_rate_limited_total',
      help: 'Requests refused by a rate limit or concurrency cap, by protocol',
      labelNames: ['protocol'],
      registers: [registry],
    });
    this.httpRequests = new Counter({
      name: 'rtserve_http_requests_total',
      help: 'HTTP requests by route pattern and status code (all endpoints, not only inference)',
      labelNames: ['route', 'code'],
      registers: [registry],
      collect() {
        for (const [route, codes] of self.httpCounts) {
          for (const [code, n] of codes) {
            if (n > 0) this.inc({ route, code: String(code) }, n);
            codes.set(code, 0);
          }
        }
      },
    });
    this.wsConnections = new Gauge({ name: 'rtserve_ws_connections', help: 'Open WebSocket connections', registers: [registry] });
    this.slowClients = new Counter({
      name: 'rtserve_slow_clients_total',
      help: 'Clients bounded for being too slow: http_head (headersTimeoutMs), http_body (requestTimeoutMs), ws_refused / ws_closed / grpc_closed / sse_closed (wsMaxBufferedBytes)',
      labelNames: ['kind'],
      registers: [registry],
    });
    this.wsDroppedFrames = new Counter({
      name: 'rtserve_ws_dropped_frames_total',
      help: 'WebSocket frames dropped, by reason (backpressure, too_large, malformed, ...)',
      labelNames: ['reason'],
      registers: [registry],
    });

    new Gauge({
      name: 'rtserve_model_instances',
      help: 'Engine instances of each loaded model version, by the execution provider that loaded them',
      labelNames: [...MODEL_LABELS, 'provider'],
      registers: [registry],
      collect() {
        this.reset();
        for (const i of self.source.instances?.() ?? []) this.set({ model: i.model, version: i.version, provider: i.provider }, i.instances);
      },
    });
    new Gauge({
      name: 'rtserve_model_busy_instances',
      help: 'Engine instances running a batch right now',
      labelNames: MODEL_LABELS,
      registers: [registry],
      collect() {
        this.reset();
        for (const i of self.source.instances?.() ?? []) if (i.busy !== undefined) this.set({ model: i.model, version: i.version }, i.busy);
      },
    });
    new Gauge({
      name: 'rtserve_model_ready',
      help: '1 when the model is READY, 0 otherwise (LOADING, UNAVAILABLE, ...)',
      labelNames: ['model'],
      registers: [registry],
      collect() {
        this.reset();
        for (const m of self.source.modelStates?.() ?? []) this.set({ model: m.model }, m.state === 'READY' ? 1 : 0);
      },
    });

    // Engine chains (docs/operations.md, "Degradation across engines"): which provider serves, the breaker, and
    // counters of failovers, recoveries and health probes.
    new Gauge({
      name: 'rtserve_model_active_provider',
      help: 'Engine chain of each model version: 1 for the provider serving now, 0 for the other providers of the chain (position 0 = primary)',
      labelNames: [...MODEL_LABELS, 'provider', 'position'],
      registers: [registry],
      collect() {
        this.reset();
        for (const c of self.source.engineChains?.() ?? []) {
          for (const l of c.links)
            this.set({ model: c.model, version: c.version, provider: l.provider, position: String(l.position) }, l.position === c.active ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: 'rtserve_model_engine_breaker_state',
      help: 'Circuit breaker of each model version engine chain: 0 closed (on the primary), 1 open (on a fallback or on none), 2 half-open (a health probe is running)',
      labelNames: MODEL_LABELS,
      registers: [registry],
      collect() {
        this.reset();
        for (const c of self.source.engineChains?.() ?? []) this.set({ model: c.model, version: c.version }, BREAKER_STATE_VALUE[c.state]);
      },
    });
    this.failovers = new Counter({
      name: 'rtserve_model_failovers_total',
      help: 'Traffic of a model version moved down its engine chain, by from/to provider (to="none" when no provider was left) and reason (load_failed, worker_died, device_error)',
      labelNames: [...MODEL_LABELS, 'from', 'to', 'reason'],
      registers: [registry],
    });
    this.recoveries = new Counter({
      name: 'rtserve_model_failover_recoveries_total',
      help: 'Traffic of a model version moved back up its engine chain after a health probe passed, by from/to provider',
      labelNames: [...MODEL_LABELS, 'from', 'to'],
      registers: [registry],
    });
    this.probes = new Counter({
      name: 'rtserve_model_failover_probes_total',
      help: 'Health probes (reload + warmup inference) of a provider the model version failed over from, by result (passed, failed)',
      labelNames: [...MODEL_LABELS, 'provider', 'position', 'result'],
      registers: [registry],
    });

    const cacheGauge = (name: string, help: string, pick: (c: NonNullable<ReturnType<NonNullable<MetricsSource['cache']>>>) => number): void => {
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          const c = self.source.cache?.();
          this.set(c === undefined ? 0 : pick(c));
        },
      });
    };
    cacheGauge('rtserve_response_cache_bytes', 'Bytes held by the response cache', (c) => c.bytes);
    cacheGauge('rtserve_response_cache_capacity_bytes', 'Capacity of the response cache in bytes (0 = no cache)', (c) => c.capacityBytes);
    cacheGauge('rtserve_response_cache_entries', 'Responses held by the response cache', (c) => c.entries);
    new Counter({
      name: 'rtserve_response_cache_evictions_total',
      help: 'Responses evicted from the response cache to make room (LRU)',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(self.source.cache?.()?.evictions ?? 0);
      },
    });

    // Triton's CPU gauges (docs/protocol.md §3): the whole host, as Triton reports them.
    let lastCpu = cpuTimes();
    new Gauge({
      name: 'nv_cpu_utilization',
      help: 'CPU utilization rate [0.0 - 1.0] since the previous scrape',
      registers: [registry],
      collect() {
        const now = cpuTimes();
        const total = now.total - lastCpu.total;
        this.set(total > 0 ? Math.min(1, Math.max(0, (now.busy - lastCpu.busy) / total)) : 0);
        lastCpu = now;
      },
    });
    new Gauge({
      name: 'nv_cpu_memory_total_bytes',
      help: 'CPU total memory (RAM), in bytes',
      registers: [registry],
      collect() {
        this.set(totalmem());
      },
    });
    new Gauge({
      name: 'nv_cpu_memory_used_bytes',
      help: 'CPU used memory (RAM), in bytes',
      registers: [registry],
      collect() {
        this.set(totalmem() - freemem());
      },
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Late binding: the server wires its source once the core exists. */
  setSource(source: MetricsSource): void {
    this.source = source;
  }

  /** The Prometheus text exposition. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** One HTTP request answered, by route pattern and status code (rtserve_http_requests_total). */
  httpRequestDone(route: string, statusCode: number): void {
    let codes = this.httpCounts.get(route);
    if (codes === undefined) {
      codes = new Map();
      this.httpCounts.set(route, codes);
    }
    codes.set(statusCode, (codes.get(statusCode) ?? 0) + 1);
  }

  /** Histogram series for one model version (no-ops when histograms are off). */
  observerFor(model: string, version: string): VersionObserver {
    const labels = { model, version };
    // Series exist from the load on, at 0, as in Triton: rate() and alerts see a model before its first failure.
    for (const reason of ['REJECTED', 'CANCELED', 'BACKEND', 'OTHER'] as const) this.failures.inc({ ...labels, reason }, 0);
    this.queueFull.inc(labels, 0);
    const request = this.requestHist?.series(labels);
    const queue = this.queueHist?.series(labels);
    const compute = this.computeHist?.series(labels);
    const first = this.firstResponseHist?.series(labels);
    const batch = this.batchHist?.series(labels);
    return {
      success(totalSeconds, queueSeconds) {
        request?.observe(totalSeconds);
        // Non-decoupled models answer once: the first response is the response.
        first?.observe(totalSeconds * 1000);
        queue?.observe(queueSeconds);
      },
      execution(rows, computeSeconds) {
        batch?.observe(rows);
        compute?.observe(computeSeconds);
      },
    };
  }

  /** Engine chain events (src/engine/engine-chain.ts EngineChainEvents), counted per model version. */
  engineChainEvents(): {
    failover(e: { model: string; version: string; from: EngineLinkLabel; to: EngineLinkLabel | undefined; reason: string }): void;
    recovered(e: { model: string; version: string; from: EngineLinkLabel | undefined; to: EngineLinkLabel }): void;
    probed(e: { model: string; version: string; link: EngineLinkLabel; passed: boolean }): void;
  } {
    return {
      failover: (e) =>
        this.failovers.inc({ model: e.model, version: e.version, from: e.from.provider, to: e.to?.provider ?? 'none', reason: e.reason }),
      recovered: (e) => this.recoveries.inc({ model: e.model, version: e.version, from: e.from?.provider ?? 'none', to: e.to.provider }),
      probed: (e) =>
        this.probes.inc({
          model: e.model,
          version: e.version,
          provider: e.link.provider,
          position: String(e.link.position),
          result: e.passed ? 'passed' : 'failed',
        }),
    };
  }

  /** Streaming (decoupled) front ends report their first response here. */
  observeFirstResponse(model: string, version: string, ms: number): void {
    this.firstResponseHist?.observe({ model, version }, ms);
  }

  /**
   * Called by the core once per inference request of a known model version: the per-protocol count, and for a
   * failure its Triton reason (plus the queue-full counter for QUEUE_FULL).
   */
  inferDone(protocol: string, model: string, version: string, error?: { readonly code: string; readonly category: string }): void {
    let counts = this.inferCounts.get(protocol);
    if (counts === undefined) {
      counts = [0, 0];
      this.inferCounts.set(protocol, counts);
    }
    counts[error === undefined ? 0 : 1] += 1;
    if (error === undefined) return;
    this.failures.inc({ model, version, reason: failureReasonOf(error.category) });
    if (error.code === 'QUEUE_FULL') this.queueFull.inc({ model, version });
  }
}

function cpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const c of cpus()) {
    const t = c.times;
    const all = t.user + t.nice + t.sys + t.idle + t.irq;
    total += all;
    busy += all - t.idle;
  }
  return { busy, total };
}

/** Backward-compatible helper: the registry of a fresh ServerMetrics. */
export function createMetricsRegistry(source: MetricsSource, options: MetricsOptions = {}): Registry {
  return new ServerMetrics(source, options).registry;
}
