import type { ModelConfig, QueuePolicy } from '../config/model-config.ts';
import type { Parameters } from '../api/types.ts';
import { rtError } from '../errors/registry.ts';

/**
 * Scheduling policy resolved once from the model config (Triton model_config.proto ModelDynamicBatching and
 * ModelQueuePolicy, docs/protocol.md §1.2-1.3), shared by the dynamic batcher and the direct scheduler.
 */

export type TimeoutAction = 'REJECT' | 'DELAY';

export interface LevelPolicy {
  /** 1 is the highest priority (Triton). */
  readonly level: number;
  /** Never 0: rtserve keeps every queue bounded (Triton's 0 = unbounded becomes maxQueueSizeDefault). */
  readonly maxQueueSize: number;
  /** 0 = requests of this level never time out unless they ask for it (and may). */
  readonly defaultTimeoutUs: number;
  readonly allowTimeoutOverride: boolean;
  readonly timeoutAction: TimeoutAction;
}

export interface SchedulingPolicy {
  /** `levels[i]` is the policy of priority level i + 1; at least one level. */
  readonly levels: readonly LevelPolicy[];
  /** Level used by requests without a `priority` parameter (or with priority 0). */
  readonly defaultLevel: number;
  readonly preserveOrdering: boolean;
}

function levelPolicy(level: number, p: QueuePolicy | undefined, maxQueueSizeDefault: number): LevelPolicy {
  return {
    level,
    maxQueueSize: p === undefined || p.max_queue_size === 0 ? maxQueueSizeDefault : p.max_queue_size,
    defaultTimeoutUs: p?.default_timeout_microseconds ?? 0,
    allowTimeoutOverride: p?.allow_timeout_override ?? false,
    timeoutAction: p?.timeout_action ?? 'REJECT',
  };
}

/**
 * Resolves the per-level queue policies. Without dynamic_batching (Triton's default scheduler) there is one
 * level with a bounded queue and no timeouts. Throws BAD_CONFIG for settings Triton also refuses at load:
 * a default priority level outside [1, priority_levels] and priority_queue_policy keys naming no level.
 */
export function resolveSchedulingPolicy(config: ModelConfig, maxQueueSizeDefault: number): SchedulingPolicy {
  if (!Number.isInteger(maxQueueSizeDefault) || maxQueueSizeDefault < 1) {
    throw rtError('BAD_CONFIG', `maxQueueSizeDefault must be an integer >= 1, got ${maxQueueSizeDefault}`);
  }
  const db = config.dynamic_batching;
  if (db === undefined) {
    return { levels: [levelPolicy(1, undefined, maxQueueSizeDefault)], defaultLevel: 1, preserveOrdering: false };
  }
  const count = Math.max(1, db.priority_levels);
  let defaultLevel = 1;
  if (db.priority_levels > 0) {
    if (db.default_priority_level < 1 || db.default_priority_level > db.priority_levels) {
      throw rtError(
        'BAD_CONFIG',
        `model '${config.name}': default_priority_level must be in [1, ${db.priority_levels}] (priority_levels), ` +
          `got ${db.default_priority_level}`,
      );
    }
    defaultLevel = db.default_priority_level;
  }
  for (const key of Object.keys(db.priority_queue_policy)) {
    const level = Number(key);
    if (level < 1 || level > count || db.priority_levels === 0) {
      throw rtError('BAD_CONFIG', `model '${config.name}': priority_queue_policy names level ${key}, but priority_levels is ${db.priority_levels}`);
    }
  }
  const levels: LevelPolicy[] = [];
  for (let level = 1; level <= count; level++) {
    const own = db.priority_queue_policy[String(level)];
    levels.push(levelPolicy(level, own ?? db.default_queue_policy, maxQueueSizeDefault));
  }
  return { levels, defaultLevel, preserveOrdering: db.preserve_ordering };
}

/** A non-negative integer request parameter; protobuf-JSON may send int64 values as decimal strings. */
function intParameter(params: Parameters | undefined, name: string): number | undefined {
  const raw = params?.[name];
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw rtError('BAD_PARAMETER', `parameter '${name}' must be a non-negative integer, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/**
 * The priority level of a request: parameter `priority` (Triton extension_schedule_policy.md: int, 0 = the
 * model's default level). A level above the model's priority_levels is an error rather than Triton's silent
 * fallback, so that a client learns its priority had no effect. A model without priority levels has one.
 */
export function priorityLevelOf(params: Parameters | undefined, policy: SchedulingPolicy, modelName: string): number {
  const priority = intParameter(params, 'priority');
  if (priority === undefined || priority === 0) return policy.defaultLevel;
  if (priority > policy.levels.length) {
    throw rtError(
      'BAD_PARAMETER',
      `parameter 'priority' is ${priority}, but model '${modelName}' has ${policy.levels.length} priority level(s) (1 is the highest)`,
    );
  }
  return priority;
}

/**
 * The queue timeout of a request in µs (0 = none). Parameter `timeout` (µs) counts only where the level's
 * policy has allow_timeout_override, and may only lower the default (model_config.proto ModelQueuePolicy).
 * A malformed value is an error even where it would be ignored.
 */
export function queueTimeoutUsOf(params: Parameters | undefined, level: LevelPolicy): number {
  const requested = intParameter(params, 'timeout');
  const fallback = level.defaultTimeoutUs;
  if (requested === undefined || requested === 0 || !level.allowTimeoutOverride) return fallback;
  return fallback === 0 ? requested : Math.min(fallback, requested);
}
