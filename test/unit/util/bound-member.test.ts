import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { boundMember } from '../../../src/util/bound-member.ts';

describe('boundMember', () => {
  class Counter {
    #n = 0;
    label = 'counter';
    inc(): number {
      return ++this.#n;
    }
  }

  test('methods come back bound to the target (private fields work) and the same function each time', () => {
    const c = new Counter();
    const inc = boundMember(c, 'inc') as () => number;
    assert.equal(inc(), 1);
    assert.equal(inc(), 2);
    assert.equal(boundMember(c, 'inc'), inc);
    assert.equal(boundMember(c, 'label'), 'counter');
  });

  test('a method replaced on the target gets a fresh binding; another target its own', () => {
    const c = new Counter();
    const first = boundMember(c, 'inc');
    c.inc = () => 42;
    const second = boundMember(c, 'inc') as () => number;
    assert.notEqual(second, first);
    assert.equal(second(), 42);
    const other = new Counter();
    assert.notEqual(boundMember(other, 'inc'), first);
  });
});
