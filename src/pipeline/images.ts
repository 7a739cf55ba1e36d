/**
 * The image layer of the request pipeline (docs/image.md): encoded image bytes (or a raw RGB frame) → the model's
 * input tensor (preprocess/, on the CPU or on a device through `ImageDecoding`) → the model (the layers below, so
 * batching, queues and statistics apply as to any request) → classes or boxes in the original image's coordinates
 * (postprocess/). It answers both forms of an image request: the KServe tensor form that REST /infer, gRPC and
 * WebSocket frames send (image-tensors.ts), and the image form of POST /v2/models/{m}/image (`image`).
 */
import type { InferenceApi } from '../api/inference-api.ts';
import type { ImageRequest, ImageResult, ImageTimings } from '../api/image-types.ts';
import type { InferRequest, InferResponse } from '../api/types.ts';
import type { Tensor } from '../tensor/tensor.ts';
import { RtError, rtError } from '../errors/registry.ts';
import { requireImageSpec, type ImageSpec } from '../config/image-spec.ts';
import type { PostprocessSection } from '../config/model-config.ts';
import { classify, type ClassScore } from '../postprocess/classification.ts';
import { postprocessDetections, type Detection } from '../postprocess/detection.ts';
import type { ImageTransform } from '../postprocess/geometry.ts';
import { numericValues } from '../postprocess/numeric.ts';
import type { ImageDecoding } from '../preprocess/frame-batcher.ts';
import { cpuTensorOf, imageTensorOf, type ImageTensor } from '../preprocess/image-pipeline.ts';
import { imageRequestKind, imageRequestOf, imageResponseOf } from './image-tensors.ts';
import type { InferFn, PipelineLayer, StreamFn } from './layer.ts';

/**
 * What the image layer reads of the models: configs (their preprocess and postprocess sections), labels, and the input
 * an engine fills from encoded frames on its own device.
 */
export type ImageModels = Pick<InferenceApi, 'modelConfig' | 'outputLabels' | 'frameInputOf'>;

type ClassificationSection = Extract<PostprocessSection, { readonly type: 'classification' }>;
type DetectionSection = Extract<PostprocessSection, { readonly type: 'detection' }>;

/** The image form of an inference (InferenceApi.inferImage). */
export type ImageFn = (request: ImageRequest) => Promise<ImageResult>;

function checkOption(name: string, value: number | undefined, min: number, max: number, integer: boolean): void {
  if (value === undefined) return;
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw rtError('BAD_PARAMETER', `${name} must be ${integer ? 'an integer' : 'a number'} in [${min}, ${max}], got ${value}`);
  }
}

const microsSince = (t0: bigint): number => Math.round(Number(process.hrtime.bigint() - t0) / 1000);

/** The one answer of a stream (an image model answers once). */
function onlyAnswer(next: StreamFn): InferFn {
  return async (request) => {
    let last: InferResponse | undefined;
    for await (const r of next(request)) last = r;
    if (last === undefined) throw rtError('INTERNAL', `model '${request.model}' answered nothing`);
    return last;
  };
}

export interface ImageLayerOptions {
  /**
   * Only images of models whose engine decodes frames on its device (`frameInputOf`); every other request passes
   * untouched. A front-end worker's pipeline (front-pipeline.ts) takes these, and leaves the rest to the owner's.
   */
  readonly engineFramesOnly?: boolean;
}

export class ImageLayer implements PipelineLayer {
  /**
   * `decoding`: where images become tensors on a device (the GPU frame batcher, preprocess/frame-batcher.ts);
   * undefined: on the CPU.
   */
  constructor(
    private readonly models: ImageModels,
    private readonly decoding?: ImageDecoding,
    private readonly options: ImageLayerOptions = {},
  ) {}

  /** Whether this layer answers the image form of `model` (POST /image); the layer's tensor form follows the same rule. */
  takes(model: string, version?: string): boolean {
    return this.options.engineFramesOnly !== true || this.models.frameInputOf?.(model, version) !== undefined;
  }

  infer(next: InferFn): InferFn {
    // Checked first, so that the common request goes straight on (no extra promise on the way).
    return (request) => {
      const kind = this.kindOf(request);
      return kind === undefined ? next(request) : this.tensorForm(next, request, kind);
    };
  }

  stream(next: StreamFn): StreamFn {
    return (request) => {
      const kind = this.kindOf(request);
      if (kind === undefined) return next(request);
      // An image request answers once.
      const answer = this.tensorForm(onlyAnswer(next), request, kind);
      return (async function* one(): AsyncGenerator<InferResponse> {
        yield await answer;
      })();
    };
  }

  private kindOf(request: InferRequest): 'encoded' | 'raw' | undefined {
    const kind = imageRequestKind(this.models, request);
    return kind === undefined || this.takes(request.model, request.version) ? kind : undefined;
  }

  /**
   * The image form, running the model through `next`. Throws RtError: BAD_DATA for corrupt or unsupported images,
   * BAD_REQUEST for a model without a preprocess section, BAD_PARAMETER for bad options, and whatever `next` throws.
   */
  image(next: InferFn): ImageFn {
    return (request) => this.run(next, request);
  }

  private async tensorForm(next: InferFn, request: InferRequest, kind: 'encoded' | 'raw'): Promise<InferResponse> {
    return imageResponseOf(request, await this.run(next, imageRequestOf(request, kind)));
  }

  private async run(next: InferFn, request: ImageRequest): Promise<ImageResult> {
    checkOption('top_k', request.topK, 1, 10_000, true);
    checkOption('score_threshold', request.scoreThreshold, 0, 1, false);
    checkOption('iou_threshold', request.iouThreshold, 0, 1, false);
    checkOption('max_detections', request.maxDetections, 1, 100_000, true);
    const { model, version } = request;
    const spec = requireImageSpec(this.models.modelConfig(model, version));

    const t0 = process.hrtime.bigint();
    const target = { model, version, rawFrame: request.rawFrame, frameInput: this.models.frameInputOf?.(model, version) };
    const input = await imageTensorOf(request.bytes, spec, target, this.decoding);
    const { image, transform } = input;
    const decodeUs = microsSince(t0);
    request.signal?.throwIfAborted();

    const t1 = process.hrtime.bigint();
    const response = await this.modelCall(next, request, spec, input).catch(async (e: unknown) => {
      // A frame the engine's device decoder turned down as unsupported (not as corrupt) is decoded on the CPU instead.
      if (input.frames === undefined || !(e instanceof RtError) || e.code !== 'UNSUPPORTED') throw e;
      return this.modelCall(next, request, spec, await cpuTensorOf(request.bytes, spec, request.rawFrame));
    });
    const inferUs = microsSince(t1);

    const t2 = process.hrtime.bigint();
    const base = {
      model_name: response.model_name,
      model_version: response.model_version,
      ...(request.id === undefined ? {} : { id: request.id }),
      image,
    };
    const timing = (): ImageTimings => ({ decode_us: decodeUs, infer_us: inferUs, postprocess_us: microsSince(t2) });
    const post = spec.postprocess;
    if (post === undefined) return { ...base, type: 'tensors', outputs: response.outputs, timing: timing() };
    if (post.type === 'classification') {
      const classes = this.classes(request, spec.outputs[0] as string, post, response);
      return { ...base, type: 'classification', classes, timing: timing() };
    }
    const detections = this.detections(request, post, response, transform);
    return {
      ...base,
      type: 'detection',
      detections: detections.map((d) => ({ box: d.box, class_id: d.classId, ...(d.label === undefined ? {} : { label: d.label }), score: d.score })),
      timing: timing(),
    };
  }

  /** `name`: the scores output. */
  /** The model's inference of one image's input tensor (or of the encoded frame, which its engine decodes), through `next`. */
  private modelCall(next: InferFn, request: ImageRequest, spec: ImageSpec, input: ImageTensor): Promise<InferResponse> {
    const { model, version } = request;
    return next({
      model,
      ...(version === undefined ? {} : { version }),
      ...(request.id === undefined ? {} : { id: request.id }),
      // [1, C, H, W] (or NHWC): the batch of one, or the leading 1 that a non-batching image model's dims carry.
      inputs: [input.tensor],
      ...(input.frames === undefined ? {} : { frames: input.frames }),
      outputs: spec.outputs.map((name) => ({ name })),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      protocol: request.protocol ?? 'image',
      ...(request.context === undefined ? {} : { context: request.context }),
    });
  }

  private classes(request: ImageRequest, name: string, post: ClassificationSection, response: InferResponse): ClassScore[] {
    const scores = numericValues(outputOf(request.model, response, name), `model '${request.model}' classification`);
    return classify(scores, {
      activation: post.activation,
      topK: request.topK ?? post.top_k,
      labels: this.models.outputLabels(response.model_name, response.model_version, name),
    });
  }

  private detections(request: ImageRequest, post: DetectionSection, response: InferResponse, transform: ImageTransform): Detection[] {
    const model = request.model;
    const boxes = numericValues(outputOf(model, response, post.boxes_output), `model '${model}' detection boxes`);
    const scores = numericValues(outputOf(model, response, post.scores_output), `model '${model}' detection scores`);
    const classes = numericValues(outputOf(model, response, post.classes_output), `model '${model}' detection classes`);
    if (boxes.length !== scores.length * 4 || classes.length !== scores.length) {
      throw rtError(
        'INTERNAL',
        `model '${model}': detection outputs disagree (${boxes.length / 4} boxes, ${scores.length} scores, ${classes.length} classes)`,
      );
    }
    const labels =
      this.models.outputLabels(response.model_name, response.model_version, post.classes_output) ??
      this.models.outputLabels(response.model_name, response.model_version, post.scores_output);
    return postprocessDetections({ boxes, scores, classes, count: scores.length }, transform, {
      boxFormat: post.box_format,
      normalized: post.normalized,
      scoreThreshold: request.scoreThreshold ?? post.score_threshold,
      iouThreshold: request.iouThreshold ?? post.iou_threshold,
      maxDetections: request.maxDetections ?? post.max_detections,
      classAware: post.class_aware,
      labels,
    });
  }
}

function outputOf(model: string, response: InferResponse, name: string): Tensor {
  const t = response.outputs.find((o) => o.name === name);
  if (t === undefined) throw rtError('INTERNAL', `model '${model}' answered without output '${name}'`);
  return t;
}
