/**
 * OpenAI-compatible routes for generative models, so that the `openai` SDK and tools built on it work unchanged
 * against rtserve: GET /v1/models, POST /v1/completions and POST /v1/chat/completions, with `stream: false`
 * (one JSON answer) or `stream: true` (Server-Sent Events: `data: <chunk>` per piece of text, the chunk with the
 * finish_reason, an optional usage chunk with empty `choices` when `stream_options.include_usage` is set, then
 * `data: [DONE]`). Field names and shapes follow OpenAI's API reference (Completions; Chat Completions and its
 * streaming chunk object). Errors are OpenAI's `{"error": {"message", "type", "param", "code"}}` with the error
 * registry's HTTP status (the REST error handler writes them for every /v1/ answer, openai-errors.ts); a parameter
 * rtserve does not support (`n` > 1, `logprobs`, ...) is a 400 naming it, which the SDKs never retry; once a stream has started, an error arrives as a `data: {"error": ...}` event followed by
 * `data: [DONE]` (the convention of OpenAI, vLLM and others; openai-python checks `data.get("error")`).
 *
 * The generation itself is the GenerateService's (continuous batching); these routes only translate. A client
 * that disconnects cancels its generation (OpenAI has no resume for chat completions); resumable streams are on
 * the SSE generate_stream route and WebSocket.
 *
 * Extensions beyond OpenAI's fields: `top_k` and `repetition_penalty` (as vLLM accepts them).
 *
 * Also serves the chat page (web/chat) at GET /chat, which streams from these routes or from the WebSocket.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../../util/package-root.ts';
import type { InferenceApi } from '../../api/inference-api.ts';
import { rtError, toRtError, type RtError } from '../../errors/registry.ts';
import type { Logger } from '../../observability/logger.ts';
import { openAiErrorBody } from './openai-errors.ts';
import {
  chatCompletionRequestSchema,
  completionRequestSchema,
  parseOpenAiBody,
  UNSUPPORTED_FIELDS,
  type ChatCompletionRequest,
  type CompletionRequest,
} from './openai-schemas.ts';
import type { ChatMessage, Generation, GenerationApi } from '../../generate/generate-service.ts';
import type { FinishReason, GenerateRequest, GenerationResult, Usage } from '../../generate/types.ts';
import { authorize, principalOf } from '../../security/index.ts';
import { parseJsonBytes } from '../../codec/json-body.ts';

export interface OpenAiRoutesOptions {
  /** The GenerateService, or a front-end worker's calls to the engine owner's (docs/workers.md). */
  readonly generate: GenerationApi;
  readonly api: InferenceApi;
  readonly logger: Logger;
  /** Chat completions without max_tokens generate at most this many tokens (and never past the context). */
  readonly defaultChatMaxTokens?: number;
  /** The chat page's folder (GET /chat); default: the package's web/chat. */
  readonly chatPageRoot?: string;
}

/** The chat page (web/chat): a fixed set of files, nothing maps a URL path onto the file system. */
const CHAT_FILES: readonly { readonly url: string; readonly file: string; readonly type: string }[] = [
  { url: '/chat', file: 'index.html', type: 'text/html; charset=utf-8' },
  { url: '/chat/chat.js', file: 'chat.js', type: 'text/javascript; charset=utf-8' },
  { url: '/chat/chat.css', file: 'chat.css', type: 'text/css; charset=utf-8' },
];
// The page loads only its own script and styles and talks only to this server (fetch, WebSocket).
const CHAT_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'";

type Json = Record<string, unknown>;

// ---- request checking: OpenAI clients send many optional fields, often as null; unknown ones are ignored.

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function unsupported(param: string, message: string): never {
  throw rtError('UNSUPPORTED_PARAMETER', message, { param });
}

interface CommonParams {
  readonly model: string;
  readonly stream: boolean;
  readonly includeUsage: boolean;
  readonly sampling: Omit<GenerateRequest, 'model' | 'prompt' | 'promptTokens' | 'signal'>;
}

/** What both routes share, from a body their schema accepted; the values rtserve does not support are refused here. */
function commonParams(body: CompletionRequest | ChatCompletionRequest, maxTokens: number | null | undefined): CommonParams {
  const n = body.n;
  if (n !== undefined && n !== null && n !== 1)
    unsupported('n', `'n' = ${n} is not supported: rtserve returns one choice per request; send ${n} requests instead`);
  for (const name of ['presence_penalty', 'frequency_penalty'] as const) {
    const v = body[name];
    if (v !== undefined && v !== null && v !== 0)
      unsupported(name, `'${name}' is not supported; use 'repetition_penalty' (an rtserve extension) instead`);
  }
  for (const name of UNSUPPORTED_FIELDS) {
    const v = body[name];
    if (v !== undefined && v !== null && v !== false) unsupported(name, `'${name}' is not supported by rtserve`);
  }
  const sampling: Record<string, unknown> = {
    maxTokens,
    temperature: body.temperature,
    topP: body.top_p,
    topK: body.top_k,
    repetitionPenalty: body.repetition_penalty,
    seed: body.seed,
    stop: typeof body.stop === 'string' ? [body.stop] : body.stop,
  };
  for (const k of Object.keys(sampling)) if (sampling[k] === undefined || sampling[k] === null) delete sampling[k];
  return {
    model: body.model,
    stream: body.stream ?? false,
    includeUsage: body.stream_options?.include_usage === true,
    sampling: sampling as CommonParams['sampling'],
  };
}

function usageJson(u: Usage): Json {
  return { prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens, total_tokens: u.totalTokens };
}

function finishReasonJson(r: FinishReason): string | null {
  return r === 'cancelled' ? null : r;
}

function chatMessagesOf(body: ChatCompletionRequest): ChatMessage[] {
  return body.messages.map((m, i) => {
    const c = m.content;
    // Content parts: only text parts can be fed to a text model.
    const content =
      typeof c === 'string' || c === null || c === undefined
        ? (c ?? '')
        : c
            .map((p, j) =>
              p.type === 'text' && typeof p.text === 'string'
                ? p.text
                : unsupported(`messages[${i}].content[${j}]`, `messages[${i}].content[${j}]: only {"type": "text"} parts are supported`),
            )
            .join('');
    return { role: m.role, content };
  });
}

// ---- streaming

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

function writeData(raw: ServerResponse, data: string): void {
  if (!raw.destroyed && !raw.writableEnded) raw.write(`data: ${data}\n\n`);
}

/** Cancels the generation when the client goes away before it finished. */
function cancelOnDisconnect(reply: FastifyReply, g: Generation): void {
  reply.raw.once('close', () => {
    if (!g.finished) g.cancel();
  });
}

interface StreamShape {
  /** The chunk for a piece of text (the first piece is marked so chat can add the role). */
  piece(text: string, first: boolean): Json;
  /** The chunk carrying the finish reason. */
  finish(reason: FinishReason): Json;
}

async function streamGeneration(reply: FastifyReply, g: Generation, base: Json, shape: StreamShape, includeUsage: boolean): Promise<void> {
  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(200, SSE_HEADERS);
  raw.flushHeaders();
  const send = (chunk: Json): void => writeData(raw, JSON.stringify(includeUsage ? { ...base, ...chunk, usage: null } : { ...base, ...chunk }));
  let first = true;
  try {
    for await (const e of g.events()) {
      if (e.type === 'delta' || (e.type === 'done' && e.text !== '')) {
        if (e.text !== '' || (first && e.type === 'delta')) {
          send(shape.piece(e.text, first));
          first = false;
        }
      }
      if (e.type === 'done') {
        send(shape.finish(e.finishReason));
        if (includeUsage) writeData(raw, JSON.stringify({ ...base, choices: [], usage: usageJson(e.usage) }));
      } else if (e.type === 'error') {
        writeData(raw, JSON.stringify(openAiErrorBody(e.error)));
      }
    }
  } catch (err) {
    writeData(raw, JSON.stringify(openAiErrorBody(toRtError(err))));
  }
  writeData(raw, '[DONE]');
  if (!raw.writableEnded) raw.end();
}

/**
 * A completion's answer: streamed as SSE chunks (`shape`), or one JSON body of the base fields, the route's
 * `choices` (`whole`) and the usage.
 */
async function answerGeneration(
  reply: FastifyReply,
  g: Generation,
  base: Json,
  stream: { readonly on: boolean; readonly includeUsage: boolean },
  shape: StreamShape,
  whole: (r: GenerationResult) => Json,
): Promise<FastifyReply> {
  if (stream.on) {
    await streamGeneration(reply, g, base, shape, stream.includeUsage);
    return reply;
  }
  const r = await g.result;
  return reply.type('application/json').send(JSON.stringify({ ...base, ...whole(r), usage: usageJson(r.usage) }));
}

export function registerOpenAiRoutes(app: FastifyInstance, options: OpenAiRoutesOptions): void {
  const { generate, api } = options;
  const startedS = Math.floor(Date.now() / 1000);
  const bodyOf = (req: FastifyRequest): Json => {
    const body = parseJsonBytes(req.body instanceof Buffer ? req.body : Buffer.alloc(0), 'the request body');
    if (!isObject(body)) throw rtError('BAD_JSON', 'the request body must be a JSON object');
    return body;
  };
  const modelEntry = (id: string): Json => ({ id, object: 'model', created: startedS, owned_by: 'rtserve' });
  /** The route guard checked the `infer` scope; the model is named in the body, so its check is here (docs/security.md). */
  const allowed = (req: FastifyRequest, op: 'infer' | 'metadata', model: string): RtError | undefined => {
    const principal = principalOf(req);
    return principal === undefined ? undefined : authorize(principal, op, model);
  };
  const generativeModels = (req: FastifyRequest): string[] =>
    [...new Set(api.repositoryIndex(true).map((e) => e.name))]
      .filter((name) => generate.isGenerative(name) && allowed(req, 'metadata', name) === undefined)
      .sort();
  /** The `infer` scope on the model, and a generative model: MODEL_NOT_FOUND (the core's) when there is none at all. */
  const requireGenerative = (req: FastifyRequest, model: string): void => {
    const denied = allowed(req, 'infer', model);
    if (denied !== undefined) throw denied;
    if (generate.isGenerative(model)) return;
    api.modelMetadata(model);
    throw rtError('BAD_PARAMETER', `model '${model}' is not a generative model (models: ${generativeModels(req).join(', ') || 'none'})`, {
      param: 'model',
    });
  };
  const start = async (req: FastifyRequest, reply: FastifyReply, r: GenerateRequest): Promise<Generation> => {
    requireGenerative(req, r.model);
    // A client that goes away while the generation is queued (a front-end worker asks the engine owner) cancels it.
    let gone = false;
    const onGone = (): void => {
      gone = true;
    };
    reply.raw.once('close', onGone);
    const g = await generate.start({ ...r, protocol: 'openai' });
    reply.raw.off('close', onGone);
    if (gone) g.cancel();
    else cancelOnDisconnect(reply, g);
    return g;
  };

  const chatRoot = options.chatPageRoot ?? join(packageRoot(), 'web', 'chat');
  for (const f of CHAT_FILES) {
    app.get(f.url, async (_req, reply) => {
      let body: Buffer;
      try {
        body = await readFile(join(chatRoot, f.file));
      } catch {
        throw rtError('ROUTE_NOT_FOUND', `the chat page file ${f.file} is missing`);
      }
      return reply
        .header('content-security-policy', CHAT_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-cache')
        .type(f.type)
        .send(body);
    });
  }

  app.get('/v1/models', async (req, reply) => {
    return reply.type('application/json').send(JSON.stringify({ object: 'list', data: generativeModels(req).map(modelEntry) }));
  });

  app.get('/v1/models/:model', async (req: FastifyRequest<{ Params: { model: string } }>, reply) => {
    if (!generate.isGenerative(req.params.model) || allowed(req, 'metadata', req.params.model) !== undefined) {
      throw rtError('MODEL_NOT_FOUND', `no generative model named '${req.params.model}'`);
    }
    return reply.type('application/json').send(JSON.stringify(modelEntry(req.params.model)));
  });

  app.post('/v1/completions', async (req, reply) => {
    const body = parseOpenAiBody(completionRequestSchema, bodyOf(req));
    const p = commonParams(body, body.max_tokens);
    // A one-element batch of prompts is the same request; more would need several choices.
    const prompt = Array.isArray(body.prompt) && body.prompt.length === 1 && typeof body.prompt[0] !== 'number' ? body.prompt[0] : body.prompt;
    const promptPart: Pick<GenerateRequest, 'prompt' | 'promptTokens'> =
      typeof prompt === 'string' ? { prompt } : { promptTokens: prompt as number[] };
    const echo = body.echo ?? false;
    const g = await start(req, reply, { model: p.model, ...p.sampling, ...promptPart });
    const echoed = echo && typeof prompt === 'string' ? prompt : '';
    const base = { id: `cmpl-${g.id}`, object: 'text_completion', created: Math.floor(Date.now() / 1000), model: g.model };
    return await answerGeneration(
      reply,
      g,
      base,
      { on: p.stream, includeUsage: p.includeUsage },
      {
        piece: (text, first) => ({ choices: [{ index: 0, text: first ? echoed + text : text, logprobs: null, finish_reason: null }] }),
        finish: (reason) => ({ choices: [{ index: 0, text: '', logprobs: null, finish_reason: finishReasonJson(reason) }] }),
      },
      (r) => ({ choices: [{ index: 0, text: echoed + r.text, logprobs: null, finish_reason: finishReasonJson(r.finishReason) }] }),
    );
  });

  app.post('/v1/chat/completions', async (req, reply) => {
    const body = parseOpenAiBody(chatCompletionRequestSchema, bodyOf(req));
    const p = commonParams(body, body.max_completion_tokens ?? body.max_tokens);
    const messages = chatMessagesOf(body);
    requireGenerative(req, p.model);
    const prompt = await generate.chatPrompt(p.model, messages);
    const sampling = { ...p.sampling };
    if (sampling.maxTokens === undefined) sampling.maxTokens = options.defaultChatMaxTokens ?? 256;
    const g = await start(req, reply, { model: p.model, ...sampling, prompt });
    const base = { id: `chatcmpl-${g.id}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: g.model };
    return await answerGeneration(
      reply,
      g,
      base,
      { on: p.stream, includeUsage: p.includeUsage },
      {
        // The first chunk carries the role (OpenAI sends it with empty content).
        piece: (text, first) => ({
          choices: [{ index: 0, delta: first ? { role: 'assistant', content: text } : { content: text }, logprobs: null, finish_reason: null }],
        }),
        finish: (reason) => ({ choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: finishReasonJson(reason) }] }),
      },
      (r) => ({
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: r.text }, logprobs: null, finish_reason: finishReasonJson(r.finishReason) }],
      }),
    );
  });
}
