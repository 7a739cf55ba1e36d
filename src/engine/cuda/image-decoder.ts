/**
 * The GPU image path's device side (issue #19): a batch of frames -- JPEG bytes decoded by nvJPEG (the hardware
 * decoder where the GPU has one), or raw RGB frames -- resized, normalized and laid out by one kernel, in the
 * model's input dtype. Structurally a preprocess `FrameDecoder` (src/preprocess/frame-decoder.ts), which the app
 * hands to the image pipeline's frame batcher; `runImages` feeds a CUDA plan's input straight in its arena.
 */
import { rtError } from '../../errors/registry.ts';
import type { FrameStatus, ImageSpec } from '../../config/image-spec.ts';
import type { CudaAddon, NativeImageDecoderHandle } from './addon.ts';

/** A frame as the preprocess frame batcher gives it (src/preprocess/frame-decoder.ts FrameItem). */
export interface GpuFrame {
  readonly bytes: Uint8Array;
  readonly encoded: boolean;
  readonly width: number;
  readonly height: number;
  readonly place: { readonly resizeWidth: number; readonly resizeHeight: number; readonly offsetX: number; readonly offsetY: number };
}

export interface GpuDecoderInfo {
  readonly nvjpeg: boolean;
  readonly version?: string;
  /** hardware (NVJPG engines), gpu-hybrid, or none. */
  readonly batchedBackend: string;
}

type SpecFields = Pick<ImageSpec, 'width' | 'height' | 'layout' | 'color' | 'dtype' | 'kernel' | 'scale' | 'mean' | 'std' | 'padValue' | 'maxPixels'>;

/** The spec as the native side reads it (ImageSpecNative::fromJson). */
export function nativeSpecJson(spec: SpecFields): string {
  return JSON.stringify({
    width: spec.width,
    height: spec.height,
    layout: spec.layout,
    color: spec.color,
    dtype: spec.dtype,
    kernel: spec.kernel,
    scale: spec.scale,
    mean: spec.mean,
    std: spec.std,
    padValue: spec.padValue,
    maxPixels: spec.maxPixels,
  });
}

/** 7 int32 per frame: encoded, width, height, resizeWidth, resizeHeight, offsetX, offsetY. */
export function frameMeta(frames: readonly GpuFrame[]): Int32Array {
  const m = new Int32Array(frames.length * 7);
  frames.forEach((f, i) => {
    m.set([f.encoded ? 1 : 0, f.width, f.height, f.place.resizeWidth, f.place.resizeHeight, f.place.offsetX, f.place.offsetY], i * 7);
  });
  return m;
}

/** Rows for `n` frames; not zero-filled (the decoder writes every byte of every row, failed frames' rows too). */
function rowsOf(spec: SpecFields, n: number): Float32Array | Uint16Array | Uint8Array {
  const count = spec.width * spec.height * 3 * n;
  const size = spec.dtype === 'FP32' ? 4 : spec.dtype === 'FP16' ? 2 : 1;
  const buffer = Buffer.allocUnsafeSlow(count * size).buffer;
  return spec.dtype === 'FP32'
    ? new Float32Array(buffer, 0, count)
    : spec.dtype === 'FP16'
      ? new Uint16Array(buffer, 0, count)
      : new Uint8Array(buffer, 0, count);
}

export class CudaFrameDecoder {
  readonly name = 'cuda-nvjpeg';
  readonly decodesJpeg: boolean;
  readonly info: GpuDecoderInfo;
  private readonly addon: CudaAddon;
  private readonly handle: NativeImageDecoderHandle;
  private readonly specJson = new WeakMap<object, string>();

  private constructor(addon: CudaAddon, handle: NativeImageDecoderHandle, info: GpuDecoderInfo) {
    this.addon = addon;
    this.handle = handle;
    this.info = info;
    this.decodesJpeg = info.nvjpeg;
  }

  /** A decoder on the addon's GPU; ENGINE_UNAVAILABLE with the reason when this build of the addon has no image path. */
  static create(addon: CudaAddon): CudaFrameDecoder {
    if (addon.imageDecoder === undefined || addon.imageDecoderInfo === undefined || addon.decodeImages === undefined) {
      throw rtError('ENGINE_UNAVAILABLE', 'this build of the CUDA addon has no image path (rebuild it with native/build.sh)');
    }
    let handle: NativeImageDecoderHandle;
    try {
      handle = addon.imageDecoder();
    } catch (e) {
      throw rtError('ENGINE_UNAVAILABLE', `the GPU image decoder did not start: ${e instanceof Error ? e.message : String(e)}`);
    }
    return new CudaFrameDecoder(addon, handle, JSON.parse(addon.imageDecoderInfo(handle)) as GpuDecoderInfo);
  }

  /** The frames' rows in host memory, with one status per frame (a frame's failure never fails the call). */
  async decode(frames: readonly GpuFrame[], spec: SpecFields): Promise<{ rows: Float32Array | Uint16Array | Uint8Array; statuses: FrameStatus[] }> {
    const rows = rowsOf(spec, frames.length);
    const decode = this.addon.decodeImages as NonNullable<CudaAddon['decodeImages']>;
    const text = await decode(
      this.handle,
      frames.map((f) => f.bytes),
      frameMeta(frames),
      this.jsonOf(spec),
      rows,
    );
    return { rows, statuses: JSON.parse(text) as FrameStatus[] };
  }

  /** The native handle, for CudaSession.runImages (the engine-fed path). */
  get nativeHandle(): NativeImageDecoderHandle {
    return this.handle;
  }

  jsonOf(spec: SpecFields): string {
    let s = this.specJson.get(spec);
    if (s === undefined) {
      s = nativeSpecJson(spec);
      this.specJson.set(spec, s);
    }
    return s;
  }
}
