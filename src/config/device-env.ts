/**
 * The environment variables rtserve reads that are not server settings (docs/configuration.md): where the native
 * addons are, and which GPUs this process sees. Read here, the one place; the engine, the repository and the
 * metrics take what this returns instead of reading the environment themselves, and the server config's loader
 * leaves these names alone instead of warning about them as unknown settings.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** RTSERVE_* names that are not settings: another build of the CUDA engine's addon, of the NVML reader. */
export const DEVICE_VARIABLES: readonly string[] = ['RTSERVE_CUDA_ADDON', 'RTSERVE_NVML_ADDON'];

export interface DeviceEnv {
  /** RTSERVE_CUDA_ADDON: the native CUDA engine to load instead of native/build/rtcuda.node (docs/cuda-engine.md). */
  readonly cudaAddon: string | undefined;
  /** RTSERVE_NVML_ADDON: the NVML reader to load instead of native/build/rtnvml.node (docs/metrics.md). */
  readonly nvmlAddon: string | undefined;
  /** CUDA_VISIBLE_DEVICES as the process was given it: named where a GPU number is out of range. */
  readonly cudaVisibleDevices: string | undefined;
}

/** Read when called, so that a test or an embedding program that sets a variable first is seen. */
export function deviceEnv(env: Env = process.env): DeviceEnv {
  return { cudaAddon: env['RTSERVE_CUDA_ADDON'], nvmlAddon: env['RTSERVE_NVML_ADDON'], cudaVisibleDevices: env['CUDA_VISIBLE_DEVICES'] };
}
