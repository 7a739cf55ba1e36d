import { strict as assert } from 'node:assert';
import { describe, test } from 'node:test';
import { shareAbortSignal, unwatchAbort, watchAbort } from '../../../src/util/abort-watch.ts';

/** A controller whose signal counts the EventTarget listeners added to it. */
function counted(): { ac: AbortController; added: () => number } {
  const ac = new AbortController();
  let n = 0;
  const original = ac.signal.addEventListener.bind(ac.signal);
  ac.signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
    n++;
    original(...args);
  }) as AbortSignal['addEventListener'];
  return { ac, added: () => n };
}

for (const shared of [true, false]) {
  describe(`abort watch, ${shared ? 'shared signal (one listener)' : 'per-request signal (own listeners)'}`, () => {
    const make = (): AbortController => {
      const ac = new AbortController();
      if (shared) shareAbortSignal(ac.signal);
      return ac;
    };

    test('calls every waiter still watching once, in order, and none that stopped', () => {
      const ac = make();
      const calls: string[] = [];
      const w = (name: string) => ({ onAbort: () => void calls.push(name) });
      const [a, b, c] = [w('a'), w('b'), w('c')];
      watchAbort(ac.signal, a);
      watchAbort(ac.signal, b);
      watchAbort(ac.signal, c);
      unwatchAbort(ac.signal, b);
      ac.abort();
      ac.abort();
      assert.deepEqual(calls, ['a', 'c']);
    });

    test('one waiter that stopped, then another that watches: only the second is called', () => {
      const ac = make();
      const calls: string[] = [];
      const first = { onAbort: () => void calls.push('first') };
      watchAbort(ac.signal, first);
      unwatchAbort(ac.signal, first);
      watchAbort(ac.signal, { onAbort: () => void calls.push('second') });
      ac.abort();
      assert.deepEqual(calls, ['second']);
    });

    test('a waiter on another signal is not called', () => {
      const one = make();
      const other = make();
      const calls: string[] = [];
      watchAbort(one.signal, { onAbort: () => void calls.push('one') });
      watchAbort(other.signal, { onAbort: () => void calls.push('other') });
      one.abort();
      assert.deepEqual(calls, ['one']);
      other.abort();
      assert.deepEqual(calls, ['one', 'other']);
    });

    test('a waiter added after the signal aborted is never called', () => {
      const ac = make();
      watchAbort(ac.signal, { onAbort: () => {} });
      ac.abort();
      let called = false;
      watchAbort(ac.signal, { onAbort: () => (called = true) });
      assert.equal(called, false);
    });

    test('a waiter that another stops during the abort is not called', () => {
      const ac = make();
      const calls: string[] = [];
      const second = { onAbort: () => void calls.push('second') };
      watchAbort(ac.signal, { onAbort: () => (calls.push('first'), unwatchAbort(ac.signal, second)) });
      watchAbort(ac.signal, second);
      ac.abort();
      assert.deepEqual(calls, ['first']);
    });
  });
}

describe('abort watch listeners', () => {
  test('a shared signal gets one EventTarget listener however many waiters watch it', () => {
    const { ac, added } = counted();
    shareAbortSignal(ac.signal);
    shareAbortSignal(ac.signal);
    for (let i = 0; i < 50; i++) {
      const waiter = { onAbort: () => {} };
      watchAbort(ac.signal, waiter);
      unwatchAbort(ac.signal, waiter);
    }
    assert.equal(added(), 1);
  });

  test('a signal that is not shared gets the waiter its own listener', () => {
    const { ac, added } = counted();
    watchAbort(ac.signal, { onAbort: () => {} });
    watchAbort(ac.signal, { onAbort: () => {} });
    assert.equal(added(), 2);
  });
});
