/**
 * The image pipeline every front end shares: encoded image bytes → decode, resize, colour, layout, dtype,
 * normalization (preprocess) → the model (through `InferenceApi.infer`, so batching, queues, limits and
 * statistics apply as to any request) → classification or detection results in the original image's
 * coordinates (postprocess). REST calls it from POST /v2/models/{m}/image; a WebSocket or gRPC front end calls it
 * with the bytes of a frame (see `inferImageRequest` for the KServe tensor form).
 */
import type { InferenceApi } from '../api/inference-api.ts';
import type { Tensor } from '../tensor/tensor.ts';
import { RtError, rtError } from '../errors/registry.ts';
import type { InferResponse } from '../api/types.ts';
import { classify, type ClassScore } from '../postprocess/classification.ts';
import { postprocessDetections, type Detection } from '../postprocess/detection.ts';
import type { BoxXyxy, ImageTransform } from '../postprocess/geometry.ts';
import { numericValues } from '../postprocess/numeric.ts';
import { decodeImage, decodeRawFrame, type DecodedImage } from './decode.ts';
import { requireImageSpec, type ImageSpec } from '../config/image-spec.ts';
import type { RequestContext } from '../observability/request-context.ts';
import { convertPixels } from './pixel-pool.ts';
import { conversionOf } from './to-tensor.ts';
import type { WithImageDecoding } from './frame-batcher.ts';
import type { FramePlacement } from '../tensor/frames.ts';
import { engineFrame } from './engine-frame.ts';

export interface ImagePipelineOptions {
  readonly version?: string;
  /** The client's request id, echoed in the result. */
  readonly id?: string;
  readonly signal?: AbortSignal;
  /** Which front end received it (http, grpc, ws), for metrics and logs. */
  readonly protocol?: string;
  /** The edge's request context, handed on to the model's inference (InferRequest.context). */
  readonly context?: RequestContext;
  /** The bytes are a raw RGB frame of this size (a UINT8 [H, W, 3] tensor), not an encoded image. */
  readonly rawFrame?: { readonly width: number; readonly height: number };
  /** Per-request overrides of the model's postprocess settings. */
  readonly topK?: number;
  readonly scoreThreshold?: number;
  readonly iouThreshold?: number;
  readonly maxDetections?: number;
}

export interface ImageInfo {
  readonly width: number;
  readonly height: number;
  readonly format: string;
}

/** Server-side stage times, in microseconds. */
export interface ImageTimings {
  readonly decode_us: number;
  readonly infer_us: number;
  readonly postprocess_us: number;
}

interface ResultBase {
  readonly model_name: string;
  readonly model_version: string;
  readonly id?: string;
  readonly image: ImageInfo;
  readonly timing: ImageTimings;
}

export interface ClassificationResult extends ResultBase {
  readonly type: 'classification';
  readonly classes: readonly { readonly index: number; readonly label?: string; readonly score: number }[];
}

export interface DetectionResult extends ResultBase {
  readonly type: 'detection';
  /** Boxes are [x1, y1, x2, y2] in the original image's pixels (after EXIF orientation). */
  readonly detections: readonly { readonly box: BoxXyxy; readonly class_id: number; readonly label?: string; readonly score: number }[];
}

/** A model with a preprocess section but no postprocess: its raw output tensors. */
export interface TensorsResult extends ResultBase {
  readonly type: 'tensors';
  readonly outputs: readonly Tensor[];
}

export type ImageResult = ClassificationResult | DetectionResult | TensorsResult;

function checkOption(name: string, value: number | undefined, min: number, max: number, integer: boolean): void {
  if (value === undefined) return;
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw rtError('BAD_PARAMETER', `${name} must be ${integer ? 'an integer' : 'a number'} in [${min}, ${max}], got ${value}`);
  }
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

const microsSince = (t0: bigint): number => Math.round(Number(process.hrtime.bigint() - t0) / 1000);

/**
 * Runs one encoded image (JPEG, PNG or WebP, as the model's config allows) through the model named `model`.
 * Throws RtError: BAD_DATA for corrupt or unsupported images, BAD_REQUEST for a model without a preprocess
 * section, BAD_PARAMETER for bad options, and whatever `api.infer` throws (not found, not ready, queue full...).
 */
export async function runImagePipeline(
  api: InferenceApi,
  model: string,
  imageBytes: Uint8Array,
  options: ImagePipelineOptions = {},
): Promise<ImageResult> {
  checkOption('top_k', options.topK, 1, 10_000, true);
  checkOption('score_threshold', options.scoreThreshold, 0, 1, false);
  checkOption('iou_threshold', options.iouThreshold, 0, 1, false);
  checkOption('max_detections', options.maxDetections, 1, 100_000, true);
  const spec = requireImageSpec(api.modelConfig(model, options.version));

  const t0 = process.hrtime.bigint();
  // On a device (frame-batcher.ts) when the pipeline has one for this model, else on the CPU.
  const decoding = (api as WithImageDecoding).imageDecoding;
  const raw = options.rawFrame;
  // The model's engine decodes JPEGs on its own device (engine-frame.ts): they travel undecoded, in its batches.
  const onEngine = raw === undefined && api.frameInputOf?.(model, options.version) === spec.inputName ? engineFrame(imageBytes, spec) : undefined;
  const onDevice =
    onEngine ??
    (raw === undefined
      ? decoding?.toTensor(imageBytes, spec, model, options.version)
      : decoding?.rawToTensor?.(imageBytes, raw.width, raw.height, spec, model, options.version));
  const cpuPath = (): Promise<ImageTensor> =>
    raw === undefined ? imageToTensor(imageBytes, spec) : rawFrameToTensor(imageBytes, raw.width, raw.height, spec);
  const input = await (onDevice ?? cpuPath());
  const { image, transform } = input;
  const decodeUs = microsSince(t0);
  options.signal?.throwIfAborted();

  const t1 = process.hrtime.bigint();
  const infer = (t: ImageTensor): Promise<InferResponse> =>
    api.infer({
      model,
      ...(options.version === undefined ? {} : { version: options.version }),
      ...(options.id === undefined ? {} : { id: options.id }),
      // [1, C, H, W] (or NHWC): the batch of one, or the leading 1 that a non-batching image model's dims carry; or
      // the encoded frame, which the engine decodes on its device.
      inputs: [t.tensor],
      ...(t.frames === undefined ? {} : { frames: t.frames }),
      outputs: spec.outputs.map((name) => ({ name })),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      protocol: options.protocol ?? 'image',
      ...(options.context === undefined ? {} : { context: options.context }),
    });
  // A frame the device decoder turned down as unsupported (not as corrupt) is decoded on the CPU instead.
  const response = await infer(input).catch(async (e: unknown) => {
    if (input.frames === undefined || !(e instanceof RtError) || e.code !== 'UNSUPPORTED') throw e;
    return infer(await cpuPath());
  });
  const inferUs = microsSince(t1);

  const t2 = process.hrtime.bigint();
  const base = {
    model_name: response.model_name,
    model_version: response.model_version,
    ...(options.id === undefined ? {} : { id: options.id }),
    image,
  };
  const output = (name: string): Tensor => {
    const t = response.outputs.find((o) => o.name === name);
    if (t === undefined) throw rtError('INTERNAL', `model '${model}' answered without output '${name}'`);
    return t;
  };
  const post = spec.postprocess;
  const timing = (): ImageTimings => ({ decode_us: decodeUs, infer_us: inferUs, postprocess_us: microsSince(t2) });
  if (post === undefined) {
    return { ...base, type: 'tensors', outputs: response.outputs, timing: timing() };
  }
  if (post.type === 'classification') {
    const name = spec.outputs[0] as string;
    const scores = numericValues(output(name), `model '${model}' classification`);
    const classes: ClassScore[] = classify(scores, {
      activation: post.activation,
      topK: options.topK ?? post.top_k,
      labels: api.outputLabels(response.model_name, response.model_version, name),
    });
    return { ...base, type: 'classification', classes, timing: timing() };
  }
  const boxes = output(post.boxes_output);
  const scores = numericValues(output(post.scores_output), `model '${model}' detection scores`);
  const classes = numericValues(output(post.classes_output), `model '${model}' detection classes`);
  const boxValues = numericValues(boxes, `model '${model}' detection boxes`);
  if (boxValues.length !== scores.length * 4 || classes.length !== scores.length) {
    throw rtError(
      'INTERNAL',
      `model '${model}': detection outputs disagree (${boxValues.length / 4} boxes, ${scores.length} scores, ${classes.length} classes)`,
    );
  }
  const labels =
    api.outputLabels(response.model_name, response.model_version, post.classes_output) ??
    api.outputLabels(response.model_name, response.model_version, post.scores_output);
  const detections: Detection[] = postprocessDetections({ boxes: boxValues, scores, classes, count: scores.length }, transform, {
    boxFormat: post.box_format,
    normalized: post.normalized,
    scoreThreshold: options.scoreThreshold ?? post.score_threshold,
    iouThreshold: options.iouThreshold ?? post.iou_threshold,
    maxDetections: options.maxDetections ?? post.max_detections,
    classAware: post.class_aware,
    labels,
  });
  return {
    ...base,
    type: 'detection',
    detections: detections.map((d) => ({ box: d.box, class_id: d.classId, ...(d.label === undefined ? {} : { label: d.label }), score: d.score })),
    timing: timing(),
  };
}
