import { z } from 'zod';
import { rtError } from '../../errors/registry.ts';

/**
 * The OpenAI-compatible request and response bodies (OpenAI API reference: Completions, Chat Completions, Models),
 * as zod schemas. The routes validate their bodies with these (openai-routes.ts) and /openapi.json is generated from
 * them (openapi.ts). OpenAI clients send many optional fields, often as null, and fields this server has never
 * heard of: objects are loose (unknown fields are ignored) and optional fields are nullish.
 */
const num = (description: string) => z.number().nullish().meta({ description });
const int = (description: string) => z.number().int().nullish().meta({ description });
/** Accepted in the body so that a client's `null` or `false` passes; any other value is refused as unsupported. */
const unsupported = (description: string) =>
  z
    .unknown()
    .optional()
    .meta({ description: `${description} Not supported: only null / false / absent.` });

const samplingFields = {
  model: z.string({ error: 'must be a model name' }).min(1, { error: 'must be a model name' }).meta({ description: 'A generative model' }),
  temperature: num('0 is greedy decoding'),
  top_p: num('Nucleus sampling'),
  top_k: int('rtserve extension (as vLLM): sample among the k most likely tokens'),
  repetition_penalty: num('rtserve extension (as vLLM); instead of presence_penalty / frequency_penalty'),
  seed: int('The same seed gives the same text'),
  stop: z
    .union([z.string(), z.array(z.string())])
    .nullish()
    .meta({ description: 'Stop sequences' }),
  stream: z.boolean().nullish().meta({ description: 'Server-Sent Events: one data: chunk per piece of text, then data: [DONE]' }),
  stream_options: z
    .looseObject({ include_usage: z.boolean().nullish() })
    .nullish()
    .meta({ description: 'include_usage: a last chunk with empty choices and the usage' }),
  n: int('Only 1: one choice per request'),
  presence_penalty: num('Only 0 (use repetition_penalty)'),
  frequency_penalty: num('Only 0 (use repetition_penalty)'),
  logprobs: unsupported('Log probabilities.'),
  top_logprobs: unsupported('Log probabilities.'),
  logit_bias: unsupported('Logit bias.'),
  tools: unsupported('Tool calls.'),
  functions: unsupported('Function calls.'),
  response_format: unsupported('Structured output.'),
  best_of: unsupported('Several completions.'),
  suffix: unsupported('Insertion.'),
};

/** The fields that are accepted only as null / false / absent (a parameter rtserve does not support). */
export const UNSUPPORTED_FIELDS = ['logprobs', 'top_logprobs', 'logit_bias', 'best_of', 'suffix', 'tools', 'functions', 'response_format'] as const;

const tokenIds = z.array(z.number().int());
export const completionRequestSchema = z.looseObject({
  ...samplingFields,
  prompt: z
    .union([z.string(), tokenIds, z.tuple([z.string()]), z.tuple([tokenIds])], {
      error: 'must be a string, an array of token ids, or a one-element array of either',
    })
    .meta({ description: 'Text or token ids (a batch of one prompt is the same request)' }),
  max_tokens: int('Tokens to generate at most'),
  echo: z.boolean().nullish().meta({ description: 'Prefix the text with the prompt' }),
});

const contentPart = z.looseObject({ type: z.string(), text: z.string().optional() });
export const chatMessageSchema = z.looseObject({
  role: z.string({ error: 'must be an object with a role' }),
  content: z
    .union([z.string(), z.array(contentPart)], { error: 'must be a string or an array of content parts' })
    .nullish()
    .meta({ description: 'Text, or content parts of which only {"type": "text"} ones are supported' }),
});
export const chatCompletionRequestSchema = z.looseObject({
  ...samplingFields,
  messages: z.array(chatMessageSchema, { error: 'must be a non-empty array of messages' }).min(1, { error: 'must be a non-empty array of messages' }),
  max_completion_tokens: int('Tokens to generate at most'),
  max_tokens: int('Tokens to generate at most (the older name)'),
});

export type CompletionRequest = z.infer<typeof completionRequestSchema>;
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

const finishReason = z.enum(['stop', 'length']).nullable();
const usage = z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() });
export const modelSchema = z.object({ id: z.string(), object: z.literal('model'), created: z.number().int(), owned_by: z.string() });
export const modelListSchema = z.object({ object: z.literal('list'), data: z.array(modelSchema) });
export const completionSchema = z.object({
  id: z.string(),
  object: z.literal('text_completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(z.object({ index: z.number().int(), text: z.string(), logprobs: z.null(), finish_reason: finishReason })),
  usage,
});
export const chatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal('assistant'), content: z.string() }),
      logprobs: z.null(),
      finish_reason: finishReason,
    }),
  ),
  usage,
});
export const openAiErrorSchema = z.object({
  error: z.object({ message: z.string(), type: z.string(), param: z.string().nullable(), code: z.string() }),
});

/** `messages[0].content`: an issue path as OpenAI's `param` names fields. */
function paramOf(path: readonly PropertyKey[]): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let v = body;
  for (const k of path) v = typeof v === 'object' && v !== null ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/** A body checked against a schema; the first problem is BAD_PARAMETER naming the field (OpenAI's `param`). */
export function parseOpenAiBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const path = issue?.path ?? [];
  const param = paramOf(path);
  const got = JSON.stringify(valueAt(body, path))?.slice(0, 80) ?? 'nothing';
  throw rtError('BAD_PARAMETER', `'${param}': ${issue?.message ?? 'invalid'}, got ${got}`, param === '' ? {} : { param });
}
