import type { RtError } from '../../errors/registry.ts';

/**
 * OpenAI's error shape for every answer under /v1/ (docs/errors.md "OpenAI routes"): `{"error": {"message", "type",
 * "param", "code"}}` (OpenAI API reference, "Error codes"), with the registry's status and code. The `openai`
 * SDKs retry 408, 409, 429 and 5xx unless the answer says `x-should-retry: false`, so the header states the
 * registry's own verdict: a 501 for something this server does not do is never retried, a 429 or a 503 is.
 */
export const OPENAI_PATH_PREFIX = '/v1/';

/** Whether a request URL (path and query) is one of the OpenAI-compatible routes, or under their prefix. */
export function isOpenAiPath(url: string): boolean {
  return url.startsWith(OPENAI_PATH_PREFIX) || url === '/v1' || url.startsWith('/v1?');
}

/** OpenAI's error `type` for a registry category (OpenAI answers an unknown model 404 `invalid_request_error`). */
function openAiErrorType(e: RtError): string {
  if (e.category === 'RESOURCE_EXHAUSTED') return 'rate_limit_error';
  if (e.category === 'UNAUTHENTICATED') return 'authentication_error';
  if (e.category === 'PERMISSION_DENIED') return 'permission_error';
  if (e.httpStatus >= 500) return 'server_error';
  return 'invalid_request_error';
}

export interface OpenAiErrorBody {
  readonly error: { readonly message: string; readonly type: string; readonly param: string | null; readonly code: string };
}

export function openAiErrorBody(e: RtError): OpenAiErrorBody {
  return { error: { message: e.message, type: openAiErrorType(e), param: e.param ?? null, code: e.code.toLowerCase() } };
}

/** The `x-should-retry` header value for an error: what the registry says about retrying its category. */
export function shouldRetryHeader(e: RtError): 'true' | 'false' {
  return e.retryable ? 'true' : 'false';
}
