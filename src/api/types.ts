import type { DataType } from '../tensor/datatype.ts';
import type { Tensor } from '../tensor/tensor.ts';
import type { RequestContext } from '../observability/request-context.ts';
import type { FramePlacement } from '../tensor/frames.ts';

/** KServe v2 `$parameters`: values are strings, numbers or booleans. */
export type Parameters = Readonly<Record<string, string | number | boolean>>;

export interface RequestedOutput {
  readonly name: string;
  readonly parameters?: Parameters;
}

/**
 * A byte range of a registered system shared memory region (Triton's shared-memory extension, docs/protocol.md §2.2:
 * parameters `shared_memory_region`, `shared_memory_offset`, `shared_memory_byte_size`). `offset` is relative to
 * the region's start.
 */
export interface SharedMemoryRef {
  readonly region: string;
  readonly offset: number;
  readonly byteSize: number;
}

/** An input whose bytes are in a shared memory region rather than in the request. */
export interface SharedMemoryInput {
  readonly name: string;
  readonly datatype: DataType;
  readonly shape: readonly number[];
  readonly sharedMemory: SharedMemoryRef;
  /** Its position among the request's inputs (the ones carried inline included). */
  readonly index: number;
}

/** A transport-neutral inference request, decoded at the edge. */
export interface InferRequest {
  readonly model: string;
  /** Empty or undefined means "the server's version policy chooses". */
  readonly version?: string;
  readonly id?: string;
  readonly inputs: readonly Tensor[];
  /**
   * Inputs to read from shared memory regions. The shared-memory layer (transport/codec/shared-memory.ts) reads
   * them into `inputs` before the request reaches the core, so the core never sees this field set.
   */
  readonly sharedMemoryInputs?: readonly SharedMemoryInput[];
  /** Undefined means "all outputs". */
  readonly outputs?: readonly RequestedOutput[];
  readonly parameters?: Parameters;
  /** Aborts when the client goes away or cancels; a request still queued leaves the queue. */
  readonly signal?: AbortSignal;
  /** Which front end received it (http, grpc, ws) — used for metrics and logs. */
  readonly protocol?: string;
  /** The edge's request context (request id, trace, stage timings); the core fills in its fields. */
  readonly context?: RequestContext;
  /**
   * The id of the principal that sent it (security/principal.ts), when the front end knows one: shared-memory
   * regions are looked up among that principal's own (shm/system-shared-memory.ts).
   */
  readonly principal?: string;
  /**
   * Set by the image layer only, never by a client: the image input holds encoded frames (BYTES, one per row) that
   * the model's engine decodes on its device, placed as these say, one per row (tensor/frames.ts).
   */
  readonly frames?: readonly FramePlacement[];
}

export interface InferResponse {
  readonly model_name: string;
  readonly model_version: string;
  readonly id?: string;
  readonly parameters?: Parameters;
  readonly outputs: readonly Tensor[];
  /**
   * Outputs that were written into shared memory regions instead of being sent (name → where, `byteSize` = the
   * bytes written). Encoders send their name, datatype and shape with these parameters and no data.
   */
  readonly sharedMemoryOutputs?: ReadonlyMap<string, SharedMemoryRef>;
}
