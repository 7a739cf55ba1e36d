/**
 * The transport-neutral vocabulary of generation: what a client asks for (GenerateRequest), the events a
 * generation produces (GenerationEvent: deltas numbered by `seq`, then exactly one terminal event), and the
 * summary at the end (GenerationResult). Every front end (OpenAI routes, SSE generate_stream, WebSocket, gRPC
 * ModelStreamInfer) maps these to its own wire format.
 */
import type { RtError } from '../errors/registry.ts';

/** Sampling controls. Defaults are applied by `normalizeSampling` (sampling.ts). */
export interface SamplingOptions {
  /** 0 = greedy (argmax). Default 1. */
  readonly temperature?: number;
  /** Keep only the k most likely tokens; 0 = off. */
  readonly topK?: number;
  /** Nucleus sampling: keep the smallest set of tokens whose probability sums to at least p; 1 = off. */
  readonly topP?: number;
  /** CTRL-style penalty (Keskar et al. 2019) on tokens already in the prompt or the output; 1 = off. */
  readonly repetitionPenalty?: number;
  /** Makes sampling reproducible: the same seed, prompt and options give the same tokens. */
  readonly seed?: number;
  /** Greedy regardless of temperature. */
  readonly greedy?: boolean;
}

export interface GenerateRequest extends SamplingOptions {
  readonly model: string;
  readonly version?: string;
  /** Prompt as text (tokenized by the model's tokenizer) ... */
  readonly prompt?: string;
  /** ... or as token ids (then `prompt` is ignored). */
  readonly promptTokens?: readonly number[];
  /** Tokens to generate at most; default 16 (OpenAI's /v1/completions default). Clamped to the context. */
  readonly maxTokens?: number;
  /** Generation stops before any of these strings; the stop string is not part of the output. */
  readonly stop?: readonly string[];
  /** Aborting ends the generation with finish reason "cancelled" and frees its slot at the next step. */
  readonly signal?: AbortSignal;
  /** The client's id, echoed in responses; a fresh one is made when absent. */
  readonly id?: string;
  /** Which front end asked (http, grpc, ws, openai) — for logs. */
  readonly protocol?: string;
}

export type FinishReason = 'stop' | 'length' | 'cancelled';

export interface Usage {
  readonly promptTokens: number;
  /** Every sampled token, the end-of-sequence token included. */
  readonly completionTokens: number;
  readonly totalTokens: number;
}

export interface DeltaEvent {
  readonly type: 'delta';
  /** 1, 2, 3, ... per generation, no gaps; the terminal event takes the next number. */
  readonly seq: number;
  /** Text released by this step. May be empty: a partial UTF-8 character, or text held back because it may be
   *  the start of a stop sequence. Concatenating every delta's text (and the done event's) gives the output. */
  readonly text: string;
  /** The token(s) sampled by this step. */
  readonly tokens: readonly number[];
}

export interface DoneEvent {
  readonly type: 'done';
  readonly seq: number;
  /** Text released at the end (held-back text that turned out not to be a stop sequence). Usually empty. */
  readonly text: string;
  readonly finishReason: FinishReason;
  readonly usage: Usage;
}

export interface ErrorEvent {
  readonly type: 'error';
  readonly seq: number;
  readonly error: RtError;
}

export type GenerationEvent = DeltaEvent | DoneEvent | ErrorEvent;

export interface GenerationResult {
  readonly id: string;
  readonly model: string;
  readonly version: string;
  readonly text: string;
  readonly tokens: readonly number[];
  readonly finishReason: FinishReason;
  readonly usage: Usage;
  /** Milliseconds from admission to the first token. */
  readonly timeToFirstTokenMs: number;
}
