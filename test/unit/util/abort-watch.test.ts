import { strict as assert } from 'node:assert';
import { describe, test } from 'node:test';
import { unwatchAbort, watchAbort } from '../../../src/util/abort-watch.ts';

describe('abort watch (one listener per signal)', () => {
  test('calls every waiter still watching once, in order, and none that stopped', () => {
    const ac = new AbortController();
    const calls: string[] = [];
    const w = (name: string) => ({ onAbort: () => calls.push(name) });
    const a = w('a');
    const b = w('b');
    const c = w('c');
    watchAbort(ac.signal, a);
    watchAbort(ac.signal, b);
    watchAbort(ac.signal, c);
    unwatchAbort(ac.signal, b);
    ac.abort();
    ac.abort();
    assert.deepEqual(calls, ['a', 'c']);
  });

  test('a waiter on another signal is not called', () => {
    const one = new AbortController();
    const other = new AbortController();
    const calls: string[] = [];
    watchAbort(one.signal, { onAbort: () => calls.push('one') });
    watchAbort(other.signal, { onAbort: () => calls.push('other') });
    one.abort();
    assert.deepEqual(calls, ['one']);
    other.abort();
    assert.deepEqual(calls, ['one', 'other']);
  });

  test('a waiter added after the signal aborted is never called', () => {
    const ac = new AbortController();
    watchAbort(ac.signal, { onAbort: () => {} });
    ac.abort();
    let called = false;
    watchAbort(ac.signal, { onAbort: () => (called = true) });
    watchAbort(AbortSignal.abort(), { onAbort: () => (called = true) });
    assert.equal(called, false);
  });

  test('a waiter that another stops during the abort is not called (as EventTarget skips a removed listener)', () => {
    const ac = new AbortController();
    const calls: string[] = [];
    const second = { onAbort: () => calls.push('second') };
    watchAbort(ac.signal, { onAbort: () => (calls.push('first'), unwatchAbort(ac.signal, second)) });
    watchAbort(ac.signal, second);
    ac.abort();
    assert.deepEqual(calls, ['first']);
  });

  test('adds one EventTarget listener per signal however many waiters watch it', () => {
    const ac = new AbortController();
    let added = 0;
    const original = ac.signal.addEventListener.bind(ac.signal);
    ac.signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
      added++;
      original(...args);
    }) as AbortSignal['addEventListener'];
    for (let i = 0; i < 50; i++) {
      const waiter = { onAbort: () => {} };
      watchAbort(ac.signal, waiter);
      unwatchAbort(ac.signal, waiter);
    }
    assert.equal(added, 1);
  });
});
