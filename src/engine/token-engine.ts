/**
 * The seam between the paged scheduler (src/generate) and a decoder engine that keeps its KV cache on the device in
 * fixed-size blocks and samples there (the CUDA decoder, src/engine/cuda). The scheduler owns the block tables and
 * decides what runs in each step (prompt chunks and decode tokens mixed, vLLM-style); the engine owns the weights,
 * the blocks' memory, the per-slot sampling state and the kernels. Only token ids cross to the host.
 *
 * One step is one forward pass over every row given: a row is one sequence's next tokens (a prompt chunk, or the one
 * token sampled by the step before). The engine writes each processed token's K/V into the blocks the row names
 * (position p lives in blocks[floor(p / blockTokens)], offset p % blockTokens) and, for a row with `sample`,
 * returns the token sampled from the logits after its last token.
 */

/** Fixed at load: what the engine allocated and the step shapes it accepts. */
export interface TokenEngineGeometry {
  readonly numLayers: number;
  readonly kvHeads: number;
  readonly headDim: number;
  readonly vocabSize: number;
  /** Tokens per KV block. */
  readonly blockTokens: number;
  /** KV blocks allocated (sized from free device memory at load); block ids are 0 .. totalBlocks - 1. */
  readonly totalBlocks: number;
  /** Sampling slots: rows of one step at most, and distinct sequences in flight at most. */
  readonly maxRows: number;
  /** Tokens of one step at most, summed over rows (the prefill chunk budget). */
  readonly maxStepTokens: number;
  /** Positions one sequence may reach (prompt + generated). */
  readonly maxContext: number;
}

/** Per-row sampling, as `normalizeSampling` (sampling.ts) validated it; the engine applies it on the device. */
export interface RowSampling {
  readonly greedy: boolean;
  readonly temperature: number;
  /** 0 = off. */
  readonly topK: number;
  /** 1 = off. */
  readonly topP: number;
  /** 1 = off; applied to every token the slot has processed or sampled since it was fresh (the CPU Sampler's rule). */
  readonly repetitionPenalty: number;
  readonly seed: number;
}

export interface StepRow {
  /** The sequence's sampling slot, 0 <= slot < maxRows, held by one sequence from its first step to its release. */
  readonly slot: number;
  /** True on the sequence's first step in this slot: the slot's penalty history and random state start over. */
  readonly fresh: boolean;
  /** Tokens to process: a prompt chunk, or the single token sampled by the previous step. */
  readonly tokens: Int32Array;
  /** Position of tokens[0]; positions 0 .. start - 1 are already in the cache. */
  readonly start: number;
  /** Block ids covering positions 0 .. start + tokens.length - 1, in order. */
  readonly blocks: Int32Array;
  /** Whether to sample after the last token (false for a prompt chunk that is not the prompt's last). */
  readonly sample: boolean;
  readonly sampling: RowSampling;
}

export interface TokenEngine {
  readonly geometry: TokenEngineGeometry;
  /**
   * Runs one step; resolves with one token per row (-1 where `sample` is false). Steps run one at a time in call
   * order. Rejects with an RtError (BAD_REQUEST for rows that break the geometry, INTERNAL for a device failure).
   */
  step(rows: readonly StepRow[]): Promise<Int32Array>;
  /** Copies whole blocks on the device (`from[i]` into `to[i]`): copy-on-write of shared prefix blocks. */
  copyBlocks(from: Int32Array, to: Int32Array): Promise<void>;
  /** Frees the device memory; later calls reject. */
  close(): Promise<void>;
}
