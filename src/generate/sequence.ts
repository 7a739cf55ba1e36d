/**
 * One generation in the batcher: its prompt, sampler, incremental text decoding, stop sequences, limits, timing
 * and the event stream its clients read. The batcher feeds it sampled tokens (`accept`); everything a client
 * sees comes out of here as events.
 */
import type { RtError } from '../errors/registry.ts';
import type { DecoderSpec } from './decoder-spec.ts';
import { GenerationStream } from './generation-stream.ts';
import type { GenerateMetricsSink } from './metrics.ts';
import { Sampler, type NormalizedSampling } from './sampling.ts';
import { StopMatcher } from './stop.ts';
import type { StreamDecoder } from './tokenizer.ts';
import type { FinishReason, GenerationResult, Usage } from './types.ts';

export interface SequenceInit {
  readonly id: string;
  readonly model: string;
  readonly version: string;
  /** Token ids fed at prefill (the BOS token included). */
  readonly prompt: readonly number[];
  /** Already clamped so that prompt + maxTokens fits the context. */
  readonly maxTokens: number;
  readonly stop: readonly string[];
  readonly sampling: NormalizedSampling;
  readonly spec: DecoderSpec;
  readonly metrics: GenerateMetricsSink | undefined;
}

export class Sequence {
  readonly id: string;
  readonly model: string;
  readonly version: string;
  readonly prompt: readonly number[];
  readonly maxTokens: number;
  /** The request's sampling: applied by the host Sampler below, or by a TokenEngine on its device. */
  readonly sampling: NormalizedSampling;
  readonly stream: GenerationStream;
  readonly generated: number[] = [];
  readonly enqueuedAtMs = performance.now();
  firstTokenAtMs: number | undefined;
  private lastTokenAtMs: number | undefined;
  private text = '';
  private hostSampler: Sampler | undefined;
  private readonly vocabSize: number;
  private readonly decoder: StreamDecoder;
  private readonly stops: StopMatcher;
  private readonly eos: number;
  private readonly stopIds: ReadonlySet<number>;
  private readonly metrics: GenerateMetricsSink | undefined;
  /** Called once when the sequence ends for any reason (the batcher frees its slot). */
  onEnd: ((seq: Sequence) => void) | undefined;

  constructor(init: SequenceInit) {
    this.id = init.id;
    this.model = init.model;
    this.version = init.version;
    this.prompt = init.prompt;
    this.maxTokens = init.maxTokens;
    this.sampling = init.sampling;
    this.vocabSize = init.spec.vocabSize;
    this.decoder = init.spec.tokenizer.decoder();
    this.stops = new StopMatcher(init.stop);
    this.eos = init.spec.eosTokenId;
    this.stopIds = init.spec.stopTokenIds;
    this.metrics = init.metrics;
    this.stream = new GenerationStream((done) => this.summary(done.finishReason, done.usage));
  }

  /** The CPU sampler (made on first use: a batcher whose engine samples never needs one), the prompt as history. */
  get sampler(): Sampler {
    this.hostSampler ??= new Sampler(this.sampling, this.vocabSize, this.prompt);
    return this.hostSampler;
  }

  get finished(): boolean {
    return this.stream.finished;
  }

  /** Tokens this sequence may occupy in the cache at most (for the tokens-in-flight bound). */
  get reservedTokens(): number {
    return this.prompt.length + this.maxTokens;
  }

  get usage(): Usage {
    return { promptTokens: this.prompt.length, completionTokens: this.generated.length, totalTokens: this.prompt.length + this.generated.length };
  }

  /** The last sampled token: what the next decode step feeds. */
  get lastToken(): number {
    return this.generated.at(-1) ?? this.eos;
  }

  /** Takes a token sampled here or by the engine; returns true when the sequence has finished with it. */
  accept(token: number): boolean {
    if (this.finished) return true;
    const now = performance.now();
    if (this.firstTokenAtMs === undefined) {
      this.firstTokenAtMs = now;
      this.metrics?.firstToken(this.model, (now - this.enqueuedAtMs) / 1000);
    } else if (this.lastTokenAtMs !== undefined) {
      this.metrics?.interToken(this.model, (now - this.lastTokenAtMs) / 1000);
    }
    this.lastTokenAtMs = now;
    this.generated.push(token);
    this.metrics?.tokens(this.model, 1);
    if (token === this.eos || this.stopIds.has(token)) {
      this.finish('stop', this.releaseTail());
      return true;
    }
    const released = this.stops.push(this.decoder.push(token));
    this.text += released.text;
    this.stream.push({ type: 'delta', text: released.text, tokens: [token] });
    if (released.stopped) {
      this.finish('stop', '');
      return true;
    }
    if (this.generated.length >= this.maxTokens) {
      this.finish('length', this.releaseTail());
      return true;
    }
    return false;
  }

  /** Ends the generation at the client's request (idempotent). */
  cancel(): void {
    this.finish('cancelled', '');
  }

  /** Ends the generation with an error event (idempotent). */
  fail(error: RtError): void {
    if (this.finished) return;
    this.stream.push({ type: 'error', error });
    this.metrics?.finished(this.model, 'error');
    this.onEnd?.(this);
  }

  private releaseTail(): string {
    const tail = this.stops.push(this.decoder.flush());
    return tail.text + (tail.stopped ? '' : this.stops.flush());
  }

  private finish(reason: FinishReason, text: string): void {
    if (this.finished) return;
    this.text += text;
    this.stream.push({ type: 'done', text, finishReason: reason, usage: this.usage });
    this.metrics?.finished(this.model, reason);
    this.onEnd?.(this);
  }

  private summary(finishReason: FinishReason, usage: Usage): GenerationResult {
    return {
      id: this.id,
      model: this.model,
      version: this.version,
      text: this.text,
      tokens: [...this.generated],
      finishReason,
      usage,
      timeToFirstTokenMs: this.firstTokenAtMs === undefined ? -1 : this.firstTokenAtMs - this.enqueuedAtMs,
    };
  }
}
