/**
 * Rate limits in a real redis-server that the test starts (test/helpers/redis.ts): the Lua script's refill and
 * all-or-nothing take (checked by moving a bucket's timestamp back in Redis, not by sleeping), the evalsha → eval
 * fallback after SCRIPT FLUSH, a Redis restart (refused while away with failOpen off, served again after the
 * reconnect), and per-principal, per-IP and per-model buckets shared by two replicas across REST, gRPC and
 * WebSocket, failing open when Redis goes away.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { Redis } from 'ioredis';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { hashApiKey } from '../../../src/security/authenticator.ts';
import { rateLimitConfigSchema } from '../../../src/config/security-schema.ts';
import { ANONYMOUS } from '../../../src/security/principal.ts';
import { RateLimiter } from '../../../src/security/rate-limiter.ts';
import { RedisBucketStore } from '../../../src/security/redis-bucket-store.ts';
import { encodeModelInferRequest } from '../../../src/codec/grpc/infer-client-codec.ts';
import { request, startTestServer } from '../../helpers/server.ts';
import { RedisServer, redisSkip } from '../../helpers/redis.ts';
import { until } from '../grpc/grpc-test-client.ts';
import { TestWs, simpleInfer } from '../ws/ws-test-client.ts';
import { simpleRequest } from './helpers.ts';

/** One token per 100 s: nothing refills on its own while a test runs, however slow the machine. */
const SLOW = 0.01;

/** A replica's rate-limit settings: buckets in `redis` under a prefix of their own. */
function inRedis(redis: RedisServer, name: string, buckets: Record<string, unknown>) {
  return { enabled: true, store: 'redis' as const, redisUrl: redis.url, redisKeyPrefix: `rtserve-test-${process.pid}-${name}:`, ...buckets };
}

describe('rate limits in Redis', { skip: redisSkip() }, () => {
  let redis: RedisServer;
  let raw: Redis;
  const stores: RedisBucketStore[] = [];
  const storeWith = async (prefix: string): Promise<RedisBucketStore> => {
    const s = await RedisBucketStore.connect({ url: redis.url, keyPrefix: prefix, timeoutMs: 2000 });
    stores.push(s);
    return s;
  };
  before(async () => {
    redis = await RedisServer.start();
    raw = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    raw.on('error', () => {}); // it reconnects by itself after the restart test
    await raw.connect();
  });
  after(async () => {
    for (const s of stores) await s.close();
    raw?.disconnect();
    await redis?.kill();
  });

  test('the Lua script refills by elapsed time (Redis TIME), caps at the burst and sets the expiry', async () => {
    const store = await storeWith('refill:');
    const spec = { key: 'k', ratePerSec: SLOW, burst: 2 };
    assert.deepEqual(await store.take([spec]), { ok: true });
    assert.deepEqual(await store.take([spec]), { ok: true });
    const refused = await store.take([spec]);
    assert.ok(!refused.ok && refused.index === 0, JSON.stringify(refused));
    assert.ok(refused.retryAfterMs > 99_000 && refused.retryAfterMs <= 100_000, `${refused.retryAfterMs} ms`);
    // 150 s "pass": the bucket's timestamp moves back; the script adds 150 s × 0.01 = 1.5 tokens.
    const ts = Number(await raw.hget('refill:k', 'ts'));
    await raw.hset('refill:k', 'ts', String(ts - 150_000));
    assert.deepEqual(await store.take([spec]), { ok: true });
    const again = await store.take([spec]);
    assert.ok(!again.ok && again.retryAfterMs > 49_000 && again.retryAfterMs <= 50_000, JSON.stringify(again));
    // Far in the past: refills to the burst, not beyond.
    await raw.hset('refill:k', 'ts', String(Number(await raw.hget('refill:k', 'ts')) - 10_000_000));
    for (let i = 0; i < 2; i++) assert.deepEqual(await store.take([spec]), { ok: true }, `token ${i + 1} of the burst`);
    assert.equal((await store.take([spec])).ok, false, 'the burst caps the refill');
    // The key expires once it would be full again: burst / rate = 200 s, plus 1 s.
    const ttl = await raw.pttl('refill:k');
    assert.ok(ttl > 190_000 && ttl <= 201_000, `pttl ${ttl}`);
  });

  test('a request takes from all of its buckets or from none', async () => {
    const store = await storeWith('atomic:');
    const wide = { key: 'wide', ratePerSec: SLOW, burst: 5 };
    const narrow = { key: 'narrow', ratePerSec: SLOW, burst: 1 };
    assert.deepEqual(await store.take([wide, narrow]), { ok: true });
    const r = await store.take([wide, narrow]);
    assert.ok(!r.ok && r.index === 1, JSON.stringify(r));
    assert.equal(Math.round(Number(await raw.hget('atomic:wide', 't'))), 4, 'the refused request took nothing from the wide bucket');
  });

  test('after SCRIPT FLUSH the store falls back from evalsha to eval, keeps counting, and the script is cached again', async () => {
    const store = await storeWith('flush:');
    const spec = { key: 'k', ratePerSec: SLOW, burst: 3 };
    assert.deepEqual(await store.take([spec]), { ok: true });
    const cachedScripts = async (): Promise<number> => Number(/number_of_cached_scripts:(\d+)/.exec(await raw.info('memory'))?.[1] ?? -1);
    await raw.script('FLUSH');
    assert.equal(await cachedScripts(), 0);
    assert.deepEqual(await store.take([spec]), { ok: true }, 'NOSCRIPT is answered with eval');
    assert.equal(await cachedScripts(), 1, 'eval cached the script: the next take is an evalsha again');
    assert.deepEqual(await store.take([spec]), { ok: true });
    assert.equal((await store.take([spec])).ok, false, 'the count went on across the flush: 3 tokens, 3 taken');
  });

  test('a Redis restart: refused while Redis is away (failOpen off), served again once the client has reconnected', async () => {
    const config = rateLimitConfigSchema.parse({
      enabled: true,
      store: 'redis',
      redisUrl: redis.url,
      redisKeyPrefix: 'restart:',
      redisTimeoutMs: 1000,
      failOpen: false,
      perPrincipal: { ratePerSec: SLOW, burst: 2 },
    });
    const limiter = await RateLimiter.create(config);
    try {
      await limiter.check(ANONYMOUS, undefined);
      await redis.kill();
      await assert.rejects(
        limiter.check(ANONYMOUS, undefined),
        (e: unknown) => e instanceof RtError && e.code === 'INTERNAL' && /rate limit store is unavailable/.test(e.message),
      );
      await redis.restart();
      // ioredis reconnects on its own (retry every ≤ 2 s); wait for the event, not for a guessed time.
      await until(async () => (await limiter.take(ANONYMOUS, undefined).catch(() => undefined))?.ok === true, 'a check after the restart');
      // A restarted Redis without persistence has forgotten the bucket: the burst is there again, then it runs out.
      await limiter.check(ANONYMOUS, undefined);
      await assert.rejects(limiter.check(ANONYMOUS, undefined), (e: unknown) => e instanceof RtError && e.code === 'RATE_LIMITED');
    } finally {
      await limiter.close();
      await raw.ping().catch(() => undefined);
    }
  });
});

describe('buckets in Redis shared by two replicas over REST, gRPC and WebSocket', { skip: redisSkip() }, () => {
  let redis: RedisServer;
  const replicas: RunningServer[] = [];
  const grpcClients: grpc.Client[] = [];
  const apiKeys = [
    { id: 'a', sha256: hashApiKey('key-a'), scopes: ['infer' as const, 'metadata' as const] },
    { id: 'b', sha256: hashApiKey('key-b'), scopes: ['infer' as const, 'metadata' as const] },
  ];
  const restInfer = (server: RunningServer, key: string) =>
    request(`${server.httpUrl}/v2/models/simple/infer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(simpleRequest()),
    });
  const grpcInfer = (server: RunningServer, key: string): Promise<{ code: number; details: string }> => {
    const c = new grpc.Client(server.grpcAddress ?? '', grpc.credentials.createInsecure());
    grpcClients.push(c);
    const md = new grpc.Metadata();
    md.set('authorization', `Bearer ${key}`);
    const req = encodeModelInferRequest({
      model: 'simple',
      inputs: [
        { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: new Int32Array(16).fill(1) },
        { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: new Int32Array(16).fill(2) },
      ],
    });
    return new Promise((resolve) => {
      c.makeUnaryRequest<Buffer, Buffer>(
        '/inference.GRPCInferenceService/ModelInfer',
        (b) => b,
        (b) => b,
        req,
        md,
        { deadline: Date.now() + 30_000 },
        (err) => resolve(err === null ? { code: 0, details: '' } : { code: err.code, details: err.details }),
      );
    });
  };

  before(async () => {
    redis = await RedisServer.start();
    const rateLimit = inRedis(redis, 'models', { perModel: { simple: { ratePerSec: SLOW, burst: 3 } } });
    for (let i = 0; i < 2; i++) replicas.push(await startTestServer({ auth: { enabled: true, apiKeys }, rateLimit }));
  });
  after(async () => {
    for (const c of grpcClients) c.close();
    for (const r of replicas) await r.close();
    await redis?.kill();
  });

  test('per principal: the burst is spent across both replicas, then both answer 429; Redis away fails open', async () => {
    const rateLimit = inRedis(redis, 'principal', { perPrincipal: { ratePerSec: SLOW, burst: 4 } });
    const pair = [
      await startTestServer({ auth: { enabled: true, apiKeys }, rateLimit }),
      await startTestServer({ auth: { enabled: true, apiKeys }, rateLimit }),
    ];
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await restInfer(pair[i % 2]!, 'key-a')).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
      const r = await restInfer(pair[0]!, 'key-a');
      assert.ok(Number(r.headers.get('retry-after')) > 1);
      // another principal has its own bucket in the same Redis
      assert.equal((await restInfer(pair[1]!, 'key-b')).status, 200);
    } finally {
      for (const s of pair) await s.close();
    }
  });

  test('per model: REST on one replica, gRPC on the other, one bucket per (principal, model)', async () => {
    const [one, two] = replicas as [RunningServer, RunningServer];
    assert.equal((await restInfer(one, 'key-a')).status, 200);
    assert.equal((await grpcInfer(two, 'key-a')).code, 0);
    assert.equal((await restInfer(two, 'key-a')).status, 200);
    const refused = await grpcInfer(one, 'key-a');
    assert.equal(refused.code, grpc.status.RESOURCE_EXHAUSTED, refused.details);
    assert.match(refused.details, /per-model rate limit/);
    const r = await restInfer(two, 'key-a');
    assert.equal(r.status, 429);
    // Another principal has its own (principal, model) bucket.
    assert.equal((await grpcInfer(one, 'key-b')).code, 0);
  });

  test("per model over WebSocket: b's bucket is spent across a WebSocket on one replica and REST on the other", async () => {
    const [one, two] = replicas as [RunningServer, RunningServer];
    // b spent one token over gRPC above.
    const ws = await TestWs.open(one.httpUrl, { headers: { authorization: 'Bearer key-b' } });
    try {
      ws.send(simpleInfer('w1'));
      assert.equal((await ws.terminal('w1')).type, 'result');
      assert.equal((await restInfer(two, 'key-b')).status, 200);
      ws.send(simpleInfer('w2'));
      const e = (await ws.terminal('w2')) as unknown as { type: string; error: { code: string; message: string } };
      assert.equal(e.type, 'error');
      assert.equal(e.error.code, 'RATE_LIMITED');
    } finally {
      ws.close();
    }
  });

  test('per client IP: one bucket for 127.0.0.1 across both replicas and protocols (auth off)', async () => {
    const rateLimit = inRedis(redis, 'ip', { perIp: { ratePerSec: SLOW, burst: 3 } });
    const open = [await startTestServer({ rateLimit }), await startTestServer({ rateLimit })] as [RunningServer, RunningServer];
    try {
      const infer = (s: RunningServer) =>
        request(`${s.httpUrl}/v2/models/simple/infer`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(simpleRequest()),
        });
      assert.equal((await infer(open[0])).status, 200);
      assert.equal((await grpcInfer(open[1], 'unused')).code, 0);
      assert.equal((await infer(open[1])).status, 200);
      const r = await infer(open[0]);
      assert.equal(r.status, 429);
      assert.match((r.json() as { error: string }).error, /rate limit for client 127\.0\.0\.1/);
      assert.equal((await grpcInfer(open[1], 'unused')).code, grpc.status.RESOURCE_EXHAUSTED);
    } finally {
      for (const s of open) await s.close();
    }
  });

  test('Redis going away fails open (requests pass, logged) rather than failing every request', async () => {
    await redis.kill();
    const r = await restInfer(replicas[0]!, 'key-a');
    assert.equal(r.status, 200, new TextDecoder().decode(r.body));
  });
});
