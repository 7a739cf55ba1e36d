/**
 * Shapes of `rtserve bench --generate` (docs/bench.md "Generative models"): closed-loop streaming clients against a
 * generative model, measured per stream at the client: time to first token, the gaps between tokens, tokens/s.
 */
import type { ErrorCount, LatencySummary, ReportHeader } from '../types.ts';

/** The streaming front ends a generation can be read from. */
export const GENERATE_PROTOCOLS = ['sse', 'ws', 'openai-completions', 'openai-chat'] as const;
export type GenerateProtocol = (typeof GENERATE_PROTOCOLS)[number];

/** One generation request as every protocol sends it. */
export interface StreamRequest {
  readonly prompt: string;
  readonly maxTokens: number;
  /** Per request, so that a run samples the same tokens again. */
  readonly seed: number;
  /** Absent: the server's default. */
  readonly temperature?: number;
}

/** What one stream looked like from the client (times in microseconds since the request was sent). */
export interface StreamSample {
  /** Arrival of each streamed piece that carried text, in order. */
  readonly tokenTimesUs: readonly number[];
  /** The end of the stream (the terminal event). */
  readonly endUs: number;
  /** Tokens generated, as the server counted them (usage / completion_tokens), else the pieces that carried text. */
  readonly completionTokens: number;
  /** Prompt tokens as the server counted them, when it says. */
  readonly promptTokens?: number;
}

/** Opens a stream per call, one at a time (a closed-loop client). */
export interface GenerateClient {
  stream(request: StreamRequest): Promise<StreamSample>;
  close(): Promise<void>;
}

export interface GenerateTarget {
  /** The server's REST base URL (the ws protocol derives its ws:// URL from it unless one is given). */
  readonly url: string;
  readonly wsUrl?: string;
  readonly model: string;
  readonly version?: string;
  readonly timeoutMs?: number;
}

/** Per-stream rates (tokens/s), summarized as the latencies are. */
export interface RateSummary {
  readonly count: number;
  readonly avg: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
}

/** One protocol at one concurrency. */
export interface GenerateLevelResult {
  readonly protocol: GenerateProtocol;
  readonly concurrency: number;
  /** Streams that ended normally, and those that failed. */
  readonly streams: number;
  readonly failed: number;
  readonly errors: readonly ErrorCount[];
  /** From the first request sent to the last stream's end. */
  readonly wallMs: number;
  readonly completionTokens: number;
  readonly promptTokens?: number;
  /** completionTokens / wall time: the level's aggregate output rate. */
  readonly tokensPerSec: number;
  readonly ttft: LatencySummary;
  /** Gaps between consecutive text-bearing pieces of one stream (pieces read together count as a 0 gap). */
  readonly interToken: LatencySummary;
  /** Each stream's completion tokens over its own duration (request sent to terminal event). */
  readonly streamTokensPerSec: RateSummary;
}

export interface GenerateSettings {
  readonly protocols: readonly GenerateProtocol[];
  readonly concurrencies: readonly number[];
  /** Synthetic prompts of this many ASCII characters, or the prompts of a file. */
  readonly prompt: { readonly kind: 'synthetic'; readonly tokens: number } | { readonly kind: 'file'; readonly path: string; readonly count: number };
  readonly outputTokens: number;
  readonly temperature?: number;
  /**
   * Each level: a number of streams (in all, or per client), or starting streams for a time (those in flight then
   * still finish and count).
   */
  readonly window:
    | { readonly kind: 'count'; readonly streams: number; readonly perClient: boolean }
    | { readonly kind: 'time'; readonly durationMs: number };
  readonly warmupMs: number;
}

export interface GenerateReport extends ReportHeader {
  readonly mode: 'generate';
  readonly url: string;
  readonly settings: GenerateSettings;
  readonly levels: readonly GenerateLevelResult[];
}
