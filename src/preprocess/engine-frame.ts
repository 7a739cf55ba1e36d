/**
 * Images for an engine that decodes on its own device (tensor/frames.ts, docs/image.md "Frames on the engine's
 * device"): a JPEG the device decodes exactly like the CPU path is not decoded here at all. Its header is read on the
 * CPU (jpeg-header.ts), its placement planned by the model's resize rule (decode.ts planResize), and the request
 * carries the encoded bytes to the engine, whose scheduler batches them like any request. Which JPEGs go to a
 * device is decided once, here, for both device paths (this one and the frame batcher's decode-to-host path).
 */
import { rtError } from '../errors/registry.ts';
import type { ImageSpec } from '../config/image-spec.ts';
import type { FramePlacement } from '../tensor/frames.ts';
import { planResize } from './decode.ts';
import type { ImageTensor } from './image-pipeline.ts';
import { routeJpeg } from './jpeg-header.ts';
import { sniffImageFormat } from './sniff.ts';

/** Where one image goes: a device (with its size), the CPU path, or refused with a message (BAD_DATA). */
export type DeviceRoute =
  | { readonly to: 'device'; readonly width: number; readonly height: number }
  | { readonly to: 'cpu' }
  | { readonly to: 'refuse'; readonly message: string };

/** The device route of an encoded image for `spec`: JPEGs the device decodes like the CPU path; everything else the CPU. */
export function deviceRoute(bytes: Uint8Array, spec: ImageSpec): DeviceRoute {
  if (spec.channels !== 3 || sniffImageFormat(bytes) !== 'jpeg' || !spec.formats.has('jpeg')) return { to: 'cpu' };
  const route = routeJpeg(bytes);
  if (route.to === 'error') return { to: 'refuse', message: `corrupt jpeg image: ${route.message}` };
  if (route.to === 'cpu') return { to: 'cpu' };
  const { width, height } = route.header;
  if (width * height > spec.maxPixels) {
    return {
      to: 'refuse',
      message: `the image is ${width}x${height} = ${width * height} pixels, over the limit of ${spec.maxPixels} for model '${spec.model}'`,
    };
  }
  return { to: 'device', width, height };
}

/** The placement of a `width`×`height` frame in `spec`'s input row, and its transform back to source pixels. */
export function placeFrame(width: number, height: number, spec: ImageSpec): { placement: FramePlacement; transform: ImageTensor['transform'] } {
  const plan = planResize(width, height, spec);
  const t = plan.transform;
  return {
    placement: { width, height, resizeWidth: plan.resizeWidth, resizeHeight: plan.resizeHeight, offsetX: t.offsetX, offsetY: t.offsetY },
    transform: t,
  };
}

/**
 * The model input for one JPEG an engine decodes on its device: the encoded bytes as a BYTES row of the image input,
 * with its placement. Undefined when the image takes the CPU path (not a JPEG, grayscale, CMYK, rotated...).
 */
export function engineFrame(bytes: Uint8Array, spec: ImageSpec): Promise<ImageTensor> | undefined {
  const route = deviceRoute(bytes, spec);
  if (route.to === 'cpu') return undefined;
  if (route.to === 'refuse') return Promise.reject(rtError('BAD_DATA', route.message));
  const { placement, transform } = placeFrame(route.width, route.height, spec);
  return Promise.resolve({
    tensor: { name: spec.inputName, datatype: 'BYTES', shape: [1], data: [bytes] },
    image: { width: route.width, height: route.height, format: 'jpeg' },
    transform,
    frames: [placement],
  });
}
