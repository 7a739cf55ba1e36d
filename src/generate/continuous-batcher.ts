/**
 * Continuous (iteration-level) batching for one decoder model instance (Yu et al., "Orca", OSDI 2022): the batch
 * is re-formed at every decoding step. Each iteration of the loop
 *   1. admits waiting sequences while slots, the tokens-in-flight budget and the prefill budget allow, and runs
 *      their prompts through the model in one prefill run (right-padded, masked), giving each its first token;
 *   2. runs one decode step for every running sequence: one new token each, all in one engine run, with the
 *      batch's shared KV cache (kv-batch.ts) as `past` and per-row positions and mask;
 *   3. lets finished and cancelled sequences leave (their rows are masked out and reused or compacted away).
 * A request therefore waits at most one step to join, and never waits for the rest of a batch to finish.
 *
 * Every engine run goes through EngineSession.run (a worker thread); the loop itself only builds feeds, samples
 * (a few hundred floats per row) and moves events.
 */
import type { Tensor } from '../tensor/tensor.ts';
import type { EngineSession } from '../engine/engine.ts';
import { rtError, toRtError, type RtError } from '../errors/registry.ts';
import type { Logger } from '../observability/logger.ts';
import type { DecoderSpec } from './decoder-spec.ts';
import { indexTensor, maskTensor } from './feeds.ts';
import { KvBatch, type NewRow } from './kv-batch.ts';
import { checkQueueRoom, unloadingError, type GenerationBatcher } from './batcher.ts';
import type { GenerateMetricsSink } from './metrics.ts';
import type { Sequence } from './sequence.ts';

export interface BatcherLimits {
  /** Sequences decoded together at most (rows of a decode step). */
  readonly maxSequences: number;
  /** Requests waiting for a slot at most; beyond it, QUEUE_FULL (RESOURCE_EXHAUSTED). */
  readonly maxQueue: number;
  /** Sum of prompt + max_tokens over running sequences at most (bounds cache memory). */
  readonly maxTokensInFlight: number;
  /** Padded prompt tokens in one prefill run at most (a single longer prompt still runs, alone). */
  readonly maxPrefillTokens: number;
}

export const DEFAULT_BATCHER_LIMITS: BatcherLimits = Object.freeze({
  maxSequences: 32,
  maxQueue: 256,
  maxTokensInFlight: 32 * 1024,
  maxPrefillTokens: 2048,
});

export class ContinuousBatcher implements GenerationBatcher {
  private readonly waiting: Sequence[] = [];
  private readonly batch: KvBatch<Sequence>;
  private reserved = 0;
  private looping = false;
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  /** Engine runs so far, by kind; for tests and benchmarks. */
  readonly runs = { prefill: 0, decode: 0 };

  constructor(
    readonly spec: DecoderSpec,
    readonly session: EngineSession,
    readonly limits: BatcherLimits,
    private readonly metrics?: GenerateMetricsSink,
    private readonly logger?: Logger,
  ) {
    this.batch = new KvBatch<Sequence>({ numLayers: spec.numLayers, kvHeads: spec.kvHeads, headDim: spec.headDim });
  }

  /** Sequences admitted and not finished (a finished one leaves its row at the next step boundary). */
  get running(): number {
    let n = 0;
    for (const o of this.batch.owners) if (o !== undefined && !o.finished) n++;
    return n;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Rows of the batch's KV cache (live and dead) and how often it was rebuilt; for tests and benchmarks. */
  get batchShape(): { rows: number; cols: number; rebuilds: number } {
    return { rows: this.batch.rows, cols: this.batch.cols, rebuilds: this.batch.rebuilds };
  }

  /** Queues a sequence; it joins the batch at the next step. Throws QUEUE_FULL beyond the queue bound. */
  submit(seq: Sequence): void {
    if (this.closed) throw unloadingError(this.spec.model);
    if (seq.reservedTokens > this.limits.maxTokensInFlight) {
      throw rtError(
        'BAD_REQUEST',
        `the prompt (${seq.prompt.length} tokens) plus max_tokens (${seq.maxTokens}) exceeds the ${this.limits.maxTokensInFlight} tokens the server keeps in flight`,
      );
    }
    checkQueueRoom(this.spec.model, this.waiting.length, this.limits.maxQueue);
    seq.onEnd = (s) => this.onEnd(s);
    this.waiting.push(seq);
    this.report();
    if (!this.looping) void this.loop();
  }

  /** Resolves when nothing runs or waits. */
  whenIdle(): Promise<void> {
    if (!this.looping && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Ends every sequence with `error` and refuses new ones. */
  close(error = unloadingError(this.spec.model)): void {
    this.closed = true;
    for (const s of [...this.waiting]) s.fail(error);
    for (const s of [...this.batch.owners]) s?.fail(error);
  }

  private onEnd(seq: Sequence): void {
    const i = this.waiting.indexOf(seq);
    if (i >= 0) {
      // Still queued: it never reserved anything.
      this.waiting.splice(i, 1);
    } else {
      // Running: its row is released at the next step boundary (a step may hold its buffers right now).
      this.reserved -= seq.reservedTokens;
    }
    this.report();
  }

  private report(): void {
    this.metrics?.sequences(this.spec.model, this.running, this.waiting.length);
  }

  private async loop(): Promise<void> {
    this.looping = true;
    try {
      for (;;) {
        this.releaseFinished();
        const admitted = this.admit();
        if (admitted.length > 0) await this.prefill(admitted);
        this.releaseFinished();
        if (this.batch.liveRows > 0) await this.decode();
        else if (this.waiting.length === 0) break;
      }
    } finally {
      this.looping = false;
      this.batch.compactIfWasteful();
      this.report();
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
    // A submit may have raced with the end of the loop.
    if (this.waiting.length > 0 && !this.closed) void this.loop();
  }

  private releaseFinished(): void {
    for (let r = 0; r < this.batch.rows; r++) {
      const owner = this.batch.owners[r];
      if (owner?.finished) this.batch.release(r);
    }
    this.batch.compactIfWasteful();
  }

  /** Moves waiting sequences into the batch, FIFO, while the limits allow. */
  private admit(): Sequence[] {
    const out: Sequence[] = [];
    let longest = 0;
    while (this.waiting.length > 0) {
      const seq = this.waiting[0] as Sequence;
      if (this.running + out.length >= this.limits.maxSequences) break;
      if (this.reserved + seq.reservedTokens > this.limits.maxTokensInFlight) break;
      const padded = (out.length + 1) * Math.max(longest, seq.prompt.length);
      if (out.length > 0 && padded > this.limits.maxPrefillTokens) break;
      this.waiting.shift();
      this.reserved += seq.reservedTokens;
      longest = Math.max(longest, seq.prompt.length);
      out.push(seq);
    }
    return out;
  }

  private async prefill(seqs: Sequence[]): Promise<void> {
    const spec = this.spec;
    const n = seqs.length;
    const cols = Math.max(...seqs.map((s) => s.prompt.length));
    const ids = new Array<number>(n * cols).fill(spec.eosTokenId);
    const positions = new Array<number>(n * cols).fill(0);
    const mask = new Uint8Array(n * cols);
    seqs.forEach((s, i) => {
      s.prompt.forEach((t, j) => {
        ids[i * cols + j] = t;
        positions[i * cols + j] = j;
        mask[i * cols + j] = 1;
      });
    });
    const { kvHeads, headDim } = spec;
    const feeds: Tensor[] = [
      indexTensor(spec.inputIds, spec.idsType, [n, cols], ids),
      indexTensor(spec.positionIds, spec.positionsType, [n, cols], positions),
      maskTensor(spec.attentionMask, spec.maskType, [n, cols], mask),
    ];
    // With a logits_index input, the model projects only each row's last prompt token onto the vocabulary.
    if (spec.logitsIndex !== undefined) {
      feeds.push(
        indexTensor(
          spec.logitsIndex,
          spec.logitsIndexType,
          [n],
          seqs.map((s) => s.prompt.length - 1),
        ),
      );
    }
    for (let l = 0; l < spec.numLayers; l++) {
      feeds.push({ name: spec.pastKey[l] as string, datatype: 'FP32', shape: [n, kvHeads, 0, headDim], data: new Float32Array(0) });
      feeds.push({ name: spec.pastValue[l] as string, datatype: 'FP32', shape: [n, kvHeads, 0, headDim], data: new Float32Array(0) });
    }
    const started = performance.now();
    const outputs = await this.step('prefill', feeds, (e) => {
      for (const s of seqs) s.fail(e);
    });
    if (outputs === undefined) return;
    this.metrics?.step(spec.model, n, (performance.now() - started) / 1000, 'prefill');
    this.metrics?.promptTokens(
      spec.model,
      seqs.reduce((a, s) => a + s.prompt.length, 0),
    );
    const logits = outputs.get(spec.logits)?.data as Float32Array;
    const keys = spec.presentKey.map((k) => outputs.get(k)?.data as Float32Array);
    const values = spec.presentValue.map((k) => outputs.get(k)?.data as Float32Array);
    const V = spec.vocabSize;
    const rows: NewRow<Sequence>[] = [];
    seqs.forEach((s, i) => {
      if (s.finished) return; // cancelled while its prompt ran
      const at = (spec.logitsIndex === undefined ? i * cols + s.prompt.length - 1 : i) * V;
      const done = this.accept(s, logits.subarray(at, at + V));
      if (!done) rows.push({ owner: s, source: i, length: s.prompt.length });
    });
    if (rows.length > 0) this.batch.admit({ cols, keys, values }, rows);
    this.report();
  }

  private async decode(): Promise<void> {
    const spec = this.spec;
    const b = this.batch;
    const R = b.rows;
    const T = b.cols;
    const ids = new Array<number>(R);
    const positions = new Array<number>(R);
    const mask = new Uint8Array(R * (T + 1));
    let live = 0;
    for (let r = 0; r < R; r++) {
      const owner = b.owners[r];
      mask.set(b.mask.subarray(r * T, (r + 1) * T), r * (T + 1));
      if (owner === undefined) {
        ids[r] = spec.eosTokenId;
        positions[r] = 0;
      } else {
        live++;
        ids[r] = owner.lastToken;
        positions[r] = b.lengths[r] as number;
        mask[r * (T + 1) + T] = 1;
      }
    }
    const { kvHeads, headDim } = spec;
    const feeds: Tensor[] = [
      indexTensor(spec.inputIds, spec.idsType, [R, 1], ids),
      indexTensor(spec.positionIds, spec.positionsType, [R, 1], positions),
      maskTensor(spec.attentionMask, spec.maskType, [R, T + 1], mask),
    ];
    if (spec.logitsIndex !== undefined) feeds.push(indexTensor(spec.logitsIndex, spec.logitsIndexType, [R], new Array<number>(R).fill(0)));
    for (let l = 0; l < spec.numLayers; l++) {
      // These buffers move to the engine worker (transferred): the batch takes the present tensors back.
      feeds.push({ name: spec.pastKey[l] as string, datatype: 'FP32', shape: [R, kvHeads, T, headDim], data: b.keys[l] as Float32Array });
      feeds.push({ name: spec.pastValue[l] as string, datatype: 'FP32', shape: [R, kvHeads, T, headDim], data: b.values[l] as Float32Array });
    }
    const started = performance.now();
    const outputs = await this.step('decode', feeds, (e) => {
      for (const s of [...b.owners]) s?.fail(e);
      b.reset();
    });
    if (outputs === undefined) return;
    this.metrics?.step(spec.model, live, (performance.now() - started) / 1000, 'decode');
    b.appendColumn(
      spec.presentKey.map((k) => outputs.get(k)?.data as Float32Array),
      spec.presentValue.map((k) => outputs.get(k)?.data as Float32Array),
    );
    const logits = outputs.get(spec.logits)?.data as Float32Array;
    const V = spec.vocabSize;
    for (let r = 0; r < R; r++) {
      const owner = b.owners[r];
      if (owner === undefined || owner.finished) continue;
      this.accept(owner, logits.subarray(r * V, (r + 1) * V));
    }
  }

  /**
   * Samples and hands a sequence its token. A failure there (a tokenizer or stop matcher throwing on this text)
   * ends that sequence with an error event; the loop and the other sequences go on.
   */
  private accept(seq: Sequence, logits: Float32Array): boolean {
    try {
      return seq.accept(seq.sampler.next(logits));
    } catch (err) {
      const e = toRtError(err);
      this.logger?.error(
        { model: this.spec.model, code: e.code, err: err instanceof Error ? err.message : String(err) },
        'generation step failed for one sequence',
      );
      seq.fail(e);
      return true;
    }
  }

  /**
   * One engine step (a prefill or a decode step), counted either way. A failure is logged and handed to `fail`
   * (the sequences of that step end with the error; the batcher goes on): undefined is returned then.
   */
  private async step(kind: 'prefill' | 'decode', feeds: Tensor[], fail: (e: RtError) => void): Promise<Map<string, Tensor> | undefined> {
    try {
      return await this.run(feeds);
    } catch (err) {
      const e = toRtError(err);
      this.logger?.error(
        { model: this.spec.model, code: e.code, err: e.message },
        kind === 'prefill' ? 'generation prefill failed' : 'generation decode step failed',
      );
      fail(e);
      return undefined;
    } finally {
      this.runs[kind]++;
    }
  }

  private async run(feeds: Tensor[]): Promise<Map<string, Tensor>> {
    const outputs = await this.session.run(feeds, this.spec.outputNames);
    const byName = new Map(outputs.map((t) => [t.name, t]));
    for (const name of this.spec.outputNames) {
      if (!byName.has(name)) throw rtError('ENGINE_FAILED', `model '${this.spec.model}': the engine returned no output '${name}'`);
    }
    return byName;
  }
}
