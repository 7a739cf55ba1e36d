import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BatchScratch } from '../../../src/engine/batch-scratch.ts';

describe('BatchScratch', () => {
  const part = (rows: number, start: number): Float32Array => Float32Array.from({ length: rows * 2 }, (_, i) => start + i);

  test('the scratch buffer is reused while it is large enough, and replaced when it was transferred away', () => {
    const scratch = new BatchScratch();
    const first = scratch.join('x', 'FP32', [part(1, 0), part(1, 10)]);
    const second = scratch.join('x', 'FP32', [part(1, 20), part(1, 30)]);
    assert.equal(second.buffer, first.buffer, 'same memory, no new allocation');
    assert.deepEqual([...second], [20, 21, 30, 31]);
    // An output that aliased the scratch went back to the host with it: the buffer is detached.
    structuredClone(second.buffer, { transfer: [second.buffer as ArrayBuffer] });
    const third = scratch.join('x', 'FP32', [part(1, 40)]);
    assert.notEqual(third.buffer, first.buffer);
    assert.deepEqual([...third], [40, 41]);
    // Another input has its own buffer.
    const other = scratch.join('y', 'INT32', [Int32Array.of(5, 6)]);
    assert.notEqual(other.buffer, third.buffer);
    assert.deepEqual([...other], [5, 6]);
  });
});
