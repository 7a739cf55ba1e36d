import { QueueingScheduler } from './queueing-scheduler.ts';
import type { BatchDecision } from './queueing-scheduler.ts';

/**
 * Triton's default scheduler, for models without batching (max_batch_size 0) or without dynamic_batching: each
 * request runs alone on a free instance, in queue order, behind the same bounded queues, priorities, timeouts
 * and cancellation as the dynamic batcher. Where dynamic_batching is present (max_batch_size 0), its queue
 * policies, priority levels and preserve_ordering still apply.
 */
export class DirectScheduler extends QueueingScheduler {
  protected override keyOf(): undefined {
    return undefined;
  }

  protected override selectBatch(): BatchDecision | undefined {
    const head = this.queue.head();
    return head === undefined ? undefined : { send: [head] };
  }
}
