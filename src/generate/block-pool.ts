/**
 * The KV blocks of a paged decoder engine (token-engine.ts), as the scheduler accounts for them: fixed-size blocks
 * (`blockTokens` positions each), a free list, a reference count per block, and automatic prefix caching in the
 * manner of vLLM: every full block is named by a hash chain over its tokens (the hash of the block before it and
 * its own token ids), so two sequences with the same first N * blockTokens tokens share those N blocks by
 * reference. A cached block whose last reference goes stays cached (its K/V are still valid) on an LRU list; it is
 * reused by a later sequence with the same prefix, or evicted (oldest first) when no plain free block is left.
 *
 * A block in the cache is immutable: a sequence that must write into one (it matched every block of its tokens
 * and recomputes the last token to get logits) gets a private copy first (copy-on-write, TokenEngine.copyBlocks).
 */
import { createHash } from 'node:crypto';

/** The hash of a full block: its predecessor's hash and its own token ids. */
export function blockHash(parent: string, tokens: readonly number[]): string {
  const h = createHash('sha256');
  h.update(parent);
  h.update(Int32Array.from(tokens));
  return h.digest('base64');
}

/** The hash chain of every full block of `tokens`. */
export function blockHashes(tokens: readonly number[], blockTokens: number): string[] {
  const out: string[] = [];
  for (let b = 0; (b + 1) * blockTokens <= tokens.length; b++) {
    out.push(blockHash(out.at(-1) ?? '', tokens.slice(b * blockTokens, (b + 1) * blockTokens)));
  }
  return out;
}

export class BlockPool {
  private readonly refs: Int32Array;
  private readonly hashOf: (string | undefined)[];
  private readonly free: number[] = [];
  /** Cached blocks nobody references, oldest first (a Map keeps insertion order). */
  private readonly idle = new Map<number, true>();
  private readonly cached = new Map<string, number>();
  /** Prefix-cache lookups and hits, in blocks; for metrics and tests. */
  readonly stats = { queried: 0, hits: 0, evictions: 0 };

  constructor(
    readonly totalBlocks: number,
    readonly blockTokens: number,
  ) {
    this.refs = new Int32Array(totalBlocks);
    this.hashOf = new Array<string | undefined>(totalBlocks);
    for (let b = totalBlocks - 1; b >= 0; b--) this.free.push(b);
  }

  /** Blocks a sequence could get now: plain free ones and cached ones nobody references. */
  get available(): number {
    return this.free.length + this.idle.size;
  }

  /** Blocks referenced by at least one sequence. */
  get used(): number {
    return this.totalBlocks - this.available;
  }

  /** Blocks that hold a cached prefix (referenced or idle). */
  get cachedBlocks(): number {
    return this.cached.size;
  }

  refCount(block: number): number {
    return this.refs[block] as number;
  }

  /** Whether the block is in the prefix cache (and so must not be written). */
  isCached(block: number): boolean {
    return this.hashOf[block] !== undefined;
  }

  /** A fresh block (reference count 1), evicting the least recently used idle cached block when none is free. */
  allocate(): number | undefined {
    let block = this.free.pop();
    if (block === undefined) {
      const oldest = this.idle.keys().next();
      if (oldest.done === true) return undefined;
      block = oldest.value;
      this.idle.delete(block);
      this.cached.delete(this.hashOf[block] as string);
      this.hashOf[block] = undefined;
      this.stats.evictions++;
    }
    this.refs[block] = 1;
    return block;
  }

  /** `n` fresh blocks, or none at all (nothing taken) when fewer are available. */
  allocateMany(n: number): number[] | undefined {
    if (n > this.available) return undefined;
    return Array.from({ length: n }, () => this.allocate() as number);
  }

  /** Drops one reference; a block nobody references returns to the free list, or to the idle LRU when cached. */
  release(block: number): void {
    const left = (this.refs[block] as number) - 1;
    this.refs[block] = left;
    if (left > 0) return;
    if (this.hashOf[block] === undefined) this.free.push(block);
    else this.idle.set(block, true);
  }

  releaseAll(blocks: Iterable<number>): void {
    for (const b of blocks) this.release(b);
  }

  /**
   * The cached blocks of the longest prefix of `hashes` (one per full block, in order), each with a new
   * reference. Counted in `stats`.
   */
  match(hashes: readonly string[]): number[] {
    const out: number[] = [];
    for (const h of hashes) {
      const block = this.cached.get(h);
      if (block === undefined) break;
      this.refs[block] = (this.refs[block] as number) + 1;
      this.idle.delete(block);
      out.push(block);
    }
    this.stats.queried += hashes.length;
    this.stats.hits += out.length;
    return out;
  }

  /**
   * Enters a block that has just been filled under `hash` into the cache. When another block already holds that
   * prefix, this one stays private (it is freed normally). Returns whether the block is now cached.
   */
  register(block: number, hash: string): boolean {
    if (this.hashOf[block] !== undefined || this.cached.has(hash)) return false;
    this.cached.set(hash, block);
    this.hashOf[block] = hash;
    return true;
  }
}
