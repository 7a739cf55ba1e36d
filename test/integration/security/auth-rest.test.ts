import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { request, startTestServer } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { hashApiKey } from '../../../src/security/authenticator.ts';
import type { Operation } from '../../../src/config/security-schema.ts';
import { authConfigSchema } from '../../../src/config/security-schema.ts';
import { simpleRequest } from './helpers.ts';

const SECRET = 'integration-test-secret-of-32-chars!!';
const KEYS = {
  infer: 'sk-infer-simple-only',
  meta: 'sk-metadata',
  admin: 'sk-admin',
};
const apiKeys: { id: string; sha256: string; scopes: Operation[]; models?: string[] }[] = [
  { id: 'infer-simple', sha256: hashApiKey(KEYS.infer), scopes: ['infer'], models: ['simple'] },
  { id: 'meta', sha256: hashApiKey(KEYS.meta), scopes: ['metadata'] },
  { id: 'admin', sha256: hashApiKey(KEYS.admin), scopes: ['admin'] },
];

function post(url: string, body: unknown, token?: string) {
  return request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
}
function get(url: string, token?: string) {
  return request(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
}

describe('REST authentication and authorization', () => {
  let server: RunningServer;
  let base: string;
  before(async () => {
    server = await startTestServer({ allowClientShm: true, auth: { enabled: true, apiKeys, jwt: { secret: SECRET, algorithms: ['HS256'] } } });
    base = server.httpUrl;
  });
  after(async () => {
    await server.close();
  });

  test('no credentials: 401 with a Bearer challenge on every protected route, health probes stay open', async () => {
    for (const [method, path] of [
      ['POST', '/v2/models/simple/infer'],
      ['GET', '/v2/models/simple'],
      ['GET', '/v2'],
      ['POST', '/v2/repository/index'],
      ['GET', '/v2/models/stats'],
      ['GET', '/metrics'],
      ['GET', '/no/such/route'],
      ['POST', '/v2/auth/ws-ticket'],
      ['GET', '/v2/systemsharedmemory/status'],
      ['POST', '/v2/systemsharedmemory/region/r/register'],
      ['POST', '/v2/systemsharedmemory/unregister'],
    ] as const) {
      const r = await request(`${base}${path}`, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
      assert.equal(r.status, 401, `${method} ${path}`);
      assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="rtserve"', path);
      assert.deepEqual(r.json(), { error: 'credentials are required: send "Authorization: Bearer <API key or JWT>"', code: 'UNAUTHENTICATED' });
    }
    // (readiness depends on every bundled model loading, which is not this test's business: only "not 401")
    for (const path of ['/v2/health/live', '/healthz']) assert.equal((await get(`${base}${path}`)).status, 200, path);
    // static pages a browser navigates to (no data in them) are public
    assert.equal((await get(`${base}/openapi.json`)).status, 200);
    for (const path of ['/v2/health/ready', '/readyz']) assert.notEqual((await get(`${base}${path}`)).status, 401, path);
  });

  test('a wrong key is 401; a valid key without the scope or the model is 403; in scope is 200', async () => {
    const bad = await post(`${base}/v2/models/simple/infer`, simpleRequest(), 'sk-nope');
    assert.equal(bad.status, 401);
    assert.equal((bad.json() as { code: string }).code, 'UNAUTHENTICATED');

    const ok = await post(`${base}/v2/models/simple/infer`, simpleRequest(1, 2), KEYS.infer);
    assert.equal(ok.status, 200, new TextDecoder().decode(ok.body));
    const out = (ok.json() as { outputs: { name: string; data: number[] }[] }).outputs.find((o) => o.name === 'OUTPUT0');
    assert.deepEqual(
      out?.data,
      Array.from({ length: 16 }, (_, i) => i + 2),
    );

    const otherModel = await post(`${base}/v2/models/mlp/infer`, {}, KEYS.infer);
    assert.equal(otherModel.status, 403);
    assert.deepEqual(otherModel.json(), { error: "principal 'infer-simple' may not use model 'mlp'", code: 'PERMISSION_DENIED' });
    assert.equal(otherModel.headers.get('www-authenticate'), null);

    assert.equal((await get(`${base}/v2/models/simple`, KEYS.infer)).status, 403, 'infer scope does not grant metadata');
    assert.equal((await get(`${base}/v2/models/simple`, KEYS.meta)).status, 200);
    assert.equal((await post(`${base}/v2/models/simple/infer`, simpleRequest(), KEYS.meta)).status, 403);
    assert.equal((await post(`${base}/v2/repository/index`, {}, KEYS.meta)).status, 403);
    assert.equal((await post(`${base}/v2/repository/index`, {}, KEYS.admin)).status, 200);
    assert.equal((await get(`${base}/metrics`, KEYS.admin)).status, 200);
    assert.equal((await get(`${base}/metrics`, KEYS.infer)).status, 403);
    // Shared memory regions are part of inference: the infer scope, not metadata.
    assert.equal((await get(`${base}/v2/systemsharedmemory/status`, KEYS.infer)).status, 200);
    assert.equal((await get(`${base}/v2/systemsharedmemory/status`, KEYS.meta)).status, 403);
    assert.equal((await post(`${base}/v2/systemsharedmemory/unregister`, {}, KEYS.meta)).status, 403);
    // authorization happens before the model lookup: an unknown model is 403 for a principal that may not see it
    assert.equal((await get(`${base}/v2/models/secret_model`, KEYS.infer)).status, 403);
    assert.equal((await get(`${base}/v2/models/secret_model`, KEYS.meta)).status, 404);
  });

  test('JWT (HS256): scope and models claims; expired and other-algorithm tokens are 401', async () => {
    const key = new TextEncoder().encode(SECRET);
    const token = await new SignJWT({ scope: 'infer metadata', models: ['simple'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('svc')
      .setExpirationTime('2m')
      .sign(key);
    assert.equal((await post(`${base}/v2/models/simple/infer`, simpleRequest(), token)).status, 200);
    assert.equal((await get(`${base}/v2/models/simple/config`, token)).status, 200);
    assert.equal((await get(`${base}/v2/models/mlp`, token)).status, 403);
    const expired = await new SignJWT({ scope: 'infer' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 600)
      .sign(key);
    const r = await post(`${base}/v2/models/simple/infer`, simpleRequest(), expired);
    assert.equal(r.status, 401);
    assert.match((r.json() as { error: string }).error, /expired/);
  });

  test('JWT expiry: the clockToleranceSecs leeway (30 s by default) holds at every check, and ends where it ends', async () => {
    const key = new TextEncoder().encode(SECRET);
    const expiredAgo = (s: number) =>
      new SignJWT({ scope: 'infer' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(`expired-${s}s-ago`)
        .setExpirationTime(Math.floor(Date.now() / 1000) - s)
        .sign(key);
    const inside = await expiredAgo(25);
    // The second request finds the verified token in the cache: the cache applies the same leeway.
    for (const attempt of ['verified', 'cached']) {
      const r = await post(`${base}/v2/models/simple/infer`, simpleRequest(), inside);
      assert.equal(r.status, 200, `${attempt}: ${new TextDecoder().decode(r.body)}`);
    }
    const ticket = await post(`${base}/v2/auth/ws-ticket`, {}, inside);
    assert.equal(ticket.status, 200, 'a ticket from a token inside the leeway');
    assert.ok((ticket.json() as { expires_in_ms: number }).expires_in_ms > 0);
    const outside = await post(`${base}/v2/models/simple/infer`, simpleRequest(), await expiredAgo(45));
    assert.equal(outside.status, 401);
    assert.match((outside.json() as { error: string }).error, /expired/);
  });

  test('WebSocket tickets: issued to an authenticated caller, not cached, single use', async () => {
    const r = await post(`${base}/v2/auth/ws-ticket`, {}, KEYS.infer);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('cache-control'), 'no-store');
    const body = r.json() as { ticket: string; expires_in_ms: number; protocol: string };
    assert.match(body.ticket, /^[A-Za-z0-9_-]{32}$/);
    assert.equal(body.protocol, `rtserve.ticket.${body.ticket}`);
    assert.ok(body.expires_in_ms > 0 && body.expires_in_ms <= 30_000);
    const p = await server.security.authenticate({ ticket: body.ticket });
    assert.equal(p.id, 'infer-simple');
    await assert.rejects(server.security.authenticate({ ticket: body.ticket }), /already used/);
  });

  test('reloadAuth swaps the keys without a restart; a broken config keeps the old ones', async () => {
    const before = server.security.authConfig;
    try {
      await server.security.reloadAuth(
        authConfigSchema.parse({ enabled: true, apiKeys: [{ id: 'new', sha256: hashApiKey('sk-new'), scopes: ['metadata'] }] }),
      );
      assert.equal((await get(`${base}/v2/models/simple`, 'sk-new')).status, 200);
      assert.equal((await get(`${base}/v2/models/simple`, KEYS.meta)).status, 401);
      await assert.rejects(
        server.security.reloadAuth(authConfigSchema.parse({ enabled: true, jwt: { jwksFile: '/nonexistent/jwks.json' } })),
        /jwksFile/,
      );
      assert.equal((await get(`${base}/v2/models/simple`, 'sk-new')).status, 200, 'still the last good keys');
      await assert.rejects(server.security.reloadAuth(authConfigSchema.parse({ enabled: false })), /restart/);
    } finally {
      await server.security.reloadAuth(before);
    }
    assert.equal((await get(`${base}/v2/models/simple`, KEYS.meta)).status, 200);
  });
});

describe('REST auth with closed health probes and open metadata', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ auth: { enabled: true, apiKeys, openOperations: ['metadata'] } });
  });
  after(async () => {
    await server.close();
  });

  test('health needs credentials (any principal), metadata needs none', async () => {
    assert.equal((await get(`${server.httpUrl}/v2/health/live`)).status, 401);
    assert.equal((await get(`${server.httpUrl}/v2/health/live`, KEYS.infer)).status, 200);
    assert.equal((await get(`${server.httpUrl}/v2/models/mlp`)).status, 200);
    assert.equal((await post(`${server.httpUrl}/v2/models/simple/infer`, simpleRequest())).status, 401);
  });
});
