import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryBucketStore } from '../../../src/security/bucket-store.ts';
import { rateLimitConfigSchema } from '../../../src/config/security-schema.ts';
import { RateLimiter } from '../../../src/security/rate-limiter.ts';
import { ANONYMOUS, authorize, modelMatches, type Principal } from '../../../src/security/principal.ts';
import { RtError } from '../../../src/errors/registry.ts';

function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

const alice: Principal = { id: 'alice', kind: 'api-key', operations: new Set(['infer']), models: ['simple', 'res*'] };
const bob: Principal = { id: 'bob', kind: 'api-key', operations: new Set(['metadata']), models: ['*'] };

describe('MemoryBucketStore', () => {
  test('burst, then one token per 1/rate seconds, with the exact wait', () => {
    const c = clock();
    const store = new MemoryBucketStore(c.now);
    const spec = [{ key: 'k', ratePerSec: 10, burst: 3 }];
    for (let i = 0; i < 3; i++) assert.deepEqual(store.takeSync(spec), { ok: true });
    assert.deepEqual(store.takeSync(spec), { ok: false, retryAfterMs: 100, index: 0 });
    c.advance(40);
    assert.deepEqual(store.takeSync(spec), { ok: false, retryAfterMs: 60, index: 0 });
    c.advance(60);
    assert.deepEqual(store.takeSync(spec), { ok: true });
    c.advance(10_000);
    for (let i = 0; i < 3; i++) assert.equal(store.takeSync(spec).ok, true, 'refills only up to burst');
    assert.equal(store.takeSync(spec).ok, false);
  });

  test('several buckets: all or nothing, and the refusal names the bucket needing the longest wait', () => {
    const c = clock();
    const store = new MemoryBucketStore(c.now);
    const a = { key: 'a', ratePerSec: 1, burst: 1 };
    const b = { key: 'b', ratePerSec: 100, burst: 5 };
    assert.equal(store.takeSync([a, b]).ok, true);
    const r = store.takeSync([b, a]);
    assert.deepEqual(r, { ok: false, retryAfterMs: 1000, index: 1 });
    // b was not charged by the refused request: 4 tokens remain
    for (let i = 0; i < 4; i++) assert.equal(store.takeSync([b]).ok, true);
    assert.equal(store.takeSync([b]).ok, false);
  });
});

describe('RateLimiter', () => {
  test('per principal, per IP and per (principal, model) buckets', async () => {
    const c = clock();
    const config = rateLimitConfigSchema.parse({
      enabled: true,
      perPrincipal: { ratePerSec: 1, burst: 4 },
      perIp: { ratePerSec: 1, burst: 3 },
      perModel: { 'res*': { ratePerSec: 1, burst: 1 }, resnet_tiny: { ratePerSec: 1, burst: 2 } },
    });
    const rl = await RateLimiter.create(config, undefined, new MemoryBucketStore(c.now));
    assert.deepEqual(
      rl.bucketsFor(alice, '10.0.0.1', 'resnet_tiny').map((b) => [b.key, b.burst]),
      [
        ['p:5:alice', 4],
        ['ip:10.0.0.1', 3],
        ['pm:5:alice11:resnet_tiny', 2],
      ],
      'the exact model rule wins over the pattern',
    );
    assert.deepEqual(
      rl.bucketsFor(alice, undefined, 'resx').map((b) => b.burst),
      [4, 1],
    );
    assert.deepEqual(
      rl.bucketsFor(alice, '10.0.0.1', 'simple').map((b) => b.key),
      ['p:5:alice', 'ip:10.0.0.1'],
    );

    assert.equal((await rl.take(alice, '10.0.0.1', 'resx')).ok, true);
    const r = await rl.take(alice, '10.0.0.2', 'resx');
    assert.ok(!r.ok && r.limit === 'per-model rate limit' && r.retryAfterMs === 1000, JSON.stringify(r));
    assert.equal((await rl.take(alice, '10.0.0.1')).ok, true);
    assert.equal((await rl.take(bob, '10.0.0.1')).ok, true);
    const ip = await rl.take(bob, '10.0.0.1');
    assert.ok(!ip.ok && ip.limit === 'rate limit for client 10.0.0.1', JSON.stringify(ip));
    await assert.rejects(
      rl.check(bob, '10.0.0.1'),
      (e: unknown) => e instanceof RtError && e.code === 'RATE_LIMITED' && e.retryAfterMs === 1000 && e.httpStatus === 429 && e.grpcStatus === 8,
    );
  });

  test('concurrency cap per principal: refuses past the cap, release is idempotent', async () => {
    const rl = await RateLimiter.create(rateLimitConfigSchema.parse({ enabled: true, maxConcurrentPerPrincipal: 2 }));
    const r1 = await rl.acquire(alice);
    const r2 = await rl.acquire(alice);
    await assert.rejects(rl.acquire(alice), (e: unknown) => e instanceof RtError && e.code === 'RATE_LIMITED' && /2 unfinished/.test(e.message));
    (await rl.acquire(bob))();
    r1();
    r1();
    assert.equal(rl.inFlightOf('alice'), 1);
    const r3 = await rl.acquire(alice);
    r2();
    r3();
    assert.equal(rl.inFlightOf('alice'), 0);
  });

  test('a failing store lets requests through when failOpen, refuses them otherwise', async () => {
    const broken = { take: () => Promise.reject(new Error('down')), close: () => Promise.resolve() };
    const open = await RateLimiter.create(rateLimitConfigSchema.parse({ enabled: true, perIp: { ratePerSec: 1, burst: 1 } }), undefined, broken);
    assert.deepEqual(await open.take(alice, '1.2.3.4'), { ok: true });
    const closed = await RateLimiter.create(
      rateLimitConfigSchema.parse({ enabled: true, failOpen: false, perIp: { ratePerSec: 1, burst: 1 } }),
      undefined,
      broken,
    );
    await assert.rejects(closed.take(alice, '1.2.3.4'), (e: unknown) => e instanceof RtError && e.code === 'INTERNAL');
  });
});

describe('authorize', () => {
  test('operations, admin, model patterns; health is allowed to any principal', () => {
    assert.equal(authorize(alice, 'infer', 'simple'), undefined);
    assert.equal(authorize(alice, 'infer', 'resnet_tiny'), undefined);
    assert.equal(authorize(alice, 'infer', 'mlp')?.code, 'PERMISSION_DENIED');
    assert.match(authorize(alice, 'metadata', 'simple')?.message ?? '', /lacks the 'metadata' scope/);
    assert.equal(authorize(alice, 'health'), undefined);
    assert.equal(authorize(ANONYMOUS, 'repository', 'x'), undefined);
    assert.equal(authorize(bob, 'metadata', 'anything'), undefined);
    assert.equal(authorize(bob, 'infer', 'simple')?.httpStatus, 403);
  });

  test('modelMatches', () => {
    assert.ok(modelMatches('*', 'a'));
    assert.ok(modelMatches('a', 'a'));
    assert.ok(modelMatches('a*', 'abc'));
    assert.ok(!modelMatches('a', 'ab'));
    assert.ok(!modelMatches('ab*', 'a'));
  });
});
