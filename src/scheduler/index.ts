import { DirectScheduler } from './direct-scheduler.ts';
import { DynamicBatcher } from './dynamic-batcher.ts';
import type { RtScheduler } from './queueing-scheduler.ts';
import type { SchedulerOptions } from './scheduler.ts';

export type { Scheduler, SchedulerFactory, SchedulerOptions, ValidatedRequest } from './scheduler.ts';
export type { CloseReason, RtScheduler, SchedulerSnapshot } from './queueing-scheduler.ts';
export { DirectScheduler } from './direct-scheduler.ts';
export { DynamicBatcher } from './dynamic-batcher.ts';
export { batchKey, concatBatch, planBatch, splitBatch } from '../engine/batch-tensors.ts';

/**
 * The scheduler for one model version: the dynamic batcher when the model batches (max_batch_size > 0) and
 * has a dynamic_batching section, otherwise the direct scheduler (Triton's default scheduler).
 * Throws BAD_CONFIG for a scheduling config that cannot work (see resolveSchedulingPolicy).
 */
export function createScheduler(options: SchedulerOptions): RtScheduler {
  const { config } = options;
  if (config.max_batch_size > 0 && config.dynamic_batching !== undefined) return new DynamicBatcher(options);
  return new DirectScheduler(options);
}
