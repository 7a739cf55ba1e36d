/**
 * A TokenEngine (token-engine.ts) over the ONNX decoder the continuous batcher drives (decoder-spec.ts), with the
 * paged KV cache in host memory: per layer one key and one value array of [totalBlocks, kvHeads, blockTokens,
 * headDim]. A step gathers each row's cached positions from its blocks into the graph's `past` tensors (rows
 * right-padded to the longest, masked), runs the graph once for every row's new tokens through EngineSession.run,
 * scatters the new columns of `present` back into the rows' blocks and samples with the CPU Sampler, one per slot.
 *
 * It lets the paged scheduler run with real parts where there is no GPU (CI), and is the reference a device engine
 * is checked against. The graph must apply the causal rule within the new tokens as well as the mask (the graphs
 * src/hf builds do; see decoder-graph.ts).
 */
import type { EngineSession } from '../engine/engine.ts';
import { rtError } from '../errors/registry.ts';
import type { Tensor } from '../tensor/tensor.ts';
import type { DecoderSpec } from './decoder-spec.ts';
import { indexTensor, maskTensor } from './feeds.ts';
import { Sampler } from './sampling.ts';
import type { StepRow, TokenEngine, TokenEngineGeometry } from './token-engine.ts';

/** What the scheduler may choose for a host engine; the rest of the geometry comes from the graph. */
export interface HostEngineSizes {
  readonly blockTokens: number;
  readonly totalBlocks: number;
  readonly maxRows: number;
  readonly maxStepTokens: number;
}

export class HostTokenEngine implements TokenEngine {
  readonly geometry: TokenEngineGeometry;
  private readonly keys: Float32Array[];
  private readonly values: Float32Array[];
  private readonly samplers: (Sampler | undefined)[];
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly spec: DecoderSpec,
    private readonly session: EngineSession,
    sizes: HostEngineSizes,
  ) {
    this.geometry = {
      numLayers: spec.numLayers,
      kvHeads: spec.kvHeads,
      headDim: spec.headDim,
      vocabSize: spec.vocabSize,
      maxContext: spec.maxContext,
      ...sizes,
    };
    const size = sizes.totalBlocks * spec.kvHeads * sizes.blockTokens * spec.headDim;
    this.keys = Array.from({ length: spec.numLayers }, () => new Float32Array(size));
    this.values = Array.from({ length: spec.numLayers }, () => new Float32Array(size));
    this.samplers = new Array<Sampler | undefined>(sizes.maxRows);
  }

  step(rows: readonly StepRow[]): Promise<Int32Array> {
    return this.serial(() => this.run(rows));
  }

  copyBlocks(from: Int32Array, to: Int32Array): Promise<void> {
    return this.serial(async () => {
      if (from.length !== to.length) throw rtError('BAD_REQUEST', 'copyBlocks: from and to differ in length');
      const n = this.blockFloats();
      from.forEach((f, i) => {
        const t = to[i] as number;
        this.checkBlock(f);
        this.checkBlock(t);
        for (const arr of [...this.keys, ...this.values]) arr.copyWithin(t * n, f * n, (f + 1) * n);
      });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.keys.length = 0;
    this.values.length = 0;
  }

  /** Steps and copies run one at a time in call order (the TokenEngine contract). */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(() => {
      if (this.closed) throw rtError('MODEL_NOT_READY', `model '${this.spec.model}': the token engine is closed`);
      return fn();
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  private blockFloats(): number {
    return this.spec.kvHeads * this.geometry.blockTokens * this.spec.headDim;
  }

  private checkBlock(b: number): void {
    if (!Number.isInteger(b) || b < 0 || b >= this.geometry.totalBlocks) {
      throw rtError('BAD_REQUEST', `block id ${b} is outside 0..${this.geometry.totalBlocks - 1}`);
    }
  }

  private check(rows: readonly StepRow[]): void {
    const g = this.geometry;
    if (rows.length === 0 || rows.length > g.maxRows) throw rtError('BAD_REQUEST', `a step takes 1..${g.maxRows} rows, got ${rows.length}`);
    let total = 0;
    const slots = new Set<number>();
    for (const r of rows) {
      if (!Number.isInteger(r.slot) || r.slot < 0 || r.slot >= g.maxRows || slots.has(r.slot)) {
        throw rtError('BAD_REQUEST', `slot ${r.slot} is outside 0..${g.maxRows - 1} or used twice in one step`);
      }
      slots.add(r.slot);
      const end = r.start + r.tokens.length;
      if (r.tokens.length === 0 || end > g.maxContext)
        throw rtError('BAD_REQUEST', `a row covers positions ${r.start}..${end - 1}; context ${g.maxContext}`);
      if (r.blocks.length * g.blockTokens < end) throw rtError('BAD_REQUEST', `a row's ${r.blocks.length} blocks do not cover ${end} positions`);
      for (const b of r.blocks) this.checkBlock(b);
      total += r.tokens.length;
    }
    if (total > g.maxStepTokens) throw rtError('BAD_REQUEST', `a step of ${total} tokens exceeds maxStepTokens ${g.maxStepTokens}`);
  }

  private async run(rows: readonly StepRow[]): Promise<Int32Array> {
    this.check(rows);
    const spec = this.spec;
    const R = rows.length;
    const C = Math.max(...rows.map((r) => r.tokens.length));
    const T = Math.max(...rows.map((r) => r.start));
    const ids = new Array<number>(R * C).fill(spec.eosTokenId);
    const positions = new Array<number>(R * C).fill(0);
    const mask = new Uint8Array(R * (T + C));
    rows.forEach((r, i) => {
      mask.fill(1, i * (T + C), i * (T + C) + r.start);
      r.tokens.forEach((t, j) => {
        ids[i * C + j] = t;
        positions[i * C + j] = r.start + j;
        mask[i * (T + C) + T + j] = 1;
      });
    });
    const feeds: Tensor[] = [
      indexTensor(spec.inputIds, spec.idsType, [R, C], ids),
      indexTensor(spec.positionIds, spec.positionsType, [R, C], positions),
      maskTensor(spec.attentionMask, spec.maskType, [R, T + C], mask),
    ];
    if (spec.logitsIndex !== undefined) {
      feeds.push(
        indexTensor(
          spec.logitsIndex,
          spec.logitsIndexType,
          [R],
          rows.map((r) => r.tokens.length - 1),
        ),
      );
    }
    const shape = [R, spec.kvHeads, T, spec.headDim];
    for (let l = 0; l < spec.numLayers; l++) {
      feeds.push({ name: spec.pastKey[l] as string, datatype: 'FP32', shape, data: this.gather(this.keys[l] as Float32Array, rows, T) });
      feeds.push({ name: spec.pastValue[l] as string, datatype: 'FP32', shape, data: this.gather(this.values[l] as Float32Array, rows, T) });
    }
    const outputs = new Map((await this.session.run(feeds, spec.outputNames)).map((t) => [t.name, t]));
    const out = (name: string): Float32Array => {
      const t = outputs.get(name);
      if (t === undefined) throw rtError('ENGINE_FAILED', `model '${spec.model}': the engine returned no output '${name}'`);
      return t.data as Float32Array;
    };
    for (let l = 0; l < spec.numLayers; l++) {
      this.scatter(this.keys[l] as Float32Array, out(spec.presentKey[l] as string), rows, T + C, T);
      this.scatter(this.values[l] as Float32Array, out(spec.presentValue[l] as string), rows, T + C, T);
    }
    return this.sample(rows, out(spec.logits), C);
  }

  /**
   * Calls `copy(cacheOffset, p, n)` for each run of positions from .. to - 1 of head `h` that lies in one block
   * (contiguous in the cache: a block is [kvHeads, blockTokens, headDim]).
   */
  private runs(blocks: Int32Array, h: number, from: number, to: number, copy: (at: number, p: number, n: number) => void): void {
    const B = this.geometry.blockTokens;
    const { kvHeads, headDim } = this.spec;
    for (let p = from; p < to; ) {
      const offset = p % B;
      const n = Math.min(B - offset, to - p);
      copy(((blocks[Math.floor(p / B)] as number) * kvHeads * B + h * B + offset) * headDim, p, n);
      p += n;
    }
  }

  /** Positions 0 .. start-1 of every row, as [R, kvHeads, T, headDim]. */
  private gather(cache: Float32Array, rows: readonly StepRow[], T: number): Float32Array {
    const { kvHeads, headDim } = this.spec;
    const past = new Float32Array(rows.length * kvHeads * T * headDim);
    rows.forEach((r, i) => {
      for (let h = 0; h < kvHeads; h++) {
        const base = (i * kvHeads + h) * T * headDim;
        this.runs(r.blocks, h, 0, r.start, (at, p, n) => past.set(cache.subarray(at, at + n * headDim), base + p * headDim));
      }
    });
    return past;
  }

  /** The new tokens' columns of `present` ([R, kvHeads, cols, headDim], new ones from column T) into the blocks. */
  private scatter(cache: Float32Array, present: Float32Array, rows: readonly StepRow[], cols: number, T: number): void {
    const { kvHeads, headDim } = this.spec;
    rows.forEach((r, i) => {
      for (let h = 0; h < kvHeads; h++) {
        // Column T + j of the row holds position start + j.
        const base = ((i * kvHeads + h) * cols + T - r.start) * headDim;
        this.runs(r.blocks, h, r.start, r.start + r.tokens.length, (at, p, n) =>
          cache.set(present.subarray(base + p * headDim, base + (p + n) * headDim), at),
        );
      }
    });
  }

  private sample(rows: readonly StepRow[], logits: Float32Array, C: number): Int32Array {
    const V = this.spec.vocabSize;
    const tokens = new Int32Array(rows.length).fill(-1);
    rows.forEach((r, i) => {
      if (r.fresh || this.samplers[r.slot] === undefined) this.samplers[r.slot] = new Sampler(r.sampling, V, []);
      const sampler = this.samplers[r.slot] as Sampler;
      for (const t of r.tokens) sampler.note(t);
      if (!r.sample) return;
      const at = (this.spec.logitsIndex === undefined ? i * C + r.tokens.length - 1 : i) * V;
      tokens[i] = sampler.next(logits.subarray(at, at + V));
    });
    return tokens;
  }
}
