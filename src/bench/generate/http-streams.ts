/**
 * The HTTP streaming routes of a generation, read with fetch and the client's SSE parser: Triton's
 * `generate_stream` (KServe form, so every response carries its parameters: docs/ws-protocol.md "SSE") and the
 * OpenAI-compatible `/v1/completions` and `/v1/chat/completions` with `stream: true` (docs/generate.md).
 */
import { readSse, type SseMessage } from '../../../packages/client/src/sse-reader.ts';
import { RequestFailure } from '../errors.ts';
import type { GenerateClient, GenerateProtocol, GenerateTarget, StreamRequest, StreamSample } from './types.ts';

/** What one SSE event of a route says. */
export interface Piece {
  readonly text?: string;
  readonly completionTokens?: number;
  readonly promptTokens?: number;
  /** The server's in-band error: the stream failed. */
  readonly error?: string;
  /** The terminal event. */
  readonly end?: boolean;
}

interface HttpRoute {
  path(target: GenerateTarget): string;
  body(target: GenerateTarget, request: StreamRequest): unknown;
  decode(event: SseMessage): Piece;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

interface OpenAiChunk {
  choices?: { text?: string; delta?: { content?: string | null } }[];
  usage?: { completion_tokens?: number; prompt_tokens?: number } | null;
  error?: { message?: string };
}

function openAiPiece(event: SseMessage, text: (c: OpenAiChunk) => string | null | undefined): Piece {
  if (event.data === '[DONE]') return { end: true };
  const chunk = JSON.parse(event.data) as OpenAiChunk;
  if (chunk.error !== undefined) return { error: chunk.error.message ?? event.data };
  const usage = chunk.usage ?? undefined;
  return {
    ...(text(chunk) ? { text: text(chunk) as string } : {}),
    ...(num(usage?.completion_tokens) === undefined ? {} : { completionTokens: usage?.completion_tokens as number }),
    ...(num(usage?.prompt_tokens) === undefined ? {} : { promptTokens: usage?.prompt_tokens as number }),
  };
}

function samplingOf(request: StreamRequest): Record<string, number> {
  return { max_tokens: request.maxTokens, seed: request.seed, ...(request.temperature === undefined ? {} : { temperature: request.temperature }) };
}

/** The KServe form of generate_stream: the text interface's `text_input`, the sampling controls as parameters. */
export function kserveGenerateBody(request: StreamRequest): { inputs: unknown[]; parameters: Record<string, number> } {
  return {
    inputs: [{ name: 'text_input', datatype: 'BYTES', shape: [1, 1], data: [request.prompt] }],
    parameters: samplingOf(request),
  };
}

/** A KServe response of a generation (SSE data or a WebSocket delta): its text and, on the last, the counts. */
export function kservePiece(response: { outputs?: { name?: string; data?: unknown[] }[]; parameters?: Record<string, unknown> }): Piece {
  const text = response.outputs?.find((o) => o.name === 'text_output')?.data?.[0];
  const p = response.parameters ?? {};
  return {
    ...(typeof text === 'string' && text.length > 0 ? { text } : {}),
    ...(num(p['completion_tokens']) === undefined ? {} : { completionTokens: p['completion_tokens'] as number }),
    ...(num(p['prompt_tokens']) === undefined ? {} : { promptTokens: p['prompt_tokens'] as number }),
  };
}

const ROUTES: Readonly<Record<Exclude<GenerateProtocol, 'ws'>, HttpRoute>> = {
  sse: {
    path: (t) =>
      `/v2/models/${encodeURIComponent(t.model)}${t.version === undefined ? '' : `/versions/${encodeURIComponent(t.version)}`}/generate_stream`,
    body: (_t, r) => kserveGenerateBody(r),
    decode: (e) => {
      if (e.event === 'done') return { end: true };
      const data = JSON.parse(e.data) as { error?: string; outputs?: { name?: string; data?: unknown[] }[]; parameters?: Record<string, unknown> };
      return e.event === 'error' ? { error: data.error ?? e.data } : kservePiece(data);
    },
  },
  'openai-completions': {
    path: () => '/v1/completions',
    body: (t, r) => ({ model: t.model, prompt: r.prompt, ...samplingOf(r), stream: true, stream_options: { include_usage: true } }),
    decode: (e) => openAiPiece(e, (c) => c.choices?.[0]?.text),
  },
  'openai-chat': {
    path: () => '/v1/chat/completions',
    body: (t, r) => ({
      model: t.model,
      messages: [{ role: 'user', content: r.prompt }],
      ...samplingOf(r),
      stream: true,
      stream_options: { include_usage: true },
    }),
    decode: (e) => openAiPiece(e, (c) => c.choices?.[0]?.delta?.content),
  },
};

/** Folds a stream's pieces into its sample; `at()` is the client's clock in µs since the request was sent. */
export class SampleBuilder {
  private readonly times: number[] = [];
  private completion: number | undefined;
  private prompt: number | undefined;

  constructor(readonly at: () => number) {}

  /** Takes one piece; true once the stream is over. Throws the server's in-band error. */
  add(piece: Piece): boolean {
    if (piece.error !== undefined) throw new RequestFailure(`stream error: ${piece.error}`);
    if (piece.text !== undefined) this.times.push(this.at());
    if (piece.completionTokens !== undefined) this.completion = piece.completionTokens;
    if (piece.promptTokens !== undefined) this.prompt = piece.promptTokens;
    return piece.end === true;
  }

  finish(): StreamSample {
    return {
      tokenTimesUs: this.times,
      endUs: this.at(),
      completionTokens: this.completion ?? this.times.length,
      ...(this.prompt === undefined ? {} : { promptTokens: this.prompt }),
    };
  }
}

async function failureOf(res: Response): Promise<RequestFailure> {
  const text = await res.text();
  let message = text;
  try {
    const body = JSON.parse(text) as { error?: string | { message?: string } };
    message = typeof body.error === 'string' ? body.error : (body.error?.message ?? text);
  } catch {
    // not JSON: the text itself
  }
  return new RequestFailure(`HTTP ${res.status}: ${message}`);
}

class HttpStreamClient implements GenerateClient {
  constructor(
    private readonly route: HttpRoute,
    private readonly target: GenerateTarget,
  ) {}

  async stream(request: StreamRequest): Promise<StreamSample> {
    const sent = performance.now();
    const sample = new SampleBuilder(() => (performance.now() - sent) * 1000);
    const res = await fetch(this.target.url.replace(/\/+$/, '') + this.route.path(this.target), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(this.route.body(this.target, request)),
      ...(this.target.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(this.target.timeoutMs) }),
    });
    if (res.status !== 200 || res.body === null) throw await failureOf(res);
    for await (const event of readSse(res.body)) if (sample.add(this.route.decode(event))) return sample.finish();
    throw new RequestFailure('stream ended before its last event');
  }

  async close(): Promise<void> {}
}

export function openHttpStreamClient(protocol: Exclude<GenerateProtocol, 'ws'>, target: GenerateTarget): GenerateClient {
  return new HttpStreamClient(ROUTES[protocol], target);
}
