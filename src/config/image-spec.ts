/**
 * A model's image pipeline, compiled once from its config (`preprocess` and `postprocess` sections, docs/image.md)
 * and checked against its input and outputs, so that a wrong section fails the model's load with a clear reason
 * instead of every request.
 */
import type { InputConfig, ModelConfig, PostprocessSection, PreprocessSection } from './model-config.ts';
import { rtError } from '../errors/registry.ts';

export type ImageFormat = 'jpeg' | 'png' | 'webp';
export type ResizeMode = 'fill' | 'fit' | 'letterbox' | 'cover';
export type ImageDtype = 'FP32' | 'FP16' | 'UINT8';

/**
 * What a frame decoder reports per frame, on the CPU (src/preprocess/frame-decoder.ts) and on the GPU
 * (src/engine/cuda/image-decoder.ts): decoded, or why not ("unsupported": decode it on the CPU instead;
 * "corrupt" / "too-large": refuse it).
 */
export interface FrameStatus {
  readonly ok: boolean;
  readonly width: number;
  readonly height: number;
  /** Which decoder took it: hardware, gpu-hybrid, gpu (nvJPEG), raw, cpu-reference. */
  readonly backend?: string;
  readonly code?: 'unsupported' | 'corrupt' | 'too-large';
  readonly message?: string;
}

export interface ImageSpec {
  readonly model: string;
  readonly inputName: string;
  readonly dtype: ImageDtype;
  readonly layout: 'NCHW' | 'NHWC';
  readonly color: 'rgb' | 'bgr' | 'gray';
  readonly channels: 1 | 3;
  /** Target size; for `fit` the bounding box the image is scaled into. */
  readonly width: number;
  readonly height: number;
  readonly mode: ResizeMode;
  readonly kernel: NonNullable<PreprocessSection['resize']>['kernel'];
  /** Per channel, 0..255. */
  readonly padValue: readonly number[];
  readonly scale: number;
  /** Per channel (length = channels). */
  readonly mean: readonly number[];
  readonly std: readonly number[];
  readonly formats: ReadonlySet<ImageFormat>;
  readonly maxPixels: number;
  /** The model batches: the tensor gets a leading batch dimension of 1. */
  readonly batched: boolean;
  readonly postprocess: PostprocessSection | undefined;
  /** Outputs the postprocess reads (all outputs when there is no postprocess). */
  readonly outputs: readonly string[];
}

const cache = new WeakMap<ModelConfig, ImageSpec>();

function bad(config: ModelConfig, message: string): never {
  throw rtError('BAD_CONFIG', `model '${config.name}': ${message}`);
}

function perChannel(config: ModelConfig, what: string, values: readonly number[], channels: number): number[] {
  if (values.length === channels) return [...values];
  if (values.length === 1) return Array.from({ length: channels }, () => values[0] as number);
  return bad(config, `preprocess.${what} has ${values.length} values; give 1 or ${channels} (one per channel)`);
}

function imageInput(config: ModelConfig, pre: PreprocessSection): InputConfig {
  if (pre.input !== undefined) {
    const found = config.input.find((i) => i.name === pre.input);
    if (found === undefined)
      bad(config, `preprocess.input '${pre.input}' is not an input of the model (inputs: ${config.input.map((i) => i.name).join(', ')})`);
    return found;
  }
  const required = config.input.filter((i) => i.optional !== true);
  if (required.length !== 1 || required[0] === undefined) {
    return bad(config, `preprocess.input must name the image input: the model has ${required.length} required inputs`);
  }
  return required[0];
}

/** Checks and compiles the config's image sections. Undefined when the model has no `preprocess` section. */
export function imageSpecOf(config: ModelConfig): ImageSpec | undefined {
  const hit = cache.get(config);
  if (hit !== undefined) return hit;
  const pre = config.preprocess;
  if (pre === undefined) {
    if (config.postprocess !== undefined) bad(config, 'postprocess needs a preprocess section (the image routes use both)');
    return undefined;
  }
  const input = imageInput(config, pre);
  const batched = config.max_batch_size > 0;
  let dims = [...input.dims];
  if (!batched) {
    if (dims.length !== 4 || (dims[0] !== 1 && dims[0] !== -1)) {
      bad(config, `image input '${input.name}' of a model without batching must have dims [1, C, H, W] or [1, H, W, C], got [${dims.join(', ')}]`);
    }
    dims = dims.slice(1);
  }
  if (dims.length !== 3) bad(config, `image input '${input.name}' must have 3 dims (C, H, W or H, W, C) besides the batch, got [${dims.join(', ')}]`);
  const layout = pre.layout ?? (input.format === 'FORMAT_NHWC' ? 'NHWC' : 'NCHW');
  const [c, h, w] = layout === 'NCHW' ? [dims[0], dims[1], dims[2]] : [dims[2], dims[0], dims[1]];
  const channels = pre.color === 'gray' ? 1 : 3;
  if (c !== channels && c !== -1)
    bad(config, `preprocess.color '${pre.color}' gives ${channels} channel(s) but input '${input.name}' has ${c} (layout ${layout})`);

  const inputDtype =
    input.data_type === 'TYPE_FP32' ? 'FP32' : input.data_type === 'TYPE_FP16' ? 'FP16' : input.data_type === 'TYPE_UINT8' ? 'UINT8' : undefined;
  if (inputDtype === undefined)
    bad(config, `image input '${input.name}' is ${input.data_type}; preprocess can feed TYPE_FP32, TYPE_FP16 or TYPE_UINT8`);
  const dtype = pre.dtype ?? inputDtype;
  if (dtype !== inputDtype) bad(config, `preprocess.dtype ${dtype} does not match input '${input.name}' (${input.data_type})`);

  const mode = pre.resize.mode;
  const size = (name: 'width' | 'height', dim: number | undefined): number => {
    const given = pre.resize[name];
    if (dim !== undefined && dim > 0) {
      if (mode === 'fit')
        bad(
          config,
          `preprocess.resize.mode 'fit' gives images of varying size, but input '${input.name}' has a fixed ${name} (${dim}); use fill, letterbox or cover`,
        );
      if (given !== undefined && given !== dim) bad(config, `preprocess.resize.${name} ${given} does not match input '${input.name}' (${dim})`);
      return dim;
    }
    if (given === undefined) bad(config, `input '${input.name}' has a dynamic ${name}: set preprocess.resize.${name}`);
    return given;
  };
  const width = size('width', w);
  const height = size('height', h);

  const post = config.postprocess;
  const outputNames = config.output.map((o) => o.name);
  const needOutput = (name: string, what: string): string => {
    if (!outputNames.includes(name)) bad(config, `postprocess.${what} '${name}' is not an output of the model (outputs: ${outputNames.join(', ')})`);
    return name;
  };
  let outputs: string[] = outputNames;
  if (post?.type === 'classification') {
    if (post.output === undefined && outputNames.length !== 1)
      bad(config, `postprocess.output must name the scores output: the model has ${outputNames.length} outputs`);
    outputs = [needOutput(post.output ?? (outputNames[0] as string), 'output')];
  } else if (post?.type === 'detection') {
    outputs = [
      needOutput(post.boxes_output, 'boxes_output'),
      needOutput(post.scores_output, 'scores_output'),
      needOutput(post.classes_output, 'classes_output'),
    ];
  }

  const spec: ImageSpec = {
    model: config.name,
    inputName: input.name,
    dtype,
    layout,
    color: pre.color,
    channels,
    width,
    height,
    mode,
    kernel: pre.resize.kernel,
    padValue: perChannel(config, 'resize.pad_value', pre.resize.pad_value, channels),
    scale: pre.scale,
    mean: perChannel(config, 'mean', pre.mean, channels),
    std: perChannel(config, 'std', pre.std, channels),
    formats: new Set(pre.formats),
    maxPixels: pre.max_pixels,
    batched,
    postprocess: post,
    outputs,
  };
  cache.set(config, Object.freeze(spec));
  return spec;
}

/** The spec, or BAD_REQUEST naming the model when it takes no images. */
export function requireImageSpec(config: ModelConfig): ImageSpec {
  const spec = imageSpecOf(config);
  if (spec === undefined) {
    throw rtError('BAD_REQUEST', `model '${config.name}' takes no images: its config has no preprocess section (docs/image.md)`);
  }
  return spec;
}
