/**
 * Generation metrics on the server's Prometheus registry (ServerMetrics.registry, src/observability/metrics.ts):
 * time to first token, inter-token latency, tokens (counters: tokens/s is PromQL's `rate()` over them, over the
 * window the dashboard picks, not a rate the server fixes), sequences running and queued, step batch sizes, finished
 * generations by reason, and for the paged scheduler (paged-batcher.ts) KV blocks used and free, prefix-cache
 * lookups and hits, and preemptions. `registerGenerateMetrics` is the
 * hook: the server composition calls it once with its registry and hands the sink to the GenerateService.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { FinishReason } from './types.ts';

export interface GenerateMetricsSink {
  firstToken(model: string, seconds: number): void;
  interToken(model: string, seconds: number): void;
  tokens(model: string, count: number): void;
  promptTokens(model: string, count: number): void;
  /** One engine step; 'mixed' is a paged step with prompt chunks and decode tokens together. */
  step(model: string, batchSize: number, seconds: number, kind: StepKind): void;
  sequences(model: string, running: number, queued: number): void;
  finished(model: string, reason: FinishReason | 'error'): void;
  /** KV blocks referenced by sequences, and blocks free or reclaimable (idle prefix-cache blocks). */
  kvBlocks(model: string, used: number, free: number): void;
  /** Full prompt blocks looked up in the prefix cache at admission, and how many were found. */
  prefixCache(model: string, queried: number, hits: number): void;
  /** A running sequence gave its blocks back to let another go on (it is recomputed later). */
  preemption(model: string): void;
}

export type StepKind = 'prefill' | 'decode' | 'mixed';

/** Latency buckets from 1 ms to 10 s: token latencies on a CPU are milliseconds, first tokens under load seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128];

export function registerGenerateMetrics(registry: Registry): GenerateMetricsSink {
  const registers = [registry];
  const ttft = new Histogram({
    name: 'rtserve_generate_time_to_first_token_seconds',
    help: 'Time from admission of a generation request to its first token',
    labelNames: ['model'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const itl = new Histogram({
    name: 'rtserve_generate_inter_token_latency_seconds',
    help: 'Time between consecutive tokens of one generation',
    labelNames: ['model'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const tokens = new Counter({ name: 'rtserve_generate_tokens_total', help: 'Generated tokens', labelNames: ['model'], registers });
  const prompt = new Counter({ name: 'rtserve_generate_prompt_tokens_total', help: 'Prompt tokens prefilled', labelNames: ['model'], registers });
  const stepSize = new Histogram({
    name: 'rtserve_generate_step_batch_size',
    help: 'Sequences in one engine step (continuous batching)',
    labelNames: ['model', 'kind'],
    buckets: BATCH_BUCKETS,
    registers,
  });
  const stepTime = new Histogram({
    name: 'rtserve_generate_step_duration_seconds',
    help: 'Duration of one engine step (prefill or decode)',
    labelNames: ['model', 'kind'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const running = new Gauge({ name: 'rtserve_generate_sequences_in_flight', help: 'Sequences being decoded', labelNames: ['model'], registers });
  const queued = new Gauge({
    name: 'rtserve_generate_sequences_queued',
    help: 'Generation requests waiting for a slot',
    labelNames: ['model'],
    registers,
  });
  const finished = new Counter({
    name: 'rtserve_generate_requests_total',
    help: 'Finished generations by finish reason (stop, length, cancelled, error)',
    labelNames: ['model', 'finish_reason'],
    registers,
  });
  const paged = pagedMetrics(registers);
  return {
    ...paged,
    firstToken: (model, s) => ttft.observe({ model }, s),
    interToken: (model, s) => itl.observe({ model }, s),
    tokens: (model, n) => tokens.inc({ model }, n),
    promptTokens: (model, n) => prompt.inc({ model }, n),
    step: (model, size, s, kind) => {
      stepSize.observe({ model, kind }, size);
      stepTime.observe({ model, kind }, s);
    },
    sequences: (model, r, q) => {
      running.set({ model }, r);
      queued.set({ model }, q);
    },
    finished: (model, reason) => finished.inc({ model, finish_reason: reason }),
  };
}

function pagedMetrics(registers: Registry[]): Pick<GenerateMetricsSink, 'kvBlocks' | 'prefixCache' | 'preemption'> {
  const blocks = new Gauge({
    name: 'rtserve_generate_kv_blocks',
    help: 'KV cache blocks of the paged scheduler by state (used: referenced by sequences; free: free or idle in the prefix cache)',
    labelNames: ['model', 'state'],
    registers,
  });
  const queried = new Counter({
    name: 'rtserve_generate_prefix_cache_queries_total',
    help: 'Full prompt blocks looked up in the prefix cache at admission',
    labelNames: ['model'],
    registers,
  });
  const hits = new Counter({
    name: 'rtserve_generate_prefix_cache_hits_total',
    help: 'Full prompt blocks found in the prefix cache (not recomputed)',
    labelNames: ['model'],
    registers,
  });
  const preemptions = new Counter({
    name: 'rtserve_generate_preemptions_total',
    help: 'Running sequences preempted (blocks given back, recomputed later) because the KV cache was full',
    labelNames: ['model'],
    registers,
  });
  return {
    kvBlocks: (model, used, free) => {
      blocks.set({ model, state: 'used' }, used);
      blocks.set({ model, state: 'free' }, free);
    },
    prefixCache: (model, q, h) => {
      queried.inc({ model }, q);
      hits.inc({ model }, h);
    },
    preemption: (model) => preemptions.inc({ model }),
  };
}
