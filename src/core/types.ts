import type { DataType, TensorData } from './datatype.ts';
import type { RequestContext } from '../observability/request-context.ts';

export interface Tensor {
  readonly name: string;
  readonly datatype: DataType;
  readonly shape: readonly number[];
  readonly data: TensorData;
}

/** KServe v2 `$parameters`: values are strings, numbers or booleans. */
export type Parameters = Readonly<Record<string, string | number | boolean>>;

export interface RequestedOutput {
  readonly name: string;
  readonly parameters?: Parameters;
}

/** A transport-neutral inference request, decoded at the edge. */
export interface InferRequest {
  readonly model: string;
  /** Empty or undefined means "the server's version policy chooses". */
  readonly version?: string;
  readonly id?: string;
  readonly inputs: readonly Tensor[];
  /** Undefined means "all outputs". */
  readonly outputs?: readonly RequestedOutput[];
  readonly parameters?: Parameters;
  /** Aborts when the client goes away or cancels; a request still queued leaves the queue. */
  readonly signal?: AbortSignal;
  /** Which front end received it (http, grpc, ws) — used for metrics and logs. */
  readonly protocol?: string;
  /** The edge's request context (request id, trace, stage timings); the core fills in its fields. */
  readonly context?: RequestContext;
}

export interface InferResponse {
  readonly model_name: string;
  readonly model_version: string;
  readonly id?: string;
  readonly parameters?: Parameters;
  readonly outputs: readonly Tensor[];
}

/** Metadata of one tensor as KServe v2 reports it (`-1` marks a dynamic dimension). */
export interface TensorMetadata {
  readonly name: string;
  readonly datatype: DataType;
  readonly shape: readonly number[];
}
