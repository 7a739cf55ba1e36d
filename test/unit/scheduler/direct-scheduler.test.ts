import assert from 'node:assert/strict';
import { afterEach, describe, mock, test } from 'node:test';
import { RtError } from '../../../src/errors/registry.ts';
import { createScheduler, DirectScheduler } from '../../../src/scheduler/index.ts';
import type { RtScheduler } from '../../../src/scheduler/index.ts';
import { advance, expectedOutput, FakeSession, flush, makeOptions, makeRequest, track, until, valuesOf } from './fake-session.ts';

const isCode = (code: string) => (e: unknown) => e instanceof RtError && e.code === code;

function direct(
  config: Parameters<typeof makeOptions>[0],
  sessions: FakeSession[],
  maxQueueSizeDefault = 1000,
): { s: RtScheduler; stats: ReturnType<typeof makeOptions>['stats'] } {
  const options = makeOptions(config, sessions, maxQueueSizeDefault);
  const s = createScheduler(options);
  assert.ok(s instanceof DirectScheduler);
  return { s, stats: options.stats };
}

afterEach(() => mock.timers.reset());

describe('DirectScheduler', () => {
  test('each request runs alone, in FIFO order, even under concurrency; answers are per request', async () => {
    const session = new FakeSession();
    const { s, stats } = direct({ max_batch_size: 0 }, [session]);
    const ps = Array.from({ length: 6 }, (_, i) => s.enqueue(makeRequest({ base: i * 10, id: `r${i}` })));
    await flush();
    assert.equal(session.calls.length, 1);
    assert.equal(s.pendingCount, 5);
    for (let i = 0; i < 6; i++) {
      await until(() => session.calls.length > i, `run ${i}`);
      session.call(i).release();
    }
    const res = await Promise.all(ps);
    assert.deepEqual(
      session.calls.map((c) => c.values[0]),
      [0, 10, 20, 30, 40, 50],
    );
    res.forEach((r, i) => {
      assert.equal(r.id, `r${i}`);
      assert.deepEqual(valuesOf(r, 'y'), expectedOutput({ base: i * 10 }, 'y'));
    });
    // The request's own tensors go to the engine (no concat).
    assert.ok(session.calls.every((c) => c.rows === 1));
    const snap = stats.snapshot();
    assert.equal(snap.execution_count, 6);
    assert.equal(snap.inference_stats.success.count, 6);
  });

  test('a model with max_batch_size > 0 but no dynamic_batching still never merges requests', async () => {
    const session = new FakeSession();
    const { s } = direct({ max_batch_size: 8 }, [session]);
    const ps = [1, 2, 3].map((b) => s.enqueue(makeRequest({ base: b * 10, rows: 2 })));
    for (let i = 0; i < 3; i++) {
      await until(() => session.calls.length > i, `run ${i}`);
      session.call(i).release();
    }
    await Promise.all(ps);
    assert.deepEqual(
      session.calls.map((c) => c.rows),
      [2, 2, 2],
    );
  });

  test('several instances run in parallel, each taking the next request as it frees', async () => {
    const sessions = [new FakeSession(), new FakeSession()];
    const { s } = direct({}, sessions);
    const ps = [0, 1, 2].map((b) => s.enqueue(makeRequest({ base: b })));
    await until(() => sessions.every((x) => x.calls.length === 1), 'both instances busy');
    assert.equal(s.inFlightCount, 2);
    assert.equal(s.pendingCount, 1);
    assert.equal(s.snapshot().busyInstances, 2);
    sessions[1]?.call(0).release();
    await until(() => sessions[1]?.calls.length === 2, 'the freed instance takes the third request');
    assert.equal(sessions[1]?.call(1).values[0], 2);
    sessions[0]?.call(0).release();
    sessions[1]?.call(1).release();
    await Promise.all(ps);
  });

  test('bounded queue: QUEUE_FULL at once with a retry hint', async () => {
    const session = new FakeSession();
    const { s } = direct({}, [session], 2);
    const running = s.enqueue(makeRequest({ base: 0 }));
    await until(() => session.calls.length === 1, 'running');
    const queued = [1, 2].map((b) => s.enqueue(makeRequest({ base: b })));
    await assert.rejects(s.enqueue(makeRequest({ base: 3 })), (e: unknown) => {
      return e instanceof RtError && e.code === 'QUEUE_FULL' && (e.retryAfterMs ?? 0) >= 1;
    });
    assert.equal(s.pendingCount, 2);
    for (let i = 0; i < 3; i++) {
      await until(() => session.calls.length > i, `run ${i}`);
      session.call(i).release();
    }
    await Promise.all([running, ...queued]);
  });

  test('dynamic_batching with max_batch_size 0: priorities and queue policy apply, requests stay alone', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const session = new FakeSession();
    const { s } = direct(
      {
        max_batch_size: 0,
        dynamic_batching: {
          priority_levels: 2,
          default_priority_level: 2,
          priority_queue_policy: { '2': { default_timeout_microseconds: 5_000 } },
        },
      },
      [session],
    );
    const running = s.enqueue(makeRequest({ base: 0, parameters: { priority: 1 } }));
    await flush();
    const low = track(s.enqueue(makeRequest({ base: 1 })));
    const high = s.enqueue(makeRequest({ base: 2, parameters: { priority: 1 } }));
    session.call(0).release();
    await until(() => session.calls.length === 2, 'next run');
    assert.equal(session.call(1).values[0], 2, 'level 1 goes before the older level-2 request');
    // Level 2 has a 5 ms queue timeout; the instance stays busy past it.
    await advance(10, (ms) => mock.timers.tick(ms));
    await assert.rejects(low.promise, isCode('QUEUE_TIMEOUT'));
    session.call(1).release();
    await Promise.all([running, high]);
    await flush();
    assert.equal(session.calls.length, 2);
  });

  test('cancellation of a queued request; drain; close', async () => {
    const session = new FakeSession();
    const { s, stats } = direct({}, [session]);
    const running = s.enqueue(makeRequest({ base: 0 }));
    await until(() => session.calls.length === 1, 'running');
    const ac = new AbortController();
    const cancelled = s.enqueue(makeRequest({ base: 1, signal: ac.signal }));
    const queued = s.enqueue(makeRequest({ base: 2 }));
    ac.abort();
    await assert.rejects(cancelled, isCode('CANCELLED'));
    assert.equal(s.pendingCount, 1);
    const drained = track(s.drain());
    session.call(0).release();
    await until(() => session.calls.length === 2, 'next');
    assert.equal(session.call(1).values[0], 2);
    await flush();
    assert.equal(drained.settled(), false);
    session.call(1).release();
    await Promise.all([running, queued, drained.promise]);

    const again = s.enqueue(makeRequest({ base: 3 }));
    const waiting = s.enqueue(makeRequest({ base: 4 }));
    await until(() => session.calls.length === 3, 'third');
    const closed = track(s.close());
    await assert.rejects(waiting, isCode('SERVER_DRAINING'));
    await flush();
    assert.equal(closed.settled(), false);
    session.call(2).release();
    await Promise.all([again, closed.promise]);
    assert.equal(s.pendingCount + s.inFlightCount, 0);
    const snap = stats.snapshot();
    assert.equal(snap.inference_stats.success.count, 3);
    assert.equal(snap.inference_stats.fail.count, 2);
  });
});
