/**
 * The GPU decoder (src/engine/cuda/llm-engine.ts) on the checkpoints bench/cuda/llm_ref.py wrote, through the
 * TokenEngine seam directly (a fixed block table per sequence; the paged scheduler is not in the loop):
 *   correctness  the 20 reference prompts as one batch, 64 greedy tokens, compared token for token with
 *                transformers' (first mismatch position per prompt when not identical);
 *   timings      (--timed checkpoints) 512-token prompts, 128 greedy tokens: the prefill of one prompt, decode tok/s
 *                at 1 and 64 streams (the prefill taken out: decode steps only, timed after a warm-up run).
 *
 *   node bench/cuda/llm-bench.ts --dir DIR --out OUT.json [--only a,b] [--timed llama-1b] [--graphs 0]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CudaTokenEngine } from '../../src/engine/cuda/llm-engine.ts';
import type { StepRow } from '../../src/engine/token-engine.ts';

const GREEDY = { greedy: true, temperature: 1, topK: 0, topP: 1, repetitionPenalty: 1, seed: 0 } as const;

interface Reference {
  readonly prompts: number[][];
  readonly tokens: number[][];
}

/** Sequences on fixed slots and block ranges: slot i owns blocks [i * perSeq, (i + 1) * perSeq). */
class Streams {
  readonly pos: number[];
  readonly last: number[];
  constructor(
    readonly engine: CudaTokenEngine,
    readonly count: number,
    readonly perSeq: number,
  ) {
    this.pos = new Array<number>(count).fill(0);
    this.last = new Array<number>(count).fill(0);
  }

  blocks(i: number): Int32Array {
    return Int32Array.from({ length: this.perSeq }, (_, b) => i * this.perSeq + b);
  }

  /** Prefills the prompts in steps of at most maxStepTokens; returns each stream's first sampled token. */
  async prefill(prompts: readonly number[][]): Promise<number[]> {
    const budget = this.engine.geometry.maxStepTokens;
    const first: number[] = [];
    let i = 0;
    while (i < prompts.length) {
      const rows: StepRow[] = [];
      let used = 0;
      while (i < prompts.length && used + (prompts[i] as number[]).length <= budget && rows.length < this.engine.geometry.maxRows) {
        const p = prompts[i] as number[];
        rows.push({ slot: i, fresh: true, tokens: Int32Array.from(p), start: 0, blocks: this.blocks(i), sample: true, sampling: GREEDY });
        used += p.length;
        this.pos[i] = p.length;
        i++;
      }
      const out = await this.engine.step(rows);
      rows.forEach((r, k) => {
        first[r.slot] = out[k] as number;
        this.last[r.slot] = out[k] as number;
      });
    }
    return first;
  }

  /** One decode step over every stream; returns the sampled tokens. */
  async decode(): Promise<Int32Array> {
    const rows: StepRow[] = this.last.map((t, i) => ({
      slot: i,
      fresh: false,
      tokens: Int32Array.of(t),
      start: this.pos[i] as number,
      blocks: this.blocks(i),
      sample: true,
      sampling: GREEDY,
    }));
    const out = await this.engine.step(rows);
    for (let i = 0; i < this.count; i++) {
      this.pos[i] = (this.pos[i] as number) + 1;
      this.last[i] = out[i] as number;
    }
    return out;
  }
}

async function correctness(engine: CudaTokenEngine, ref: Reference) {
  const n = ref.tokens[0]?.length ?? 0;
  const s = new Streams(engine, ref.prompts.length, Math.ceil(((ref.prompts[0]?.length ?? 0) + n) / engine.geometry.blockTokens));
  const got: number[][] = (await s.prefill(ref.prompts)).map((t) => [t]);
  for (let k = 1; k < n; k++) {
    const out = await s.decode();
    out.forEach((t, i) => got[i]?.push(t));
  }
  const firstMismatch = got.map((g, i) => {
    const want = ref.tokens[i] as number[];
    const at = g.findIndex((t, j) => t !== want[j]);
    return at;
  });
  const identical = firstMismatch.filter((m) => m === -1).length;
  return { prompts: got.length, tokens: n, identical, firstMismatch };
}

function randomPrompts(count: number, length: number, vocab: number, seed: number): number[][] {
  let x = seed >>> 0;
  const next = () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x;
  };
  return Array.from({ length: count }, () => Array.from({ length }, () => next() % vocab));
}

async function timeStreams(engine: CudaTokenEngine, streams: number, promptLen: number, newTokens: number) {
  const perSeq = Math.ceil((promptLen + newTokens) / engine.geometry.blockTokens);
  const prompts = randomPrompts(streams, promptLen, engine.geometry.vocabSize, 11 + streams);
  const run = async () => {
    const s = new Streams(engine, streams, perSeq);
    const t0 = performance.now();
    await s.prefill(prompts);
    const t1 = performance.now();
    for (let k = 1; k < newTokens; k++) await s.decode();
    const t2 = performance.now();
    return { prefillMs: t1 - t0, decodeMs: t2 - t1 };
  };
  await run();
  const best = [await run(), await run()].sort((a, b) => a.decodeMs - b.decodeMs)[0] as { prefillMs: number; decodeMs: number };
  const steps = newTokens - 1;
  // Where a decode step's device time goes: a few steps uncaptured, timed per phase with CUDA events.
  const s = new Streams(engine, streams, perSeq);
  await s.prefill(prompts);
  engine.profileNext(8);
  const p0 = performance.now();
  for (let k = 0; k < 8; k++) await s.decode();
  const eagerMsPerStep = (performance.now() - p0) / 8;
  const profile = (engine.describe() as { profileMsPerStep?: unknown }).profileMsPerStep;
  return {
    eagerMsPerStep,
    profileMsPerStep: profile,
    streams,
    promptTokens: promptLen,
    newTokens,
    prefillMs: best.prefillMs,
    decodeMs: best.decodeMs,
    msPerStep: best.decodeMs / steps,
    decodeTokPerS: (streams * steps) / (best.decodeMs / 1000),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' },
      out: { type: 'string', default: 'llm-bench.json' },
      only: { type: 'string', default: 'tiny-llama,tiny-qwen2,tiny-gpt2,llama-1b' },
      timed: { type: 'string', default: 'llama-1b' },
      graphs: { type: 'string', default: '1' },
      streams: { type: 'string', default: '1,64' },
    },
  });
  if (values.dir === undefined) throw new Error('--dir DIR (written by bench/cuda/llm_ref.py write DIR)');
  const timed = new Set(values.timed.split(','));
  const results: Record<string, unknown>[] = [];
  const save = () => writeFileSync(values.out, JSON.stringify({ date: new Date().toISOString(), results }, null, 1));
  for (const name of values.only.split(',')) {
    const dir = join(values.dir, name);
    const t0 = performance.now();
    const engine = await CudaTokenEngine.load(dir, { maxRows: 64, maxStepTokens: 4096, maxContext: 1024, cudaGraphs: values.graphs !== '0' });
    const loadMs = performance.now() - t0;
    const r: Record<string, unknown> = { name, loadMs, info: engine.info };
    try {
      const ref = JSON.parse(readFileSync(join(dir, 'reference.json'), 'utf8')) as Reference;
      r.correctness = await correctness(engine, ref);
      console.log(`${name}: loaded in ${loadMs.toFixed(0)} ms; greedy identical ${JSON.stringify(r.correctness)}`);
      if (timed.has(name)) {
        const runs = [];
        for (const s of values.streams.split(',').map(Number)) {
          const t = await timeStreams(engine, s, 512, 128);
          console.log(`${name}: ${JSON.stringify(t)}`);
          runs.push(t);
        }
        r.timings = runs;
      }
      r.native = engine.describe();
    } catch (err) {
      r.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      console.log(`${name}: ${r.error}`);
    } finally {
      await engine.close();
    }
    results.push(r);
    save();
  }
}

await main();
