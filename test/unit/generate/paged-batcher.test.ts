/**
 * The paged scheduler (paged-batcher.ts) over the host TokenEngine (host-token-engine.ts), with real parts: the
 * bundled charlm ONNX decoder and a tiny random Llama checkpoint written by the test, run by onnxruntime through
 * the ORT engine. Every greedy output is compared token for token with the continuous batcher over the same
 * session: mixed steps, chunked prefill, prefix-cache hits (with copy-on-write of a fully cached prompt),
 * preemption under a tiny block budget, and cancellation giving every block back.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { modelConfigSchema } from '../../../src/config/model-config.ts';
import type { EngineSession } from '../../../src/engine/engine.ts';
import { createOrtEngine } from '../../../src/engine/ort/index.ts';
import type { DecoderText } from '../../../src/generate/decoder-spec.ts';
import { GenerateService } from '../../../src/generate/generate-service.ts';
import type { BatcherLimits } from '../../../src/generate/continuous-batcher.ts';
import { PagedBatcher } from '../../../src/generate/paged-batcher.ts';
import { loadHfDecoder } from '../../../src/hf/checkpoint.ts';
import { tinyModel, writeCheckpoint } from '../../helpers/hf-checkpoint.ts';

const CHARLM = fileURLToPath(new URL('../../../models/charlm', import.meta.url));

interface Decoder {
  readonly session: EngineSession;
  readonly config: Record<string, unknown>;
  readonly text?: DecoderText;
}

/** A GenerateService over `d` with generate.engine and kv_cache overridden. */
function serviceFor(d: Decoder, generate: Record<string, unknown>, limits: Partial<BatcherLimits> = {}): GenerateService {
  const base = d.config as { generate: Record<string, unknown> };
  const config = modelConfigSchema.parse({ ...base, name: 'm', generate: { ...base.generate, ...generate } });
  return new GenerateService({ resolve: () => ({ name: 'm', version: '1', config, session: d.session, text: d.text }), limits });
}

function paged(service: GenerateService): PagedBatcher {
  const b = service.batcher('m');
  assert.ok(b instanceof PagedBatcher, 'generate.engine onnx-paged runs the paged scheduler');
  return b;
}

async function greedyAll(service: GenerateService, prompts: readonly number[][], maxTokens: number): Promise<number[][]> {
  const gens = prompts.map((p) => service.start({ model: 'm', promptTokens: p, maxTokens, greedy: true }));
  return (await Promise.all(gens.map((g) => g.result))).map((r) => [...r.tokens]);
}

/** Greedy outputs of the continuous batcher, one request at a time (the reference). */
async function reference(d: Decoder, prompts: readonly number[][], maxTokens: number): Promise<number[][]> {
  const service = serviceFor(d, { engine: 'onnx' });
  const out: number[][] = [];
  for (const p of prompts) out.push(...(await greedyAll(service, [p], maxTokens)));
  return out;
}

function suite(name: string, open: () => Promise<Decoder & { close: () => Promise<void> }>, vocab: number): void {
  describe(name, () => {
    let d: Decoder & { close: () => Promise<void> };
    before(async () => {
      d = await open();
    });
    after(async () => d.close());
    const prompt = (n: number, salt: number): number[] => Array.from({ length: n }, (_, i) => (i * 7 + salt * 13 + 1) % Math.min(vocab - 1, 255));

    test('greedy outputs equal the continuous batcher token for token, sequences mixed in one step', async () => {
      const prompts = [3, 9, 17, 1, 26, 5].map((n, i) => prompt(n, i));
      const want = await reference(d, prompts, 12);
      const service = serviceFor(d, { engine: 'onnx-paged', kv_cache: { block_tokens: 4, max_step_tokens: 64 } });
      assert.deepEqual(await greedyAll(service, prompts, 12), want);
      const b = paged(service);
      assert.ok(b.stats.maxRows > 1, 'several sequences ran in one step');
      assert.equal(b.pool.used, 0, 'every block given back');
    });

    test('stop sequences, max_tokens, finish reasons, events and usage are those of the continuous batcher', async () => {
      const onnx = serviceFor(d, { engine: 'onnx' });
      const pagedService = serviceFor(d, { engine: 'onnx-paged', kv_cache: { block_tokens: 4, max_step_tokens: 8 } });
      const p = prompt(11, 9);
      const plain = await onnx.start({ model: 'm', promptTokens: p, maxTokens: 24, greedy: true }).result;
      assert.ok(plain.text.length >= 6, 'the reference output has text to stop in');
      for (const req of [
        { maxTokens: 24, stop: [plain.text.slice(3, 6)] },
        { maxTokens: 5, stop: [] },
      ]) {
        const run = async (service: GenerateService) => {
          const g = service.start({ model: 'm', promptTokens: p, greedy: true, ...req });
          const events = [];
          for await (const e of g.events()) events.push(e);
          const r = await g.result;
          return { events, text: r.text, tokens: r.tokens, finishReason: r.finishReason, usage: r.usage };
        };
        const want = await run(onnx);
        assert.deepEqual(await run(pagedService), want);
        assert.equal(want.finishReason, req.stop.length > 0 ? 'stop' : 'length');
      }
    });

    test('chunked prefill: prompts longer than max_step_tokens give the same tokens', async () => {
      const prompts = [prompt(45, 1), prompt(3, 2), prompt(30, 3)];
      const want = await reference(d, prompts, 8);
      const service = serviceFor(d, { engine: 'onnx-paged', kv_cache: { block_tokens: 4, max_step_tokens: 8 } });
      assert.deepEqual(await greedyAll(service, prompts, 8), want);
      // 45 + 3 + 30 prompt tokens at 8 a step need at least 10 steps before the last prompt is in.
      assert.ok(paged(service).stats.steps >= 10 + 7);
    });

    test('a shared prompt hits the prefix cache and gives identical outputs (a fully cached prompt copies its last block)', async () => {
      // Four full blocks of 4 with the BOS token the service prepends.
      const bos = (d.config as { generate: { bos_token_id?: number } }).generate.bos_token_id;
      const shared = prompt(bos === undefined ? 16 : 15, 5);
      const longer = [...shared, ...prompt(6, 6)];
      const want = await reference(d, [shared, longer], 10);
      const service = serviceFor(d, { engine: 'onnx-paged', kv_cache: { block_tokens: 4 } });
      const [first] = await greedyAll(service, [shared], 10);
      const b = paged(service);
      const hitsBefore = b.pool.stats.hits;
      const [again, extended] = [...(await greedyAll(service, [shared], 10)), ...(await greedyAll(service, [longer], 10))];
      assert.deepEqual([first, again, extended], [want[0], want[0], want[1]]);
      // The repeat finds all 4 blocks (the last one copied before its last token is recomputed); the longer one 4 more.
      assert.ok(b.pool.stats.hits - hitsBefore >= 8, `prefix-cache hits: ${b.pool.stats.hits - hitsBefore}`);
      assert.equal(b.stats.copies, 1, 'the repeat wrote its last token into a copy of the cached block');
      assert.equal(b.pool.used, 0);
    });

    test('preemption under a tiny block budget completes every request with identical outputs', async () => {
      const prompts = [6, 9, 4, 11].map((n, i) => prompt(n, 20 + i));
      const want = await reference(d, prompts, 20);
      // 8 blocks of 4 = 32 positions: one sequence (up to 31 positions) fits, four do not.
      const service = serviceFor(d, { engine: 'onnx-paged', kv_cache: { block_tokens: 4, blocks: 8 } });
      assert.deepEqual(await greedyAll(service, prompts, 20), want);
      const b = paged(service);
      assert.ok(b.stats.preemptions > 0, 'sequences were preempted');
      assert.equal(b.pool.used, 0);
      assert.equal(b.pool.available, 8);
    });

    test('cancelling running and queued generations gives every block back', async () => {
      const service = serviceFor(d, { engine: 'onnx-paged', kv_cache: { block_tokens: 4, blocks: 40 } }, { maxSequences: 2 });
      const gens = [0, 1, 2].map((i) => service.start({ model: 'm', promptTokens: prompt(10, 40 + i), maxTokens: 100, greedy: true }));
      for await (const e of gens[0]?.events() ?? []) {
        if (e.type === 'delta') break;
      }
      const b = paged(service);
      assert.ok(b.pool.used > 0);
      for (const g of gens) g.cancel();
      const results = await Promise.all(gens.map((g) => g.result));
      assert.deepEqual(
        results.map((r) => r.finishReason),
        ['cancelled', 'cancelled', 'cancelled'],
      );
      await b.whenIdle();
      assert.equal(b.pool.used, 0);
      assert.equal(b.pool.available, 40);
      assert.equal(b.running, 0);
    });
  });
}

suite('paged scheduler on charlm (host TokenEngine)', async () => {
  const session = await createOrtEngine().load(join(CHARLM, '1', 'model.onnx'), { providers: [{ name: 'cpu' }], intraOpNumThreads: 1 });
  const config = JSON.parse(readFileSync(join(CHARLM, 'config.json'), 'utf8')) as Record<string, unknown>;
  return { session, config, close: () => session.close() };
}, 257);

suite('paged scheduler on a tiny random Llama checkpoint (host TokenEngine)', async () => {
  const root = await mkdtemp(join(tmpdir(), 'rtserve-paged-'));
  await writeCheckpoint(join(root, 'ckpt'), tinyModel('llama', { seed: 3 }));
  const hf = await loadHfDecoder(join(root, 'ckpt'), { cacheRoot: join(root, 'cache') });
  const session = await createOrtEngine().load(hf.onnxPath, { providers: [{ name: 'cpu' }], intraOpNumThreads: 1 });
  return {
    session,
    config: { ...hf.configDefaults },
    text: hf.text,
    close: async () => {
      await session.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}, 200);
