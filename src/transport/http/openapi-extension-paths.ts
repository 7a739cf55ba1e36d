import { z } from 'zod';
import { logSettingsPatchSchema } from '../../observability/logger.ts';
import { addOperation, jsonContent, modelParam, modelPaths, okResponses, pathParam, type JsonObject } from './openapi-common.ts';
import {
  chatCompletionRequestSchema,
  chatCompletionSchema,
  completionRequestSchema,
  completionSchema,
  modelListSchema,
  modelSchema,
  openAiErrorSchema,
} from './openai-schemas.ts';
import {
  errorSchema,
  generateRequestSchema,
  generateResponseSchema,
  imageJsonRequestSchema,
  imageResponseSchema,
  logSettingsSchema,
  traceSettingsPatchSchema,
  traceSettingsSchema,
  wsTicketSchema,
} from './schemas.ts';

/**
 * The paths of /openapi.json beyond KServe v2's core (openapi.ts): the OpenAI-compatible routes, Triton's generate,
 * logging and trace extensions, the image route, the WebSocket ticket, metrics and the pages. Every route the REST
 * server registers is in the document (test/integration/http/openapi-coverage.test.ts walks them).
 */
const sse = (description: string): JsonObject => ({ 'text/event-stream': { schema: { type: 'string' }, description } });

export function addOpenAiPaths(paths: JsonObject): void {
  const errors = { default: { description: 'OpenAI error object, with x-should-retry', content: jsonContent(openAiErrorSchema) } };
  const tags = ['OpenAI'];
  addOperation(paths, '/v1/models', 'get', {
    tags,
    summary: 'Generative models',
    responses: okResponses('models', modelListSchema, openAiErrorSchema),
  });
  addOperation(paths, '/v1/models/{model}', 'get', {
    tags,
    summary: 'One generative model',
    parameters: [modelParam],
    responses: okResponses('model', modelSchema, openAiErrorSchema),
  });
  const completion = (summary: string, request: z.ZodType, response: z.ZodType): JsonObject => ({
    tags,
    summary,
    requestBody: { required: true, content: jsonContent(request) },
    responses: {
      '200': {
        description: 'stream false: one object; stream true: chunks as Server-Sent Events, then data: [DONE]',
        content: { ...jsonContent(response), ...sse('data: <chunk> events, an error as data: {"error": ...}, then data: [DONE]') },
      },
      ...errors,
    },
  });
  addOperation(paths, '/v1/completions', 'post', completion('Text completion', completionRequestSchema, completionSchema));
  addOperation(paths, '/v1/chat/completions', 'post', completion('Chat completion', chatCompletionRequestSchema, chatCompletionSchema));
}

export function addGeneratePaths(paths: JsonObject): void {
  const requestBody = { required: true, content: jsonContent(generateRequestSchema) };
  modelPaths(paths, '/generate', 'post', {
    tags: ['generate'],
    summary: "Triton's generate extension: inputs by name, one answer",
    requestBody,
    responses: okResponses('outputs by name', generateResponseSchema),
  });
  modelPaths(paths, '/generate_stream', 'post', {
    tags: ['generate'],
    summary: 'The same, streamed as Server-Sent Events (id: <stream>:<seq>; resume with Last-Event-ID)',
    parameters: [{ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } }],
    requestBody,
    responses: {
      '200': { description: 'events', content: sse('one event per response; event: error for an error') },
      default: { description: 'Error before the stream started', content: jsonContent(errorSchema) },
    },
  });
  const optionNames = ['top_k', 'score_threshold', 'iou_threshold', 'max_detections'];
  modelPaths(paths, '/image', 'post', {
    tags: ['image'],
    summary: 'One encoded image (JPEG, PNG, WebP) in, labels or boxes out (docs/image.md)',
    parameters: optionNames.map((name) => ({ name, in: 'query', required: false, schema: { type: 'number' } })),
    requestBody: {
      required: true,
      content: {
        'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } },
        'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
        'image/webp': { schema: { type: 'string', contentMediaType: 'image/webp' } },
        'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
        'multipart/form-data': {
          schema: { type: 'object', properties: { image: { type: 'string', contentMediaType: 'application/octet-stream' } } },
        },
        ...jsonContent(imageJsonRequestSchema),
      },
    },
    responses: okResponses('labels and scores, or boxes', imageResponseSchema),
  });
}

export function addOperationsPaths(paths: JsonObject): void {
  const tags = ['operations'];
  // GET answers the settings, POST takes any subset and answers the settings in force (Triton's extensions).
  const settings = (path: string, what: string, patch: z.ZodType, schema: z.ZodType): void => {
    addOperation(paths, path, 'get', { tags, summary: what, responses: okResponses('settings', schema) });
    addOperation(paths, path, 'post', {
      tags,
      summary: `Change: ${what} (any subset; answers the settings in force)`,
      requestBody: { content: jsonContent(patch) },
      responses: okResponses('settings', schema),
    });
  };
  settings('/v2/logging', "Log settings (Triton's logging extension)", logSettingsPatchSchema, logSettingsSchema);
  settings(
    '/v2/trace/setting',
    "Trace settings (Triton's trace extension; changing them answers 501 while tracing is off)",
    traceSettingsPatchSchema,
    traceSettingsSchema,
  );
  addOperation(paths, '/v2/models/{model}/trace/setting', 'get', {
    tags,
    summary: "A model's trace settings (the server's)",
    parameters: [modelParam],
    responses: okResponses('settings', traceSettingsSchema),
  });
  addOperation(paths, '/v2/models/{model}/trace/setting', 'post', {
    tags,
    summary: 'Per-model trace settings (not supported: 501)',
    parameters: [modelParam],
    responses: { '501': { description: 'not supported', content: jsonContent(z.object({ error: z.string() })) } },
  });
  addOperation(paths, '/v2/auth/ws-ticket', 'post', {
    tags: ['security'],
    summary: 'A single-use WebSocket ticket for the caller (with auth on)',
    responses: okResponses('ticket', wsTicketSchema),
  });
  addOperation(paths, '/metrics', 'get', {
    tags,
    summary: 'Prometheus metrics (also on the metrics port)',
    responses: { '200': { description: 'text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } } },
  });
  addOperation(paths, '/openapi.json', 'get', { tags, summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1' } } });
}

/** The pages a browser loads: the demo, the chat page and these docs (no data; the calls they make are guarded). */
export function addPagePaths(paths: JsonObject): void {
  const page = (summary: string, type: string, parameters: JsonObject[] = []): JsonObject => ({
    tags: ['pages'],
    summary,
    ...(parameters.length === 0 ? {} : { parameters }),
    responses: { '200': { description: summary, content: { [type]: { schema: { type: 'string' } } } } },
  });
  addOperation(paths, '/', 'get', page('The live demo page', 'text/html'));
  addOperation(paths, '/demo/app.js', 'get', page("The demo's script", 'text/javascript'));
  addOperation(paths, '/demo/style.css', 'get', page("The demo's styles", 'text/css'));
  addOperation(paths, '/chat', 'get', page('The chat page', 'text/html'));
  addOperation(paths, '/chat/chat.js', 'get', page("The chat page's script", 'text/javascript'));
  addOperation(paths, '/chat/chat.css', 'get', page("The chat page's styles", 'text/css'));
  addOperation(paths, '/docs', 'get', page('Interactive API docs of this document', 'text/html'));
  addOperation(paths, '/docs/{asset}', 'get', page("The docs page's assets", 'application/octet-stream', [pathParam('asset')]));
}
