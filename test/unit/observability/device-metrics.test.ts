/** Per-GPU counters of /metrics (src/observability/metrics.ts) from the statistics' device_stats. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ServerMetrics } from '../../../src/observability/metrics.ts';
import { ModelStats } from '../../../src/observability/model-stats.ts';

test('rtserve_device_* counters: one series per model, version and GPU; models without devices have none', async () => {
  const gpu = new ModelStats('resnet', '1');
  gpu.recordExecution(8, 8, 1000, 2_000_000, 1000, 0);
  gpu.recordExecution(4, 4, 1000, 1_000_000, 1000, 1);
  gpu.recordExecution(2, 2, 1000, 500_000, 1000, 1);
  const cpu = new ModelStats('mlp', '1');
  cpu.recordExecution(1, 1, 1000, 1000, 1000);
  const metrics = new ServerMetrics({ statistics: () => [gpu.snapshot(), cpu.snapshot()], pending: () => [] });
  const text = await metrics.text();
  const series = (name: string) => text.split('\n').filter((l) => l.startsWith(`${name}{`));
  assert.deepEqual(series('rtserve_device_exec_count'), [
    'rtserve_device_exec_count{model="resnet",version="1",device="0"} 1',
    'rtserve_device_exec_count{model="resnet",version="1",device="1"} 2',
  ]);
  assert.deepEqual(series('rtserve_device_inference_count'), [
    'rtserve_device_inference_count{model="resnet",version="1",device="0"} 8',
    'rtserve_device_inference_count{model="resnet",version="1",device="1"} 6',
  ]);
  assert.deepEqual(series('rtserve_device_compute_infer_duration_us'), [
    'rtserve_device_compute_infer_duration_us{model="resnet",version="1",device="0"} 2000',
    'rtserve_device_compute_infer_duration_us{model="resnet",version="1",device="1"} 1500',
  ]);
  // The Triton totals are unchanged by the split.
  assert.match(text, /nv_inference_exec_count\{model="resnet",version="1"\} 3/);
});
