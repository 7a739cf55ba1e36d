/**
 * Generation metrics on the server's Prometheus registry (ServerMetrics.registry, src/observability/metrics.ts):
 * time to first token, inter-token latency, tokens (counters: tokens/s is PromQL's `rate()` over them, over the
 * window the dashboard picks, not a rate the server fixes), sequences running and queued, decode-step batch sizes and finished generations by reason. `registerGenerateMetrics` is the
 * hook: the server composition calls it once with its registry and hands the sink to the GenerateService.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { FinishReason } from './types.ts';

export interface GenerateMetricsSink {
  firstToken(model: string, seconds: number): void;
  interToken(model: string, seconds: number): void;
  tokens(model: string, count: number): void;
  promptTokens(model: string, count: number): void;
  step(model: string, batchSize: number, seconds: number, kind: 'prefill' | 'decode'): void;
  sequences(model: string, running: number, queued: number): void;
  finished(model: string, reason: FinishReason | 'error'): void;
}

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
  return {
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
