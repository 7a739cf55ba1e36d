import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { makeRepository, postJson, request, startTestServer } from '../../helpers/server.ts';
import { parseSamples, scrape, valueOf } from './helpers.ts';

const MLP = {
  max_batch_size: 8,
  input: [{ name: 'input', data_type: 'TYPE_FP32', dims: [64] }],
  output: [{ name: 'logits', data_type: 'TYPE_FP32', dims: [10] }],
};
const SIMPLE = {
  max_batch_size: 8,
  input: [
    { name: 'INPUT0', data_type: 'TYPE_INT32', dims: [16] },
    { name: 'INPUT1', data_type: 'TYPE_INT32', dims: [16] },
  ],
  output: [
    { name: 'OUTPUT0', data_type: 'TYPE_INT32', dims: [16] },
    { name: 'OUTPUT1', data_type: 'TYPE_INT32', dims: [16] },
  ],
};
const mlpBody = (v: number, id?: string): unknown => ({
  ...(id === undefined ? {} : { id }),
  inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array<number>(64).fill(v) }],
});

interface Stats {
  inference_count: number;
  execution_count: number;
  inference_stats: Record<'success' | 'cache_hit' | 'cache_miss', { count: number; ns: number }>;
}
async function stats(base: string, model: string): Promise<Stats> {
  const r = (await request(`${base}/v2/models/${model}/stats`)).json() as { model_stats: Stats[] };
  const s = r.model_stats[0];
  assert.ok(s !== undefined);
  return s;
}
interface Out {
  id?: string;
  outputs: { name: string; data: number[] }[];
}

describe('response cache (Triton semantics, --cache-size-bytes, response_cache.enable)', () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  before(async () => {
    const repo = await makeRepository({
      cached: { from: 'mlp', config: { ...MLP, response_cache: { enable: true } } },
      plain: { from: 'mlp', config: MLP },
      simple_cached: { from: 'simple', config: { ...SIMPLE, response_cache: { enable: true } } },
    });
    cleanup = repo.cleanup;
    server = await startTestServer({ modelRepository: [repo.dir], cacheSizeBytes: 1 << 20, modelControlMode: 'explicit', loadModel: ['*'] });
  });
  after(async () => {
    await server?.close();
    await cleanup?.();
  });

  test('a repeated request is answered from the cache: same outputs, its own id, hit/miss statistics and metrics', async () => {
    const a = await postJson(`${server.httpUrl}/v2/models/cached/infer`, mlpBody(0.5, 'first'));
    const b = await postJson(`${server.httpUrl}/v2/models/cached/infer`, mlpBody(0.5, 'second'));
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    const ja = a.json() as Out;
    const jb = b.json() as Out;
    assert.equal(ja.id, 'first');
    assert.equal(jb.id, 'second');
    assert.deepEqual(jb.outputs, ja.outputs);
    const s = await stats(server.httpUrl, 'cached');
    assert.equal(s.inference_stats.cache_miss.count, 1);
    assert.equal(s.inference_stats.cache_hit.count, 1);
    assert.equal(s.inference_stats.success.count, 2, 'a hit is a success');
    assert.equal(s.inference_count, 1, 'a hit is not an inference');
    assert.equal(s.execution_count, 1);
    const m = parseSamples(await scrape(`${server.metricsUrl ?? ''}/metrics`));
    assert.equal(valueOf(m, 'nv_cache_num_hits_per_model', { model: 'cached', version: '1' }), 1);
    assert.equal(valueOf(m, 'nv_cache_num_misses_per_model', { model: 'cached', version: '1' }), 1);
    assert.ok((valueOf(m, 'rtserve_response_cache_entries') ?? 0) >= 1);
    assert.equal(valueOf(m, 'rtserve_response_cache_capacity_bytes'), 1 << 20);
  });

  test('different inputs miss; a model without response_cache never uses it', async () => {
    const before = await stats(server.httpUrl, 'cached');
    await postJson(`${server.httpUrl}/v2/models/cached/infer`, mlpBody(0.75));
    const after = await stats(server.httpUrl, 'cached');
    assert.equal(after.inference_stats.cache_miss.count, before.inference_stats.cache_miss.count + 1);
    assert.equal(after.inference_stats.cache_hit.count, before.inference_stats.cache_hit.count);
    for (let i = 0; i < 2; i++) await postJson(`${server.httpUrl}/v2/models/plain/infer`, mlpBody(0.5));
    const plain = await stats(server.httpUrl, 'plain');
    assert.equal(plain.inference_stats.cache_hit.count + plain.inference_stats.cache_miss.count, 0);
    assert.equal(plain.execution_count, 2);
  });

  test('input order does not matter; requested outputs do', async () => {
    const in0 = { name: 'INPUT0', shape: [1, 16], datatype: 'INT32', data: Array.from({ length: 16 }, (_, i) => i) };
    const in1 = { name: 'INPUT1', shape: [1, 16], datatype: 'INT32', data: new Array<number>(16).fill(1) };
    const url = `${server.httpUrl}/v2/models/simple_cached/infer`;
    const onlyOut0 = await postJson(url, { inputs: [in0, in1], outputs: [{ name: 'OUTPUT0' }] });
    assert.deepEqual(
      (onlyOut0.json() as Out).outputs.map((o) => o.name),
      ['OUTPUT0'],
    );
    // Same inputs in the other order, all outputs: must not be served the one-output answer.
    const both = await postJson(url, { inputs: [in1, in0] });
    assert.deepEqual((both.json() as Out).outputs.map((o) => o.name).sort(), ['OUTPUT0', 'OUTPUT1']);
    const bothAgain = await postJson(url, { inputs: [in0, in1] });
    assert.deepEqual((bothAgain.json() as Out).outputs, (both.json() as Out).outputs);
    const s = await stats(server.httpUrl, 'simple_cached');
    assert.equal(s.inference_stats.cache_miss.count, 2);
    assert.equal(s.inference_stats.cache_hit.count, 1);
    const out1 = (bothAgain.json() as Out).outputs.find((o) => o.name === 'OUTPUT1');
    assert.deepEqual(
      out1?.data,
      Array.from({ length: 16 }, (_, i) => i - 1),
    );
  });

  test("a reload (same version, new load) never answers from the old load's entries", async () => {
    await postJson(`${server.httpUrl}/v2/models/cached/infer`, mlpBody(0.125));
    const loaded = await postJson(`${server.httpUrl}/v2/repository/models/cached/load`, {});
    assert.equal(loaded.status, 200);
    await postJson(`${server.httpUrl}/v2/models/cached/infer`, mlpBody(0.125));
    const s = await stats(server.httpUrl, 'cached');
    // Statistics start afresh with the new load: one miss, no hit.
    assert.equal(s.inference_stats.cache_miss.count, 1);
    assert.equal(s.inference_stats.cache_hit.count, 0);
  });
});

describe('response cache bounds', () => {
  test('LRU within --cache-size-bytes: the oldest entries are evicted, recent ones still hit', async () => {
    const repo = await makeRepository({ cached: { from: 'mlp', config: { ...MLP, response_cache: { enable: true } } } });
    // About 7 responses of 10 floats fit (data + per-entry bookkeeping).
    const server = await startTestServer({ modelRepository: [repo.dir], cacheSizeBytes: 2000 });
    try {
      for (let i = 0; i < 10; i++) assert.equal((await postJson(`${server.httpUrl}/v2/models/cached/infer`, mlpBody(i))).status, 200);
      const m = parseSamples(await scrape(`${server.metricsUrl ?? ''}/metrics`));
      const entries = valueOf(m, 'rtserve_response_cache_entries') ?? 0;
      assert.ok(entries > 1 && entries < 10, `entries ${entries}`);
      assert.equal(valueOf(m, 'rtserve_response_cache_evictions_total'), 10 - entries);
      assert.ok((valueOf(m, 'rtserve_response_cache_bytes') ?? Infinity) <= 2000);
      await postJson(`${server.httpUrl}/v2/models/cached/infer`, mlpBody(9)); // newest: hit
      await postJson(`${server.httpUrl}/v2/models/cached/infer`, mlpBody(0)); // oldest: evicted, miss
      const s = await stats(server.httpUrl, 'cached');
      assert.equal(s.inference_stats.cache_hit.count, 1);
      assert.equal(s.inference_stats.cache_miss.count, 11);
    } finally {
      await server.close();
      await repo.cleanup();
    }
  });

  test('without --cache-size-bytes a model asking for the cache is served without one', async () => {
    const repo = await makeRepository({ cached: { from: 'mlp', config: { ...MLP, response_cache: { enable: true } } } });
    const server = await startTestServer({ modelRepository: [repo.dir] });
    try {
      for (let i = 0; i < 2; i++) assert.equal((await postJson(`${server.httpUrl}/v2/models/cached/infer`, mlpBody(1))).status, 200);
      const s = await stats(server.httpUrl, 'cached');
      assert.equal(s.inference_stats.cache_hit.count, 0);
      assert.equal(s.execution_count, 2);
    } finally {
      await server.close();
      await repo.cleanup();
    }
  });
});
