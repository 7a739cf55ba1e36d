import { rtError } from '../errors/registry.ts';
import { batchKey } from '../engine/batch-tensors.ts';
import { QueueingScheduler } from './queueing-scheduler.ts';
import type { BatchDecision, QueuedRequest } from './queueing-scheduler.ts';
import type { SchedulerOptions, ValidatedRequest } from './scheduler.ts';

/**
 * Triton's dynamic batcher (docs/protocol.md §1.3, batcher.md): joins queued requests into batches of up to
 * max_batch_size rows, preferring the largest preferred_batch_size that can be formed, holding a partial batch
 * up to max_queue_delay_microseconds for more requests. Only requests whose inputs match the head of the queue
 * (same names, dtypes and non-batch dims) join its batch; the others keep their place for a later batch.
 */
export class DynamicBatcher extends QueueingScheduler {
  private readonly maxBatchSize: number;
  private readonly preferred: ReadonlySet<number>;
  private readonly delayNs: bigint;

  constructor(options: SchedulerOptions) {
    super(options);
    const { config } = options;
    const db = config.dynamic_batching;
    if (config.max_batch_size <= 0 || db === undefined) {
      throw rtError('BAD_CONFIG', `${this.modelLabel}: the dynamic batcher needs max_batch_size > 0 and dynamic_batching`);
    }
    for (const size of db.preferred_batch_size) {
      if (size > config.max_batch_size) {
        // Triton refuses this config too: such a size could never be formed.
        throw rtError('BAD_CONFIG', `${this.modelLabel}: preferred_batch_size ${size} exceeds max_batch_size ${config.max_batch_size}`);
      }
    }
    this.maxBatchSize = config.max_batch_size;
    this.preferred = new Set(db.preferred_batch_size);
    this.delayNs = BigInt(db.max_queue_delay_microseconds) * 1000n;
  }

  protected override keyOf(v: ValidatedRequest): string {
    return batchKey(v.request.inputs);
  }

  protected override checkRequest(v: ValidatedRequest): void {
    // Batches are never split (batcher.md, #3527), so a request larger than the maximum could never run.
    if (v.batchSize > this.maxBatchSize) {
      throw rtError('BATCH_TOO_LARGE', `${this.modelLabel}: request batch size ${v.batchSize} exceeds max_batch_size ${this.maxBatchSize}`);
    }
  }

  protected override selectBatch(nowNs: bigint): BatchDecision | undefined {
    const head = this.queue.head();
    if (head === undefined) return undefined;
    const picked: QueuedRequest[] = [];
    let rows = 0;
    let preferredCount = 0;
    let blocked = false;
    let oldestNs = head.enqueueNs;
    // Requests join in scheduling order and are never skipped for a smaller one behind them: that keeps FIFO
    // within a priority level; the first that does not fit ends the batch (Triton does the same).
    this.queue.forEachWithKey(head.key ?? '', (e) => {
      if (rows + e.batchSize > this.maxBatchSize) {
        blocked = true;
        return false;
      }
      picked.push(e);
      rows += e.batchSize;
      if (e.enqueueNs < oldestNs) oldestNs = e.enqueueNs;
      if (this.preferred.has(rows)) preferredCount = picked.length;
      return rows < this.maxBatchSize;
    });
    // The largest preferred size that can be formed goes at once, even when more requests are queued.
    if (preferredCount > 0) return { send: picked.slice(0, preferredCount) };
    // A full batch (max rows, or the next request does not fit) cannot grow: it goes at once.
    if (rows >= this.maxBatchSize || blocked) return { send: picked };
    // A partial batch waits until its oldest request has waited max_queue_delay (0: no wait at all).
    const dueNs = oldestNs + this.delayNs;
    if (this.delayNs === 0n || dueNs <= nowNs) return { send: picked };
    return { waitUntilNs: dueNs };
  }
}
