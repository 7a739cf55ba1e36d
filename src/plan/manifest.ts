import { z } from 'zod';

/**
 * The plan manifest: everything an engine needs to decide whether it can run a plan, and everything a person
 * needs to know how it was made. The on-disk layout around it is in docs/plan-format.md and `format.ts`.
 *
 * Readers use non-strict objects (unknown keys are dropped, not rejected) so that a newer *minor* format
 * version, which may only add fields, still loads; a new *major* version is refused by the header check.
 */

export const PLAN_TARGETS = ['ort-cpu', 'ort-webgpu', 'cuda'] as const;
export type PlanTarget = (typeof PLAN_TARGETS)[number];

export const PLAN_PRECISIONS = ['fp32', 'fp16', 'int8', 'mixed'] as const;
export type PlanPrecision = (typeof PLAN_PRECISIONS)[number];

/** Precision one node computes in. */
export const NODE_PRECISIONS = ['fp32', 'fp16', 'int8'] as const;
export type NodePrecision = (typeof NODE_PRECISIONS)[number];

export const CALIBRATION_METHODS = ['minmax', 'percentile', 'entropy'] as const;
export type CalibrationMethod = (typeof CALIBRATION_METHODS)[number];

/** KServe v2 datatype spelling (docs/protocol.md §2.2); plan/ does not import core/, so the names are repeated. */
const datatype = z.enum(['BOOL', 'UINT8', 'UINT16', 'UINT32', 'UINT64', 'INT8', 'INT16', 'INT32', 'INT64', 'FP16', 'FP32', 'FP64', 'BYTES', 'BF16']);

const tensorSpec = z.object({
  name: z.string(),
  datatype,
  /** -1 marks a dynamic dimension. */
  shape: z.array(z.number().int().min(-1)),
});
export type PlanTensorSpec = z.infer<typeof tensorSpec>;

const shape = z.array(z.number().int().min(0));

/** One min/opt/max shape range for one dynamic input (TensorRT optimization profiles). */
const profile = z.object({
  input: z.string(),
  min: shape,
  opt: shape,
  max: shape,
});
export type ShapeProfile = z.infer<typeof profile>;

const tensorRange = z.object({
  /** The representable range chosen by the calibration method (always contains 0). */
  min: z.number(),
  max: z.number(),
  /** The raw observed extremes, kept so a cache can be re-thresholded without re-running the model. */
  observedMin: z.number(),
  observedMax: z.number(),
});
export type TensorRange = z.infer<typeof tensorRange>;

/** The calibration table: one activation range per quantized tensor name of the optimized graph. */
export const calibrationTableSchema = z.object({
  version: z.literal(1),
  method: z.enum(CALIBRATION_METHODS),
  /** Percentile used by the `percentile` method (e.g. 99.999). */
  percentile: z.number().optional(),
  /** sha256 of the optimized FP32 graph the ranges were measured on; a cache for another graph is refused. */
  graphSha256: z.string(),
  /** sha256 of the calibration data (informational). */
  dataSha256: z.string(),
  samples: z.number().int().min(0),
  tensors: z.record(z.string(), tensorRange),
});
export type CalibrationTable = z.infer<typeof calibrationTableSchema>;

const passRecord = z.object({
  name: z.string(),
  changed: z.number().int().min(0),
  /** Human-readable lines ("folded BatchNormalization bn1 into Conv conv1"), possibly truncated. */
  changes: z.array(z.string()),
});
export type PassRecord = z.infer<typeof passRecord>;

const accuracySummary = z.object({
  passed: z.boolean(),
  samples: z.number().int().min(0),
  dataSource: z.enum(['validation', 'calibration-holdout', 'synthetic']),
  gates: z.array(z.object({ metric: z.string(), threshold: z.number(), value: z.number().nullable(), passed: z.boolean() })),
});
export type AccuracySummary = z.infer<typeof accuracySummary>;

export const planManifestSchema = z.object({
  /** Repeats the header's version so a manifest extracted on its own still says what it is. */
  formatVersion: z.object({ major: z.number().int(), minor: z.number().int() }),
  createdAt: z.string(),
  source: z.object({
    fileName: z.string(),
    sha256: z.string(),
    bytes: z.number().int().min(0),
    irVersion: z.number().int(),
    opsets: z.record(z.string(), z.number().int()),
    producer: z.string(),
  }),
  target: z.enum(PLAN_TARGETS),
  precision: z.enum(PLAN_PRECISIONS),
  keepIoTypes: z.boolean(),
  payload: z.object({
    /** Only ONNX today; the native CUDA engine would add its own serialized engine format. */
    format: z.literal('onnx'),
    sha256: z.string(),
    bytes: z.number().int().min(0),
    /** onnxruntime offline optimization applied to the payload ('none' when it was not run). */
    ortOptimizationLevel: z.enum(['none', 'basic', 'extended', 'all']),
  }),
  tool: z.object({ name: z.string(), version: z.string(), node: z.string() }),
  /** The runtime that optimized and validated the payload, if any. */
  runtime: z.object({ name: z.string(), version: z.string() }).nullable(),
  deviceRequirements: z.object({
    executionProvider: z.enum(['cpu', 'webgpu', 'cuda']),
    /** process.arch of the build machine when the payload is tied to it; absent when portable. */
    arch: z.string().optional(),
    /** WebGPU adapters must expose shader-f16 for FP16 plans. */
    shaderF16: z.boolean().optional(),
    notes: z.array(z.string()),
  }),
  io: z.object({ inputs: z.array(tensorSpec), outputs: z.array(tensorSpec) }),
  passes: z.array(passRecord),
  /** Node name (in the compiler's optimized graph, before onnxruntime's own rewrite) → precision. */
  nodePrecision: z.record(z.string(), z.enum(NODE_PRECISIONS)),
  calibration: calibrationTableSchema.nullable(),
  profiles: z.array(profile),
  accuracy: accuracySummary.nullable(),
});
export type PlanManifest = z.infer<typeof planManifestSchema>;
