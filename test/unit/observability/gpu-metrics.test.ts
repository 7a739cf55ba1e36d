import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { deviceEnv } from '../../../src/config/device-env.ts';
import { packageRoot } from '../../../src/util/package-root.ts';
import { loadNvmlSampler, nvmlAddonPath, registerGpuMetrics, type GpuDeviceSample } from '../../../src/observability/gpu-metrics.ts';

/** Builds native/build/rtnvml.node when it is missing; undefined when it builds (or was built), else why not. */
function nvmlAddonSkipReason(): string | undefined {
  if (existsSync(nvmlAddonPath(deviceEnv().nvmlAddon))) return undefined;
  const r = spawnSync(join(packageRoot(), 'native', 'build-nvml.sh'), { encoding: 'utf8' });
  return r.status === 0 ? undefined : `native/build-nvml.sh could not build the NVML reader here: ${r.stderr.trim()}`;
}

describe('GPU metrics (NVML)', () => {
  test('a missing reader is reported, not thrown', () => {
    const r = loadNvmlSampler('/nonexistent/rtnvml.node');
    assert.ok('reason' in r);
    assert.match(r.reason, /rtnvml\.node is not built \(native\/build-nvml\.sh\)/);
  });

  test('the built reader loads on any machine: NVML readings with a driver, the reason without one', { skip: nvmlAddonSkipReason() }, () => {
    const r = loadNvmlSampler(nvmlAddonPath(deviceEnv().nvmlAddon));
    if ('reason' in r) {
      assert.match(r.reason, /NVML not available|nvmlInit failed|NVML sees no GPU/);
      return;
    }
    const devices = r.sampler();
    assert.ok(devices.length > 0);
    for (const d of devices) {
      assert.match(d.uuid, /^GPU-/);
      assert.ok((d.memoryTotal ?? 0) > 0 && (d.memoryUsed ?? -1) >= 0 && (d.memoryUsed ?? 0) <= (d.memoryTotal ?? 0));
    }
  });

  test("Triton's metric names, gpu_uuid labels and units (W, J) from one reading per scrape; the engine's device memory", async () => {
    const registry = new Registry();
    let readings = 0;
    const devices: GpuDeviceSample[] = [
      {
        index: 0,
        name: 'GPU A',
        uuid: 'GPU-aaaa',
        utilization: 0.37,
        memoryUsed: 1024,
        memoryTotal: 4096,
        powerMilliwatts: 123456,
        powerLimitMilliwatts: 700000,
        energyMillijoules: 9876543,
      },
      { index: 1, name: 'GPU B', uuid: 'GPU-bbbb', memoryUsed: 0, memoryTotal: 2048 },
    ];
    registerGpuMetrics(
      registry,
      () => (readings++, devices),
      () => [{ model: 'resnet', version: '1', instance: 0, arenaBytes: 1000, weightBytes: 2000, workspaceBytes: 300 }],
    );
    const text = await registry.metrics();
    assert.equal(readings, 1, 'one NVML reading for the whole scrape');
    for (const line of [
      'nv_gpu_utilization{gpu_uuid="GPU-aaaa"} 0.37',
      'nv_gpu_memory_total_bytes{gpu_uuid="GPU-aaaa"} 4096',
      'nv_gpu_memory_used_bytes{gpu_uuid="GPU-aaaa"} 1024',
      'nv_gpu_power_usage{gpu_uuid="GPU-aaaa"} 123.456',
      'nv_gpu_power_limit{gpu_uuid="GPU-aaaa"} 700',
      'nv_energy_consumption{gpu_uuid="GPU-aaaa"} 9876.543',
      'nv_gpu_memory_total_bytes{gpu_uuid="GPU-bbbb"} 2048',
      'rtserve_engine_device_memory_bytes{model="resnet",version="1",instance="0",kind="arena"} 1000',
      'rtserve_engine_device_memory_bytes{model="resnet",version="1",instance="0",kind="weights"} 2000',
      'rtserve_engine_device_memory_bytes{model="resnet",version="1",instance="0",kind="workspace"} 300',
    ]) {
      assert.ok(text.includes(line), `${line} in\n${text}`);
    }
    // A reading the board does not report is left out, not exported as 0.
    assert.ok(!text.includes('nv_gpu_utilization{gpu_uuid="GPU-bbbb"}'));
    assert.ok(!text.includes('nv_gpu_power_usage{gpu_uuid="GPU-bbbb"}'));
  });

  test('without a reader: no nv_gpu_* series at all', async () => {
    const registry = new Registry();
    registerGpuMetrics(registry, undefined, () => []);
    assert.doesNotMatch(await registry.metrics(), /^nv_gpu/m);
  });
});
