/**
 * Decoding and resizing with sharp (libvips). All pixel work here runs in libvips worker threads off the event
 * loop; what comes back is the resized image as interleaved 8-bit pixels (HWC) plus the transform that maps
 * target pixels back to the original image.
 */
import sharp, { type OutputInfo, type Sharp } from 'sharp';
import { rtError } from '../errors/registry.ts';
import type { ImageTransform } from '../postprocess/geometry.ts';
import type { ImageSpec } from '../config/image-spec.ts';
import { sniffImageFormat } from './sniff.ts';

// Results are never reused: sharp's operation cache only holds memory (it is keyed by file, not by buffer).
sharp.cache(false);

export interface DecodedImage {
  /** Interleaved pixels, `channels` bytes per pixel, row-major. */
  readonly pixels: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly channels: number;
  readonly format: string;
  readonly transform: ImageTransform;
}

/** libvips messages are multi-line and may name internal buffers; keep the first line, bounded. */
function libraryMessage(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return (m.split('\n')[0] ?? '')
    .replace(/^Input buffer (has corrupt header|contains unsupported image format)?:?\s*/i, '')
    .slice(0, 200)
    .trim();
}

interface Plan {
  readonly resizeWidth: number;
  readonly resizeHeight: number;
  readonly extend?: { top: number; bottom: number; left: number; right: number };
  readonly extract?: { left: number; top: number; width: number; height: number };
  readonly transform: ImageTransform;
}

/** Where the source goes in the target, for each resize mode (the transform maps boxes back). */
export function planResize(sourceWidth: number, sourceHeight: number, spec: Pick<ImageSpec, 'width' | 'height' | 'mode'>): Plan {
  const W = spec.width;
  const H = spec.height;
  const base = { sourceWidth, sourceHeight };
  if (spec.mode === 'fill') {
    return {
      resizeWidth: W,
      resizeHeight: H,
      transform: { ...base, targetWidth: W, targetHeight: H, scaleX: W / sourceWidth, scaleY: H / sourceHeight, offsetX: 0, offsetY: 0 },
    };
  }
  if (spec.mode === 'fit' || spec.mode === 'letterbox') {
    const s = Math.min(W / sourceWidth, H / sourceHeight);
    const rw = Math.min(W, Math.max(1, Math.round(sourceWidth * s)));
    const rh = Math.min(H, Math.max(1, Math.round(sourceHeight * s)));
    const scales = { scaleX: rw / sourceWidth, scaleY: rh / sourceHeight };
    if (spec.mode === 'fit') {
      return { resizeWidth: rw, resizeHeight: rh, transform: { ...base, targetWidth: rw, targetHeight: rh, ...scales, offsetX: 0, offsetY: 0 } };
    }
    const left = Math.floor((W - rw) / 2);
    const top = Math.floor((H - rh) / 2);
    return {
      resizeWidth: rw,
      resizeHeight: rh,
      extend: { top, bottom: H - rh - top, left, right: W - rw - left },
      transform: { ...base, targetWidth: W, targetHeight: H, ...scales, offsetX: left, offsetY: top },
    };
  }
  // cover: scale so the image covers the target, then crop the centre.
  const s = Math.max(W / sourceWidth, H / sourceHeight);
  const rw = Math.max(W, Math.round(sourceWidth * s));
  const rh = Math.max(H, Math.round(sourceHeight * s));
  const left = Math.floor((rw - W) / 2);
  const top = Math.floor((rh - H) / 2);
  return {
    resizeWidth: rw,
    resizeHeight: rh,
    extract: { left, top, width: W, height: H },
    transform: { ...base, targetWidth: W, targetHeight: H, scaleX: rw / sourceWidth, scaleY: rh / sourceHeight, offsetX: -left, offsetY: -top },
  };
}

export async function decodeImage(bytes: Uint8Array, spec: ImageSpec): Promise<DecodedImage> {
  if (bytes.length === 0) throw rtError('BAD_DATA', 'the image is empty (0 bytes)');
  const format = sniffImageFormat(bytes);
  const accepted = [...spec.formats].join(', ');
  if (format === undefined) {
    throw rtError('BAD_DATA', `the body is not a supported image: unrecognised bytes (model '${spec.model}' accepts ${accepted})`);
  }
  if (!(spec.formats as ReadonlySet<string>).has(format)) {
    throw rtError('BAD_DATA', `unsupported image format '${format}' (model '${spec.model}' accepts ${accepted})`);
  }
  const open = () => sharp(bytes, { failOn: 'warning', limitInputPixels: spec.maxPixels, autoOrient: true, pages: 1 });
  let width: number;
  let height: number;
  try {
    // The header only (no pixels are decoded): the size check below then names the size and the limit.
    const meta = await sharp(bytes, { failOn: 'warning', limitInputPixels: false, autoOrient: true, pages: 1 }).metadata();
    width = meta.autoOrient.width;
    height = meta.autoOrient.height;
  } catch (err) {
    throw rtError('BAD_DATA', `corrupt ${format} image: ${libraryMessage(err)}`, { cause: err });
  }
  if (!(width > 0 && height > 0)) throw rtError('BAD_DATA', `corrupt ${format} image: no size in its header`);
  if (width * height > spec.maxPixels) {
    throw rtError(
      'BAD_DATA',
      `the image is ${width}x${height} = ${width * height} pixels, over the limit of ${spec.maxPixels} for model '${spec.model}'`,
    );
  }
  return resizeToSpec(open(), width, height, format, spec);
}

/**
 * A raw RGB frame (`width`×`height`×3 bytes, row-major, e.g. a camera's UINT8 [H, W, 3] tensor) through the same
 * resize, pad / crop and colour steps as a decoded image.
 */
export async function decodeRawFrame(pixels: Uint8Array, width: number, height: number, spec: ImageSpec): Promise<DecodedImage> {
  if (!(width > 0 && height > 0) || pixels.length !== width * height * 3) {
    throw rtError('BAD_DATA', `a raw ${width}x${height} RGB frame holds ${width * height * 3} bytes, got ${pixels.length}`);
  }
  if (width * height > spec.maxPixels) {
    throw rtError(
      'BAD_DATA',
      `the image is ${width}x${height} = ${width * height} pixels, over the limit of ${spec.maxPixels} for model '${spec.model}'`,
    );
  }
  return resizeToSpec(sharp(pixels, { raw: { width, height, channels: 3 }, limitInputPixels: false }), width, height, 'raw', spec);
}

/** The part of the CPU path after opening an image: resize, pad or crop, colour space, raw pixels, and the transform. */
async function resizeToSpec(opened: Sharp, width: number, height: number, format: string, spec: ImageSpec): Promise<DecodedImage> {
  const plan = planResize(width, height, spec);
  const pad = spec.padValue;
  const background = spec.channels === 1 ? { r: pad[0] ?? 0, g: pad[0] ?? 0, b: pad[0] ?? 0 } : { r: pad[0] ?? 0, g: pad[1] ?? 0, b: pad[2] ?? 0 };
  let img = opened
    // Transparent pixels become black (or the pad colour) rather than whatever colour they happen to store.
    .flatten({ background })
    .resize(plan.resizeWidth, plan.resizeHeight, { fit: 'fill', kernel: spec.kernel });
  if (plan.extend !== undefined) img = img.extend({ ...plan.extend, background });
  if (plan.extract !== undefined) img = img.extract(plan.extract);
  img = spec.channels === 1 ? img.toColourspace('b-w') : img.toColourspace('srgb');
  let out: { data: Buffer; info: OutputInfo };
  try {
    out = await img.raw().toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw rtError('BAD_DATA', `corrupt ${format} image: ${libraryMessage(err)}`, { cause: err });
  }
  const { info } = out;
  if (info.channels !== spec.channels || info.width !== plan.transform.targetWidth || info.height !== plan.transform.targetHeight) {
    throw rtError(
      'INTERNAL',
      `image decoder produced ${info.width}x${info.height}x${info.channels}, expected ${plan.transform.targetWidth}x${plan.transform.targetHeight}x${spec.channels}`,
    );
  }
  return {
    pixels: new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength),
    width: info.width,
    height: info.height,
    channels: info.channels,
    format,
    transform: plan.transform,
  };
}
