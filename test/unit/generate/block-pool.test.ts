/**
 * The block pool's accounting (block-pool.ts): allocation and release, shared references, the prefix cache's hash
 * chain, and LRU eviction of idle cached blocks when no free block is left.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BlockPool, blockHashes } from '../../../src/generate/block-pool.ts';

describe('block pool', () => {
  test('allocation is all or nothing; released blocks come back', () => {
    const pool = new BlockPool(4, 2);
    const a = pool.allocateMany(3) as number[];
    assert.equal(new Set(a).size, 3);
    assert.equal(pool.allocateMany(2), undefined, 'two are not there');
    assert.equal(pool.available, 1, 'a refused request takes nothing');
    pool.releaseAll(a);
    assert.equal(pool.available, 4);
    assert.equal(pool.used, 0);
  });

  test('the hash chain names a block by everything before it', () => {
    const [x0, x1] = blockHashes([1, 2, 3, 4, 5], 2);
    const [y0, y1] = blockHashes([9, 9, 3, 4], 2);
    assert.notEqual(x0, y0);
    assert.notEqual(x1, y1, 'same tokens after a different prefix: another block');
    assert.equal(blockHashes([1, 2, 3], 2).length, 1, 'only full blocks are hashed');
  });

  test('a cached block is shared by reference and stays cached when its last reference goes', () => {
    const pool = new BlockPool(3, 2);
    const hashes = blockHashes([1, 2, 3, 4], 2);
    const [b0, b1] = pool.allocateMany(2) as number[];
    assert.ok(pool.register(b0 as number, hashes[0] as string));
    assert.ok(pool.register(b1 as number, hashes[1] as string));
    assert.deepEqual(pool.match(hashes), [b0, b1]);
    assert.equal(pool.refCount(b0 as number), 2);
    pool.releaseAll([b0 as number, b1 as number, b0 as number, b1 as number]);
    assert.equal(pool.used, 0);
    assert.equal(pool.cachedBlocks, 2, 'idle, still cached');
    assert.deepEqual(pool.match(hashes.slice(0, 1)), [b0]);
    assert.deepEqual(pool.stats, { queried: 3, hits: 3, evictions: 0 });
    const other = pool.allocate() as number;
    assert.equal(pool.register(other, hashes[0] as string), false, 'a second block with a cached prefix stays private');
  });

  test('with no free block left, the least recently released cached block is evicted', () => {
    const pool = new BlockPool(2, 1);
    const hashes = blockHashes([7, 8], 1);
    const [a, b] = pool.allocateMany(2) as number[];
    pool.register(a as number, hashes[0] as string);
    pool.register(b as number, 'another chain');
    pool.release(b as number);
    pool.release(a as number);
    assert.equal(pool.allocate(), b, 'b went idle first');
    assert.equal(pool.stats.evictions, 1);
    assert.equal(pool.isCached(b as number), false);
    assert.deepEqual(pool.match(hashes.slice(0, 1)), [a], 'a is still cached');
    assert.equal(pool.allocate(), undefined, 'a is referenced again: nothing left');
  });
});
