import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isExclusive } from '../../../src/core/exclusive-buffers.ts';
import { POOLED_BODY_MIN_BYTES, RequestBufferPool, sizeClassOf } from '../../../src/core/request-buffer-pool.ts';

describe('RequestBufferPool', () => {
  test('size classes are four per power of two, never smaller than asked, at most 25% larger', () => {
    for (const n of [4097, 300_000, 9_633_920, 1 << 20, (1 << 20) + 1, 123_456_789]) {
      const c = sizeClassOf(n);
      assert.ok(c >= n && c <= n * 1.25 + 1, `${n} → ${c}`);
      assert.equal(sizeClassOf(c), c, `${c} is its own class`);
    }
    assert.equal(sizeClassOf(9_633_920), 10 * 1024 * 1024);
  });

  test('acquire gives exactly the bytes asked for, over an exclusive buffer of the class; a released one is reused', () => {
    const pool = new RequestBufferPool(64 * 1024 * 1024);
    const a = pool.acquire(9_633_920);
    assert.equal(a.byteLength, 9_633_920);
    assert.equal(a.byteOffset, 0);
    assert.equal(a.buffer.byteLength, 10 * 1024 * 1024);
    assert.equal(isExclusive(a.buffer), true);
    pool.release(a.buffer as ArrayBuffer);
    assert.equal(pool.keptBytes, 10 * 1024 * 1024);
    const b = pool.acquire(9_700_000);
    assert.equal(b.buffer, a.buffer, 'the same memory, handed out again');
    assert.equal(pool.keptBytes, 0);
  });

  test('keeps only size-class buffers of pooled sizes, and no more than its bound', () => {
    const pool = new RequestBufferPool(3 * 1024 * 1024);
    pool.release(new ArrayBuffer(1_000_001));
    pool.release(new ArrayBuffer(POOLED_BODY_MIN_BYTES / 2));
    pool.release(new ArrayBuffer(0));
    assert.equal(pool.keptBytes, 0, 'odd sizes, small buffers and detached ones are left to the GC');
    pool.release(new ArrayBuffer(1 << 20));
    pool.release(new ArrayBuffer(1 << 20));
    pool.release(new ArrayBuffer(1 << 20));
    pool.release(new ArrayBuffer(1 << 20));
    assert.equal(pool.keptBytes, 3 * 1024 * 1024);
  });
});
