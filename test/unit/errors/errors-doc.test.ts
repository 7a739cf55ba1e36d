import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { renderErrorsDoc } from '../../../src/errors/errors-doc.ts';
import { CATEGORY_MAPPING, ERROR_CODES, RtError, toRtError } from '../../../src/errors/registry.ts';

test('docs/errors.md is the rendering of the registry (run `npm run docs:errors` after changing codes)', async () => {
  const committed = await readFile(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
  assert.equal(committed, renderErrorsDoc());
});

test('every code maps to a category with HTTP, gRPC and WebSocket codes', () => {
  for (const [code, e] of Object.entries(ERROR_CODES)) {
    const m = CATEGORY_MAPPING[e.category];
    assert.ok(m.http >= 400 && m.http < 600, code);
    assert.ok(m.grpc >= 1 && m.grpc <= 16, code);
    assert.ok(m.ws >= 1000 && m.ws < 5000, code);
  }
  assert.equal(new RtError('QUEUE_FULL', 'x').httpStatus, 429);
  assert.equal(new RtError('QUEUE_FULL', 'x').grpcStatus, 8);
  assert.equal(new RtError('MODEL_NOT_FOUND', 'x').httpStatus, 404);
  assert.equal(new RtError('BAD_SHAPE', 'x').grpcStatus, 3);
});

test('unknown errors become INTERNAL without leaking their message', () => {
  const e = toRtError(new Error('secret path /etc/passwd'));
  assert.equal(e.code, 'INTERNAL');
  assert.doesNotMatch(e.message, /passwd/);
  assert.ok(e.cause instanceof Error);
});
