import type { InferResponse } from '../api/types.ts';
import type { Tensor } from '../tensor/tensor.ts';
import { RtError, rtError } from '../errors/registry.ts';
import { splitBatch } from '../engine/batch-tensors.ts';
import { runOnSession } from './batch-run.ts';
import { WakeClock } from './wake-clock.ts';
import { LinkedList } from './linked-list.ts';
import type { ListNode } from './linked-list.ts';
import { priorityLevelOf, queueTimeoutUsOf, resolveSchedulingPolicy } from './queue-policy.ts';
import type { SchedulingPolicy } from './queue-policy.ts';
import { RequestQueue } from './request-queue.ts';
import type { QueueEntry } from './request-queue.ts';
import type { Scheduler, SchedulerOptions, ValidatedRequest } from './scheduler.ts';
import { type AbortWaiter, unwatchAbort, watchAbort } from '../util/abort-watch.ts';

/** Why a scheduler stops: server shutdown answers SERVER_DRAINING, a model unload MODEL_NOT_READY. */
export type CloseReason = 'SERVER_DRAINING' | 'MODEL_NOT_READY';

export interface SchedulerSnapshot {
  readonly pending: number;
  readonly inFlight: number;
  readonly instances: number;
  readonly busyInstances: number;
  readonly levels: readonly { readonly level: number; readonly pending: number; readonly maxQueueSize: number }[];
}

/**
 * The `Scheduler` contract plus what rtserve's own callers may use: close with a reason, and live queue
 * introspection (queue depth per priority level, busy instances).
 */
export interface RtScheduler extends Scheduler {
  close(reason?: CloseReason): Promise<void>;
  snapshot(): SchedulerSnapshot;
}

type Outcome = { readonly ok: true; readonly response: InferResponse } | { readonly ok: false; readonly error: RtError };

interface RunningBatch {
  readonly entries: readonly QueuedRequest[];
  /** Entries not cancelled yet; when it reaches 0 nobody wants the result and the engine run is aborted. */
  live: number;
  readonly controller: AbortController | undefined;
  readonly sessionIndex: number;
}

/** One request from enqueue to answer. */
export interface QueuedRequest extends QueueEntry {
  readonly v: ValidatedRequest;
  readonly batchSize: number;
  /** hrtime when it entered the queue: the base of its queue delay and timeout. */
  readonly enqueueNs: bigint;
  state: 'queued' | 'running' | 'settled';
  dispatchNs: bigint;
  batch: RunningBatch | undefined;
  /** preserve_ordering: the finished result waiting for earlier requests to be answered. */
  outcome: Outcome | undefined;
  orderNode: ListNode<QueuedRequest> | undefined;
  onAbort: AbortWaiter | undefined;
  readonly resolve: (r: InferResponse) => void;
  readonly reject: (e: RtError) => void;
}

/** What a scheduler decides when an instance is free: send these requests as one batch, or wait until then. */
export type BatchDecision = { readonly send: readonly QueuedRequest[] } | { readonly waitUntilNs: bigint };

const hrtimeNs = (): bigint => process.hrtime.bigint();
const nsToNumber = (ns: bigint): number => (ns > 0n ? Number(ns) : 0);
/** Upper bound of the Retry-After hint: past this the estimate says nothing useful. */
const MAX_RETRY_AFTER_MS = 60_000;
/** Weight of the newest sample in the running averages behind the Retry-After hint. */
const EWMA_WEIGHT = 0.2;

/**
 * What the direct scheduler and the dynamic batcher share (Triton's default and dynamic schedulers): bounded
 * priority queues with per-level policy, queue timeouts (REJECT / DELAY), cancellation, instance dispatch,
 * preserve_ordering, statistics, drain and close. Subclasses decide only which queued requests form the next
 * batch (`selectBatch`).
 *
 * Work happens in `pump`, run on a microtask after any change (so that requests arriving in the same tick can
 * meet in one batch) and from one unref'd timer set for the next queue delay or timeout.
 */
export abstract class QueueingScheduler implements RtScheduler {
  protected readonly queue: RequestQueue<QueuedRequest>;
  protected readonly policy: SchedulingPolicy;
  protected readonly modelLabel: string;
  private readonly idle: number[];
  /**
   * Per instance, the controller whose signal its batches run with. An instance runs one batch at a time, so a
   * controller that was never aborted serves the next batch too (node's AbortSignal costs a few µs to create,
   * which showed per batch in the REST profile); an aborted one is dropped and the next batch gets a new one.
   */
  private readonly batchControllers: (AbortController | undefined)[];
  private busy = 0;
  private inFlight = 0;
  private closedWith: CloseReason | undefined;
  private pumpScheduled = false;
  /** When the queue next needs a look (a queue delay ends, a timeout passes), to the microsecond. */
  private readonly clock = new WakeClock(() => this.pump());
  private drainWaiters: (() => void)[] = [];
  /**
   * preserve_ordering: dispatched requests in dispatch order, answered strictly from the head. Like Triton
   * (dynamic_batch_scheduler.cc reserves a completion slot per request when its batch is formed), the order is
   * that of dispatch, which equals arrival order within one priority level and batch key. Requests that leave
   * the queue early (timeout, cancel, close) are answered at once: a request delayed in the queue (DELAY policy,
   * lower priority, other shape) must not hold back answers that are ready.
   */
  private readonly ordered: LinkedList<QueuedRequest> | undefined;
  private batchMsAvg: number | undefined;
  private requestsPerBatchAvg = 1;

  constructor(protected readonly options: SchedulerOptions) {
    if (options.sessions.length === 0) {
      throw rtError('BAD_CONFIG', `model '${options.modelName}' version '${options.version}' has no instances`);
    }
    this.policy = resolveSchedulingPolicy(options.config, options.maxQueueSizeDefault);
    this.queue = new RequestQueue<QueuedRequest>(this.policy.levels);
    this.idle = options.sessions.map((_, i) => options.sessions.length - 1 - i);
    this.batchControllers = options.sessions.map(() => undefined);
    this.ordered = this.policy.preserveOrdering ? new LinkedList<QueuedRequest>() : undefined;
    this.modelLabel = `model '${options.modelName}' version '${options.version}'`;
  }

  get pendingCount(): number {
    return this.queue.size;
  }

  get inFlightCount(): number {
    return this.inFlight;
  }

  /** Picks the next batch from the queue (non-empty when called) for a free instance. */
  protected abstract selectBatch(nowNs: bigint): BatchDecision | undefined;

  /** The batch compatibility key of a request; undefined where requests never share a batch. */
  protected abstract keyOf(v: ValidatedRequest): string | undefined;

  /** Throws an RtError for a request this scheduler cannot take (checked before it is queued). */
  protected checkRequest(_v: ValidatedRequest): void {}

  enqueue(v: ValidatedRequest): Promise<InferResponse> {
    let level: number;
    let timeoutUs: number;
    let key: string | undefined;
    try {
      if (this.closedWith !== undefined) throw this.closedError();
      const params = v.request.parameters;
      if (v.request.signal?.aborted === true) throw this.cancelledError();
      level = priorityLevelOf(params, this.policy, this.options.modelName);
      const levelPolicy = this.policy.levels[level - 1];
      if (levelPolicy === undefined) throw rtError('INTERNAL', `no policy for priority level ${level}`);
      timeoutUs = queueTimeoutUsOf(params, levelPolicy);
      this.checkRequest(v);
      if (this.queue.levelSize(level) >= levelPolicy.maxQueueSize) {
        // Rejected at once, never queued: overload must not grow memory (DESIGN: bounded everything).
        const retryAfterMs = this.retryAfterMs();
        throw rtError(
          'QUEUE_FULL',
          `${this.modelLabel}: the queue of priority level ${level} is full (max_queue_size ${levelPolicy.maxQueueSize}); ` +
            `retry after ${retryAfterMs} ms`,
          { retryAfterMs },
        );
      }
      key = this.keyOf(v);
    } catch (err) {
      const error = err instanceof RtError ? err : rtError('INTERNAL', 'internal server error', { cause: err });
      this.options.stats.recordFailure(nsToNumber(hrtimeNs() - v.arrivalNs));
      return Promise.reject(error);
    }

    const enqueueNs = this.clock.now();
    let resolve!: (r: InferResponse) => void;
    let reject!: (e: RtError) => void;
    const promise = new Promise<InferResponse>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const entry: QueuedRequest = {
      v,
      batchSize: v.batchSize,
      level,
      key,
      enqueueNs,
      hasDeadline: timeoutUs > 0,
      deadlineNs: enqueueNs + BigInt(timeoutUs) * 1000n,
      heapIndex: -1,
      expired: false,
      levelNode: undefined,
      keyNode: undefined,
      state: 'queued',
      dispatchNs: 0n,
      batch: undefined,
      outcome: undefined,
      orderNode: undefined,
      onAbort: undefined,
      resolve,
      reject,
    };
    this.queue.push(entry);
    const signal = v.request.signal;
    if (signal !== undefined) {
      // One listener per signal however many requests share it (a REST connection's signal): util/abort-watch.ts.
      entry.onAbort = { onAbort: () => this.onAbort(entry) };
      watchAbort(signal, entry.onAbort);
    }
    this.schedulePump();
    return promise;
  }

  drain(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  async close(reason: CloseReason = 'SERVER_DRAINING'): Promise<void> {
    if (this.closedWith === undefined) this.closedWith = reason;
    this.clock.clear();
    const error = this.closedError();
    for (const entry of this.queue.removeAll()) this.deliver(entry, { ok: false, error });
    await this.drain();
  }

  snapshot(): SchedulerSnapshot {
    return {
      pending: this.queue.size,
      inFlight: this.inFlight,
      instances: this.options.sessions.length,
      busyInstances: this.busy,
      levels: this.policy.levels.map((p) => ({
        level: p.level,
        pending: this.queue.levelSize(p.level),
        maxQueueSize: p.maxQueueSize,
      })),
    };
  }

  private isIdle(): boolean {
    return this.queue.size === 0 && this.inFlight === 0 && this.busy === 0;
  }

  private checkIdle(): void {
    if (this.drainWaiters.length === 0 || !this.isIdle()) return;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of waiters) w();
  }

  private closedError(): RtError {
    return this.closedWith === 'MODEL_NOT_READY'
      ? rtError('MODEL_NOT_READY', `${this.modelLabel} is being unloaded; the request was not executed`)
      : rtError('SERVER_DRAINING', `${this.modelLabel} is shutting down; the request was not executed`);
  }

  private cancelledError(): RtError {
    return rtError('CANCELLED', `the request to ${this.modelLabel} was cancelled`);
  }

  /**
   * Retry-After hint for QUEUE_FULL: the batches ahead (queued and running, at the recent requests per batch)
   * times the recent batch duration, spread over the instances. At least 1 ms.
   */
  private retryAfterMs(): number {
    const batchesAhead = Math.ceil((this.queue.size + this.inFlight) / Math.max(1, this.requestsPerBatchAvg));
    const ms = Math.ceil(((this.batchMsAvg ?? 1) * batchesAhead) / this.options.sessions.length);
    return Math.min(MAX_RETRY_AFTER_MS, Math.max(1, ms));
  }

  private schedulePump(): void {
    if (this.pumpScheduled || this.closedWith !== undefined) return;
    this.pumpScheduled = true;
    queueMicrotask(() => this.pump());
  }

  /**
   * Applies due timeouts, then hands batches to free instances until none is free or the scheduler decides to
   * wait.
   */
  private pump(): void {
    this.pumpScheduled = false;
    if (this.closedWith !== undefined) return;
    const nowNs = this.clock.now();
    for (const entry of this.queue.expire(nowNs)) {
      this.deliver(entry, {
        ok: false,
        error: rtError('QUEUE_TIMEOUT', `the request to ${this.modelLabel} timed out in the queue before it ran`),
      });
    }
    let waitUntilNs: bigint | undefined;
    while (this.idle.length > 0 && this.queue.size > 0) {
      const decision = this.selectBatch(nowNs);
      if (decision === undefined) break;
      if ('waitUntilNs' in decision) {
        waitUntilNs = decision.waitUntilNs;
        break;
      }
      this.dispatch(decision.send);
    }
    const deadlineNs = this.queue.nextDeadlineNs();
    this.clock.arm(waitUntilNs === undefined ? deadlineNs : deadlineNs === undefined || waitUntilNs < deadlineNs ? waitUntilNs : deadlineNs);
    this.checkIdle();
  }

  private dispatch(entries: readonly QueuedRequest[]): void {
    const sessionIndex = this.idle.pop();
    if (sessionIndex === undefined) return;
    const dispatchNs = this.clock.now();
    const batch: RunningBatch = {
      entries,
      live: entries.length,
      controller: entries.some((e) => e.v.request.signal !== undefined) ? (this.batchControllers[sessionIndex] ??= new AbortController()) : undefined,
      sessionIndex,
    };
    for (const e of entries) {
      this.queue.remove(e);
      e.state = 'running';
      e.dispatchNs = dispatchNs;
      e.batch = batch;
      this.inFlight += 1;
      if (this.ordered !== undefined) e.orderNode = this.ordered.push(e);
    }
    this.busy += 1;
    void this.runBatch(batch, sessionIndex);
  }

  private async runBatch(batch: RunningBatch, sessionIndex: number): Promise<void> {
    const { entries } = batch;
    const startNs = hrtimeNs();
    try {
      const session = this.options.sessions[sessionIndex];
      if (session === undefined) throw rtError('INTERNAL', `no instance ${sessionIndex}`);
      const first = entries[0];
      if (first === undefined) return;
      const single = entries.length === 1;
      const names = single ? first.v.outputNames : unionOf(entries.map((e) => e.v.outputNames));
      const inputDoneNs = hrtimeNs();
      const { outputs, failed } = await runOnSession(
        session,
        entries.map((e) => e.v),
        names,
        batch.controller?.signal,
      );
      const inferDoneNs = hrtimeNs();
      const wanted = new Set(names);
      const perRequest = single
        ? [outputs]
        : splitBatch(
            outputs.filter((t) => wanted.has(t.name)),
            entries.map((e) => e.batchSize),
          );
      const responses = entries.map((e, i) => this.response(e, perRequest[i] ?? []));
      const doneNs = hrtimeNs();
      // Stage timestamps for the requests' traces (src/observability/otel-tracing.ts).
      for (const e of entries) {
        const ctx = e.v.request.context;
        if (ctx === undefined) continue;
        // dispatchNs is the scheduler's clock, which may run up to a timer tick ahead of hrtime.
        // biome-ignore lint/complexity/useMathMinMax: bigints (Math.min takes numbers)
        ctx.dispatchNs = e.dispatchNs < startNs ? e.dispatchNs : startNs;
        ctx.batchStartNs = startNs;
        ctx.computeStartNs = inputDoneNs;
        ctx.computeEndNs = inferDoneNs;
        ctx.batchRequests = entries.length;
      }
      let rows = 0;
      for (const e of entries) rows += e.batchSize;
      this.options.stats.recordExecution(
        rows,
        entries.length,
        nsToNumber(inputDoneNs - startNs),
        nsToNumber(inferDoneNs - inputDoneNs),
        nsToNumber(doneNs - inferDoneNs),
        session.device,
      );
      this.noteBatch(nsToNumber(doneNs - startNs) / 1e6, entries.length);
      for (const [i, e] of entries.entries()) {
        const failure = failed?.[i];
        this.finish(e, failure === undefined ? { ok: true, response: responses[i] as InferResponse } : { ok: false, error: failure });
      }
    } catch (err) {
      // The engine failed this batch: every request of it fails, the scheduler goes on with the next one.
      const error = this.engineError(err, entries.length);
      for (const e of entries) this.finish(e, { ok: false, error });
    } finally {
      this.busy -= 1;
      this.idle.push(sessionIndex);
      this.schedulePump();
      this.checkIdle();
    }
  }

  private engineError(err: unknown, requests: number): RtError {
    if (err instanceof RtError) return err;
    if (err instanceof Error && err.name === 'AbortError') return this.cancelledError();
    return rtError('ENGINE_FAILED', `${this.modelLabel}: the engine failed while running a batch of ${requests} request(s)`, {
      cause: err,
    });
  }

  private response(e: QueuedRequest, tensors: readonly Tensor[]): InferResponse {
    const outputs = e.v.outputNames.map((name) => {
      const t = tensors.find((x) => x.name === name);
      if (t === undefined) throw rtError('ENGINE_FAILED', `${this.modelLabel}: the engine returned no output '${name}'`);
      return t;
    });
    const id = e.v.request.id;
    return id === undefined
      ? { model_name: this.options.modelName, model_version: this.options.version, outputs }
      : { model_name: this.options.modelName, model_version: this.options.version, id, outputs };
  }

  private noteBatch(ms: number, requests: number): void {
    this.batchMsAvg = this.batchMsAvg === undefined ? ms : this.batchMsAvg + EWMA_WEIGHT * (ms - this.batchMsAvg);
    this.requestsPerBatchAvg += EWMA_WEIGHT * (requests - this.requestsPerBatchAvg);
  }

  private onAbort(e: QueuedRequest): void {
    if (e.state === 'queued') {
      this.queue.remove(e);
      this.deliver(e, { ok: false, error: this.cancelledError() });
      this.schedulePump();
    } else if (e.state === 'running') {
      // Already on an instance: the result is thrown away; the run is aborted once nobody in it is left.
      const batch = e.batch;
      this.deliver(e, { ok: false, error: this.cancelledError() });
      if (batch !== undefined) {
        batch.live -= 1;
        if (batch.live === 0 && batch.controller !== undefined) {
          // The instance's next batch gets a fresh controller (see batchControllers).
          if (this.batchControllers[batch.sessionIndex] === batch.controller) this.batchControllers[batch.sessionIndex] = undefined;
          batch.controller.abort();
        }
      }
      this.flushOrdered();
    }
  }

  /** A running request finished; with preserve_ordering it waits for every request dispatched before it. */
  private finish(e: QueuedRequest, outcome: Outcome): void {
    if (e.state !== 'running') return;
    if (this.ordered === undefined) {
      this.deliver(e, outcome);
      return;
    }
    e.outcome = outcome;
    this.flushOrdered();
  }

  private flushOrdered(): void {
    const ordered = this.ordered;
    if (ordered === undefined) return;
    for (let n = ordered.head; n !== undefined; n = ordered.head) {
      const outcome = n.value.outcome;
      if (outcome === undefined) return;
      this.deliver(n.value, outcome);
    }
  }

  /** Answers a request once: stats, listener cleanup, counters, promise. */
  private deliver(e: QueuedRequest, outcome: Outcome): void {
    if (e.state === 'settled') return;
    const wasRunning = e.state === 'running';
    e.state = 'settled';
    e.outcome = undefined;
    e.batch = undefined;
    if (e.onAbort !== undefined) {
      if (e.v.request.signal !== undefined) unwatchAbort(e.v.request.signal, e.onAbort);
      e.onAbort = undefined;
    }
    if (e.orderNode !== undefined) {
      this.ordered?.remove(e.orderNode);
      e.orderNode = undefined;
    }
    if (wasRunning) this.inFlight -= 1;
    const totalNs = nsToNumber(hrtimeNs() - e.v.arrivalNs);
    if (outcome.ok) {
      this.options.stats.recordSuccess(e.batchSize, totalNs, nsToNumber(e.dispatchNs - e.enqueueNs));
      e.resolve(outcome.response);
    } else {
      this.options.stats.recordFailure(totalNs);
      e.reject(outcome.error);
    }
    this.checkIdle();
  }
}

function unionOf(lists: readonly (readonly string[])[]): string[] {
  const seen = new Set<string>();
  for (const l of lists) for (const n of l) seen.add(n);
  return [...seen];
}
