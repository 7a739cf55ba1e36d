/**
 * The entry point of generation for every front end: validates a GenerateRequest, tokenizes it, and queues it on
 * the batcher of the model version that serves it (one per loaded engine session: the continuous batcher, or the
 * paged scheduler, batcher-choice.ts). Returns a
 * Generation handle: numbered events that can be read from any point (resume), the final result, and cancel.
 * Finished generations stay retrievable by id for `retainMs` so that a client that lost its connection can
 * pick up where it left off.
 */
import { randomUUID } from 'node:crypto';
import type { ModelConfig } from '../config/model-config.ts';
import type { EngineSession } from '../engine/engine.ts';
import { rtError, type RtError } from '../errors/registry.ts';
import type { Logger } from '../observability/logger.ts';
import type { GenerationBatcher } from './batcher.ts';
import { createBatcher } from './batcher-choice.ts';
import { DEFAULT_BATCHER_LIMITS, type BatcherLimits } from './continuous-batcher.ts';
import { decoderSpecOf, type ChatTemplate, type DecoderSpec, type DecoderText } from './decoder-spec.ts';
import type { GenerateMetricsSink } from './metrics.ts';
import { normalizeSampling } from './sampling.ts';
import { Sequence } from './sequence.ts';
import { checkStops } from './stop.ts';
import type { TokenEngine } from './token-engine.ts';
import type { GenerateRequest, GenerationEvent, GenerationResult } from './types.ts';
import { settlesWithin } from '../util/timeout.ts';

/** A loaded model version as the generator sees it. */
export interface ResolvedDecoder {
  readonly name: string;
  readonly version: string;
  readonly config: ModelConfig;
  readonly session: EngineSession;
  /** The tokenizer and chat template of a Hugging Face checkpoint (generate.tokenizer 'huggingface'). */
  readonly text?: DecoderText | undefined;
  /** The version's device decoder (the CUDA decoder made at load), which the paged scheduler drives when set. */
  readonly tokenEngine?: TokenEngine | undefined;
}

export interface GenerateServiceOptions {
  /** The model version that serves `model` (and `version`); throws RtError (MODEL_NOT_FOUND, MODEL_NOT_READY...). */
  readonly resolve: (model: string, version?: string) => ResolvedDecoder;
  readonly limits?: Partial<BatcherLimits>;
  /** max_tokens when a request gives none; 16 like OpenAI's /v1/completions. */
  readonly defaultMaxTokens?: number;
  readonly metrics?: GenerateMetricsSink;
  readonly logger?: Logger;
  /** How long a finished generation stays retrievable by id; default 60 s. */
  readonly retainMs?: number;
}

export interface Generation {
  /** The server's id for this generation (resume and cancel use it). */
  readonly id: string;
  /** The client's id when it gave one, else `id`. */
  readonly requestId: string;
  readonly model: string;
  readonly version: string;
  readonly promptTokens: number;
  readonly maxTokens: number;
  /** Events with seq > `after` (default 0: all), then live ones until the terminal event. */
  events(after?: number): AsyncIterable<GenerationEvent>;
  readonly finished: boolean;
  /** Seq of the last event so far. */
  readonly lastSeq: number;
  /** The whole output; rejects with the RtError of an error event. */
  readonly result: Promise<GenerationResult>;
  /** Ends the generation (finish reason "cancelled"); its slot is freed at the next step. */
  cancel(): void;
}

export interface ChatMessage {
  readonly role: string;
  readonly content: string;
}

/**
 * What a front end (the OpenAI-compatible routes) asks of generation: the GenerateService where it runs in the
 * process, or its calls forwarded to the engine owner from a front-end worker (cluster/remote-generate.ts).
 */
export interface GenerationApi {
  /** Whether the model's config has a `generate` section (false for unknown models: no throw). */
  isGenerative(model: string, version?: string): boolean;
  /** The prompt of chat `messages` in the model's chat template (MODEL_NOT_FOUND, UNSUPPORTED for an ordinary model). */
  chatPrompt(model: string, messages: readonly ChatMessage[]): string | Promise<string>;
  /** Validates, tokenizes and queues a request (GenerateService.start). */
  start(req: GenerateRequest): Generation | Promise<Generation>;
}

interface BatcherEntry {
  readonly session: EngineSession;
  readonly tokenEngine: TokenEngine | undefined;
  readonly batcher: GenerationBatcher;
}

function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0] as number;
}

/**
 * Renders chat messages with the model's template: its own renderer (a checkpoint's Jinja template), or the
 * config's strings (`{content}` replaced) followed by the generation prompt.
 */
export function renderChat(template: ChatTemplate, messages: readonly ChatMessage[]): string {
  if (template.render !== undefined) return template.render(messages);
  let out = '';
  for (const m of messages) {
    const t = m.role === 'system' ? template.system : m.role === 'assistant' ? template.assistant : template.user;
    out += t.replaceAll('{content}', m.content);
  }
  return out + template.generationPrompt;
}

export class GenerateService implements GenerationApi {
  private readonly batchers = new Map<string, BatcherEntry>();
  private readonly generations = new Map<string, Generation>();
  private readonly limits: BatcherLimits;
  private readonly retainMs: number;
  private draining = false;

  constructor(private readonly options: GenerateServiceOptions) {
    this.limits = { ...DEFAULT_BATCHER_LIMITS, ...options.limits };
    this.retainMs = options.retainMs ?? 60_000;
  }

  /** Whether the model's config has a `generate` section (false for unknown models: no throw). */
  isGenerative(model: string, version?: string): boolean {
    try {
      return this.options.resolve(model, version).config.generate !== undefined;
    } catch {
      return false;
    }
  }

  /** The decoder description of a generative model (throws UNSUPPORTED for an ordinary one). */
  spec(model: string, version?: string): DecoderSpec {
    return this.entry(model, version).batcher.spec;
  }

  chatPrompt(model: string, messages: readonly ChatMessage[]): string {
    return renderChat(this.spec(model).chatTemplate, messages);
  }

  /** The batcher serving a model version (created on first use); exposed for tests and benchmarks. */
  batcher(model: string, version?: string): GenerationBatcher {
    return this.entry(model, version).batcher;
  }

  /** Validates, tokenizes and queues a request. Throws RtError at once for bad requests and a full queue. */
  start(req: GenerateRequest): Generation {
    if (this.draining) throw rtError('SERVER_DRAINING', 'server is shutting down and accepts no new requests', { retryAfterMs: 1000 });
    const resolved = this.options.resolve(req.model, req.version);
    const { batcher } = this.entry(req.model, req.version);
    const spec = batcher.spec;
    const prompt = this.promptOf(req, spec);
    const room = spec.maxContext - prompt.length;
    if (room < 1) {
      throw rtError('BAD_REQUEST', `the prompt has ${prompt.length} tokens; model '${spec.model}' has a context of ${spec.maxContext} tokens`);
    }
    const wanted = req.maxTokens ?? this.options.defaultMaxTokens ?? 16;
    if (!Number.isInteger(wanted) || wanted < 1)
      throw rtError('BAD_PARAMETER', `'max_tokens' must be an integer >= 1, got ${JSON.stringify(req.maxTokens)}`);
    const sampling = normalizeSampling(req, randomSeed);
    const stop = checkStops(req.stop ?? []);
    const id = randomUUID();
    const seq = new Sequence({
      id,
      model: resolved.name,
      version: resolved.version,
      prompt,
      // Clamped to the context: the generation then ends with finish reason "length".
      maxTokens: Math.min(wanted, room),
      stop,
      sampling,
      spec,
      metrics: this.options.metrics,
    });
    const signal = req.signal;
    if (signal?.aborted === true) throw rtError('CANCELLED', 'request was cancelled before it started');
    batcher.submit(seq);
    const onAbort = (): void => seq.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    const generation: Generation = {
      id,
      requestId: req.id ?? id,
      model: resolved.name,
      version: resolved.version,
      promptTokens: prompt.length,
      maxTokens: seq.maxTokens,
      events: (after) => seq.stream.events(after),
      get finished() {
        return seq.finished;
      },
      get lastSeq() {
        return seq.stream.lastSeq;
      },
      result: seq.stream.result,
      cancel: () => seq.cancel(),
    };
    this.generations.set(id, generation);
    const forget = (): void => {
      signal?.removeEventListener('abort', onAbort);
      const t = setTimeout(() => this.generations.delete(id), this.retainMs);
      t.unref();
    };
    seq.stream.result.then(forget, forget);
    return generation;
  }

  /** A running or recently finished generation by its server id. */
  get(id: string): Generation | undefined {
    return this.generations.get(id);
  }

  /** Sequences running and queued, per model version. */
  load(): { model: string; running: number; queued: number }[] {
    return [...this.batchers.entries()].map(([key, e]) => ({ model: key.replace('\0', ':'), running: e.batcher.running, queued: e.batcher.queued }));
  }

  /** Refuses new requests, then waits (up to timeoutMs) for running ones; true when all finished. */
  async drain(timeoutMs: number): Promise<boolean> {
    this.draining = true;
    return settlesWithin(Promise.all([...this.batchers.values()].map((e) => e.batcher.whenIdle())), timeoutMs);
  }

  /** Ends everything still running with `error` (default SERVER_DRAINING). */
  close(error?: RtError): void {
    this.draining = true;
    const e = error ?? rtError('SERVER_DRAINING', 'server is shutting down', { retryAfterMs: 1000 });
    for (const entry of this.batchers.values()) entry.batcher.close(e);
    this.batchers.clear();
  }

  private entry(model: string, version?: string): BatcherEntry {
    const resolved = this.options.resolve(model, version);
    const key = `${resolved.name}\0${resolved.version}`;
    const existing = this.batchers.get(key);
    // A reload swaps the session: the old batcher finishes what it runs, new requests go to a new one.
    if (existing !== undefined && existing.session === resolved.session && existing.tokenEngine === resolved.tokenEngine) return existing;
    const spec = decoderSpecOf(resolved.config, resolved.session.describe(), resolved.text);
    const entry = {
      session: resolved.session,
      tokenEngine: resolved.tokenEngine,
      batcher: createBatcher({
        spec,
        // decoderSpecOf has checked that the config has a generate section.
        section: resolved.config.generate as NonNullable<ModelConfig['generate']>,
        session: resolved.session,
        tokenEngine: resolved.tokenEngine,
        limits: this.limits,
        metrics: this.options.metrics,
        logger: this.options.logger,
      }),
    };
    this.batchers.set(key, entry);
    return entry;
  }

  private promptOf(req: GenerateRequest, spec: DecoderSpec): number[] {
    let body: number[];
    if (req.promptTokens !== undefined) {
      body = [...req.promptTokens];
      body.forEach((t, i) => {
        if (!Number.isInteger(t) || t < 0 || t >= spec.vocabSize) {
          throw rtError('BAD_PARAMETER', `prompt token ${i} is ${JSON.stringify(t)}; token ids are integers in [0, ${spec.vocabSize})`);
        }
      });
    } else if (typeof req.prompt === 'string') {
      body = spec.tokenizer.encode(req.prompt);
    } else {
      throw rtError('BAD_REQUEST', 'a generation request needs a prompt (text or token ids)');
    }
    const prompt = spec.bosTokenId === undefined ? body : [spec.bosTokenId, ...body];
    if (prompt.length === 0) throw rtError('BAD_REQUEST', `the prompt is empty and model '${spec.model}' has no bos_token_id to start from`);
    return prompt;
  }
}

export type { GenerationEvent, GenerationResult };
