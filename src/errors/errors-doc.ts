import { CATEGORY_MAPPING, ERROR_CODES } from './registry.ts';

/**
 * docs/errors.md, rendered from the registry itself so the page can never drift from the code
 * (test/unit/errors/errors-doc.test.ts fails when the committed page is stale; `npm run docs:errors` rewrites it).
 */
export function renderErrorsDoc(): string {
  const lines = [
    '# Errors',
    '',
    'Every error rtserve returns has a code from one registry (`src/errors/registry.ts`). The code belongs to a',
    'category, and the category decides the status on every protocol. REST bodies are `{"error": "<message>", "code": "<CODE>"}`',
    '(KServe v2 only requires `error`); gRPC errors carry the message as the status details; WebSocket `error` events',
    'carry `code`, `message` and `retryable`. Messages name what was wrong: which tensor, what was expected and what came.',
    '',
    'Every answer under `/v1/` (the OpenAI-compatible routes, and whatever refuses a request on its way there: auth,',
    "rate limits, body limits, an unknown route) is OpenAI's error object instead:",
    '`{"error": {"message", "type", "param", "code"}}`, `code` the registry code in lower case, `param` the request field at',
    'fault where there is one, `type` `invalid_request_error` (4xx), `authentication_error` (401), `permission_error` (403),',
    "`rate_limit_error` (429) or `server_error` (5xx), and an `x-should-retry` header with the category's `retryable`, which",
    'the `openai` SDKs obey: a parameter rtserve does not support (`UNSUPPORTED_PARAMETER`) is a 400 the SDK never retries.',
    '',
    'This page is generated from the registry (`npm run docs:errors`).',
    '',
    '## Categories',
    '',
    '| category | HTTP | gRPC code | WebSocket close code | retryable |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const [cat, m] of Object.entries(CATEGORY_MAPPING)) lines.push(`| ${cat} | ${m.http} | ${m.grpc} | ${m.ws} | ${m.retryable ? 'yes' : 'no'} |`);
  lines.push('', "Overload (`QUEUE_FULL`) answers 429 with `Retry-After`, not Triton's 503, so clients and proxies back off.", '');
  lines.push('## Codes', '', '| code | category | meaning |', '| --- | --- | --- |');
  for (const [code, e] of Object.entries(ERROR_CODES)) lines.push(`| \`${code}\` | ${e.category} | ${e.doc} |`);
  lines.push('');
  return lines.join('\n');
}
