import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { ModelStatsSnapshot } from '../core/stats.ts';

export interface MetricsSource {
  /** Statistics of every loaded model version. */
  statistics(): readonly ModelStatsSnapshot[];
  /** Queued (not yet executing) requests per model version. */
  pending(): readonly { model: string; version: string; pending: number }[];
}

/**
 * Prometheus metrics with Triton's nv_inference_* family names and {model, version} labels (reference §3).
 * Counters are read from the models' statistics at scrape time, so the hot path pays nothing for them.
 */
export function createMetricsRegistry(source: MetricsSource): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'rtserve_process_' });
  const labelNames = ['model', 'version'] as const;

  const counter = (name: string, help: string, pick: (s: ModelStatsSnapshot) => number): void => {
    new Counter({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        for (const s of source.statistics()) this.inc({ model: s.name, version: s.version }, pick(s));
      },
    });
  };
  const us = (ns: number): number => Math.round(ns / 1000);
  counter('nv_inference_request_success', 'Number of successful inference requests, all batch sizes', (s) => s.inference_stats.success.count);
  counter('nv_inference_request_failure', 'Number of failed inference requests, all batch sizes', (s) => s.inference_stats.fail.count);
  counter('nv_inference_count', 'Number of inferences performed (a batch of n counts n)', (s) => s.inference_count);
  counter('nv_inference_exec_count', 'Number of model executions performed (batches)', (s) => s.execution_count);
  counter('nv_inference_request_duration_us', 'Cumulative inference request duration in microseconds', (s) => us(s.inference_stats.success.ns));
  counter('nv_inference_queue_duration_us', 'Cumulative inference queuing duration in microseconds', (s) => us(s.inference_stats.queue.ns));
  counter('nv_inference_compute_input_duration_us', 'Cumulative compute input duration in microseconds', (s) => us(s.inference_stats.compute_input.ns));
  counter('nv_inference_compute_infer_duration_us', 'Cumulative compute inference duration in microseconds', (s) => us(s.inference_stats.compute_infer.ns));
  counter('nv_inference_compute_output_duration_us', 'Cumulative inference compute output duration in microseconds', (s) => us(s.inference_stats.compute_output.ns));
  new Gauge({
    name: 'nv_inference_pending_request_count',
    help: 'Instantaneous number of pending requests awaiting execution per-model',
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const p of source.pending()) this.set({ model: p.model, version: p.version }, p.pending);
    },
  });
  return registry;
}
