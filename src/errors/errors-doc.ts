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
