/**
 * The KServe tensor form of an image request, for front ends that speak tensors (REST /infer, gRPC ModelInfer,
 * WebSocket `infer` with binary frames): a request to a model with a `preprocess` section whose only input is a
 * BYTES tensor of one element, named like the model's image input (which is not itself BYTES), holds an encoded
 * image; one whose only input is a UINT8 [H, W, 3] (or [1, H, W, 3]) tensor of that name holds a raw RGB camera frame
 * (unless that is the model's input as it stands). It runs through the image pipeline and is answered with tensors:
 *
 *   detection:       boxes FP32 [N, 4] (x1, y1, x2, y2 in original-image pixels), scores FP32 [N],
 *                    classes INT32 [N], labels BYTES [N]
 *   classification:  scores FP32 [K], classes INT32 [K], labels BYTES [K]
 *   no postprocess:  the model's outputs
 *
 * Request parameters `top_k`, `score_threshold`, `iou_threshold` and `max_detections` override the config.
 * A front end calls `inferImageRequest(api, request) ?? api.infer(request)` — in one place, before `api.infer`.
 */
import type { InferenceApi } from '../api/inference-api.ts';
import type { InferRequest, InferResponse, Parameters } from '../api/types.ts';
import type { Tensor } from '../tensor/tensor.ts';
import { rtError } from '../errors/registry.ts';
import { utf8Encode } from '../codec/tensor-data.ts';
import { imageSpecOf } from '../config/image-spec.ts';
import { runImagePipeline, type ImagePipelineOptions, type ImageResult } from './image-pipeline.ts';

function numberParam(params: Parameters | undefined, name: string): number | undefined {
  const v = params?.[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'number') throw rtError('BAD_PARAMETER', `parameter '${name}' must be a number, got ${JSON.stringify(v)}`);
  return v;
}

/** The height and width of a raw RGB frame tensor (UINT8 [H, W, 3] or [1, H, W, 3]); undefined for any other shape. */
function rawFrameSize(shape: readonly number[]): { width: number; height: number } | undefined {
  const s = shape.length === 4 && shape[0] === 1 ? shape.slice(1) : shape;
  if (s.length !== 3 || s[2] !== 3) return undefined;
  const [height, width] = s as [number, number, number];
  return height >= 1 && width >= 1 ? { width, height } : undefined;
}

/**
 * Which kind of image request `request` is for its model (cheap; no decoding): an encoded image in a BYTES input, a
 * raw RGB frame in a UINT8 [H, W, 3] input (unless that already is the model's input as it stands), or none.
 */
export function imageRequestKind(api: InferenceApi, request: InferRequest): 'encoded' | 'raw' | undefined {
  // Encoded frames already placed by the image layer (tensor/frames.ts) go to the core as they are.
  if (request.inputs.length !== 1 || request.frames !== undefined) return undefined;
  const input = request.inputs[0] as Tensor;
  if (input.datatype !== 'BYTES' && input.datatype !== 'UINT8') return undefined;
  let spec;
  try {
    spec = imageSpecOf(api.modelConfig(request.model, request.version));
  } catch {
    // Unknown model, not ready, bad config: api.infer reports it.
    return undefined;
  }
  if (spec === undefined || input.name !== spec.inputName) return undefined;
  if (input.datatype === 'BYTES') return 'encoded';
  const size = rawFrameSize(input.shape);
  if (size === undefined || spec.channels !== 3) return undefined;
  const isModelInput = spec.dtype === 'UINT8' && spec.layout === 'NHWC' && size.width === spec.width && size.height === spec.height;
  return isModelInput ? undefined : 'raw';
}

/** Whether `request` is an image request for its model (cheap; no decoding). */
export function isImageRequest(api: InferenceApi, request: InferRequest): boolean {
  return imageRequestKind(api, request) !== undefined;
}

/** The result as KServe output tensors (see the file comment). */
export function imageResultTensors(result: ImageResult): Tensor[] {
  if (result.type === 'tensors') return [...result.outputs];
  if (result.type === 'classification') {
    const k = result.classes.length;
    return [
      { name: 'scores', datatype: 'FP32', shape: [k], data: Float32Array.from(result.classes, (c) => c.score) },
      { name: 'classes', datatype: 'INT32', shape: [k], data: Int32Array.from(result.classes, (c) => c.index) },
      { name: 'labels', datatype: 'BYTES', shape: [k], data: result.classes.map((c) => utf8Encode(c.label ?? String(c.index))) },
    ];
  }
  const n = result.detections.length;
  return [
    { name: 'boxes', datatype: 'FP32', shape: [n, 4], data: Float32Array.from(result.detections.flatMap((d) => d.box)) },
    { name: 'scores', datatype: 'FP32', shape: [n], data: Float32Array.from(result.detections, (d) => d.score) },
    { name: 'classes', datatype: 'INT32', shape: [n], data: Int32Array.from(result.detections, (d) => d.class_id) },
    { name: 'labels', datatype: 'BYTES', shape: [n], data: result.detections.map((d) => utf8Encode(d.label ?? String(d.class_id))) },
  ];
}

/**
 * Runs `request` through the image pipeline when it is an image request (see the file comment) and answers
 * tensors; undefined when it is not, so the caller goes on with `api.infer(request)`.
 */
export async function inferImageRequest(api: InferenceApi, request: InferRequest): Promise<InferResponse | undefined> {
  const kind = imageRequestKind(api, request);
  if (kind === undefined) return undefined;
  const input = request.inputs[0] as Tensor;
  let bytes: Uint8Array;
  let rawFrame: { width: number; height: number } | undefined;
  if (kind === 'raw') {
    rawFrame = rawFrameSize(input.shape);
    bytes = input.data as Uint8Array;
  } else {
    const elements = input.data as Uint8Array[];
    if (elements.length !== 1 || input.shape.reduce((a, b) => a * b, 1) !== 1) {
      throw rtError(
        'BAD_SHAPE',
        `input '${input.name}': an image request carries exactly one encoded image (shape [1] or [1, 1]), got shape [${input.shape.join(', ')}]`,
      );
    }
    bytes = elements[0] as Uint8Array;
  }
  const p = request.parameters;
  const topK = numberParam(p, 'top_k');
  const scoreThreshold = numberParam(p, 'score_threshold');
  const iouThreshold = numberParam(p, 'iou_threshold');
  const maxDetections = numberParam(p, 'max_detections');
  const options: ImagePipelineOptions = {
    ...(request.version === undefined ? {} : { version: request.version }),
    ...(request.id === undefined ? {} : { id: request.id }),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    ...(request.protocol === undefined ? {} : { protocol: request.protocol }),
    ...(request.context === undefined ? {} : { context: request.context }),
    ...(topK === undefined ? {} : { topK }),
    ...(scoreThreshold === undefined ? {} : { scoreThreshold }),
    ...(iouThreshold === undefined ? {} : { iouThreshold }),
    ...(maxDetections === undefined ? {} : { maxDetections }),
    ...(rawFrame === undefined ? {} : { rawFrame }),
  };
  const result = await runImagePipeline(api, request.model, bytes, options);
  let outputs = imageResultTensors(result);
  if (request.outputs !== undefined) {
    const wanted = request.outputs.map((o) => o.name);
    for (const name of wanted) {
      if (!outputs.some((o) => o.name === name)) {
        throw rtError(
          'UNKNOWN_OUTPUT',
          `image requests to model '${request.model}' answer ${outputs.map((o) => o.name).join(', ')}; there is no output '${name}'`,
        );
      }
    }
    outputs = outputs.filter((o) => wanted.includes(o.name));
  }
  return {
    model_name: result.model_name,
    model_version: result.model_version,
    ...(request.id === undefined ? {} : { id: request.id }),
    outputs,
  };
}
