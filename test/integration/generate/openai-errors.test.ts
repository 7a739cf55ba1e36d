/**
 * Every /v1/ answer that is not a success, as the `openai` npm SDK (unchanged, default retries) sees it: OpenAI's
 * error object `{error: {message, type, param, code}}`, the status, and `x-should-retry`. The server's own request
 * counter (rtserve_http_requests_total, scraped from its metrics port) shows how many requests one SDK call made:
 * a client error is one request, never retried (an unsupported parameter used to answer 501, which the SDK retried
 * twice).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI, { APIError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { hashApiKey } from '../../../src/security/authenticator.ts';
import { startCharlmServer } from './charlm-helpers.ts';

const KEYS = { full: 'sk-full', otherModel: 'sk-other-model', burst: 'sk-burst' } as const;
/** The rate limit's bucket: far more than any principal here uses, except the one that spends it on purpose. */
const BURST = 40;

/** Requests the server answered on `route` (fastify's pattern, or `unmatched`), every status together. */
async function answered(server: RunningServer, route: string): Promise<number> {
  const text = await (await fetch(`${server.metricsUrl}/metrics`)).text();
  let n = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`rtserve_http_requests_total{route="${route}",`)) n += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return n;
}

/** The SDK's error for one call, and how many requests the server answered on `route` for it. */
async function oneCall(server: RunningServer, route: string, call: () => Promise<unknown>): Promise<{ e: APIError; requests: number }> {
  const before = await answered(server, route);
  const e = await call().then(
    () => assert.fail('the call should have failed'),
    (err: unknown) => err,
  );
  assert.ok(e instanceof APIError, `an APIError, got ${String(e)}`);
  return { e, requests: (await answered(server, route)) - before };
}

/** OpenAI's error object, exactly its four fields. */
function assertOpenAiShape(e: APIError, type: string, code: string, param: string | null): void {
  const body = e.error as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'param', 'type']);
  assert.equal(typeof body['message'], 'string');
  assert.deepEqual({ type: e.type, code: e.code, param: e.param ?? null }, { type, code, param });
}

describe('OpenAI error answers, through the openai SDK with its default retries', () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  const client = (apiKey: string, maxRetries?: number): OpenAI =>
    new OpenAI({ baseURL: `${server.httpUrl}/v1`, apiKey, ...(maxRetries === undefined ? {} : { maxRetries }) });

  before(async () => {
    ({ server, cleanup } = await startCharlmServer({
      auth: {
        enabled: true,
        apiKeys: [
          { id: 'full', sha256: hashApiKey(KEYS.full), scopes: ['infer', 'metadata'] },
          { id: 'other-model', sha256: hashApiKey(KEYS.otherModel), scopes: ['infer', 'metadata'], models: ['simple'] },
          { id: 'burst', sha256: hashApiKey(KEYS.burst), scopes: ['infer', 'metadata'] },
        ],
      },
      rateLimit: { enabled: true, perPrincipal: { ratePerSec: 0.001, burst: BURST } },
    }));
  });
  after(async () => cleanup());

  test('an unsupported parameter (n: 2) is a 400 naming it, answered once, with x-should-retry: false', async () => {
    const { e, requests } = await oneCall(server, '/v1/completions', () =>
      client(KEYS.full).completions.create({ model: 'charlm', prompt: 'x', max_tokens: 2, n: 2 }),
    );
    assert.equal(e.status, 400);
    assertOpenAiShape(e, 'invalid_request_error', 'unsupported_parameter', 'n');
    assert.match(e.message, /'n' = 2 is not supported/);
    assert.equal(e.headers?.get('x-should-retry'), 'false');
    assert.equal(requests, 1, 'one SDK call, one request');

    const extras: [string, Partial<ChatCompletionCreateParamsNonStreaming>][] = [
      ['logprobs', { logprobs: true }],
      ['tools', { tools: [{ type: 'function', function: { name: 'f' } }] }],
      ['presence_penalty', { presence_penalty: 0.5 }],
    ];
    for (const [param, extra] of extras) {
      const chat = await oneCall(server, '/v1/chat/completions', () =>
        client(KEYS.full).chat.completions.create({ model: 'charlm', messages: [{ role: 'user', content: 'hi' }], ...extra }),
      );
      assert.equal(chat.e.status, 400, param);
      assertOpenAiShape(chat.e, 'invalid_request_error', 'unsupported_parameter', param);
      assert.equal(chat.requests, 1, param);
    }
    const part = await oneCall(server, '/v1/chat/completions', () =>
      client(KEYS.full).chat.completions.create({
        model: 'charlm',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:,' } }] }],
      }),
    );
    assertOpenAiShape(part.e, 'invalid_request_error', 'unsupported_parameter', 'messages[0].content[0]');
  });

  test('validation errors name the parameter; an unknown model is 404 model_not_found; each answered once', async () => {
    const prompt = await oneCall(server, '/v1/completions', () =>
      client(KEYS.full).completions.create({ model: 'charlm', prompt: 5 as unknown as string }),
    );
    assert.equal(prompt.e.status, 400);
    assertOpenAiShape(prompt.e, 'invalid_request_error', 'bad_parameter', 'prompt');
    assert.equal(prompt.requests, 1);

    const unknown = await oneCall(server, '/v1/chat/completions', () =>
      client(KEYS.full).chat.completions.create({ model: 'nope', messages: [{ role: 'user', content: 'hi' }] }),
    );
    assert.equal(unknown.e.status, 404);
    assertOpenAiShape(unknown.e, 'invalid_request_error', 'model_not_found', null);
    assert.equal(unknown.requests, 1);

    const model = await oneCall(server, '/v1/models/:model', () => client(KEYS.full).models.retrieve('nope'));
    assert.equal(model.e.status, 404);
    assertOpenAiShape(model.e, 'invalid_request_error', 'model_not_found', null);
    assert.equal(model.requests, 1);
  });

  test('401 and 403 from the auth guard are OpenAI errors too, answered once', async () => {
    const none = await oneCall(server, '/v1/completions', () =>
      client('sk-wrong').completions.create({ model: 'charlm', prompt: 'x', max_tokens: 2 }),
    );
    assert.equal(none.e.status, 401);
    assertOpenAiShape(none.e, 'authentication_error', 'unauthenticated', null);
    assert.equal(none.requests, 1);
    assert.ok(none.e.headers?.get('www-authenticate'), 'the challenge is kept');

    const denied = await oneCall(server, '/v1/chat/completions', () =>
      client(KEYS.otherModel).chat.completions.create({ model: 'charlm', messages: [{ role: 'user', content: 'hi' }] }),
    );
    assert.equal(denied.e.status, 403);
    assertOpenAiShape(denied.e, 'permission_error', 'permission_denied', null);
    assert.equal(denied.requests, 1);
  });

  test('an unknown /v1 route is a 404 OpenAI error', async () => {
    const res = await fetch(`${server.httpUrl}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.full}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'charlm', input: 'x' }),
    });
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('x-should-retry'), 'false');
    const body = (await res.json()) as { error: Record<string, unknown> };
    assert.deepEqual(
      { type: body.error['type'], code: body.error['code'], param: body.error['param'] },
      { type: 'invalid_request_error', code: 'route_not_found', param: null },
    );
    // Outside /v1 the KServe shape stays.
    const kserve = await fetch(`${server.httpUrl}/v2/nothing-here`, { headers: { authorization: `Bearer ${KEYS.full}` } });
    assert.equal(typeof ((await kserve.json()) as { error: unknown }).error, 'string');
  });

  test('a rate-limited call is a 429 rate_limit_error with Retry-After and x-should-retry: true', async () => {
    const burst = client(KEYS.burst, 0);
    for (let i = 0; i < BURST; i++) await burst.models.list();
    const { e, requests } = await oneCall(server, '/v1/models', () => burst.models.list());
    assert.equal(e.status, 429);
    assertOpenAiShape(e, 'rate_limit_error', 'rate_limited', null);
    assert.ok(Number(e.headers?.get('retry-after')) >= 1);
    assert.equal(e.headers?.get('x-should-retry'), 'true', 'overload is worth retrying, after Retry-After');
    assert.equal(requests, 1, 'maxRetries: 0');
  });
});

describe('a 5xx answer on /v1 (the server draining) is an OpenAI server_error', () => {
  test('503 server_draining with Retry-After while a stream finishes', async () => {
    const { server, cleanup } = await startCharlmServer();
    try {
      const controller = new AbortController();
      const res = await fetch(`${server.httpUrl}/v1/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'charlm', prompt: 'class ', max_tokens: 400, temperature: 0, stream: true }),
        signal: controller.signal,
      });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      assert.match(new TextDecoder().decode((await reader.read()).value), /^data: /);
      // The stream in flight holds the drain open: the port answers, new generations are refused.
      const closing = server.close();
      const { e, requests } = await oneCall(server, '/v1/completions', () =>
        new OpenAI({ baseURL: `${server.httpUrl}/v1`, apiKey: 'x', maxRetries: 0 }).completions.create({ model: 'charlm', prompt: 'x' }),
      ).catch(async (err: unknown) => {
        controller.abort();
        throw err;
      });
      controller.abort();
      await closing;
      assert.equal(e.status, 503);
      assertOpenAiShape(e, 'server_error', 'server_draining', null);
      assert.equal(e.headers?.get('retry-after'), '1');
      assert.equal(e.headers?.get('x-should-retry'), 'true');
      assert.equal(requests, 1);
    } finally {
      await cleanup();
    }
  });
});
