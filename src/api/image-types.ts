/**
 * The image form of an inference (docs/image.md): one encoded image (or raw RGB frame) in, classes, boxes or the
 * model's tensors out. POST /v2/models/{m}/image asks it through `InferenceApi.inferImage`; the request pipeline's
 * image layer (pipeline/images.ts) answers it, and answers the KServe tensor form of the same request too.
 */
import type { RequestContext } from '../observability/request-context.ts';
import type { Tensor } from '../tensor/tensor.ts';

export interface ImageRequestOptions {
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

export interface ImageRequest extends ImageRequestOptions {
  readonly model: string;
  /** The encoded image (JPEG, PNG or WebP, as the model's config allows), or the raw frame's pixels. */
  readonly bytes: Uint8Array;
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
  readonly detections: readonly {
    readonly box: [number, number, number, number];
    readonly class_id: number;
    readonly label?: string;
    readonly score: number;
  }[];
}

/** A model with a preprocess section but no postprocess: its raw output tensors. */
export interface TensorsResult extends ResultBase {
  readonly type: 'tensors';
  readonly outputs: readonly Tensor[];
}

export type ImageResult = ClassificationResult | DetectionResult | TensorsResult;
