/**
 * Calls over the worker ↔ owner channel (src/cluster/rpc-peer.ts) on a real Unix socket: the signal a served call
 * gets. Calls of a method the handler lets go of its signal for reuse the signal of a call that finished unaborted;
 * cancelling a call still aborts its own signal alone, and an aborted signal is never handed out again.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FrameChannel } from '../../../src/cluster/frame-channel.ts';
import { RpcPeer, type CallContext } from '../../../src/cluster/rpc-peer.ts';
import { rtError } from '../../../src/errors/registry.ts';
import { unwatchAbort, watchAbort } from '../../../src/util/abort-watch.ts';
import { socketPair } from '../../helpers/socket-pair.ts';

interface Served {
  readonly method: string;
  readonly signal: AbortSignal;
  answer(): void;
}

async function peers(): Promise<{ caller: RpcPeer; served: Served[]; next: () => Promise<Served>; done: () => Promise<void> }> {
  const { a, b, done } = await socketPair();
  const served: Served[] = [];
  let waiting: ((s: Served) => void) | undefined;
  new RpcPeer(
    new FrameChannel(b),
    (method, _args, ctx: CallContext) =>
      new Promise((resolve, reject) => {
        // As the core does: watch the signal while the call runs, stop watching when it answers.
        const waiter = { onAbort: () => reject(ctx.signal.reason) };
        watchAbort(ctx.signal, waiter);
        const s: Served = {
          method,
          signal: ctx.signal,
          answer: () => {
            unwatchAbort(ctx.signal, waiter);
            resolve({ value: method });
          },
        };
        served.push(s);
        waiting?.(s);
      }),
    () => rtError('CANCELLED', 'gone'),
    new Set(['infer']),
  );
  const caller = new RpcPeer(
    new FrameChannel(a),
    async () => ({ value: null }),
    () => rtError('ENGINE_OWNER_GONE', 'gone'),
  );
  const next = (): Promise<Served> => new Promise((resolve) => (waiting = resolve));
  return { caller, served, next, done };
}

describe('RpcPeer', () => {
  test('an infer call reuses the signal of one that finished unaborted; a cancelled call aborts its own signal alone', async () => {
    const { caller, next, done } = await peers();
    try {
      let arrived = next();
      let call = caller.call('infer', { value: 1 });
      const first = await arrived;
      first.answer();
      assert.equal((await call).value, 'infer');

      arrived = next();
      call = caller.call('infer', { value: 2 });
      const second = await arrived;
      assert.equal(second.signal, first.signal, 'the finished call signal is reused');
      second.answer();
      await call;

      // Two at once: one of them has the spare signal, the other a new one; cancelling one leaves the other alone.
      arrived = next();
      const cancel = new AbortController();
      const cancelled = caller.call('infer', { value: 3 }, { signal: cancel.signal });
      const third = await arrived;
      arrived = next();
      const kept = caller.call('infer', { value: 4 });
      const fourth = await arrived;
      assert.notEqual(third.signal, fourth.signal);
      cancel.abort();
      await assert.rejects(cancelled, (err: Error & { code?: string }) => err.code === 'CANCELLED');
      assert.equal(third.signal.aborted, true);
      assert.equal(fourth.signal.aborted, false);
      fourth.answer();
      assert.equal((await kept).value, 'infer');

      // The aborted signal is never handed out again.
      arrived = next();
      call = caller.call('infer', { value: 5 });
      const fifth = await arrived;
      assert.notEqual(fifth.signal, third.signal);
      assert.equal(fifth.signal.aborted, false);
      fifth.answer();
      await call;
    } finally {
      await done();
    }
  });

  test('calls of other methods get a signal of their own each time', async () => {
    const { caller, next, done } = await peers();
    try {
      const signals: AbortSignal[] = [];
      for (let i = 0; i < 3; i++) {
        const arrived = next();
        const call = caller.call('stream', { value: i });
        const s = await arrived;
        signals.push(s.signal);
        s.answer();
        await call;
      }
      assert.equal(new Set(signals).size, 3);
    } finally {
      await done();
    }
  });
});
