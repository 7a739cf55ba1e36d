import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { deviceEnv } from '../../config/device-env.ts';
import type { CudaDeviceInfo } from '../../plan/cuda-network.ts';
import { packageRoot } from '../../util/package-root.ts';

/** Opaque handle of one native engine instance (an `napi_external`). */
export interface NativeEngineHandle {
  readonly __rtcuda: never;
}

/** The Node-API surface of native/build/rtcuda.node (native/src/addon.cpp). */
export interface CudaAddon {
  readonly abiVersion: string;
  /** CUDA devices this process sees (after CUDA_VISIBLE_DEVICES; a MIG instance counts as one device). */
  deviceCount(): number;
  /** JSON CudaDeviceInfo of one device (default: device 0). */
  deviceInfo(device?: number): string;
  tune(layerJson: string, optionsJson: string): string;
  /** Loads an instance on `device` (default 0): its weights, arena, stream and graphs live there. */
  create(networkJson: string, weights: Uint8Array, device?: number): Promise<NativeEngineHandle>;
  /** Each input is one view or a batch's pieces (copied back to back into pinned memory off the event loop). */
  run(
    handle: NativeEngineHandle,
    batch: number,
    rows: number,
    inputs: readonly (ArrayBufferView | readonly ArrayBufferView[])[],
    outputs: readonly ArrayBufferView[],
  ): Promise<void>;
  bench(handle: NativeEngineHandle, batch: number, iters: number): Promise<string>;
  /**
   * Diagnostics: runs the first `layers` layers of the batch program eagerly and copies arena bytes at `offset` into
   * `out`; with a fill range, those arena bytes are set to `fillByte` just before the last of those layers runs.
   */
  probe(
    handle: NativeEngineHandle,
    batch: number,
    rows: number,
    inputs: readonly (ArrayBufferView | readonly ArrayBufferView[])[],
    layers: number,
    offset: number,
    out: ArrayBufferView,
    fillOffset?: number,
    fillBytes?: number,
    fillByte?: number,
  ): Promise<void>;
  describe(handle: NativeEngineHandle): string;
  destroy(handle: NativeEngineHandle): void;
  /** [offset, offset + byteSize) of a /dev/shm object mapped shared and read-write; unmapped when garbage-collected. */
  mapShm(path: string, offset: number, byteSize: number): ArrayBuffer;
  // The GPU image path (native/src/image-addon.cpp, issue #19); absent from builds before it.
  imageDecoder?(): NativeImageDecoderHandle;
  imageDecoderInfo?(decoder: NativeImageDecoderHandle): string;
  /** Per-image statuses (JSON); the rows of the images land in `out`. `meta`: 7 per item (see image-decoder.ts). */
  decodeImages?(
    decoder: NativeImageDecoderHandle,
    items: readonly Uint8Array[],
    meta: Int32Array,
    specJson: string,
    out: ArrayBufferView,
  ): Promise<string>;
  /** The same images decoded straight into the engine's (only) input in its arena, then the engine's run. */
  runImages?(
    handle: NativeEngineHandle,
    decoder: NativeImageDecoderHandle,
    batch: number,
    rows: number,
    items: readonly Uint8Array[],
    meta: Int32Array,
    specJson: string,
    outputs: readonly ArrayBufferView[],
  ): Promise<string>;
}

/** Opaque handle of one native image decoder (nvJPEG handles, a device pool, a stream). */
export interface NativeImageDecoderHandle {
  readonly __rtcudaImage: never;
}

export type CudaAddonStatus =
  | {
      readonly available: true;
      readonly addon: CudaAddon;
      /** Device 0: where builds tune (the first device CUDA_VISIBLE_DEVICES names). */
      readonly device: CudaDeviceInfo;
      /** Every visible device, by ordinal. */
      readonly devices: readonly CudaDeviceInfo[];
      readonly path: string;
    }
  | { readonly available: false; readonly reason: string };

const ABI_VERSION = '3';
let cached: CudaAddonStatus | undefined;

/** Where the addon is looked for: $RTSERVE_CUDA_ADDON, else native/build/rtcuda.node in the package. */
export function cudaAddonPath(): string {
  return deviceEnv().cudaAddon ?? join(packageRoot(), 'native', 'build', 'rtcuda.node');
}

/**
 * Loads the native CUDA engine once. Never throws: on a machine without the addon (not built: no CUDA toolkit,
 * cuDNN or cuBLASLt there) or without a usable GPU it returns the reason, which the CUDA target reports.
 */
export function loadCudaAddon(): CudaAddonStatus {
  if (cached !== undefined) return cached;
  const path = cudaAddonPath();
  if (!existsSync(path)) {
    cached = {
      available: false,
      reason: `the native CUDA engine is not built (${path} is missing; native/build.sh builds it where the CUDA toolkit, cuDNN 9 and cuBLASLt are installed)`,
    };
    return cached;
  }
  let addon: CudaAddon;
  try {
    addon = createRequire(import.meta.url)(path) as CudaAddon;
  } catch (e) {
    cached = {
      available: false,
      reason: `the native CUDA engine at ${path} does not load here (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`,
    };
    return cached;
  }
  if (addon.abiVersion !== ABI_VERSION) {
    cached = {
      available: false,
      reason: `the native CUDA engine at ${path} has ABI ${addon.abiVersion}, this rtserve needs ${ABI_VERSION}: rebuild it with native/build.sh`,
    };
    return cached;
  }
  try {
    const count = addon.deviceCount();
    if (count < 1) throw new Error('the CUDA runtime sees no device');
    const devices = Array.from({ length: count }, (_, i) => JSON.parse(addon.deviceInfo(i)) as CudaDeviceInfo);
    cached = { available: true, addon, device: devices[0] as CudaDeviceInfo, devices, path };
  } catch (e) {
    cached = { available: false, reason: `no usable CUDA device (${e instanceof Error ? e.message : String(e)})` };
  }
  return cached;
}

/** For tests: forget the cached status (after changing RTSERVE_CUDA_ADDON). */
export function resetCudaAddonCache(): void {
  cached = undefined;
}
