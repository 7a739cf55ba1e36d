import type { FastifyReply } from 'fastify';
import { RtError, rtError, toRtError } from '../../errors/registry.ts';
import type { Logger } from '../../observability/logger.ts';
import { isOpenAiPath, openAiErrorBody, shouldRetryHeader } from './openai-errors.ts';

/**
 * The one place REST maps errors: KServe v2 error body `{"error": "<message>"}` (docs/protocol.md §2.1) with the
 * registry's status; overload answers carry Retry-After in whole seconds (RFC 9110 §10.2.3). Answers under /v1/
 * (the OpenAI-compatible routes, and whatever refuses a request on its way to them: auth, rate limits, body
 * limits, an unknown route) are OpenAI's error object instead, with `x-should-retry` (openai-errors.ts).
 */
export function sendError(reply: FastifyReply, err: unknown, log: Logger): FastifyReply {
  const e = fromFastify(err);
  if (e.category === 'INTERNAL') log.error({ err: e.cause ?? e, code: e.code }, 'internal error');
  if (e.retryAfterMs !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(e.retryAfterMs / 1000))));
  reply.code(e.httpStatus).type('application/json');
  if (isOpenAiPath(reply.request.url)) return reply.header('x-should-retry', shouldRetryHeader(e)).send(JSON.stringify(openAiErrorBody(e)));
  return reply.send(JSON.stringify({ error: e.message, code: e.code }));
}

/** Fastify's own errors (body limits, content-type, route params) become registry errors. */
function fromFastify(err: unknown): RtError {
  if (err instanceof RtError) return err;
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') {
    const code = err.code;
    const message = err instanceof Error ? err.message : String(err);
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return rtError('PAYLOAD_TOO_LARGE', `request body exceeds the limit: ${message}`);
    if (code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return rtError('BAD_REQUEST', 'Content-Length does not match the body');
    if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return rtError('BAD_REQUEST', message);
    if (code.startsWith('FST_ERR_VALIDATION') || code === 'FST_ERR_BAD_URL') return rtError('BAD_REQUEST', message);
  }
  if (typeof err === 'object' && err !== null && 'statusCode' in err && err.statusCode === 413) {
    return rtError('PAYLOAD_TOO_LARGE', 'request body exceeds the limit');
  }
  return toRtError(err);
}
