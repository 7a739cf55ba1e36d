/**
 * The GPU decoder behind the TokenEngine seam (src/engine/cuda/llm-engine.ts). The first group runs everywhere:
 * step validation and packing (BAD_REQUEST naming the row and the bound), the checkpoint-to-slot mapping of every
 * family (each tensor used once, fused slots tiled without gap or overlap), and a clear ENGINE_UNAVAILABLE without
 * the addon. The second needs the addon and a GPU and is skipped with the reason elsewhere: greedy tokens of tiny
 * random checkpoints against the CPU ONNX decoder (src/hf + onnxruntime) token for token, a row beyond the geometry,
 * copy-on-write blocks, seeded sampling.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import * as ort from 'onnxruntime-node';
import { resetCudaAddonCache } from '../../../../src/engine/cuda/addon.ts';
import { loadLlmAddon } from '../../../../src/engine/cuda/llm-addon.ts';
import { CudaTokenEngine, createCudaTokenEngine } from '../../../../src/engine/cuda/llm-engine.ts';
import { packStep, ROW_META } from '../../../../src/engine/cuda/llm-step.ts';
import { weightUploads } from '../../../../src/engine/cuda/llm-weights.ts';
import type { RowSampling, StepRow, TokenEngineGeometry } from '../../../../src/engine/token-engine.ts';
import { RtError } from '../../../../src/errors/registry.ts';
import { loadHfDecoder } from '../../../../src/hf/checkpoint.ts';
import { decoderArchOf } from '../../../../src/hf/hf-config.ts';
import { SafetensorsCheckpoint } from '../../../../src/hf/safetensors.ts';
import { type Dtype, type Family, tinyModel, writeCheckpoint } from '../../../helpers/hf-checkpoint.ts';

const root = await mkdtemp(join(tmpdir(), 'rtserve-llm-gpu-'));
after(() => rm(root, { recursive: true, force: true }));

const GREEDY: RowSampling = { greedy: true, temperature: 1, topK: 0, topP: 1, repetitionPenalty: 1, seed: 0 };
const GEOMETRY: TokenEngineGeometry = {
  numLayers: 2,
  kvHeads: 2,
  headDim: 8,
  vocabSize: 300,
  blockTokens: 4,
  totalBlocks: 10,
  maxRows: 2,
  maxStepTokens: 16,
  maxContext: 32,
};

function row(o: Partial<StepRow> = {}): StepRow {
  return { slot: 0, fresh: true, tokens: Int32Array.of(1, 2, 3), start: 0, blocks: Int32Array.of(4), sample: true, sampling: GREEDY, ...o };
}

function rejects(rows: StepRow[], pattern: RegExp): void {
  assert.throws(
    () => packStep(rows, GEOMETRY),
    (e: unknown) => e instanceof RtError && e.code === 'BAD_REQUEST' && pattern.test(e.message),
  );
}

describe('CUDA decoder without a GPU: steps, weights, availability', () => {
  test('a row that breaks the geometry is refused with BAD_REQUEST naming the bound', () => {
    rejects([row({ slot: 2 })], /row 0: slot 2 is not in \[0, 2\)/);
    rejects([row(), row()], /slot 0 appears twice/);
    rejects([row({ tokens: new Int32Array(0) })], /no tokens/);
    rejects([row({ start: 30 })], /positions up to 33 exceed the context of 32/);
    rejects([row({ start: 2, blocks: Int32Array.of(4) })], /1 blocks cannot hold 5 positions/);
    rejects([row({ blocks: Int32Array.of(10) })], /block id 10 is not in \[0, 10\)/);
    rejects([row({ tokens: Int32Array.of(300) })], /token id 300 is not in \[0, 300\)/);
    rejects(
      [
        row({ tokens: new Int32Array(9).fill(1), blocks: Int32Array.of(1, 2, 3) }),
        row({ slot: 1, tokens: new Int32Array(8).fill(1), blocks: Int32Array.of(4, 5) }),
      ],
      /17 tokens; a step takes at most 16/,
    );
    rejects([row({ sampling: { ...GREEDY, greedy: false, temperature: 0 } })], /temperature must be > 0/);
    rejects([], /0 rows; a step takes 1 to 2/);
  });

  test('a valid step packs rows, tokens and only the blocks its positions need', () => {
    const p = packStep(
      [
        row({ slot: 1, tokens: Int32Array.of(7, 8, 9, 10, 11), blocks: Int32Array.of(3, 6, 9) }),
        row({
          slot: 0,
          fresh: false,
          tokens: Int32Array.of(5),
          start: 4,
          blocks: Int32Array.of(2, 8, 9),
          sample: false,
          sampling: { ...GREEDY, greedy: false, temperature: 0.5, topK: 3, topP: 0.9, repetitionPenalty: 1.2, seed: -1 },
        }),
      ],
      GEOMETRY,
    );
    assert.deepEqual([...p.meta.subarray(0, 2)], [2, 6]);
    assert.deepEqual([...p.meta.subarray(2, 2 + ROW_META)], [1, 1, 0, 5, 1, 1, 0, 0, 0, 2]);
    assert.deepEqual([...p.meta.subarray(2 + ROW_META, 2 + 2 * ROW_META)], [0, 0, 4, 1, 0, 0, 3, -1, -1, 2]);
    assert.deepEqual([...p.meta.subarray(2 + 2 * ROW_META)], [7, 8, 9, 10, 11, 5, 3, 6, 2, 8]);
    assert.deepEqual([...p.params], [1, 1, 1, 0.5, Math.fround(0.9), Math.fround(1.2)]);
  });

  for (const family of ['llama', 'qwen2', 'gpt2'] as const) {
    test(`${family}: every checkpoint tensor goes to one slot; fused slots are tiled without gap or overlap`, async () => {
      const dir = join(root, `map-${family}`);
      const m = tinyModel(family, { kvHeads: family === 'gpt2' ? 4 : 2 });
      await writeCheckpoint(dir, m, { dtype: 'F16', ...(family === 'gpt2' ? { namePrefix: 'transformer.' } : {}) });
      const arch = decoderArchOf(m.config, 'config.json');
      const ckpt = await SafetensorsCheckpoint.open(dir);
      const ups = weightUploads(arch, ckpt);
      assert.deepEqual(ups.map((u) => u.name).sort(), [...ckpt.tensors.keys()].sort());
      const bySlot = new Map<string, [number, number][]>();
      for (const u of ups) {
        ckpt.entry(u.name, u.shape);
        const n = u.shape.reduce((a, b) => a * b, 1);
        bySlot.set(u.slot, [...(bySlot.get(u.slot) ?? []), [u.elemOffset, n]]);
        assert.equal(u.transpose, family === 'gpt2' && u.shape.length === 2 && !u.name.endsWith('wte.weight') && !u.name.endsWith('wpe.weight'));
      }
      for (const [slot, parts] of bySlot) {
        let end = 0;
        for (const [off, n] of parts.sort((a, b) => a[0] - b[0])) {
          assert.equal(off, end, `${slot}: parts are contiguous`);
          end = off + n;
        }
      }
      const qkv = (arch.numHeads + 2 * arch.numKvHeads) * arch.headDim * arch.hiddenSize;
      assert.equal(
        (bySlot.get('L0.qkv.w') ?? []).reduce((a, p) => a + p[1], 0),
        qkv,
      );
    });
  }

  test('without the addon, loading says why (ENGINE_UNAVAILABLE), never crashes', async () => {
    const saved = process.env.RTSERVE_CUDA_ADDON;
    process.env.RTSERVE_CUDA_ADDON = join(root, 'nope.node');
    resetCudaAddonCache();
    try {
      await assert.rejects(
        CudaTokenEngine.load(root),
        (e: unknown) => e instanceof RtError && e.code === 'ENGINE_UNAVAILABLE' && /nope\.node is missing/.test(e.message),
      );
      const arch = decoderArchOf(tinyModel('llama').config, 'config.json');
      const request = { blockTokens: 16, totalBlocks: 0, maxRows: 4, maxStepTokens: 64, maxContext: 64 };
      await assert.rejects(createCudaTokenEngine(root, arch, request), (e: unknown) => e instanceof RtError && e.code === 'ENGINE_UNAVAILABLE');
    } finally {
      if (saved === undefined) delete process.env.RTSERVE_CUDA_ADDON;
      else process.env.RTSERVE_CUDA_ADDON = saved;
      resetCudaAddonCache();
    }
  });
});

const status = loadLlmAddon();
const skip = status.available ? false : `needs the native CUDA engine with the LLM decoder and a GPU: ${status.reason}`;

const i64 = (values: readonly number[]) => new ort.Tensor('int64', BigInt64Array.from(values.map(BigInt)), [1, values.length]);

/**
 * Greedy tokens of the CPU ONNX decoder (full recompute per token), up to the first position where its top two
 * logits are closer than FP16 can tell apart (the GPU computes in FP16: such a tie may go either way).
 */
async function cpuGreedy(dir: string, prompt: readonly number[], n: number): Promise<number[]> {
  const built = await loadHfDecoder(dir, { cacheRoot: join(root, 'onnx-cache') });
  const { numLayers: L, numKvHeads: kvH, headDim: D } = built.arch;
  const session = await ort.InferenceSession.create(built.onnxPath, { intraOpNumThreads: 1 });
  const ids = [...prompt];
  const out: number[] = [];
  try {
    for (let k = 0; k < n; k++) {
      const feeds: Record<string, ort.Tensor> = {
        input_ids: i64(ids),
        position_ids: i64(ids.map((_, i) => i)),
        attention_mask: i64(ids.map(() => 1)),
        logits_index: new ort.Tensor('int64', BigInt64Array.of(BigInt(ids.length - 1)), [1]),
      };
      for (let l = 0; l < L; l++)
        for (const kv of ['key', 'value']) feeds[`past_key_values.${l}.${kv}`] = new ort.Tensor('float32', new Float32Array(0), [1, kvH, 0, D]);
      const logits = (await session.run(feeds))['logits']?.data as Float32Array;
      const sorted = [...logits].map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
      const [top, second] = sorted as [readonly [number, number], readonly [number, number]];
      if (top[0] - second[0] < 0.02 * Math.max(1, Math.abs(top[0]))) break;
      out.push(top[1]);
      ids.push(top[1]);
    }
  } finally {
    await session.release();
  }
  return out;
}

/** Greedy tokens through the engine: one prefill step, then one decode step per token; slot 0, blocks from `firstBlock`. */
async function gpuGreedy(e: CudaTokenEngine, prompt: readonly number[], n: number, sampling = GREEDY, firstBlock = 0): Promise<number[]> {
  const blocks = Int32Array.from({ length: Math.ceil((prompt.length + n) / e.geometry.blockTokens) }, (_, i) => firstBlock + i);
  const out = [(await e.step([{ slot: 0, fresh: true, tokens: Int32Array.from(prompt), start: 0, blocks, sample: true, sampling }]))[0] as number];
  while (out.length < n) {
    const t = await e.step([
      { slot: 0, fresh: false, tokens: Int32Array.of(out.at(-1) as number), start: prompt.length + out.length - 1, blocks, sample: true, sampling },
    ]);
    out.push(t[0] as number);
  }
  return out;
}

const CASES: readonly { family: Family; dtype: Dtype; graphs: boolean }[] = [
  { family: 'llama', dtype: 'F16', graphs: true },
  { family: 'qwen2', dtype: 'BF16', graphs: true },
  { family: 'gpt2', dtype: 'F32', graphs: false },
];

describe('CUDA decoder on the GPU', { skip }, () => {
  for (const c of CASES) {
    test(`${c.family} ${c.dtype}${c.graphs ? ', CUDA graphs' : ''}: greedy tokens equal the CPU ONNX decoder's, token for token`, async () => {
      const dir = join(root, `gpu-${c.family}`);
      await writeCheckpoint(dir, tinyModel(c.family, { seed: 5 }), { dtype: c.dtype });
      const engine = await CudaTokenEngine.load(dir, {
        maxRows: 4,
        maxStepTokens: 64,
        maxContext: 64,
        maxBlocks: 64,
        blockTokens: 4,
        cudaGraphs: c.graphs,
      });
      try {
        for (const prompt of [[5, 9, 2, 77, 31, 8, 100], [1], [42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 13]]) {
          const want = await cpuGreedy(dir, prompt, 16);
          assert.ok(want.length >= 4, `the CPU reference decides at least 4 tokens (${want.length})`);
          const got = await gpuGreedy(engine, prompt, want.length);
          assert.deepEqual(got, want, `prompt ${JSON.stringify(prompt)}`);
        }
      } finally {
        await engine.close();
      }
    });
  }

  test('a row beyond the geometry is a BAD_REQUEST and the engine keeps working; copied blocks continue the same sequence', async () => {
    const dir = join(root, 'gpu-llama');
    const engine = await CudaTokenEngine.load(dir, { maxRows: 4, maxStepTokens: 64, maxContext: 64, maxBlocks: 64, blockTokens: 4 });
    try {
      const base = { fresh: true, tokens: Int32Array.of(1, 2), start: 0, blocks: Int32Array.of(0), sample: true, sampling: GREEDY };
      await assert.rejects(engine.step([{ ...base, slot: 4 }]), (e: unknown) => e instanceof RtError && e.code === 'BAD_REQUEST');
      await assert.rejects(
        engine.step([{ ...base, slot: 0, blocks: Int32Array.of(64) }]),
        (e: unknown) => e instanceof RtError && e.code === 'BAD_REQUEST',
      );
      const prompt = [5, 9, 2, 77, 31, 8, 100, 3];
      const straight = await gpuGreedy(engine, prompt, 8);
      // The prompt's two blocks copied to 20, 21: decoding on the copies gives the same continuation.
      const blocks = Int32Array.of(0, 1, 2, 3);
      const first = await engine.step([{ slot: 1, fresh: true, tokens: Int32Array.from(prompt), start: 0, blocks, sample: true, sampling: GREEDY }]);
      await engine.copyBlocks(Int32Array.of(0, 1), Int32Array.of(20, 21));
      const copied = [first[0] as number];
      const onCopy = Int32Array.of(20, 21, 22, 23);
      while (copied.length < 8) {
        const t = await engine.step([
          {
            slot: 1,
            fresh: false,
            tokens: Int32Array.of(copied.at(-1) as number),
            start: prompt.length + copied.length - 1,
            blocks: onCopy,
            sample: true,
            sampling: GREEDY,
          },
        ]);
        copied.push(t[0] as number);
      }
      assert.deepEqual(copied, straight);
    } finally {
      await engine.close();
    }
    await assert.rejects(engine.step([]), (e: unknown) => e instanceof RtError);
  });

  test("a prompt prefilled in two chunks, the second beside another sequence's prefill and then its decode, gives the same tokens", async () => {
    const dir = join(root, 'gpu-llama');
    const engine = await CudaTokenEngine.load(dir, { maxRows: 4, maxStepTokens: 64, maxContext: 64, maxBlocks: 64, blockTokens: 4 });
    try {
      const prompt = [5, 9, 2, 77, 31, 8, 100, 3, 17, 64, 12];
      const other = [99, 98, 7, 6, 5];
      const straight = await gpuGreedy(engine, prompt, 6);
      const otherStraight = await gpuGreedy(engine, other, 6, GREEDY, 30);
      const a = Int32Array.of(10, 11, 12, 13, 14);
      const b = Int32Array.of(40, 41, 42);
      const first = await engine.step([
        { slot: 2, fresh: true, tokens: Int32Array.from(prompt.slice(0, 6)), start: 0, blocks: a, sample: false, sampling: GREEDY },
      ]);
      assert.deepEqual([...first], [-1]);
      const next = await engine.step([
        { slot: 2, fresh: false, tokens: Int32Array.from(prompt.slice(6)), start: 6, blocks: a, sample: true, sampling: GREEDY },
        { slot: 3, fresh: true, tokens: Int32Array.from(other), start: 0, blocks: b, sample: true, sampling: GREEDY },
      ]);
      const got = [[next[0] as number], [next[1] as number]] as [number[], number[]];
      while (got[0].length < 6) {
        const out = await engine.step([
          {
            slot: 2,
            fresh: false,
            tokens: Int32Array.of(got[0].at(-1) as number),
            start: prompt.length + got[0].length - 1,
            blocks: a,
            sample: true,
            sampling: GREEDY,
          },
          {
            slot: 3,
            fresh: false,
            tokens: Int32Array.of(got[1].at(-1) as number),
            start: other.length + got[1].length - 1,
            blocks: b,
            sample: true,
            sampling: GREEDY,
          },
        ]);
        got[0].push(out[0] as number);
        got[1].push(out[1] as number);
      }
      assert.deepEqual(got, [straight, otherStraight]);
    } finally {
      await engine.close();
    }
  });

  test('seeded draws repeat per seed; top_k 1 is greedy; the penalty changes a repeating greedy stream', async () => {
    const dir = join(root, 'gpu-llama');
    const engine = await CudaTokenEngine.load(dir, { maxRows: 4, maxStepTokens: 64, maxContext: 64, maxBlocks: 64, blockTokens: 4 });
    try {
      const prompt = [5, 9, 2, 77];
      const draw = { greedy: false, temperature: 1.5, topK: 0, topP: 0.95, repetitionPenalty: 1, seed: 1234 };
      const a = await gpuGreedy(engine, prompt, 12, draw);
      assert.deepEqual(await gpuGreedy(engine, prompt, 12, draw), a);
      assert.deepEqual(await gpuGreedy(engine, prompt, 12, { ...draw, topK: 1 }), await gpuGreedy(engine, prompt, 12));
      const plain = await gpuGreedy(engine, [42, 42, 42, 42], 12);
      const penalized = await gpuGreedy(engine, [42, 42, 42, 42], 12, { ...GREEDY, repetitionPenalty: 100 });
      if (new Set([42, ...plain]).size < 13) assert.notDeepEqual(penalized, plain);
    } finally {
      await engine.close();
    }
  });
});
