/**
 * Per-model-version statistics in Triton's statistics-extension shape (docs/protocol.md §2.4, InferStatistics).
 * Durations are cumulative nanoseconds with counts. A request counts once in success/fail/queue; a batch
 * execution counts once in execution_count and in batch_stats[batch_size]; inference_count adds the batch size
 * of every request (so execution_count < inference_count shows that batching happened).
 */
export interface Duration {
  count: number;
  ns: number;
}

export interface BatchStat {
  batch_size: number;
  compute_input: Duration;
  compute_infer: Duration;
  compute_output: Duration;
}

export interface InferStats {
  success: Duration;
  fail: Duration;
  queue: Duration;
  compute_input: Duration;
  compute_infer: Duration;
  compute_output: Duration;
  cache_hit: Duration;
  cache_miss: Duration;
}

/** What the instances on one GPU ran (rtserve's extension of the statistics; instances without a device have none). */
export interface DeviceStat {
  device: number;
  execution_count: number;
  inference_count: number;
  compute_infer: Duration;
}

export interface ModelStatsSnapshot {
  name: string;
  version: string;
  last_inference: number;
  inference_count: number;
  execution_count: number;
  inference_stats: InferStats;
  batch_stats: BatchStat[];
  /** Per GPU, when the model has instances on GPUs (instance_group placement); absent otherwise. */
  device_stats?: DeviceStat[];
}

const zero = (): Duration => ({ count: 0, ns: 0 });
const add = (d: Duration, ns: number): void => {
  d.count += 1;
  d.ns += ns;
};

export class ModelStats {
  private lastInferenceMs = 0;
  private inferenceCount = 0;
  private executionCount = 0;
  private readonly infer: InferStats = {
    success: zero(),
    fail: zero(),
    queue: zero(),
    compute_input: zero(),
    compute_infer: zero(),
    compute_output: zero(),
    cache_hit: zero(),
    cache_miss: zero(),
  };
  private readonly batches = new Map<number, BatchStat>();
  private readonly devices = new Map<number, DeviceStat>();

  constructor(
    readonly name: string,
    readonly version: string,
  ) {}

  /** One request finished successfully: total ns from arrival to response, and ns spent queued. */
  recordSuccess(batchSize: number, totalNs: number, queueNs: number): void {
    this.inferenceCount += batchSize;
    this.lastInferenceMs = Date.now();
    add(this.infer.success, totalNs);
    add(this.infer.queue, queueNs);
  }

  recordFailure(totalNs: number): void {
    add(this.infer.fail, totalNs);
  }

  /**
   * A response served from the response cache (Triton, S:docs/user_guide/response_cache.md): it counts as a
   * success (total ns from arrival) and as a cache hit (ns spent on the lookup), not as an inference.
   */
  recordCacheHit(totalNs: number, lookupNs: number): void {
    this.lastInferenceMs = Date.now();
    add(this.infer.success, totalNs);
    add(this.infer.cache_hit, lookupNs);
  }

  /** A response-cache miss: ns spent on the lookup and on inserting the computed response. */
  recordCacheMiss(ns: number): void {
    add(this.infer.cache_miss, ns);
  }

  /**
   * One batch execution: input preparation, engine run and output split, in ns. Triton's per-request
   * compute_* figures count each request of the batch with the batch's durations; `requests` says how many.
   */
  recordExecution(batchSize: number, requests: number, inputNs: number, inferNs: number, outputNs: number, device?: number): void {
    this.executionCount += 1;
    if (device !== undefined) {
      let d = this.devices.get(device);
      if (d === undefined) {
        d = { device, execution_count: 0, inference_count: 0, compute_infer: zero() };
        this.devices.set(device, d);
      }
      d.execution_count += 1;
      d.inference_count += batchSize;
      add(d.compute_infer, inferNs);
    }
    for (let i = 0; i < requests; i++) {
      add(this.infer.compute_input, inputNs);
      add(this.infer.compute_infer, inferNs);
      add(this.infer.compute_output, outputNs);
    }
    let b = this.batches.get(batchSize);
    if (b === undefined) {
      b = { batch_size: batchSize, compute_input: zero(), compute_infer: zero(), compute_output: zero() };
      this.batches.set(batchSize, b);
    }
    add(b.compute_input, inputNs);
    add(b.compute_infer, inferNs);
    add(b.compute_output, outputNs);
  }

  snapshot(): ModelStatsSnapshot {
    const copy = (d: Duration): Duration => ({ count: d.count, ns: d.ns });
    const i = this.infer;
    return {
      name: this.name,
      version: this.version,
      last_inference: this.lastInferenceMs,
      inference_count: this.inferenceCount,
      execution_count: this.executionCount,
      inference_stats: {
        success: copy(i.success),
        fail: copy(i.fail),
        queue: copy(i.queue),
        compute_input: copy(i.compute_input),
        compute_infer: copy(i.compute_infer),
        compute_output: copy(i.compute_output),
        cache_hit: copy(i.cache_hit),
        cache_miss: copy(i.cache_miss),
      },
      batch_stats: [...this.batches.values()]
        .sort((a, b) => a.batch_size - b.batch_size)
        .map((b) => ({
          batch_size: b.batch_size,
          compute_input: copy(b.compute_input),
          compute_infer: copy(b.compute_infer),
          compute_output: copy(b.compute_output),
        })),
      ...(this.devices.size === 0
        ? {}
        : {
            device_stats: [...this.devices.values()].sort((a, b) => a.device - b.device).map((d) => ({ ...d, compute_infer: copy(d.compute_infer) })),
          }),
    };
  }
}
