/**
 * Property test of the paged scheduler over the host TokenEngine on the exact fake decoder (fake-decoder.ts): any
 * prompts (some sharing prefixes), lengths, block sizes, block budgets, step budgets and slot counts give every
 * sequence the tokens it gets alone, and every block is free again at the end. Small budgets force chunked
 * prefill, preemption and prefix-cache reuse with copy-on-write.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { GenerateService } from '../../../src/generate/generate-service.ts';
import type { PagedBatcher } from '../../../src/generate/paged-batcher.ts';
import { FakeDecoderSession, fakeConfig, fakeReference } from './fake-decoder.ts';
import { fuzzParams } from '../../helpers/fuzz.ts';

test('property: the paged scheduler gives the solo tokens under any block, step and slot budget', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 0, maxLength: 10 }),
      fc.array(
        fc.record({
          shared: fc.boolean(),
          tail: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 12 }),
          maxTokens: fc.integer({ min: 1, max: 20 }),
        }),
        { minLength: 1, maxLength: 8 },
      ),
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 0, max: 20 }),
      fc.integer({ min: 1, max: 24 }),
      fc.integer({ min: 1, max: 4 }),
      async (prefix, reqs, blockTokens, extraBlocks, maxStepTokens, maxSequences) => {
        const prompts = reqs.map((r) => (r.shared ? [...prefix, ...r.tail] : r.tail));
        const longest = Math.max(...prompts.map((p, i) => p.length + (reqs[i]?.maxTokens ?? 0)));
        // At least enough blocks for the longest request alone (+1 for a copy-on-write).
        const blocks = Math.ceil(longest / blockTokens) + 1 + extraBlocks;
        const config = fakeConfig({ engine: 'onnx-paged', kv_cache: { block_tokens: blockTokens, blocks, max_step_tokens: maxStepTokens } });
        const session = new FakeDecoderSession();
        const service = new GenerateService({ resolve: () => ({ name: 'fake', version: '1', config, session }), limits: { maxSequences } });
        // Twice: the second wave finds the first wave's blocks in the prefix cache.
        for (const wave of [1, 2]) {
          const gens = prompts.map((p, i) =>
            service.start({ model: 'fake', promptTokens: p, maxTokens: reqs[i]?.maxTokens as number, greedy: true }),
          );
          const results = await Promise.all(gens.map((g) => g.result));
          results.forEach((r, i) =>
            assert.deepEqual(r.tokens, fakeReference(prompts[i] as number[], reqs[i]?.maxTokens as number), `wave ${wave}, request ${i}`),
          );
        }
        const b = service.batcher('fake') as PagedBatcher;
        await b.whenIdle();
        assert.equal(b.pool.used, 0);
        assert.equal(b.pool.available, blocks);
      },
    ),
    fuzzParams(t, { numRuns: 40 }),
  );
});
