/**
 * Image bytes → the model's input tensor: decode, resize, colour, layout, dtype, normalization, on the CPU (sharp,
 * then the pixel conversion) or on a device (`ImageDecoding`, frame-batcher.ts). Nothing here runs a model: the
 * request pipeline's image layer (pipeline/images.ts) does, and postprocess/ turns its tensors into classes or boxes.
 */
import type { Tensor } from '../tensor/tensor.ts';
import type { ImageTransform } from '../postprocess/geometry.ts';
import { decodeImage, decodeRawFrame, type DecodedImage } from './decode.ts';
import type { ImageSpec } from '../config/image-spec.ts';
import { convertPixels } from './pixel-pool.ts';
import { conversionOf } from './to-tensor.ts';
import type { ImageDecoding } from './frame-batcher.ts';
import type { FramePlacement } from '../tensor/frames.ts';
import { engineFrame } from './engine-frame.ts';

/** What the decoder found: the image's size (after EXIF orientation) and format. */
export interface ImageInfo {
  readonly width: number;
  readonly height: number;
  readonly format: string;
}

/** The model's input tensor made from one image, what the image was, and how target pixels map back to it. */
export interface ImageTensor {
  readonly tensor: Tensor;
  readonly image: ImageInfo;
  readonly transform: ImageTransform;
  /** Set when `tensor` holds the encoded frame itself, for an engine that decodes on its device (engine-frame.ts). */
  readonly frames?: readonly FramePlacement[];
}

/** Builds the model input tensor from encoded image bytes (on the CPU: sharp, then the pixel conversion). */
export async function imageToTensor(bytes: Uint8Array, spec: ImageSpec): Promise<ImageTensor> {
  return decodedToTensor(await decodeImage(bytes, spec), spec);
}

/** Builds the model input tensor from a raw RGB frame (`width`×`height`×3 bytes), on the CPU. */
export async function rawFrameToTensor(pixels: Uint8Array, width: number, height: number, spec: ImageSpec): Promise<ImageTensor> {
  return decodedToTensor(await decodeRawFrame(pixels, width, height, spec), spec);
}

async function decodedToTensor(decoded: DecodedImage, spec: ImageSpec): Promise<ImageTensor> {
  const data = await convertPixels(decoded.pixels, conversionOf(spec, decoded.width, decoded.height, decoded.channels));
  const plane = spec.layout === 'NCHW' ? [decoded.channels, decoded.height, decoded.width] : [decoded.height, decoded.width, decoded.channels];
  return {
    tensor: { name: spec.inputName, datatype: spec.dtype, shape: [1, ...plane], data },
    image: { width: decoded.transform.sourceWidth, height: decoded.transform.sourceHeight, format: decoded.format },
    transform: decoded.transform,
  };
}

/** Which model the image is for, and whether its bytes are a raw RGB frame of this size rather than an encoded image. */
export interface ImageTarget {
  readonly model: string;
  readonly version: string | undefined;
  readonly rawFrame?: { readonly width: number; readonly height: number } | undefined;
  /** The model's engine decodes JPEGs into this input on its own device (InferenceApi.frameInputOf). */
  readonly frameInput?: string | undefined;
}

/** The model input tensor of one image on the CPU (sharp, then the pixel conversion). */
export function cpuTensorOf(bytes: Uint8Array, spec: ImageSpec, rawFrame: ImageTarget['rawFrame']): Promise<ImageTensor> {
  return rawFrame === undefined ? imageToTensor(bytes, spec) : rawFrameToTensor(bytes, rawFrame.width, rawFrame.height, spec);
}

/**
 * The model input tensor of one image: the encoded JPEG itself when the model's engine decodes on its device
 * (engine-frame.ts), else decoded on a device (`decoding`, the GPU frame batcher) when it takes this model's images,
 * else on the CPU. Throws RtError BAD_DATA for corrupt or unsupported images.
 */
export function imageTensorOf(bytes: Uint8Array, spec: ImageSpec, target: ImageTarget, decoding: ImageDecoding | undefined): Promise<ImageTensor> {
  const { model, version, rawFrame: raw } = target;
  const onEngine = raw === undefined && target.frameInput === spec.inputName ? engineFrame(bytes, spec) : undefined;
  const onDevice =
    onEngine ??
    (raw === undefined
      ? decoding?.toTensor(bytes, spec, model, version)
      : decoding?.rawToTensor?.(bytes, raw.width, raw.height, spec, model, version));
  return onDevice ?? cpuTensorOf(bytes, spec, raw);
}
