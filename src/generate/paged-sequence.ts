/**
 * A sequence as the paged scheduler (paged-batcher.ts) keeps it: its sampling slot, its block table and how many
 * of its tokens (prompt, then generated) are in the KV cache. Its tokens still to process are the positions from
 * `computed` to the end: a prompt chunk while it prefills, the last sampled token once it decodes, everything
 * again after a preemption (recompute).
 */
import type { RowSampling } from './token-engine.ts';
import type { Sequence } from './sequence.ts';

export class PagedSequence {
  slot = -1;
  /** Until its first step in the current slot: the engine starts the slot's sampling state over. */
  fresh = true;
  /** Block ids covering positions 0 .. blocks.length * blockTokens - 1. */
  blocks: number[] = [];
  /** Prefix-cache hashes of the leading full blocks, as far as they are known. */
  hashes: string[] = [];
  /** Tokens already in the cache. */
  computed = 0;
  /** Admission number: the youngest running sequence (highest) is preempted first. */
  order = 0;

  constructor(readonly seq: Sequence) {}

  get total(): number {
    return this.seq.prompt.length + this.seq.generated.length;
  }

  get remaining(): number {
    return this.total - this.computed;
  }

  tokenAt(p: number): number {
    const P = this.seq.prompt.length;
    return (p < P ? this.seq.prompt[p] : this.seq.generated[p - P]) as number;
  }

  tokens(from: number, to: number): number[] {
    return Array.from({ length: to - from }, (_, i) => this.tokenAt(from + i));
  }

  get sampling(): RowSampling {
    return this.seq.sampling;
  }

  /** Back to waiting, holding nothing: the next admission prefills prompt and generated tokens again. */
  reset(): void {
    this.slot = -1;
    this.fresh = true;
    this.blocks = [];
    this.hashes = [];
    this.computed = 0;
  }
}
