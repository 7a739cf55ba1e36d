/**
 * The paged scheduler: continuous batching over a TokenEngine (token-engine.ts) whose KV cache lives in fixed-size
 * blocks (block-pool.ts keeps the accounts). Each step of the loop
 *   1. releases finished and cancelled sequences (their blocks and sampling slots);
 *   2. gives every running sequence its next tokens, oldest first, within `maxStepTokens`: one token for a
 *      decoding sequence, a prompt chunk for one still prefilling (chunked prefill: a long prompt takes several
 *      steps and never holds the decoding ones back). When a sequence needs a block and none is left, the youngest
 *      running sequence is preempted: it gives its blocks back and waits at the head of the queue; when it is
 *      admitted again its prompt and the tokens it had generated are prefilled again (recompute);
 *   3. admits waiting sequences, FIFO, while a slot, step tokens and blocks for their first chunk are free; their
 *      prompt's full blocks that are in the prefix cache are taken by reference, not recomputed;
 *   4. runs the step (one engine call for every row) and hands each sampled token to its Sequence, which makes the
 *      events, stop sequences, limits and usage exactly as under the continuous batcher.
 */
import { rtError, toRtError, type RtError } from '../errors/registry.ts';
import type { Logger } from '../observability/logger.ts';
import { checkQueueRoom, unloadingError, type GenerationBatcher } from './batcher.ts';
import { BlockPool, blockHash, blockHashes } from './block-pool.ts';
import type { DecoderSpec } from './decoder-spec.ts';
import type { GenerateMetricsSink } from './metrics.ts';
import { PagedSequence } from './paged-sequence.ts';
import type { Sequence } from './sequence.ts';
import type { StepRow, TokenEngine } from './token-engine.ts';

export interface PagedLimits {
  /** Requests waiting for a slot at most; beyond it, QUEUE_FULL. */
  readonly maxQueue: number;
}

interface Planned {
  readonly entry: PagedSequence;
  readonly count: number;
  readonly sample: boolean;
}

export class PagedBatcher implements GenerationBatcher {
  readonly pool: BlockPool;
  private readonly waiting: PagedSequence[] = [];
  private readonly active: PagedSequence[] = [];
  private readonly freeSlots: number[] = [];
  private readonly bySeq = new Map<Sequence, PagedSequence>();
  private copies: [number, number][] = [];
  private admissions = 0;
  private looping = false;
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  /** Engine steps, preemptions, copy-on-write block copies and the most rows of one step so far; for tests and benchmarks. */
  readonly stats = { steps: 0, preemptions: 0, copies: 0, maxRows: 0 };

  constructor(
    readonly spec: DecoderSpec,
    readonly engine: TokenEngine,
    readonly limits: PagedLimits,
    private readonly metrics?: GenerateMetricsSink,
    private readonly logger?: Logger,
  ) {
    const g = engine.geometry;
    this.pool = new BlockPool(g.totalBlocks, g.blockTokens);
    for (let s = g.maxRows - 1; s >= 0; s--) this.freeSlots.push(s);
  }

  get running(): number {
    return this.active.filter((e) => !e.seq.finished).length;
  }

  get queued(): number {
    return this.waiting.length;
  }

  submit(seq: Sequence): void {
    if (this.closed) throw unloadingError(this.spec.model);
    const g = this.engine.geometry;
    const blocks = Math.ceil(seq.reservedTokens / g.blockTokens);
    if (seq.reservedTokens > g.maxContext || blocks > g.totalBlocks) {
      throw rtError(
        'BAD_REQUEST',
        `the prompt (${seq.prompt.length} tokens) plus max_tokens (${seq.maxTokens}) needs ${blocks} KV blocks of ${g.blockTokens} tokens; model '${this.spec.model}' has ${g.totalBlocks} (context ${g.maxContext})`,
      );
    }
    checkQueueRoom(this.spec.model, this.waiting.length, this.limits.maxQueue);
    const entry = new PagedSequence(seq);
    this.bySeq.set(seq, entry);
    seq.onEnd = (s) => this.onEnd(s);
    this.waiting.push(entry);
    this.report();
    if (!this.looping) void this.loop();
  }

  whenIdle(): Promise<void> {
    if (!this.looping && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(error = unloadingError(this.spec.model)): void {
    this.closed = true;
    for (const e of [...this.waiting, ...this.active]) e.seq.fail(error);
  }

  private onEnd(seq: Sequence): void {
    const entry = this.bySeq.get(seq);
    const i = entry === undefined ? -1 : this.waiting.indexOf(entry);
    if (i >= 0) {
      // Still queued: it holds nothing.
      this.waiting.splice(i, 1);
      this.bySeq.delete(seq);
    }
    // Running: its blocks and slot are released at the next step boundary (the step in flight may use them).
    this.report();
  }

  private report(): void {
    this.metrics?.sequences(this.spec.model, this.running, this.waiting.length);
    this.metrics?.kvBlocks(this.spec.model, this.pool.used, this.pool.available);
  }

  private async loop(): Promise<void> {
    this.looping = true;
    try {
      for (;;) {
        this.releaseFinished();
        if (this.closed || (this.active.length === 0 && this.waiting.length === 0)) break;
        const plan = this.schedule();
        if (plan.length === 0) {
          this.refuseHead();
          continue;
        }
        await this.runStep(plan);
      }
    } finally {
      this.looping = false;
      this.report();
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
    if (this.waiting.length > 0 && !this.closed) void this.loop();
  }

  /** Nothing could run although the pool is empty of running work: the head of the queue can never be served. */
  private refuseHead(): void {
    const head = this.waiting[0];
    head?.seq.fail(rtError('INTERNAL', `model '${this.spec.model}': no KV blocks or slots for this request`));
  }

  private releaseFinished(): void {
    for (let i = this.active.length - 1; i >= 0; i--) {
      const e = this.active[i] as PagedSequence;
      if (!e.seq.finished) continue;
      this.active.splice(i, 1);
      this.bySeq.delete(e.seq);
      this.giveBack(e);
    }
  }

  /** Returns a sequence's blocks (cached full ones stay cached) and slot. */
  private giveBack(e: PagedSequence): void {
    this.pool.releaseAll(e.blocks);
    if (e.slot >= 0) this.freeSlots.push(e.slot);
    e.reset();
  }

  private schedule(): Planned[] {
    const plan: Planned[] = [];
    let budget = this.planRunning(plan, this.engine.geometry.maxStepTokens);
    while (this.waiting.length > 0 && budget > 0 && this.freeSlots.length > 0) {
      const e = this.waiting[0] as PagedSequence;
      const count = this.admit(e, budget);
      if (count === 0) break;
      plan.push({ entry: e, count, sample: count === e.remaining });
      budget -= count;
    }
    return plan;
  }

  /** The running sequences' next tokens, oldest first, within `budget`; returns the budget left. */
  private planRunning(plan: Planned[], budget: number): number {
    // Decode tokens not planned yet: a prompt chunk leaves room for them.
    let decodes = this.active.filter((o) => !o.seq.finished && o.remaining === 1).length;
    for (let i = 0; i < this.active.length && budget > 0; i++) {
      const e = this.active[i] as PagedSequence;
      if (e.seq.finished) continue;
      if (e.remaining === 1) decodes--;
      const count = e.remaining === 1 ? 1 : Math.min(e.remaining, Math.max(1, budget - decodes));
      decodes -= this.makeRoom(e, count);
      if (e.slot < 0) {
        i--; // it was preempted: the entry at i is now the next one
        continue;
      }
      plan.push({ entry: e, count, sample: count === e.remaining });
      budget -= count;
    }
    return budget;
  }

  /**
   * Reserves `e`'s blocks for `count` more tokens, preempting the youngest running sequence (`e` itself last) until
   * they fit; returns how many of the others preempted had a decode token still to plan.
   */
  private makeRoom(e: PagedSequence, count: number): number {
    let lost = 0;
    while (!this.reserve(e, e.computed + count)) {
      const victim = this.youngestRunning();
      if (victim !== e && victim.remaining === 1) lost++;
      this.preempt(victim);
      if (victim === e) break;
    }
    return lost;
  }

  private youngestRunning(): PagedSequence {
    let y = this.active[0] as PagedSequence;
    for (const e of this.active) if (!e.seq.finished && e.order > y.order) y = e;
    return y;
  }

  private preempt(e: PagedSequence): void {
    this.active.splice(this.active.indexOf(e), 1);
    this.giveBack(e);
    this.waiting.unshift(e);
    this.stats.preemptions++;
    this.metrics?.preemption(this.spec.model);
    this.logger?.debug({ model: this.spec.model, id: e.seq.id }, 'generation preempted: its KV blocks were needed');
  }

  /**
   * Admits the head of the queue with its cached prefix; returns the tokens of its first chunk, or 0 (nothing
   * taken) when its blocks cannot be had.
   */
  private admit(e: PagedSequence, budget: number): number {
    const B = this.pool.blockTokens;
    const hashes = blockHashes(e.tokens(0, e.total), B);
    const matched = this.pool.match(hashes);
    this.metrics?.prefixCache(this.spec.model, hashes.length, matched.length);
    e.blocks = matched;
    e.hashes = hashes.slice(0, matched.length);
    // Every token cached: the last one runs again (into a private copy of its block) to give the logits.
    e.computed = Math.min(matched.length * B, e.total - 1);
    const count = Math.min(e.remaining, budget);
    if (!this.reserve(e, e.computed + count)) {
      this.pool.releaseAll(e.blocks);
      e.reset();
      return 0;
    }
    this.waiting.shift();
    e.slot = this.freeSlots.pop() as number;
    e.fresh = true;
    e.order = ++this.admissions;
    this.active.push(e);
    return count;
  }

  /**
   * Makes positions e.computed .. end - 1 writable: new blocks past the table's end, and a private copy of a
   * cached block that would be written (copy-on-write). All or nothing: false when the pool cannot give them.
   */
  private reserve(e: PagedSequence, end: number): boolean {
    const B = this.pool.blockTokens;
    const first = Math.floor(e.computed / B);
    const shared = first < e.blocks.length && this.pool.isCached(e.blocks[first] as number);
    const fresh = Math.max(0, Math.ceil(end / B) - e.blocks.length);
    const got = this.pool.allocateMany(fresh + (shared ? 1 : 0));
    if (got === undefined) return false;
    if (shared) {
      const old = e.blocks[first] as number;
      const copy = got.pop() as number;
      this.copies.push([old, copy]);
      this.stats.copies++;
      e.blocks[first] = copy;
      e.hashes.length = first;
      this.pool.release(old);
    }
    e.blocks.push(...got);
    return true;
  }

  private async runStep(plan: readonly Planned[]): Promise<void> {
    const rows: StepRow[] = plan.map(({ entry: e, count, sample }) => ({
      slot: e.slot,
      fresh: e.fresh,
      tokens: Int32Array.from(e.tokens(e.computed, e.computed + count)),
      start: e.computed,
      blocks: Int32Array.from(e.blocks.slice(0, Math.ceil((e.computed + count) / this.pool.blockTokens))),
      sample,
      sampling: e.sampling,
    }));
    const copies = this.copies;
    this.copies = [];
    const started = performance.now();
    let sampled: Int32Array;
    try {
      if (copies.length > 0) {
        await this.engine.copyBlocks(
          Int32Array.from(copies, (c) => c[0]),
          Int32Array.from(copies, (c) => c[1]),
        );
      }
      sampled = await this.engine.step(rows);
    } catch (err) {
      this.failStep(plan, err);
      return;
    } finally {
      this.stats.steps++;
      this.stats.maxRows = Math.max(this.stats.maxRows, rows.length);
    }
    this.observeStep(plan, (performance.now() - started) / 1000);
    plan.forEach((p, i) => {
      this.advance(p, sampled[i] as number);
    });
    this.report();
  }

  private observeStep(plan: readonly Planned[], seconds: number): void {
    const prefill = plan.filter((p) => !(p.count === 1 && p.entry.computed > 0));
    const kind = prefill.length === 0 ? 'decode' : prefill.length === plan.length ? 'prefill' : 'mixed';
    this.metrics?.step(this.spec.model, plan.length, seconds, kind);
    const promptTokens = prefill.reduce((a, p) => a + p.count, 0);
    if (promptTokens > 0) this.metrics?.promptTokens(this.spec.model, promptTokens);
  }

  private failStep(plan: readonly Planned[], err: unknown): void {
    const e: RtError = toRtError(err);
    this.logger?.error({ model: this.spec.model, code: e.code, err: e.message }, 'generation step failed');
    for (const p of plan) p.entry.seq.fail(e);
  }

  /** Books a row's processed tokens (filling blocks enter the prefix cache) and hands over its sampled token. */
  private advance(p: Planned, token: number): void {
    const e = p.entry;
    if (e.seq.finished) return;
    e.computed += p.count;
    e.fresh = false;
    this.registerFull(e);
    if (!p.sample) return;
    try {
      e.seq.accept(token);
    } catch (err) {
      const error = toRtError(err);
      this.logger?.error(
        { model: this.spec.model, code: error.code, err: err instanceof Error ? err.message : String(err) },
        'generation step failed for one sequence',
      );
      e.seq.fail(error);
    }
  }

  private registerFull(e: PagedSequence): void {
    const B = this.pool.blockTokens;
    for (let b = e.hashes.length; (b + 1) * B <= e.computed; b++) {
      const hash = blockHash(e.hashes.at(-1) ?? '', e.tokens(b * B, (b + 1) * B));
      e.hashes.push(hash);
      this.pool.register(e.blocks[b] as number, hash);
    }
  }
}
