import type { InferRequest, InferResponse } from '../api/types.ts';
import type { ModelConfig } from '../config/model-config.ts';
import type { EngineSession } from '../engine/engine.ts';
import type { ModelStats } from '../observability/model-stats.ts';

/**
 * A request that passed validation against the model (core/validate.ts): inputs are complete tensors whose
 * first dimension is the batch dimension when the model batches (`batchSize` > 0), otherwise `batchSize` is 1.
 */
export interface ValidatedRequest {
  readonly request: InferRequest;
  readonly batchSize: number;
  /** Names of the outputs to return, already checked against the model. */
  readonly outputNames: readonly string[];
  /** process.hrtime.bigint() when the request arrived at the edge; used for success/fail durations. */
  readonly arrivalNs: bigint;
}

export interface SchedulerOptions {
  readonly modelName: string;
  readonly version: string;
  readonly config: ModelConfig;
  /** One session per instance (instance_group count); batches go to whichever instance is free. */
  readonly sessions: readonly EngineSession[];
  readonly stats: ModelStats;
  /** Bound for queues whose policy says max_queue_size 0 (Triton: unbounded; rtserve: always bounded). */
  readonly maxQueueSizeDefault: number;
}

/** The only contract between core and the batching layer. */
export interface Scheduler {
  /** Resolves with this request's own response, or rejects with an RtError (QUEUE_FULL, QUEUE_TIMEOUT, ...). */
  enqueue(req: ValidatedRequest): Promise<InferResponse>;
  /** Requests waiting in queues (not yet dispatched to an instance). */
  readonly pendingCount: number;
  /** Requests dispatched to an instance and not yet answered. */
  readonly inFlightCount: number;
  /** Resolves when every queued and in-flight request has been answered. New requests are still accepted. */
  drain(): Promise<void>;
  /** Rejects everything still queued with SERVER_DRAINING / MODEL_NOT_READY and stops timers. */
  close(): Promise<void>;
}

export type SchedulerFactory = (options: SchedulerOptions) => Scheduler;
