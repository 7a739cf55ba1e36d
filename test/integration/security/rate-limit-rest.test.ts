import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postJson, request, startTestServer } from '../../helpers/server.ts';
import { Gate, startGatedServer } from '../ws/gated-engine.ts';
import { until } from '../grpc/grpc-test-client.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { hashApiKey } from '../../../src/security/authenticator.ts';
import type { Operation } from '../../../src/config/security-schema.ts';
import { simpleRequest } from './helpers.ts';

const apiKeys: { id: string; sha256: string; scopes: Operation[]; models?: string[] }[] = [
  { id: 'a', sha256: hashApiKey('key-a'), scopes: ['admin'] },
  { id: 'b', sha256: hashApiKey('key-b'), scopes: ['admin'] },
];
const inferAs = (base: string, key: string, model = 'simple', body: unknown = simpleRequest()) =>
  request(`${base}/v2/models/${model}/infer`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('REST rate limits (in memory)', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({
      auth: { enabled: true, apiKeys },
      // Slow refill (one token per 100 s) so that the count is exact whatever the machine's speed.
      rateLimit: { enabled: true, perPrincipal: { ratePerSec: 0.01, burst: 3 }, perModel: { mlp: { ratePerSec: 0.01, burst: 1 } } },
    });
  });
  after(async () => {
    await server.close();
  });

  test('per principal: the burst passes, then 429 with Retry-After; other principals and health are unaffected', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await inferAs(server.httpUrl, 'key-a')).status, 200, `request ${i}`);
    const r = await inferAs(server.httpUrl, 'key-a');
    assert.equal(r.status, 429);
    assert.equal(r.headers.get('retry-after'), '100');
    const body = r.json() as { error: string; code: string };
    assert.equal(body.code, 'RATE_LIMITED');
    assert.match(body.error, /per-principal rate limit exceeded; retry after \d+ ms/);
    // metadata counts against the same bucket
    assert.equal((await request(`${server.httpUrl}/v2/models/simple`, { headers: { authorization: 'Bearer key-a' } })).status, 429);
    assert.equal((await request(`${server.httpUrl}/v2/health/live`)).status, 200);
    assert.equal((await inferAs(server.httpUrl, 'key-b')).status, 200);
    // refusals are counted for Prometheus, by protocol
    const metrics = new TextDecoder().decode((await request(`${server.metricsUrl ?? ''}/metrics`)).body);
    assert.match(metrics, /^rtserve_rate_limited_total\{protocol="http"\} 2$/m);
  });

  test('per model: a tighter bucket for one model', async () => {
    const mlp = { inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], data: Array(64).fill(0.5) }] };
    assert.equal((await inferAs(server.httpUrl, 'key-b', 'mlp', mlp)).status, 200);
    const r = await inferAs(server.httpUrl, 'key-b', 'mlp', mlp);
    assert.equal(r.status, 429);
    assert.match((r.json() as { error: string }).error, /per-model/);
    assert.equal((await inferAs(server.httpUrl, 'key-b')).status, 200, 'the principal still has tokens for other models');
  });
});

describe('REST rate limits: per client IP and the concurrency cap, with auth off', () => {
  // The model's runs wait at a gate: the first two requests are certainly unfinished when the third comes,
  // however slow the machine (no sleeps, no queue-delay windows).
  const gate = new Gate();
  let server: RunningServer;
  before(async () => {
    server = await startGatedServer(gate, { rateLimit: { enabled: true, maxConcurrentPerPrincipal: 2, perIp: { ratePerSec: 0.01, burst: 6 } } });
  });
  after(async () => {
    gate.release('mlp');
    await server.close();
  });

  test('a third concurrent request is refused at once; a slot frees when a request ends; then the IP bucket runs out', async () => {
    const body = { inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], data: Array(64).fill(0.25) }] };
    const url = `${server.httpUrl}/v2/models/mlp/infer`;
    gate.hold('mlp');
    const first = [postJson(url, body), postJson(url, body)];
    await until(() => server.security.rateLimiter?.inFlightOf('anonymous') === 2, 'two unfinished requests');
    const third = await postJson(url, body);
    assert.equal(third.status, 429);
    assert.match((third.json() as { error: string }).error, /principal 'anonymous' already has 2 unfinished requests \(limit 2\)/);
    gate.release('mlp');
    assert.deepEqual(
      (await Promise.all(first)).map((r) => r.status),
      [200, 200],
    );
    // 3 tokens of the IP bucket are spent; 3 more pass (one at a time: the cap still holds), the 7th does not.
    for (let i = 0; i < 3; i++) assert.equal((await request(`${server.httpUrl}/v2/models/mlp`)).status, 200);
    const r = await request(`${server.httpUrl}/v2/models/mlp`);
    assert.equal(r.status, 429);
    assert.match((r.json() as { error: string }).error, /rate limit for client 127\.0\.0\.1/);
  });
});
