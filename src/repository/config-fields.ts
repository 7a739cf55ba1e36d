/**
 * The shape of Triton's ModelConfig message (model_config.proto, docs/protocol.md §1.2) as far as a config loader needs
 * it: which fields exist, which are repeated, which are maps, and which Triton fields rtserve does not support
 * (those are dropped with a warning rather than rejected, so that a Triton user's config loads unchanged).
 * The pbtxt parser maps text format onto the JSON spelling with it; JSON/YAML configs are filtered with it.
 */
import { CONFIG_DATA_TYPES, EXECUTION_PROVIDERS } from '../config/model-config.ts';

export type FieldType =
  | { readonly t: 'string' }
  | { readonly t: 'int' }
  | { readonly t: 'bool' }
  /** `values[i]` is the enum value numbered i in the .proto (text format may write either). */
  | { readonly t: 'enum'; readonly values: readonly string[] }
  /** A string, number or bool, kept as written (rtserve engine options). */
  | { readonly t: 'scalar' }
  | { readonly t: 'message'; readonly message: MessageDesc }
  /** protobuf map<K, V>: text format writes repeated `{ key: .. value: .. }` entries; JSON writes an object. */
  | { readonly t: 'map'; readonly value: FieldType }
  /** A string or a message (rtserve `engine.providers` entries). */
  | { readonly t: 'stringOrMessage'; readonly message: MessageDesc };

export interface FieldDesc {
  readonly type: FieldType;
  readonly repeated?: boolean;
}

export interface MessageDesc {
  /** Protobuf message name, for messages ("unknown field 'x' in ModelInput"). */
  readonly name: string;
  readonly fields: Readonly<Record<string, FieldDesc>>;
  /** Triton fields of this message that rtserve ignores (with a warning). */
  readonly unsupported: readonly string[];
}

const str = { type: { t: 'string' } } as const satisfies FieldDesc;
const int = { type: { t: 'int' } } as const satisfies FieldDesc;
const bool = { type: { t: 'bool' } } as const satisfies FieldDesc;
const ints = { type: { t: 'int' }, repeated: true } as const satisfies FieldDesc;
const enumOf = (values: readonly string[]): FieldDesc => ({ type: { t: 'enum', values } });
const msg = (message: MessageDesc, repeated = false): FieldDesc => ({ type: { t: 'message', message }, repeated });

/** DataType enum: TYPE_INVALID = 0, then TYPE_BOOL = 1 ... TYPE_BF16 = 14 (docs/protocol.md §1.2). */
const DATA_TYPE_ENUM = ['TYPE_INVALID', ...CONFIG_DATA_TYPES];

const reshape: MessageDesc = { name: 'ModelTensorReshape', fields: { shape: ints }, unsupported: [] };

const modelInput: MessageDesc = {
  name: 'ModelInput',
  fields: {
    name: str,
    data_type: enumOf(DATA_TYPE_ENUM),
    format: enumOf(['FORMAT_NONE', 'FORMAT_NHWC', 'FORMAT_NCHW']),
    dims: ints,
    reshape: msg(reshape),
    optional: bool,
  },
  unsupported: ['is_shape_tensor', 'allow_ragged_batch', 'is_non_linear_format_io'],
};

const modelOutput: MessageDesc = {
  name: 'ModelOutput',
  fields: { name: str, data_type: enumOf(DATA_TYPE_ENUM), dims: ints, reshape: msg(reshape), label_filename: str },
  unsupported: ['is_shape_tensor', 'is_non_linear_format_io'],
};

const queuePolicy: MessageDesc = {
  name: 'ModelQueuePolicy',
  fields: {
    timeout_action: enumOf(['REJECT', 'DELAY']),
    default_timeout_microseconds: int,
    allow_timeout_override: bool,
    max_queue_size: int,
  },
  unsupported: [],
};

const dynamicBatching: MessageDesc = {
  name: 'ModelDynamicBatching',
  fields: {
    preferred_batch_size: ints,
    max_queue_delay_microseconds: int,
    preserve_ordering: bool,
    priority_levels: int,
    default_priority_level: int,
    default_queue_policy: msg(queuePolicy),
    priority_queue_policy: { type: { t: 'map', value: { t: 'message', message: queuePolicy } } },
  },
  unsupported: [],
};

const versionPolicy: MessageDesc = {
  name: 'ModelVersionPolicy',
  fields: {
    latest: msg({ name: 'Latest', fields: { num_versions: int }, unsupported: [] }),
    all: msg({ name: 'All', fields: {}, unsupported: [] }),
    specific: msg({ name: 'Specific', fields: { versions: ints }, unsupported: [] }),
  },
  unsupported: [],
};

const instanceGroup: MessageDesc = {
  name: 'ModelInstanceGroup',
  fields: {
    name: str,
    count: int,
    kind: enumOf(['KIND_AUTO', 'KIND_GPU', 'KIND_CPU', 'KIND_MODEL']),
    gpus: ints,
  },
  unsupported: ['profile', 'rate_limiter', 'passive', 'secondary_devices', 'host_policy'],
};

const accelerator: MessageDesc = {
  name: 'Accelerator',
  fields: { name: str, parameters: { type: { t: 'map', value: { t: 'string' } } } },
  unsupported: [],
};

const optimization: MessageDesc = {
  name: 'ModelOptimizationPolicy',
  fields: {
    graph: msg({ name: 'Graph', fields: { level: int }, unsupported: [] }),
    execution_accelerators: msg({
      name: 'ExecutionAccelerators',
      fields: { gpu_execution_accelerator: msg(accelerator, true), cpu_execution_accelerator: msg(accelerator, true) },
      unsupported: [],
    }),
  },
  unsupported: ['priority', 'cuda', 'input_pinned_memory', 'output_pinned_memory', 'gather_kernel_buffer_threshold', 'eager_batching'],
};

const warmupInput: MessageDesc = {
  name: 'ModelWarmup.Input',
  fields: { data_type: enumOf(DATA_TYPE_ENUM), dims: ints, zero_data: bool, random_data: bool },
  unsupported: ['input_data_file'],
};

const modelWarmup: MessageDesc = {
  name: 'ModelWarmup',
  fields: {
    name: str,
    batch_size: int,
    inputs: { type: { t: 'map', value: { t: 'message', message: warmupInput } } },
    count: int,
  },
  unsupported: [],
};

/** rtserve's own section (not in Triton): which execution providers to try, in order. */
const engine: MessageDesc = {
  name: 'engine',
  fields: {
    providers: {
      type: {
        t: 'stringOrMessage',
        message: {
          name: 'engine.providers',
          fields: { name: enumOf(EXECUTION_PROVIDERS), options: { type: { t: 'map', value: { t: 'scalar' } } } },
          unsupported: [],
        },
      },
      repeated: true,
    },
    graph_optimization_level: enumOf(['disabled', 'basic', 'extended', 'all']),
    intra_op_num_threads: int,
    inter_op_num_threads: int,
    allow_spinning: bool,
    session_config: { type: { t: 'map', value: { t: 'string' } } },
    failover: msg({
      name: 'engine.failover',
      fields: { enabled: bool, failure_threshold: int, probe_interval_ms: int, max_probe_interval_ms: int, retry_failed_batch: bool },
      unsupported: [],
    }),
  },
  unsupported: [],
};

export const MODEL_CONFIG_DESC: MessageDesc = {
  name: 'ModelConfig',
  fields: {
    name: str,
    platform: str,
    backend: str,
    max_batch_size: int,
    version_policy: msg(versionPolicy),
    input: msg(modelInput, true),
    output: msg(modelOutput, true),
    dynamic_batching: msg(dynamicBatching),
    instance_group: msg(instanceGroup, true),
    optimization: msg(optimization),
    model_warmup: msg(modelWarmup, true),
    default_model_filename: str,
    parameters: {
      type: {
        t: 'map',
        value: { t: 'message', message: { name: 'ModelParameter', fields: { string_value: str }, unsupported: [] } },
      },
    },
    response_cache: msg({ name: 'ModelResponseCache', fields: { enable: bool }, unsupported: [] }),
    engine: msg(engine),
  },
  unsupported: [
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
  ],
};

/** Triton's scheduling oneof members other than dynamic_batching (rtserve has no such schedulers). */
export const UNSUPPORTED_SCHEDULERS: readonly string[] = ['sequence_batching', 'ensemble_scheduling'];

export function unsupportedFieldWarning(source: string, path: string): string {
  return `${source}: field '${path}' is not supported by rtserve and was ignored`;
}

/**
 * Removes the Triton fields rtserve does not support from a JSON/YAML config (any depth), returning a copy and
 * one warning per distinct field path. Keys the schema does not know at all stay, so that the strict schema
 * rejects them with a hint.
 */
export function dropUnsupportedFields(value: unknown, source: string): { value: unknown; warnings: string[]; dropped: string[] } {
  const dropped = new Set<string>();
  const walkType = (v: unknown, type: FieldType, path: string): unknown => {
    if (type.t === 'message' || (type.t === 'stringOrMessage' && typeof v === 'object')) return walkMessage(v, type.message, path);
    if (type.t === 'map' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) out[k] = walkType(inner, type.value, path);
      return out;
    }
    return v;
  };
  const walkMessage = (v: unknown, desc: MessageDesc, path: string): unknown => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(v)) {
      const childPath = path === '' ? key : `${path}.${key}`;
      if (desc.unsupported.includes(key)) {
        dropped.add(childPath);
        continue;
      }
      const field = desc.fields[key];
      if (field === undefined) out[key] = inner;
      else if (field.repeated === true && Array.isArray(inner)) out[key] = inner.map((x) => walkType(x, field.type, childPath));
      else out[key] = walkType(inner, field.type, childPath);
    }
    return out;
  };
  const result = walkMessage(value, MODEL_CONFIG_DESC, '');
  return { value: result, warnings: [...dropped].map((p) => unsupportedFieldWarning(source, p)), dropped: [...dropped] };
}
