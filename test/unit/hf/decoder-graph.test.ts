/**
 * The ONNX decoder built from a Hugging Face checkpoint (src/hf) against an independent float64 forward pass
 * (reference-decoder.ts), for each family and each weight dtype / file layout: full-prompt logits at every
 * position (chosen by logits_index), a right-padded row in the same batch, and incremental decoding with the KV cache (prefill, then one token per run, present fed
 * back as past) equal to the full recompute. The graph runs on onnxruntime-node directly, not through rtserve.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { loadHfDecoder } from '../../../src/hf/checkpoint.ts';
import { rng, tinyModel, writeCheckpoint, type Dtype, type Family, type TinyModel, type TinyOptions } from '../../helpers/hf-checkpoint.ts';
import { referenceLogits } from './reference-decoder.ts';

const root = await mkdtemp(join(tmpdir(), 'rtserve-hf-graph-'));
after(() => rm(root, { recursive: true, force: true }));

interface Case {
  readonly name: string;
  readonly family: Family;
  readonly dtype: Dtype;
  readonly shards: number;
  readonly options?: TinyOptions;
  readonly prefix?: string;
}

const CASES: readonly Case[] = [
  { name: 'Llama, GQA, llama3 RoPE scaling, F32, one file', family: 'llama', dtype: 'F32', shards: 1, options: { llama3Rope: true } },
  { name: 'Llama, BF16, three shards', family: 'llama', dtype: 'BF16', shards: 3, options: { kvHeads: 1, seed: 3 } },
  { name: 'Qwen2, qkv biases, tied embeddings, F16, one file', family: 'qwen2', dtype: 'F16', shards: 1 },
  { name: 'GPT-2, F32, two shards', family: 'gpt2', dtype: 'F32', shards: 2 },
  { name: "GPT-2, 'transformer.' tensor names, BF16", family: 'gpt2', dtype: 'BF16', shards: 1, prefix: 'transformer.', options: { seed: 4 } },
];

const i64 = (values: readonly number[], dims: number[]) => new ort.Tensor('int64', BigInt64Array.from(values.map(BigInt)), dims);

function pastOf(m: TinyModel, layers: number, kvH: number, D: number, batch: number): Record<string, ort.Tensor> {
  const f: Record<string, ort.Tensor> = {};
  for (let l = 0; l < layers; l++) {
    for (const kv of ['key', 'value']) f[`past_key_values.${l}.${kv}`] = new ort.Tensor('float32', new Float32Array(0), [batch, kvH, 0, D]);
  }
  void m;
  return f;
}

function assertClose(got: Float32Array, want: Float64Array, what: string): void {
  assert.equal(got.length, want.length, `${what}: length`);
  let worst = 0;
  for (let i = 0; i < got.length; i++)
    worst = Math.max(worst, Math.abs((got[i] as number) - (want[i] as number)) / Math.max(1, Math.abs(want[i] as number)));
  assert.ok(worst < 1e-4, `${what}: largest relative difference ${worst}`);
}

for (const c of CASES) {
  describe(c.name, () => {
    test('logits equal the float64 reference; incremental decode with the KV cache equals full recompute', async () => {
      const m = tinyModel(c.family, c.options);
      const dir = join(root, c.name.replace(/\W+/g, '-'));
      await writeCheckpoint(dir, m, { dtype: c.dtype, shards: c.shards, ...(c.prefix === undefined ? {} : { namePrefix: c.prefix }) });
      const built = await loadHfDecoder(dir, { cacheRoot: join(root, 'cache') });
      const { numLayers: L, numKvHeads: kvH, headDim: D, vocabSize: V } = built.arch;
      const session = await ort.InferenceSession.create(built.onnxPath, { intraOpNumThreads: 1 });
      try {
        const r = rng(11);
        const prompt = Array.from({ length: 7 }, () => Math.floor(r() * V));
        const ref = referenceLogits(m, prompt);
        const refShort = referenceLogits(m, prompt.slice(0, 4));
        const S = prompt.length;

        // One batch: row 0 the whole prompt, row 1 its first 4 tokens right-padded (mask 0 on the padding).
        const ids = [...prompt, ...prompt.slice(0, 4), 0, 0, 0];
        const positions = [...prompt.map((_, i) => i), 0, 1, 2, 3, 0, 0, 0];
        const mask = [...prompt.map(() => 1), 1, 1, 1, 1, 0, 0, 0];
        // logits_index picks one position's logits per row: every position is asked for in turn.
        const fullLogits: Float32Array[] = [];
        for (let p = 0; p < S; p++) {
          const full = await session.run({
            input_ids: i64(ids, [2, S]),
            position_ids: i64(positions, [2, S]),
            attention_mask: i64(mask, [2, S]),
            logits_index: i64([p, Math.min(p, 3)], [2]),
            ...pastOf(m, L, kvH, D, 2),
          });
          const logits = full['logits']?.data as Float32Array;
          assert.deepEqual(full['logits']?.dims, [2, 1, V]);
          assert.deepEqual(full['present.0.key']?.dims, [2, kvH, S, D]);
          assertClose(logits.subarray(0, V), ref[p] as Float64Array, `row 0 position ${p}`);
          if (p < 4) assertClose(logits.subarray(V, 2 * V), refShort[p] as Float64Array, `padded row 1 position ${p}`);
          fullLogits.push(logits.slice(0, V));
        }

        // Prefill 4 tokens, then one token per run with the cache: the same logits as the full run.
        let out = await session.run({
          input_ids: i64(prompt.slice(0, 4), [1, 4]),
          position_ids: i64([0, 1, 2, 3], [1, 4]),
          attention_mask: i64([1, 1, 1, 1], [1, 4]),
          logits_index: i64([3], [1]),
          ...pastOf(m, L, kvH, D, 1),
        });
        for (let p = 4; p < S; p++) {
          const feeds: Record<string, ort.Tensor> = {
            input_ids: i64([prompt[p] as number], [1, 1]),
            position_ids: i64([p], [1, 1]),
            attention_mask: i64(
              Array.from({ length: p + 1 }, () => 1),
              [1, p + 1],
            ),
            logits_index: i64([0], [1]),
          };
          for (let l = 0; l < L; l++) {
            feeds[`past_key_values.${l}.key`] = out[`present.${l}.key`] as ort.Tensor;
            feeds[`past_key_values.${l}.value`] = out[`present.${l}.value`] as ort.Tensor;
          }
          out = await session.run(feeds);
          const step = out['logits']?.data as Float32Array;
          assertClose(step, ref[p] as Float64Array, `incremental position ${p}`);
          const recomputed = fullLogits[p] as Float32Array;
          for (let i = 0; i < V; i++) assert.ok(Math.abs((step[i] as number) - (recomputed[i] as number)) < 1e-4, `incremental = full at ${p}`);
        }
      } finally {
        await session.release();
      }
    });
  });
}

test('a second load of the same checkpoint reuses the built graph', async () => {
  const dir = join(root, 'reuse');
  await writeCheckpoint(dir, tinyModel('qwen2'), {});
  const a = await loadHfDecoder(dir, { cacheRoot: join(root, 'cache') });
  const b = await loadHfDecoder(dir, { cacheRoot: join(root, 'cache') });
  assert.equal(a.onnxPath, b.onnxPath);
});
