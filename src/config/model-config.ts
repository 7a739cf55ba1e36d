import { z } from 'zod';

/**
 * Model configuration: Triton's ModelConfig (model_config.proto) in its JSON spelling, for the fields rtserve
 * supports, plus rtserve's `engine` section. Unknown keys are rejected (strict objects) so that a typo never
 * silently does nothing; Triton fields we do not support are filtered out earlier by the pbtxt loader with a
 * warning that names them.
 */

/** protobuf-JSON writes 64-bit integers as strings; accept both. */
const int = z
  .union([
    z.number().int(),
    z
      .string()
      .regex(/^-?\d+$/)
      .transform(Number),
  ])
  .pipe(z.number().int());
const nonNegInt = int.pipe(z.number().int().min(0));

/**
 * What the pbtxt reader and the unsupported-field filter need beyond the schema's shape, carried as zod metadata
 * so that the schema is ModelConfig's one description (src/repository/config-fields.ts derives its field table
 * from it; test/unit/config/model-config-forms.test.ts checks that table against model_config.proto).
 */
export type ConfigFieldMeta = {
  /** The protobuf message an object stands for, named in "unknown field 'x' in ModelInput". */
  readonly message?: string;
  /** Triton fields of that message rtserve ignores with a warning instead of rejecting. */
  readonly unsupported?: readonly string[];
  /** An enum whose value 0 in the .proto is one the schema refuses (DataType's TYPE_INVALID). */
  readonly enumZero?: string;
  /** A section only JSON/YAML configs carry: not in the pbtxt field table. */
  readonly jsonOnly?: true;
};
const triton = (message: string, unsupported: readonly string[] = []): ConfigFieldMeta => ({ message, unsupported });

export const CONFIG_DATA_TYPES = [
  'TYPE_BOOL',
  'TYPE_UINT8',
  'TYPE_UINT16',
  'TYPE_UINT32',
  'TYPE_UINT64',
  'TYPE_INT8',
  'TYPE_INT16',
  'TYPE_INT32',
  'TYPE_INT64',
  'TYPE_FP16',
  'TYPE_FP32',
  'TYPE_FP64',
  'TYPE_STRING',
  'TYPE_BF16',
] as const;

const tensorFields = {
  name: z.string().min(1),
  data_type: z.enum(CONFIG_DATA_TYPES).meta({ enumZero: 'TYPE_INVALID' } satisfies ConfigFieldMeta),
  /** Without the batch dimension when max_batch_size > 0. -1 = any size. */
  dims: z.array(int.pipe(z.number().int().min(-1))),
  reshape: z
    .strictObject({ shape: z.array(int) })
    .meta(triton('ModelTensorReshape'))
    .optional(),
};
/** Triton's ModelInput. */
const inputConfig = z
  .strictObject({
    ...tensorFields,
    format: z.enum(['FORMAT_NONE', 'FORMAT_NHWC', 'FORMAT_NCHW']).optional(),
    optional: z.boolean().optional(),
  })
  .meta(triton('ModelInput', ['is_shape_tensor', 'allow_ragged_batch', 'is_non_linear_format_io']));
/** Triton's ModelOutput. */
const outputConfig = z
  .strictObject({
    ...tensorFields,
    label_filename: z.string().optional(),
  })
  .meta(triton('ModelOutput', ['is_shape_tensor', 'is_non_linear_format_io']));
export type InputConfig = z.infer<typeof inputConfig>;
export type OutputConfig = z.infer<typeof outputConfig>;
/** An input or an output, where code treats both alike. */
export type TensorConfig = InputConfig | OutputConfig;

const queuePolicy = z
  .strictObject({
    timeout_action: z.enum(['REJECT', 'DELAY']).default('REJECT'),
    /** 0 = no timeout. */
    default_timeout_microseconds: nonNegInt.default(0),
    allow_timeout_override: z.boolean().default(false),
    /** 0 = unbounded in Triton; rtserve keeps every queue bounded, so 0 means `server.maxQueueSizeDefault`. */
    max_queue_size: nonNegInt.default(0),
  })
  .meta(triton('ModelQueuePolicy'));
export type QueuePolicy = z.infer<typeof queuePolicy>;

const dynamicBatching = z
  .strictObject({
    preferred_batch_size: z.array(int.pipe(z.number().int().min(1))).default([]),
    max_queue_delay_microseconds: nonNegInt.default(0),
    preserve_ordering: z.boolean().default(false),
    /** 0 = a single level. Level 1 is the highest priority. */
    priority_levels: nonNegInt.default(0),
    default_priority_level: nonNegInt.default(0),
    default_queue_policy: queuePolicy.default(() => queuePolicy.parse({})),
    priority_queue_policy: z.record(z.string().regex(/^\d+$/), queuePolicy).default({}),
  })
  .meta(triton('ModelDynamicBatching'));
export type DynamicBatching = z.infer<typeof dynamicBatching>;

const versionPolicy = z
  .union([
    z.strictObject({ latest: z.strictObject({ num_versions: int.pipe(z.number().int().min(1)).default(1) }).meta(triton('Latest')) }),
    z.strictObject({ all: z.strictObject({}).meta(triton('All')) }),
    z.strictObject({ specific: z.strictObject({ versions: z.array(int.pipe(z.number().int().min(1))).min(1) }).meta(triton('Specific')) }),
  ])
  .meta(triton('ModelVersionPolicy'));
export type VersionPolicy = z.infer<typeof versionPolicy>;

const instanceGroup = z
  .strictObject({
    name: z.string().optional(),
    count: int.pipe(z.number().int().min(1)).default(1),
    kind: z.enum(['KIND_AUTO', 'KIND_GPU', 'KIND_CPU', 'KIND_MODEL']).default('KIND_AUTO'),
    gpus: z.array(int.pipe(z.number().int().min(0))).optional(),
  })
  .meta(triton('ModelInstanceGroup', ['profile', 'rate_limiter', 'passive', 'secondary_devices', 'host_policy']));

const accelerator = z
  .strictObject({
    name: z.string(),
    parameters: z.record(z.string(), z.string()).default({}),
  })
  .meta(triton('Accelerator'));

const optimization = z
  .strictObject({
    graph: z.strictObject({ level: int }).meta(triton('Graph')).optional(),
    execution_accelerators: z
      .strictObject({
        gpu_execution_accelerator: z.array(accelerator).default([]),
        cpu_execution_accelerator: z.array(accelerator).default([]),
      })
      .meta(triton('ExecutionAccelerators'))
      .optional(),
  })
  .meta(
    triton('ModelOptimizationPolicy', [
      'priority',
      'cuda',
      'input_pinned_memory',
      'output_pinned_memory',
      'gather_kernel_buffer_threshold',
      'eager_batching',
    ]),
  );

const warmupInput = z
  .strictObject({
    data_type: z.enum(CONFIG_DATA_TYPES).meta({ enumZero: 'TYPE_INVALID' } satisfies ConfigFieldMeta),
    dims: z.array(int),
    zero_data: z.boolean().optional(),
    random_data: z.boolean().optional(),
  })
  .meta(triton('ModelWarmup.Input', ['input_data_file']));

const modelWarmup = z
  .strictObject({
    name: z.string(),
    batch_size: int.pipe(z.number().int().min(0)).default(1),
    inputs: z.record(z.string(), warmupInput),
    count: int.pipe(z.number().int().min(1)).default(1),
  })
  .meta(triton('ModelWarmup'));
export type ModelWarmup = z.infer<typeof modelWarmup>;

export const EXECUTION_PROVIDERS = ['cpu', 'webgpu', 'cuda', 'tensorrt'] as const;

/**
 * Run-time failover along the `providers` chain with a circuit breaker (docs/operations.md, "Degradation across
 * engines"): a device failure of the serving provider moves the model to the next one; a health probe of the
 * better providers (reload + warmup inference) moves it back.
 */
const failoverSection = z
  .strictObject({
    /** Off: the first provider that loads serves until the model is reloaded, whatever happens to it. */
    enabled: z.boolean().default(true),
    /**
     * Consecutive device errors (ENGINE_DEVICE_FAILED) of the serving provider that open the breaker. A session
     * that can never run again (its worker died) or a provider that fails to load opens it at once.
     */
    failure_threshold: int.pipe(z.number().int().min(1)).default(3),
    /** Delay before the first health probe once the breaker is open. */
    probe_interval_ms: int.pipe(z.number().int().min(10)).default(5000),
    /** Each failed probe doubles the delay up to this cap. */
    max_probe_interval_ms: int.pipe(z.number().int().min(10)).default(60_000),
    /**
     * Run the batch that hit the failure once more on the next provider. Costs one copy of each batch's inputs
     * while a next provider exists (the engine may hand the originals to the dead worker); off: that batch fails
     * with ENGINE_DEVICE_FAILED / ENGINE_FAILED and only later batches move.
     */
    retry_failed_batch: z.boolean().default(true),
  })
  .refine((f) => f.max_probe_interval_ms >= f.probe_interval_ms, {
    message: 'max_probe_interval_ms must be at least probe_interval_ms',
    path: ['max_probe_interval_ms'],
  });
export type FailoverSection = z.infer<typeof failoverSection>;

/** rtserve's own engine section: which execution providers to try, in order, and their options. */
const engineSection = z.strictObject({
  providers: z
    .array(
      z.union([
        z.enum(EXECUTION_PROVIDERS).transform((name) => ({ name, options: {} })),
        z.strictObject({
          name: z.enum(EXECUTION_PROVIDERS),
          options: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
        }),
      ]),
    )
    .min(1)
    .default(() => [{ name: 'cpu' as const, options: {} }]),
  graph_optimization_level: z.enum(['disabled', 'basic', 'extended', 'all']).default('all'),
  intra_op_num_threads: nonNegInt.default(0),
  inter_op_num_threads: nonNegInt.default(0),
  /**
   * Let onnxruntime's intra-op threads spin-wait between runs. Off by default: on a server the spinning threads
   * compete with the event loop and the other sessions for the same cores (bench/results/foundation-findings.md
   * measured 2-3x more CPU per inference with it on a 2-core machine).
   */
  allow_spinning: z.boolean().default(false),
  /** Extra onnxruntime session config entries, passed as given (e.g. "session.set_denormal_as_zero": "1"). */
  session_config: z.record(z.string(), z.string()).default({}),
  failover: failoverSection.prefault({}),
});
export type EngineSection = z.infer<typeof engineSection>;

/**
 * rtserve's image preprocessing (not in Triton; JSON/YAML configs): how an encoded image sent to
 * `POST /v2/models/{m}/image` (or as a BYTES input, docs/image.md) becomes the model's input tensor.
 */
const preprocessSection = z
  .strictObject({
    /** The model input the image feeds; default: the model's only input. */
    input: z.string().min(1).optional(),
    /** Accepted encodings; anything else is refused with 400 naming the format. */
    formats: z
      .array(z.enum(['jpeg', 'png', 'webp']))
      .min(1)
      .default(['jpeg', 'png', 'webp']),
    resize: z
      .strictObject({
        /** Default: the input's dims (the W and H of its layout). */
        width: int.pipe(z.number().int().min(1)).optional(),
        height: int.pipe(z.number().int().min(1)).optional(),
        /** fill: stretch; letterbox: keep aspect, pad; cover: keep aspect, centre crop; fit: keep aspect, no pad
         *  (for inputs whose H and W are dynamic). */
        mode: z.enum(['fill', 'fit', 'letterbox', 'cover']).default('fill'),
        kernel: z.enum(['nearest', 'linear', 'cubic', 'mitchell', 'lanczos2', 'lanczos3']).default('linear'),
        /** Letterbox padding, 0..255, per channel or one for all. */
        pad_value: z.array(z.number().min(0).max(255)).min(1).max(3).default([0]),
      })
      .prefault({}),
    color: z.enum(['rgb', 'bgr', 'gray']).default('rgb'),
    /** Default: the input's `format` (FORMAT_NHWC → NHWC), else NCHW. */
    layout: z.enum(['NCHW', 'NHWC']).optional(),
    /** Default: the input's data_type. UINT8 inputs get the pixels as they are. */
    dtype: z.enum(['FP32', 'FP16', 'UINT8']).optional(),
    /** Float inputs: value = (pixel · scale − mean[c]) / std[c]. */
    scale: z
      .number()
      .positive()
      .default(1 / 255),
    mean: z.array(z.number()).min(1).max(3).default([0]),
    std: z.array(z.number().positive()).min(1).max(3).default([1]),
    /** Decoded images larger than this many pixels are refused (decompression bombs). */
    max_pixels: int.pipe(z.number().int().min(1)).default(40_000_000),
  })
  .meta({ jsonOnly: true } satisfies ConfigFieldMeta);
export type PreprocessSection = z.infer<typeof preprocessSection>;

/** rtserve's image postprocessing: what the image routes answer instead of raw tensors. */
const postprocessSection = z
  .discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('classification'),
      /** Default: the model's only output. Labels come from its label_filename. */
      output: z.string().min(1).optional(),
      /** Applied to the output before ranking; `none` when the model already answers probabilities. */
      activation: z.enum(['softmax', 'sigmoid', 'none']).default('softmax'),
      top_k: int.pipe(z.number().int().min(1)).default(5),
    }),
    z.strictObject({
      type: z.literal('detection'),
      /** The model's decoded candidates: boxes [K, 4], scores [K] and classes [K] (per batch item). */
      boxes_output: z.string().min(1).default('boxes'),
      scores_output: z.string().min(1).default('scores'),
      classes_output: z.string().min(1).default('classes'),
      /** Box coordinates as the model writes them, in input pixels (or 0..1 of the input when normalized). */
      box_format: z.enum(['xyxy', 'xywh', 'cxcywh']).default('xyxy'),
      normalized: z.boolean().default(false),
      score_threshold: z.number().min(0).max(1).default(0.3),
      iou_threshold: z.number().min(0).max(1).default(0.5),
      max_detections: int.pipe(z.number().int().min(1)).default(100),
      /** NMS within each class (true) or across classes. */
      class_aware: z.boolean().default(true),
    }),
  ])
  .meta({ jsonOnly: true } satisfies ConfigFieldMeta);
export type PostprocessSection = z.infer<typeof postprocessSection>;

/**
 * rtserve's generative decoding (src/generate/, docs/generate.md; not in Triton; JSON/YAML configs): how the
 * server drives a decoder-only model whose ONNX graph takes and returns its KV cache explicitly (prefill, then one
 * step per token, with continuous batching). `{layer}` in a cache name stands for the layer index 0..num_layers-1.
 * Cache tensors are [batch, kv_heads, length, head_dim]; kv_heads and head_dim are read from the graph.
 */
const generateSection = z
  .strictObject({
    /** `bytes`: UTF-8 bytes are token ids 0..255 (ids >= 256 are special tokens). `huggingface`: the tokenizer.json
     *  and chat template of the Hugging Face checkpoint the version directory holds (docs/huggingface.md). */
    tokenizer: z.enum(['bytes', 'huggingface']).default('bytes'),
    vocab_size: int.pipe(z.number().int().min(2)),
    /** Sampling this token ends a sequence (finish_reason "stop"). */
    eos_token_id: nonNegInt,
    /** More token ids that end a sequence like eos_token_id (a checkpoint's generation_config.json may list several). */
    stop_token_ids: z.array(nonNegInt).default([]),
    /** Prepended to every prompt when set. */
    bos_token_id: nonNegInt.optional(),
    /** Positions the model knows (prompt + generated tokens). */
    max_context: int.pipe(z.number().int().min(2)),
    num_layers: int.pipe(z.number().int().min(1)),
    inputs: z
      .strictObject({
        input_ids: z.string().min(1).default('input_ids'),
        position_ids: z.string().min(1).default('position_ids'),
        attention_mask: z.string().min(1).default('attention_mask'),
        /** Optional in the graph: [batch] index of the new token whose logits a row wants; logits are then
         *  [batch, 1, vocab] (the models built from Hugging Face checkpoints have it). */
        logits_index: z.string().min(1).default('logits_index'),
        past_key: z.string().includes('{layer}').default('past_key_values.{layer}.key'),
        past_value: z.string().includes('{layer}').default('past_key_values.{layer}.value'),
      })
      .prefault({}),
    outputs: z
      .strictObject({
        logits: z.string().min(1).default('logits'),
        present_key: z.string().includes('{layer}').default('present.{layer}.key'),
        present_value: z.string().includes('{layer}').default('present.{layer}.value'),
      })
      .prefault({}),
    /**
     * Which decoding loop serves the model (docs/generate.md). `onnx`: the continuous batcher over the ONNX graph
     * with a contiguous host KV cache. `onnx-paged`: the paged scheduler (chunked prefill, prefix caching,
     * preemption) over the same graph with a paged host KV cache. `cuda`: the paged scheduler over the native CUDA
     * decoder, for Hugging Face checkpoints (the load fails without the CUDA addon and a GPU). `auto`: `cuda` when
     * the model is a Hugging Face checkpoint and the CUDA decoder can run here, else `onnx`. The default stays `onnx`
     * until the CUDA decoder has been checked on a GPU (docs/llm-gpu.md): it has not run on one yet.
     */
    engine: z.enum(['auto', 'onnx', 'onnx-paged', 'cuda']).default('onnx'),
    /** The paged KV cache (engines `onnx-paged` and `cuda`). */
    kv_cache: z
      .strictObject({
        /** Tokens per KV block. */
        block_tokens: int.pipe(z.number().int().min(1).max(1024)).default(16),
        /** Blocks to allocate; 0 = enough for the server's generateMaxTokensInFlight (the CUDA decoder: from free device memory). */
        blocks: nonNegInt.default(0),
        /** Tokens of one step at most (decode tokens plus prompt chunks); 0 = the server's generateMaxPrefillTokens. */
        max_step_tokens: nonNegInt.default(0),
      })
      .prefault({}),
    /** How /v1/chat/completions renders messages into a prompt: `{content}` is replaced by the message text. */
    chat_template: z
      .strictObject({
        system: z.string().default('# system: {content}\n'),
        user: z.string().default('# user: {content}\n'),
        assistant: z.string().default('# assistant: {content}\n'),
        /** Appended after the messages: where the model's answer starts. */
        generation_prompt: z.string().default('# assistant: '),
      })
      .prefault({}),
  })
  .meta({ jsonOnly: true } satisfies ConfigFieldMeta);
export type GenerateSection = z.infer<typeof generateSection>;

export const modelConfigSchema = z
  .strictObject({
    name: z.string().min(1),
    platform: z.string().default('onnxruntime_onnx'),
    backend: z.string().default('onnxruntime'),
    /** 0 = the model does no batching and shapes must match `dims` exactly. */
    max_batch_size: nonNegInt.default(0),
    version_policy: versionPolicy.default(() => ({ latest: { num_versions: 1 } })),
    input: z.array(inputConfig).default([]),
    output: z.array(outputConfig).default([]),
    dynamic_batching: dynamicBatching.optional(),
    instance_group: z.array(instanceGroup).default([]),
    optimization: optimization.optional(),
    model_warmup: z.array(modelWarmup).default([]),
    /**
     * The model file of each version folder. A name inside the folder, never a path: configs arrive through the
     * load API too (Triton's `config` parameter), so `../x`, `a/b` and absolute paths are refused (400 BAD_CONFIG).
     */
    default_model_filename: z
      .string()
      .refine((name) => name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name), {
        message: 'must be the name of a file in the version folder (no "/", "\\" or "..")',
      })
      .optional(),
    parameters: z.record(z.string(), z.strictObject({ string_value: z.string() }).meta(triton('ModelParameter'))).default({}),
    response_cache: z.strictObject({ enable: z.boolean() }).meta(triton('ModelResponseCache')).optional(),
    engine: engineSection.default(() => engineSection.parse({})),
    generate: generateSection.optional(),
    preprocess: preprocessSection.optional(),
    postprocess: postprocessSection.optional(),
  })
  .meta(
    triton('ModelConfig', [
      'runtime',
      'batch_input',
      'batch_output',
      'sequence_batching',
      'ensemble_scheduling',
      'cc_model_filenames',
      'metric_tags',
      'model_operations',
      'model_transaction_policy',
      'model_repository_agents',
      'model_metrics',
    ]),
  );

export type ModelConfig = z.infer<typeof modelConfigSchema>;
/** What a user may write: every field with a default may be left out. */
export type ModelConfigInput = z.input<typeof modelConfigSchema>;

/** Defaults for a dynamic_batching section written as `dynamic_batching {}`. */
export function defaultDynamicBatching(): DynamicBatching {
  return dynamicBatching.parse({});
}
