import { z } from 'zod';
import { rtError } from '../../errors/registry.ts';
import { DATA_TYPES } from '../../tensor/datatype.ts';
import { parseJsonBytes } from '../../codec/json-body.ts';

/**
 * The REST wire shapes, as zod schemas. The small envelopes (repository requests) are validated with them
 * directly; the inference body is decoded by the codec (src/transport/codec), which enforces the same shape
 * element by element so that it can name the tensor at fault. /openapi.json is generated from these schemas.
 */
const parameters = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).meta({ description: 'KServe v2 $parameters' });

export const tensorDataSchema = z
  .array(z.unknown())
  .meta({ description: 'Row-major tensor data; nested or flat. Numbers, booleans (BOOL) or strings (BYTES).' });

export const inferInputSchema = z.strictObject({
  name: z.string(),
  shape: z.array(z.number().int().min(0)),
  datatype: z.enum(DATA_TYPES),
  parameters: parameters.optional(),
  data: tensorDataSchema.optional(),
});

export const inferRequestSchema = z.strictObject({
  id: z.string().optional(),
  parameters: parameters.optional(),
  inputs: z.array(inferInputSchema),
  outputs: z.array(z.strictObject({ name: z.string(), parameters: parameters.optional() })).optional(),
});

export const inferResponseSchema = z.object({
  model_name: z.string(),
  model_version: z.string().optional(),
  id: z.string().optional(),
  parameters: parameters.optional(),
  outputs: z.array(
    z.object({
      name: z.string(),
      shape: z.array(z.number().int()),
      datatype: z.enum(DATA_TYPES),
      parameters: parameters.optional(),
      data: tensorDataSchema.optional(),
    }),
  ),
});

export const errorSchema = z.object({ error: z.string(), code: z.string().optional() });

export const serverMetadataSchema = z.object({ name: z.string(), version: z.string(), extensions: z.array(z.string()) });

const tensorMetadataSchema = z.object({ name: z.string(), datatype: z.enum(DATA_TYPES), shape: z.array(z.number().int()) });
export const modelMetadataSchema = z.object({
  name: z.string(),
  versions: z.array(z.string()),
  platform: z.string(),
  inputs: z.array(tensorMetadataSchema),
  outputs: z.array(tensorMetadataSchema),
});

export const modelReadySchema = z.object({ name: z.string(), ready: z.boolean() });

export const repositoryIndexRequestSchema = z.strictObject({ ready: z.boolean().optional() });
export const repositoryIndexResponseSchema = z.array(
  z.object({ name: z.string(), version: z.string().optional(), state: z.string(), reason: z.string() }),
);
export const loadRequestSchema = z.strictObject({
  parameters: z
    .object({ config: z.string().optional() })
    .catchall(z.union([z.string(), z.number(), z.boolean()]))
    .optional(),
});
export const unloadRequestSchema = z.strictObject({
  parameters: z.object({ unload_dependents: z.boolean().optional() }).optional(),
});

/** Triton's system shared memory extension (S:docs/protocol/extension_shared_memory.md; docs/shared-memory.md). */
const byteCount = (what: string) => {
  const bad = `must be a non-negative integer number of bytes (${what})`;
  return z
    .number({ error: (iss) => (iss.input === undefined ? `required: ${what}, in bytes` : bad) })
    .int({ error: bad })
    .min(0, { error: bad });
};
export const systemSharedMemoryRegisterSchema = z.strictObject({
  key: z
    .string({
      error: (iss) =>
        iss.input === undefined
          ? 'required: the POSIX shared memory key, e.g. "/input0"'
          : 'must be a string: the POSIX shared memory key, e.g. "/input0"',
    })
    .meta({ description: 'POSIX shared memory key as given to shm_open, e.g. "/input0" (the object /dev/shm/input0)' }),
  offset: byteCount('the start of the region within the object')
    .optional()
    .meta({ description: 'Start of the region within the object, in bytes (default 0)' }),
  byte_size: byteCount('the size of the region').meta({ description: 'Size of the region, in bytes' }),
});
export const systemSharedMemoryStatusSchema = z.array(z.object({ name: z.string(), key: z.string(), offset: z.number(), byte_size: z.number() }));

const duration = z.object({ count: z.number(), ns: z.number() });
export const statisticsSchema = z.object({
  model_stats: z.array(
    z.object({
      name: z.string(),
      version: z.string(),
      last_inference: z.number(),
      inference_count: z.number(),
      execution_count: z.number(),
      inference_stats: z.object({
        success: duration,
        fail: duration,
        queue: duration,
        compute_input: duration,
        compute_infer: duration,
        compute_output: duration,
        cache_hit: duration,
        cache_miss: duration,
      }),
      batch_stats: z.array(z.object({ batch_size: z.number(), compute_input: duration, compute_infer: duration, compute_output: duration })),
      device_stats: z
        .array(z.object({ device: z.number(), execution_count: z.number(), inference_count: z.number(), compute_infer: duration }))
        .optional()
        .meta({ description: "rtserve's extension: what the instances on each GPU ran (models with instances on GPUs)" }),
    }),
  ),
});

/** Parses an optional JSON body (empty = `{}`) against a schema; errors name the offending field. */
export function parseBodyWith<T extends z.ZodType>(schema: T, body: unknown, what: string): z.infer<T> {
  const buf = body instanceof Uint8Array ? body : new Uint8Array(0);
  const json = buf.byteLength === 0 ? {} : parseJsonBytes(buf, what);
  const r = schema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    const path = issue === undefined || issue.path.length === 0 ? '' : ` at '${issue.path.join('.')}'`;
    throw rtError('BAD_JSON', `${what}${path}: ${issue?.message ?? 'invalid'}`);
  }
  return r.data;
}

// ---- the extensions' bodies, as /openapi.json describes them. These routes check their bodies element by element
// (sse-generate.ts, image-route.ts, otel-tracing.ts) against the model or the settings they change; the schemas
// below are the shapes those checks accept.

/** Triton's generate extension: the model's inputs by name (scalars or arrays), plus optional id and parameters. */
export const generateRequestSchema = z
  .looseObject({ id: z.string().optional(), parameters: parameters.optional() })
  .meta({ description: 'Inputs by name (e.g. {"text_input": "def ", "max_tokens": 40}), or a KServe $inference_request with "inputs"' });
export const generateResponseSchema = z
  .looseObject({ id: z.string().optional(), model_name: z.string(), model_version: z.string() })
  .meta({ description: 'Outputs by name (e.g. "text_output"), a one-element output as its value' });

export const imageJsonRequestSchema = z.looseObject({
  image: z.string().meta({ description: 'The encoded image, base64 or a data: URL' }),
  top_k: z.number().int().optional(),
  score_threshold: z.number().optional(),
  iou_threshold: z.number().optional(),
  max_detections: z.number().int().optional(),
});
export const imageResponseSchema = z
  .looseObject({ type: z.enum(['classification', 'detection', 'tensors']) })
  .meta({ description: 'classification: labels and scores; detection: boxes in the image coordinates; tensors: the outputs' });

export const logSettingsSchema = z.object({
  log_file: z.string(),
  log_info: z.boolean(),
  log_warning: z.boolean(),
  log_error: z.boolean(),
  log_verbose_level: z.number().int(),
  log_format: z.enum(['default', 'ISO8601']),
});

export const traceSettingsSchema = z.object({
  trace_level: z.array(z.string()),
  trace_rate: z.string(),
  trace_count: z.string(),
  log_frequency: z.string(),
  trace_file: z.string(),
  trace_mode: z.string(),
});
export const traceSettingsPatchSchema = z.strictObject({
  trace_level: z.union([z.enum(['OFF', 'TIMESTAMPS']), z.array(z.enum(['OFF', 'TIMESTAMPS'])).length(1)]).nullish(),
  trace_rate: z.union([z.string(), z.number().int().min(1)]).nullish(),
  trace_count: z.literal(['-1', -1]).nullish(),
  trace_mode: z.literal('opentelemetry').nullish(),
});

export const wsTicketSchema = z.object({ ticket: z.string(), expires_in_ms: z.number().int(), protocol: z.string() });
