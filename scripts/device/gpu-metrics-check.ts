// Prints the NVML reading and the GPU metrics rtserve exports from it (scripts/device/nvml-run.sh runs this on
// the GPU machine; anywhere else it prints why there are none).
import { Registry } from 'prom-client';
import { deviceEnv } from '../../src/config/device-env.ts';
import { loadNvmlSampler, nvmlAddonPath, registerGpuMetrics } from '../../src/observability/gpu-metrics.ts';

const nvml = loadNvmlSampler(nvmlAddonPath(deviceEnv().nvmlAddon));
if ('reason' in nvml) {
  console.log(`no GPU metrics: ${nvml.reason}`);
} else {
  console.log(JSON.stringify(nvml.sampler(), null, 1));
  const registry = new Registry();
  registerGpuMetrics(registry, nvml.sampler);
  console.log(
    (await registry.metrics())
      .split('\n')
      .filter((l) => l.startsWith('nv_'))
      .join('\n'),
  );
}
