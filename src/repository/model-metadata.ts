import type { ModelMetadata } from '../api/inference-api.ts';
import type { ModelConfig, TensorConfig } from '../config/model-config.ts';
import { rtError } from '../errors/registry.ts';
import { fromConfigType } from '../tensor/datatype.ts';
import type { TensorMetadata } from '../tensor/tensor.ts';

/**
 * What the rest of the server knows about a loaded model version's tensors: KServe metadata (with the batch
 * dimension as -1) for clients, and the I/O description (dims without the batch dimension) that request
 * validation and warmup use.
 */

/** What validation needs to know about a model version. */
export interface ModelIoMetadata {
  readonly name: string;
  readonly version: string;
  /** 0 = no batching. Otherwise inputs' shapes below exclude the batch dimension. */
  readonly maxBatchSize: number;
  /** Config dims WITHOUT the batch dimension when maxBatchSize > 0; -1 for a dynamic dimension. */
  readonly inputs: readonly TensorMetadata[];
  readonly outputs: readonly TensorMetadata[];
  /** Inputs the request may leave out (Triton's `optional: true`). */
  readonly optionalInputs: ReadonlySet<string>;
  /** The image input that may come as encoded frames for an engine that decodes them (tensor/frames.ts), if any. */
  readonly frameInput?: string | undefined;
}

function tensorMeta(t: TensorConfig, batchDim: boolean): TensorMetadata {
  const dt = fromConfigType(t.data_type);
  if (dt === undefined) throw rtError('BAD_CONFIG', `tensor '${t.name}': unknown data_type ${t.data_type}`);
  return { name: t.name, datatype: dt, shape: batchDim ? [-1, ...t.dims] : [...t.dims] };
}

export function metadataOf(name: string, versions: readonly string[], config: ModelConfig): ModelMetadata {
  const batch = config.max_batch_size > 0;
  return {
    name,
    versions,
    platform: config.platform,
    inputs: config.input.map((t) => tensorMeta(t, batch)),
    outputs: config.output.map((t) => tensorMeta(t, batch)),
  };
}

export function ioMetadataOf(name: string, version: string, config: ModelConfig): ModelIoMetadata {
  return {
    name,
    version,
    maxBatchSize: config.max_batch_size,
    inputs: config.input.map((t) => tensorMeta(t, false)),
    outputs: config.output.map((t) => tensorMeta(t, false)),
    optionalInputs: new Set(config.input.filter((t) => t.optional === true).map((t) => t.name)),
  };
}
