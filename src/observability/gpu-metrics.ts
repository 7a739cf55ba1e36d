import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Gauge, type Registry } from 'prom-client';
import { packageRoot } from '../util/package-root.ts';

/**
 * GPU metrics under Triton's names (docs/metrics.md "GPU"), read from NVML through native/build/rtnvml.node
 * (native/src/nvml.cpp, built by native/build-nvml.sh), one reading per scrape:
 * nv_gpu_utilization (0–1), nv_gpu_memory_total_bytes, nv_gpu_memory_used_bytes, nv_gpu_power_usage and
 * nv_gpu_power_limit (W), nv_energy_consumption (J since the driver loaded), labelled `gpu_uuid` as Triton does;
 * plus rtserve_engine_device_memory_bytes: what the native CUDA engine's instances hold on the device (arena,
 * weights, workspace). Where the addon is not built or NVML is absent (no NVIDIA driver) none of these exist and
 * nothing fails: the reason is logged once at startup.
 */
export interface GpuDeviceSample {
  readonly index: number;
  readonly name: string;
  readonly uuid: string;
  readonly utilization?: number;
  readonly memoryUsed?: number;
  readonly memoryTotal?: number;
  readonly powerMilliwatts?: number;
  readonly powerLimitMilliwatts?: number;
  readonly energyMillijoules?: number;
}

/** One NVML reading of every device. */
export type GpuSampler = () => readonly GpuDeviceSample[];

/** Device memory one CUDA engine instance holds. */
export interface EngineDeviceMemory {
  readonly model: string;
  readonly version: string;
  readonly instance: number;
  readonly arenaBytes: number;
  readonly weightBytes: number;
  readonly workspaceBytes: number;
}

/** Where the NVML addon is looked for: `override` (RTSERVE_NVML_ADDON, src/config/device-env.ts), else native/build/rtnvml.node in the package. */
export function nvmlAddonPath(override?: string): string {
  return override ?? join(packageRoot(), 'native', 'build', 'rtnvml.node');
}

/** The NVML sampler, or why there is none (addon not built, NVML not loadable, no device). */
export function loadNvmlSampler(path: string): { readonly sampler: GpuSampler } | { readonly reason: string } {
  if (!existsSync(path)) return { reason: `${path} is not built (native/build-nvml.sh)` };
  let addon: { sample(): string };
  try {
    addon = createRequire(import.meta.url)(path) as { sample(): string };
  } catch (err) {
    return { reason: `cannot load ${path}: ${err instanceof Error ? err.message : String(err)}` };
  }
  const read = (): { devices?: GpuDeviceSample[]; error?: string } => JSON.parse(addon.sample()) as { devices?: GpuDeviceSample[]; error?: string };
  const first = read();
  if (first.error !== undefined) return { reason: first.error };
  if ((first.devices ?? []).length === 0) return { reason: 'NVML sees no GPU' };
  return { sampler: () => read().devices ?? [] };
}

/**
 * Registers the GPU gauges on `registry`. All of them read one sample taken when a scrape begins (the first gauge
 * collected takes it; the others reuse it within the same scrape).
 */
export function registerGpuMetrics(registry: Registry, sampler: GpuSampler | undefined, engineMemory?: () => readonly EngineDeviceMemory[]): void {
  if (sampler !== undefined) {
    let last: { at: number; devices: readonly GpuDeviceSample[] } | undefined;
    const devices = (): readonly GpuDeviceSample[] => {
      const now = Date.now();
      if (last === undefined || now - last.at > 200) last = { at: now, devices: sampler() };
      return last.devices;
    };
    const gauge = (name: string, help: string, value: (d: GpuDeviceSample) => number | undefined): void => {
      new Gauge({
        name,
        help,
        labelNames: ['gpu_uuid'],
        registers: [registry],
        collect() {
          this.reset();
          for (const d of devices()) {
            const v = value(d);
            if (v !== undefined) this.set({ gpu_uuid: d.uuid }, v);
          }
        },
      });
    };
    const scaled = (v: number | undefined, by: number): number | undefined => (v === undefined ? undefined : v / by);
    gauge('nv_gpu_utilization', 'GPU utilization rate [0.0 - 1.0)', (d) => d.utilization);
    gauge('nv_gpu_memory_total_bytes', 'GPU total memory, in bytes', (d) => d.memoryTotal);
    gauge('nv_gpu_memory_used_bytes', 'GPU used memory, in bytes', (d) => d.memoryUsed);
    gauge('nv_gpu_power_usage', 'GPU power usage in watts', (d) => scaled(d.powerMilliwatts, 1000));
    gauge('nv_gpu_power_limit', 'GPU power management limit in watts', (d) => scaled(d.powerLimitMilliwatts, 1000));
    gauge('nv_energy_consumption', 'GPU energy consumption in joules since the driver loaded', (d) => scaled(d.energyMillijoules, 1000));
  }
  if (engineMemory !== undefined) {
    new Gauge({
      name: 'rtserve_engine_device_memory_bytes',
      help: "Device memory held by the native CUDA engine's instances: kind = arena (activations), weights, workspace",
      labelNames: ['model', 'version', 'instance', 'kind'],
      registers: [registry],
      collect() {
        this.reset();
        for (const m of engineMemory()) {
          const labels = { model: m.model, version: m.version, instance: String(m.instance) };
          this.set({ ...labels, kind: 'arena' }, m.arenaBytes);
          this.set({ ...labels, kind: 'weights' }, m.weightBytes);
          this.set({ ...labels, kind: 'workspace' }, m.workspaceBytes);
        }
      },
    });
  }
}
