/**
 * Counters read from the models' statistics at scrape time (docs/metrics.md): Triton's per-model families and
 * rtserve's per-GPU ones (instance_group placement). The request path pays nothing for them.
 */
import { Counter, type Registry } from 'prom-client';
import { MODEL_LABELS } from './model-labels.ts';
import type { DeviceStat, ModelStatsSnapshot } from './model-stats.ts';

export function registerModelStatCounters(registry: Registry, statistics: () => readonly ModelStatsSnapshot[]): void {
  const statCounter = (name: string, help: string, pick: (s: ModelStatsSnapshot) => number): void => {
    new Counter({
      name,
      help,
      labelNames: MODEL_LABELS,
      registers: [registry],
      collect() {
        this.reset();
        for (const s of statistics()) this.inc({ model: s.name, version: s.version }, pick(s));
      },
    });
  };
  const us = (ns: number): number => Math.round(ns / 1000);
  statCounter('nv_inference_request_success', 'Number of successful inference requests, all batch sizes', (s) => s.inference_stats.success.count);
  statCounter('nv_inference_count', 'Number of inferences performed (a batch of n counts n; cache hits excluded)', (s) => s.inference_count);
  statCounter('nv_inference_exec_count', 'Number of model executions performed (batches)', (s) => s.execution_count);
  statCounter('nv_inference_request_duration_us', 'Cumulative inference request duration in microseconds', (s) => us(s.inference_stats.success.ns));
  statCounter('nv_inference_queue_duration_us', 'Cumulative inference queuing duration in microseconds', (s) => us(s.inference_stats.queue.ns));
  statCounter('nv_inference_compute_input_duration_us', 'Cumulative compute input duration in microseconds', (s) =>
    us(s.inference_stats.compute_input.ns),
  );
  statCounter('nv_inference_compute_infer_duration_us', 'Cumulative compute inference duration in microseconds', (s) =>
    us(s.inference_stats.compute_infer.ns),
  );
  statCounter('nv_inference_compute_output_duration_us', 'Cumulative inference compute output duration in microseconds', (s) =>
    us(s.inference_stats.compute_output.ns),
  );
  // Per GPU (instance_group placement): which device ran how much of each model.
  const deviceCounter = (name: string, help: string, pick: (d: DeviceStat) => number): void => {
    new Counter({
      name,
      help,
      labelNames: [...MODEL_LABELS, 'device'],
      registers: [registry],
      collect() {
        this.reset();
        for (const s of statistics()) {
          for (const d of s.device_stats ?? []) this.inc({ model: s.name, version: s.version, device: String(d.device) }, pick(d));
        }
      },
    });
  };
  deviceCounter('rtserve_device_exec_count', 'Number of model executions (batches) run by the instances on one GPU', (d) => d.execution_count);
  deviceCounter('rtserve_device_inference_count', 'Number of inferences (batch rows) run by the instances on one GPU', (d) => d.inference_count);
  deviceCounter(
    'rtserve_device_compute_infer_duration_us',
    'Cumulative compute inference duration of the instances on one GPU in microseconds',
    (d) => us(d.compute_infer.ns),
  );
  statCounter('nv_cache_num_hits_per_model', 'Number of response cache hits per model', (s) => s.inference_stats.cache_hit.count);
  statCounter('nv_cache_num_misses_per_model', 'Number of response cache misses per model', (s) => s.inference_stats.cache_miss.count);
  statCounter('nv_cache_hit_duration_per_model', 'Cumulative response cache hit lookup duration in microseconds', (s) =>
    us(s.inference_stats.cache_hit.ns),
  );
  statCounter('nv_cache_miss_duration_per_model', 'Cumulative response cache miss lookup and insertion duration in microseconds', (s) =>
    us(s.inference_stats.cache_miss.ns),
  );
}
