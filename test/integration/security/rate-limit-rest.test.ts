import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { makeRepository, postJson, request, startTestServer, slowMlpConfig } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { hashApiKey } from '../../../src/security/authenticator.ts';
import type { Operation } from '../../../src/config/security-schema.ts';
import { simpleRequest } from './helpers.ts';

const apiKeys: { id: string; sha256: string; scopes: Operation[]; models?: string[] }[] = [
  { id: 'a', sha256: hashApiKey('key-a'), scopes: ['admin'] },
  { id: 'b', sha256: hashApiKey('key-b'), scopes: ['admin'] },
];
const inferAs = (base: string, key: string, model = 'simple', body: unknown = simpleRequest()) =>
  request(`${base}/v2/models/${model}/infer`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

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
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  before(async () => {
    // Partial batches wait 1.5 s in the queue, so requests are certainly concurrent.
    const repo = await makeRepository({
      mlp_slow: slowMlpConfig(1_500_000),
    });
    cleanup = repo.cleanup;
    server = await startTestServer({ modelRepository: [repo.dir], rateLimit: { enabled: true, maxConcurrentPerPrincipal: 2, perIp: { ratePerSec: 0.01, burst: 6 } } });
  });
  after(async () => {
    await server.close();
    await cleanup();
  });

  test('a third concurrent request is refused at once; a slot frees when a request ends; then the IP bucket runs out', async () => {
    const body = { inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], data: Array(64).fill(0.25) }] };
    const url = `${server.httpUrl}/v2/models/mlp_slow/infer`;
    const first = [postJson(url, body), postJson(url, body)];
    await new Promise((r) => setTimeout(r, 300));
    const third = await postJson(url, body);
    assert.equal(third.status, 429);
    assert.match((third.json() as { error: string }).error, /principal 'anonymous' already has 2 unfinished requests \(limit 2\)/);
    assert.deepEqual((await Promise.all(first)).map((r) => r.status), [200, 200]);
    // 3 tokens of the IP bucket are spent; 3 more pass (one at a time: the cap still holds), the 7th does not.
    for (let i = 0; i < 3; i++) assert.equal((await request(`${server.httpUrl}/v2/models/mlp_slow`)).status, 200);
    const r = await request(`${server.httpUrl}/v2/models/mlp_slow`);
    assert.equal(r.status, 429);
    assert.match((r.json() as { error: string }).error, /rate limit for client 127\.0\.0\.1/);
  });
});

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

describe('rate limits shared across replicas through Redis', { skip: hasRedis ? false : 'redis-server is not installed (apt-get install redis-server; .ci/run does)' }, () => {
  let redis: ChildProcess;
  let port: number;
  let replicas: RunningServer[] = [];
  before(async () => {
    port = await freePort();
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    // Wait until it accepts connections.
    for (let i = 0; ; i++) {
      const ok = await new Promise<boolean>((resolve) => {
        const c = connect(port, '127.0.0.1');
        c.once('connect', () => {
          c.end();
          resolve(true);
        });
        c.once('error', () => resolve(false));
      });
      if (ok) break;
      if (i > 100) throw new Error('redis-server did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
    const rateLimit = {
      enabled: true,
      store: 'redis' as const,
      redisUrl: `redis://127.0.0.1:${port}`,
      redisKeyPrefix: `rtserve-test-${process.pid}:`,
      perPrincipal: { ratePerSec: 0.01, burst: 4 },
    };
    replicas = [await startTestServer({ auth: { enabled: true, apiKeys }, rateLimit }), await startTestServer({ auth: { enabled: true, apiKeys }, rateLimit })];
  });
  after(async () => {
    for (const r of replicas) await r.close();
    redis.kill('SIGTERM');
  });

  test('two replicas share one bucket: the burst is spent across both, then both answer 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await inferAs(replicas[i % 2]!.httpUrl, 'key-a')).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
    const r = await inferAs(replicas[0]!.httpUrl, 'key-a');
    assert.ok(Number(r.headers.get('retry-after')) > 1);
    // another principal has its own bucket in the same Redis
    assert.equal((await inferAs(replicas[1]!.httpUrl, 'key-b')).status, 200);
  });

  test('Redis going away fails open (requests pass, logged) rather than failing every request', async () => {
    redis.kill('SIGKILL');
    await new Promise<void>((resolve) => (redis.exitCode !== null || redis.signalCode !== null ? resolve() : redis.once('exit', () => resolve())));
    const r = await inferAs(replicas[0]!.httpUrl, 'key-a');
    assert.equal(r.status, 200, new TextDecoder().decode(r.body));
  });
});
