import { z } from 'zod';

/**
 * Model configuration: Triton's ModelConfig (model_config.proto) in its JSON spelling, for the fields rtserve
 * supports, plus rtserve's `engine` section. Unknown keys are rejected (strict objects) so that a typo never
 * silently does nothing; Triton fields we do not support are filtered out earlier by the pbtxt loader with a
 * warning that names them.
 */

/** protobuf-JSON writes 64-bit integers as strings; accept both. */
const int = z.union([z.number().int(), z.string().regex(/^-?\d+$/).transform(Number)]).pipe(z.number().int());
const nonNegInt = int.pipe(z.number().int().min(0));

export const CONFIG_DATA_TYPES = [
  'TYPE_BOOL', 'TYPE_UINT8', 'TYPE_UINT16', 'TYPE_UINT32', 'TYPE_UINT64', 'TYPE_INT8', 'TYPE_INT16', 'TYPE_INT32',
  'TYPE_INT64', 'TYPE_FP16', 'TYPE_FP32', 'TYPE_FP64', 'TYPE_STRING', 'TYPE_BF16',
] as const;

const tensorConfig = z.strictObject({
  name: z.string().min(1),
  data_type: z.enum(CONFIG_DATA_TYPES),
  /** Without the batch dimension when max_batch_size > 0. -1 = any size. */
  dims: z.array(int.pipe(z.number().int().min(-1))),
  format: z.enum(['FORMAT_NONE', 'FORMAT_NHWC', 'FORMAT_NCHW']).optional(),
  reshape: z.strictObject({ shape: z.array(int) }).optional(),
  optional: z.boolean().optional(),
  label_filename: z.string().optional(),
});
export type TensorConfig = z.infer<typeof tensorConfig>;

const queuePolicy = z.strictObject({
  timeout_action: z.enum(['REJECT', 'DELAY']).default('REJECT'),
  /** 0 = no timeout. */
  default_timeout_microseconds: nonNegInt.default(0),
  allow_timeout_override: z.boolean().default(false),
  /** 0 = unbounded in Triton; rtserve keeps every queue bounded, so 0 means `server.maxQueueSizeDefault`. */
  max_queue_size: nonNegInt.default(0),
});
export type QueuePolicy = z.infer<typeof queuePolicy>;

const dynamicBatching = z.strictObject({
  preferred_batch_size: z.array(int.pipe(z.number().int().min(1))).default([]),
  max_queue_delay_microseconds: nonNegInt.default(0),
  preserve_ordering: z.boolean().default(false),
  /** 0 = a single level. Level 1 is the highest priority. */
  priority_levels: nonNegInt.default(0),
  default_priority_level: nonNegInt.default(0),
  default_queue_policy: queuePolicy.default(() => queuePolicy.parse({})),
  priority_queue_policy: z.record(z.string().regex(/^\d+$/), queuePolicy).default({}),
});
export type DynamicBatching = z.infer<typeof dynamicBatching>;

const versionPolicy = z.union([
  z.strictObject({ latest: z.strictObject({ num_versions: int.pipe(z.number().int().min(1)).default(1) }) }),
  z.strictObject({ all: z.strictObject({}) }),
  z.strictObject({ specific: z.strictObject({ versions: z.array(int.pipe(z.number().int().min(1))).min(1) }) }),
]);
export type VersionPolicy = z.infer<typeof versionPolicy>;

const instanceGroup = z.strictObject({
  name: z.string().optional(),
  count: int.pipe(z.number().int().min(1)).default(1),
  kind: z.enum(['KIND_AUTO', 'KIND_GPU', 'KIND_CPU', 'KIND_MODEL']).default('KIND_AUTO'),
  gpus: z.array(int).optional(),
});

const accelerator = z.strictObject({
  name: z.string(),
  parameters: z.record(z.string(), z.string()).default({}),
});

const optimization = z.strictObject({
  graph: z.strictObject({ level: int }).optional(),
  execution_accelerators: z
    .strictObject({
      gpu_execution_accelerator: z.array(accelerator).default([]),
      cpu_execution_accelerator: z.array(accelerator).default([]),
    })
    .optional(),
});

const warmupInput = z.strictObject({
  data_type: z.enum(CONFIG_DATA_TYPES),
  dims: z.array(int),
  zero_data: z.boolean().optional(),
  random_data: z.boolean().optional(),
});

const modelWarmup = z.strictObject({
  name: z.string(),
  batch_size: int.pipe(z.number().int().min(0)).default(1),
  inputs: z.record(z.string(), warmupInput),
  count: int.pipe(z.number().int().min(1)).default(1),
});
export type ModelWarmup = z.infer<typeof modelWarmup>;

export const EXECUTION_PROVIDERS = ['cpu', 'webgpu', 'cuda', 'tensorrt'] as const;

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
});
export type EngineSection = z.infer<typeof engineSection>;

export const modelConfigSchema = z.strictObject({
  name: z.string().min(1),
  platform: z.string().default('onnxruntime_onnx'),
  backend: z.string().default('onnxruntime'),
  /** 0 = the model does no batching and shapes must match `dims` exactly. */
  max_batch_size: nonNegInt.default(0),
  version_policy: versionPolicy.default(() => ({ latest: { num_versions: 1 } })),
  input: z.array(tensorConfig).default([]),
  output: z.array(tensorConfig).default([]),
  dynamic_batching: dynamicBatching.optional(),
  instance_group: z.array(instanceGroup).default([]),
  optimization: optimization.optional(),
  model_warmup: z.array(modelWarmup).default([]),
  default_model_filename: z.string().optional(),
  parameters: z.record(z.string(), z.strictObject({ string_value: z.string() })).default({}),
  response_cache: z.strictObject({ enable: z.boolean() }).optional(),
  engine: engineSection.default(() => engineSection.parse({})),
});

export type ModelConfig = z.infer<typeof modelConfigSchema>;
/** What a user may write: every field with a default may be left out. */
export type ModelConfigInput = z.input<typeof modelConfigSchema>;

/** Defaults for a dynamic_batching section written as `dynamic_batching {}`. */
export function defaultDynamicBatching(): DynamicBatching {
  return dynamicBatching.parse({});
}
