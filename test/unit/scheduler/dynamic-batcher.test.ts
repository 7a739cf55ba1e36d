import assert from 'node:assert/strict';
import { afterEach, describe, mock, test } from 'node:test';
import { RtError, rtError } from '../../../src/errors/registry.ts';
import { createScheduler, DirectScheduler, DynamicBatcher } from '../../../src/scheduler/index.ts';
import type { RtScheduler } from '../../../src/scheduler/index.ts';
import type { InferResponse } from '../../../src/api/types.ts';
import { advance, expectedOutput, FakeSession, flush, makeOptions, makeRequest, track, until, valuesOf } from './fake-session.ts';
import type { RequestSpec } from './fake-session.ts';
import { shareAbortSignal } from '../../../src/util/abort-watch.ts';

const isCode = (code: string) => (e: unknown) => e instanceof RtError && e.code === code;

function batcher(
  dynamic: Record<string, unknown>,
  sessions: FakeSession[],
  maxBatchSize = 8,
  maxQueueSizeDefault = 1000,
): { s: RtScheduler; stats: ReturnType<typeof makeOptions>['stats'] } {
  const options = makeOptions({ max_batch_size: maxBatchSize, dynamic_batching: dynamic }, sessions, maxQueueSizeDefault);
  const s = createScheduler(options);
  assert.ok(s instanceof DynamicBatcher);
  return { s, stats: options.stats };
}

/** Enqueues one request and checks that its answer is its own. */
async function expectOwnAnswer(p: Promise<InferResponse>, spec: RequestSpec): Promise<void> {
  const res = await p;
  for (const name of spec.outputs ?? ['y']) assert.deepEqual(valuesOf(res, name), expectedOutput(spec, name), spec.id);
}

/**
 * Occupies the only instance with one request so that the following ones queue up. Returns a thunk: an async
 * function returning the promise itself would wait for it.
 */
async function occupy(s: RtScheduler, session: FakeSession): Promise<() => Promise<InferResponse>> {
  const p = s.enqueue(makeRequest({ base: -1000 }));
  await until(() => session.calls.length === 1, 'blocker dispatched');
  return () => p;
}

afterEach(() => mock.timers.reset());

describe('DynamicBatcher: batch formation', () => {
  test('requests arriving while the instance is busy form one batch (execution count < request count)', async () => {
    const session = new FakeSession();
    const { s, stats } = batcher({}, [session]);
    const blocker = (await occupy(s, session))();
    const specs: RequestSpec[] = Array.from({ length: 5 }, (_, i) => ({ base: i * 10, id: `r${i}` }));
    const ps = specs.map((spec) => s.enqueue(makeRequest(spec)));
    await flush();
    assert.equal(session.calls.length, 1, 'nothing else runs while the only instance is busy');
    assert.equal(s.pendingCount, 5);
    session.call(0).release();
    await until(() => session.calls.length === 2, 'second batch');
    assert.equal(session.call(1).rows, 5);
    session.call(1).release();
    await blocker;
    await Promise.all(ps.map((p, i) => expectOwnAnswer(p, specs[i] as RequestSpec)));
    const snap = stats.snapshot();
    assert.equal(snap.execution_count, 2);
    assert.equal(snap.inference_count, 6);
    assert.equal(snap.inference_stats.success.count, 6);
    assert.deepEqual(
      snap.batch_stats.map((b) => [b.batch_size, b.compute_infer.count]),
      [
        [1, 1],
        [5, 1],
      ],
    );
    assert.equal(snap.inference_stats.compute_infer.count, 6, 'compute stats count every request of a batch');
  });

  test('max_batch_size is respected; a request is never split; a request of max rows goes alone', async () => {
    const session = new FakeSession();
    const { s } = batcher({}, [session], 4);
    const blocker = (await occupy(s, session))();
    const rows = [1, 1, 1, 1, 1, 3, 2, 4, 1];
    const ps = rows.map((r, i) => s.enqueue(makeRequest({ base: i * 100, rows: r })));
    for (let i = 0; i < 6; i++) {
      await until(() => session.calls.length > i, `batch ${i}`);
      session.call(i).release();
    }
    await Promise.all([blocker, ...ps]);
    await flush();
    // After the blocker: [1,1,1,1] = 4, [1,3] = 4, [2] (4 does not fit with it), [4] alone, [1].
    assert.deepEqual(
      session.calls.slice(1).map((c) => c.rows),
      [4, 4, 2, 4, 1],
    );
    assert.ok(session.calls.every((c) => c.rows <= 4));
  });

  test('BATCH_TOO_LARGE for a request above max_batch_size, at once', async () => {
    const { s } = batcher({}, [new FakeSession()], 4);
    await assert.rejects(s.enqueue(makeRequest({ base: 0, rows: 5 })), isCode('BATCH_TOO_LARGE'));
    assert.equal(s.pendingCount, 0);
  });

  test('preferred_batch_size: the largest preferred size that can be formed goes first', async () => {
    const session = new FakeSession();
    const { s } = batcher({ preferred_batch_size: [2, 4] }, [session], 8);
    const blocker = (await occupy(s, session))();
    const ps = Array.from({ length: 7 }, (_, i) => s.enqueue(makeRequest({ base: i })));
    await flush();
    for (let i = 0; i < 4; i++) {
      await until(() => session.calls.length > i, `batch ${i}`);
      session.call(i).release();
    }
    await Promise.all([blocker, ...ps]);
    // 7 queued: 4 (largest preferred), then 2 (preferred), then the last one (delay 0: sent as is).
    assert.deepEqual(
      session.calls.map((c) => c.rows),
      [1, 4, 2, 1],
    );
  });

  test('incompatible shapes and dtypes are never merged and are not starved', async () => {
    const session = new FakeSession();
    const { s } = batcher({}, [session], 8);
    const blocker = (await occupy(s, session))();
    const specs: RequestSpec[] = [
      { base: 0, width: 2, id: 'a0' },
      { base: 100, width: 3, id: 'b0' },
      { base: 200, width: 2, id: 'a1' },
      { base: 300, width: 2, datatype: 'INT32', id: 'c0' },
      { base: 400, width: 3, id: 'b1' },
      { base: 500, width: 2, extraInput: true, id: 'd0' },
      { base: 600, width: 2, id: 'a2' },
    ];
    const ps = specs.map((spec) => s.enqueue(makeRequest(spec)));
    await flush();
    for (let i = 0; i < 5; i++) {
      await until(() => session.calls.length > i, `batch ${i}`);
      session.call(i).release();
    }
    await blocker;
    await Promise.all(ps.map((p, i) => expectOwnAnswer(p, specs[i] as RequestSpec)));
    const batches = session.calls.slice(1).map((c) => c.feeds.map((f) => `${f.name}:${f.datatype}:${f.shape.join('x')}`).join(' '));
    // Head's group first (a0, a1, a2), the others keep their order: b, c, d.
    assert.deepEqual(batches, ['x:FP32:3x2', 'x:FP32:2x3', 'x:INT32:1x2', 'x:FP32:1x2 w:FP32:1x1']);
    assert.deepEqual(session.call(1).values, [0, 1, 200, 201, 600, 601]);
  });

  test('each request gets only its own outputs, in its order, and its id echoed; the run gets the union', async () => {
    const session = new FakeSession();
    const { s } = batcher({}, [session]);
    const blocker = (await occupy(s, session))();
    const a: RequestSpec = { base: 1, id: 'req-a', outputs: ['z', 'y'] };
    const b: RequestSpec = { base: 50, outputs: ['y'] };
    const pa = s.enqueue(makeRequest(a));
    const pb = s.enqueue(makeRequest(b));
    await flush();
    session.call(0).release();
    await until(() => session.calls.length === 2, 'batch');
    assert.deepEqual([...session.call(1).outputNames].sort(), ['y', 'z']);
    session.call(1).release();
    await blocker;
    const [ra, rb] = await Promise.all([pa, pb]);
    assert.equal(ra.id, 'req-a');
    assert.equal(ra.model_name, 'm');
    assert.equal(ra.model_version, '1');
    assert.deepEqual(
      ra.outputs.map((o) => [o.name, o.shape]),
      [
        ['z', [1, 2]],
        ['y', [1, 2]],
      ],
    );
    assert.equal('id' in rb, false, 'no id when the request had none');
    assert.deepEqual(
      rb.outputs.map((o) => o.name),
      ['y'],
    );
    await expectOwnAnswer(Promise.resolve(ra), a);
    await expectOwnAnswer(Promise.resolve(rb), b);
  });

  test('a request alone passes its tensors to the engine untouched', async () => {
    const session = new FakeSession('auto');
    const { s } = batcher({}, [session]);
    const v = makeRequest({ base: 3 });
    await s.enqueue(v);
    assert.equal(session.call(0).feeds[0], v.request.inputs[0]);
  });

  test('200 concurrent requests on 2 instances: every request gets its own answer, batches form', async () => {
    const sessions = [new FakeSession('auto'), new FakeSession('auto')];
    const { s, stats } = batcher({}, sessions, 8);
    const specs: RequestSpec[] = Array.from({ length: 200 }, (_, i) => ({
      base: i * 1000,
      rows: (i % 3) + 1,
      width: i % 5 === 0 ? 3 : 2,
      id: `r${i}`,
    }));
    // Arrivals spread over several ticks, like requests from many sockets.
    const ps: Promise<void>[] = [];
    for (let i = 0; i < specs.length; i++) {
      const spec = specs[i] as RequestSpec;
      ps.push(expectOwnAnswer(s.enqueue(makeRequest(spec)), spec));
      if (i % 20 === 19) await new Promise<void>((r) => setImmediate(r));
    }
    await Promise.all(ps);
    const calls = sessions.flatMap((x) => x.calls);
    assert.ok(calls.length < 200, `${calls.length} executions for 200 requests`);
    assert.ok(
      sessions.every((x) => x.calls.length > 0),
      'both instances were used',
    );
    assert.ok(calls.every((c) => c.rows <= 8));
    const snap = stats.snapshot();
    assert.equal(snap.inference_stats.success.count, 200);
    assert.equal(snap.execution_count, calls.length);
    assert.equal(
      snap.inference_count,
      specs.reduce((n, sp) => n + (sp.rows ?? 1), 0),
    );
    assert.equal(s.pendingCount, 0);
    assert.equal(s.inFlightCount, 0);
  });
});

describe('DynamicBatcher: instances on several GPUs', () => {
  test('batches spread over the instances of both devices; statistics count each device and add up to the totals', async () => {
    // Two instances on GPU 0 and two on GPU 1, as instance_group { count: 2, kind: KIND_GPU, gpus: [0, 1] } places them.
    const sessions = [new FakeSession('auto', 0), new FakeSession('auto', 0), new FakeSession('auto', 1), new FakeSession('auto', 1)];
    const { s, stats } = batcher({}, sessions, 4);
    const specs: RequestSpec[] = Array.from({ length: 120 }, (_, i) => ({ base: i * 100, rows: (i % 2) + 1, id: `r${i}` }));
    const ps: Promise<void>[] = [];
    for (let i = 0; i < specs.length; i++) {
      const spec = specs[i] as RequestSpec;
      ps.push(expectOwnAnswer(s.enqueue(makeRequest(spec)), spec));
      if (i % 10 === 9) await new Promise<void>((r) => setImmediate(r));
    }
    await Promise.all(ps);
    const snap = stats.snapshot();
    const perDevice = snap.device_stats ?? [];
    assert.deepEqual(
      perDevice.map((d) => d.device),
      [0, 1],
      'both GPUs ran batches',
    );
    const rowsOn = (device: number) => sessions.filter((x) => x.device === device).reduce((n, x) => n + x.calls.reduce((r, c) => r + c.rows, 0), 0);
    for (const d of perDevice) {
      assert.equal(
        d.execution_count,
        sessions.filter((x) => x.device === d.device).reduce((n, x) => n + x.calls.length, 0),
      );
      assert.equal(d.inference_count, rowsOn(d.device));
      assert.equal(d.compute_infer.count, d.execution_count);
    }
    assert.equal(
      perDevice.reduce((n, d) => n + d.execution_count, 0),
      snap.execution_count,
    );
    assert.equal(
      perDevice.reduce((n, d) => n + d.inference_count, 0),
      snap.inference_count,
    );
  });

  test('instances without a device leave the statistics as Triton has them (no device_stats)', async () => {
    const { s, stats } = batcher({}, [new FakeSession('auto')], 4);
    await s.enqueue(makeRequest({ base: 1 }));
    assert.equal(stats.snapshot().device_stats, undefined);
  });
});

describe('DynamicBatcher: queue delay (fake timers)', () => {
  test('a partial batch is held until the oldest request has waited max_queue_delay', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const session = new FakeSession();
    const { s } = batcher({ max_queue_delay_microseconds: 100_000 }, [session], 4);
    const p1 = s.enqueue(makeRequest({ base: 1 }));
    await flush();
    await advance(40, (ms) => mock.timers.tick(ms));
    const p2 = s.enqueue(makeRequest({ base: 2 }));
    await flush();
    assert.equal(session.calls.length, 0, 'held while the delay runs');
    await advance(70, (ms) => mock.timers.tick(ms));
    await flush();
    assert.equal(session.calls.length, 1);
    assert.equal(session.call(0).rows, 2, 'the request that came during the delay joined the batch');
    session.call(0).release();
    await Promise.all([p1, p2]);
  });

  test('a sub-millisecond delay is waited out on the event loop, not by a timer (timers cannot wait < 1 ms)', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const session = new FakeSession();
    const { s } = batcher({ max_queue_delay_microseconds: 200 }, [session], 4);
    const p1 = s.enqueue(makeRequest({ base: 1 }));
    // No fake timer is ever ticked: the partial batch must leave once 200 µs of real time have passed.
    await until(() => session.calls.length === 1, 'the lone request dispatched after the 200 µs delay');
    assert.equal(session.call(0).rows, 1);
    session.call(0).release();
    await p1;
  });

  test('a full batch goes at once without waiting for the delay', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const session = new FakeSession();
    const { s } = batcher({ max_queue_delay_microseconds: 10_000_000 }, [session], 4);
    const ps = [1, 2, 3, 4, 5].map((b) => s.enqueue(makeRequest({ base: b })));
    await flush();
    assert.deepEqual(
      session.calls.map((c) => c.rows),
      [4],
    );
    session.call(0).release();
    await Promise.all(ps.slice(0, 4));
    assert.equal(s.pendingCount, 1, 'the fifth waits for more company');
    await s.close();
    await assert.rejects(ps[4] as Promise<InferResponse>, isCode('SERVER_DRAINING'));
  });

  test('a preferred size goes at once during the delay', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const session = new FakeSession();
    const { s } = batcher({ max_queue_delay_microseconds: 10_000_000, preferred_batch_size: [2] }, [session], 8);
    const ps = [1, 2].map((b) => s.enqueue(makeRequest({ base: b })));
    await flush();
    assert.equal(session.calls.length, 1);
    assert.equal(session.call(0).rows, 2);
    session.call(0).release();
    await Promise.all(ps);
  });
});

describe('DynamicBatcher: priorities', () => {
  test('higher levels go first; each level is FIFO; priority 0 means the default level', async () => {
    const session = new FakeSession();
    const { s } = batcher({ priority_levels: 3, default_priority_level: 2 }, [session], 1);
    const blocker = (await occupy(s, session))();
    const order: [string, number][] = [
      ['low', 3],
      ['mid-default', 0],
      ['high-1', 1],
      ['mid-explicit', 2],
      ['high-2', 1],
    ];
    const bases = new Map<number, string>();
    const ps = order.map(([name, priority], i) => {
      bases.set(i * 10, name);
      return s.enqueue(makeRequest({ base: i * 10, parameters: { priority } }));
    });
    await flush();
    for (let i = 0; i <= order.length; i++) {
      await until(() => session.calls.length > i, `run ${i}`);
      session.call(i).release();
    }
    await Promise.all([blocker, ...ps]);
    assert.deepEqual(
      session.calls.slice(1).map((c) => bases.get(c.values[0] as number)),
      ['high-1', 'high-2', 'mid-default', 'mid-explicit', 'low'],
    );
  });

  test('a priority above priority_levels is BAD_PARAMETER', async () => {
    const { s, stats } = batcher({ priority_levels: 2, default_priority_level: 1 }, [new FakeSession()]);
    await assert.rejects(s.enqueue(makeRequest({ base: 0, parameters: { priority: 3 } })), isCode('BAD_PARAMETER'));
    assert.equal(stats.snapshot().inference_stats.fail.count, 1);
  });
});

describe('DynamicBatcher: bounded queue', () => {
  test('a full queue rejects at once with QUEUE_FULL and a retry hint; the queue never exceeds its bound', async () => {
    const session = new FakeSession();
    const { s } = batcher({ default_queue_policy: { max_queue_size: 5 } }, [session], 8);
    const blocker = (await occupy(s, session))();
    const results = Array.from({ length: 100 }, (_, i) => track(s.enqueue(makeRequest({ base: i }))));
    assert.equal(s.pendingCount, 5);
    await flush();
    const rejected = results.slice(5);
    assert.ok(
      rejected.every((r) => r.settled()),
      'rejections come at once, while the instance is still busy',
    );
    for (const r of rejected) {
      await assert.rejects(r.promise, (e: unknown) => {
        assert.ok(e instanceof RtError);
        assert.equal(e.code, 'QUEUE_FULL');
        assert.equal(e.httpStatus, 429);
        assert.ok(e.retryAfterMs !== undefined && e.retryAfterMs >= 1);
        assert.match(e.message, /model 'm'/);
        assert.match(e.message, /max_queue_size 5/);
        return true;
      });
    }
    assert.equal(s.snapshot().levels[0]?.pending, 5);
    session.call(0).release();
    await until(() => session.calls.length === 2, 'queued batch');
    session.call(1).release();
    await Promise.all([blocker, ...results.slice(0, 5).map((r) => r.promise)]);
  });

  test('max_queue_size 0 uses the server default bound; bounds are per priority level', async () => {
    const session = new FakeSession();
    const { s } = batcher(
      {
        priority_levels: 2,
        default_priority_level: 2,
        priority_queue_policy: { '1': { max_queue_size: 1 } },
      },
      [session],
      8,
      2,
    );
    const blocker = (await occupy(s, session))();
    const low = [0, 1].map((b) => s.enqueue(makeRequest({ base: b })));
    await assert.rejects(s.enqueue(makeRequest({ base: 2 })), isCode('QUEUE_FULL'));
    const high = s.enqueue(makeRequest({ base: 3, parameters: { priority: 1 } }));
    await assert.rejects(s.enqueue(makeRequest({ base: 4, parameters: { priority: 1 } })), isCode('QUEUE_FULL'));
    assert.equal(s.pendingCount, 3);
    session.call(0).release();
    await until(() => session.calls.length === 2, 'batch');
    session.call(1).release();
    await Promise.all([blocker, high, ...low]);
  });
});

describe('DynamicBatcher: queue timeouts (fake timers)', () => {
  test('REJECT: requests that waited past the timeout are removed and rejected with QUEUE_TIMEOUT', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const session = new FakeSession();
    const { s, stats } = batcher({ default_queue_policy: { default_timeout_microseconds: 50_000 } }, [session]);
    const blocker = s.enqueue(makeRequest({ base: -1 }));
    await flush();
    assert.equal(session.calls.length, 1);
    const a = track(s.enqueue(makeRequest({ base: 1 })));
    const b = track(s.enqueue(makeRequest({ base: 2 })));
    await flush();
    await advance(30, (ms) => mock.timers.tick(ms));
    await flush();
    assert.equal(a.settled(), false);
    await advance(30, (ms) => mock.timers.tick(ms));
    await flush();
    await assert.rejects(a.promise, isCode('QUEUE_TIMEOUT'));
    await assert.rejects(b.promise, isCode('QUEUE_TIMEOUT'));
    assert.equal(s.pendingCount, 0);
    session.call(0).release();
    await blocker;
    await flush();
    assert.equal(session.calls.length, 1, 'timed-out requests never run');
    assert.equal(stats.snapshot().inference_stats.fail.count, 2);
  });

  test('DELAY: expired requests are served after those that have not expired, not rejected', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const session = new FakeSession();
    const { s } = batcher(
      {
        default_queue_policy: {
          timeout_action: 'DELAY',
          default_timeout_microseconds: 1_000_000,
          allow_timeout_override: true,
        },
      },
      [session],
      1,
    );
    const blocker = s.enqueue(makeRequest({ base: -1 }));
    await flush();
    const early = s.enqueue(makeRequest({ base: 1, parameters: { timeout: 10_000 } }));
    const late = s.enqueue(makeRequest({ base: 2 }));
    await flush();
    await advance(20, (ms) => mock.timers.tick(ms));
    await flush();
    assert.equal(s.pendingCount, 2, 'nothing rejected');
    for (let i = 0; i < 3; i++) {
      await until(() => session.calls.length > i, `run ${i}`);
      session.call(i).release();
    }
    await Promise.all([blocker, early, late]);
    assert.deepEqual(
      session.calls.map((c) => c.values[0]),
      [-1, 2, 1],
    );
  });

  test('a request timeout is ignored without allow_timeout_override, and can only lower the default', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const session = new FakeSession();
    const { s } = batcher(
      {
        priority_levels: 2,
        default_priority_level: 1,
        priority_queue_policy: { '2': { allow_timeout_override: true, default_timeout_microseconds: 50_000 } },
      },
      [session],
    );
    const blocker = s.enqueue(makeRequest({ base: -1 }));
    await flush();
    const ignored = track(s.enqueue(makeRequest({ base: 1, parameters: { timeout: 10_000 } })));
    const lowered = track(s.enqueue(makeRequest({ base: 2, parameters: { priority: 2, timeout: 10_000 } })));
    const notRaised = track(s.enqueue(makeRequest({ base: 3, parameters: { priority: 2, timeout: 900_000 } })));
    await flush();
    await advance(20, (ms) => mock.timers.tick(ms));
    await flush();
    assert.equal(ignored.settled(), false, 'level 1 does not allow overrides and has no timeout');
    await assert.rejects(lowered.promise, isCode('QUEUE_TIMEOUT'));
    assert.equal(notRaised.settled(), false);
    await advance(40, (ms) => mock.timers.tick(ms));
    await flush();
    await assert.rejects(notRaised.promise, isCode('QUEUE_TIMEOUT'));
    assert.equal(ignored.settled(), false);
    session.call(0).release();
    await until(() => session.calls.length === 2, 'batch');
    session.call(1).release();
    await Promise.all([blocker, ignored.promise]);
  });
});

describe('DynamicBatcher: ordering, cancellation, errors', () => {
  test('preserve_ordering: responses follow request order though the second instance finishes first', async () => {
    const sessions = [new FakeSession(), new FakeSession()];
    const { s } = batcher({ preserve_ordering: true }, sessions, 1);
    const done: string[] = [];
    const pa = s.enqueue(makeRequest({ base: 1 })).then(() => done.push('a'));
    const pb = s.enqueue(makeRequest({ base: 2 })).then(() => done.push('b'));
    await until(() => sessions.every((x) => x.calls.length === 1), 'both instances busy');
    const runOf = (base: number) => sessions.map((x) => x.call(0)).find((c) => c.values[0] === base);
    runOf(2)?.release();
    await flush();
    assert.deepEqual(done, [], 'b waits for a');
    assert.equal(s.inFlightCount, 2);
    runOf(1)?.release();
    await Promise.all([pa, pb]);
    assert.deepEqual(done, ['a', 'b']);
  });

  test('without preserve_ordering the faster instance answers first (control for the test above)', async () => {
    const sessions = [new FakeSession(), new FakeSession()];
    const { s } = batcher({}, sessions, 1);
    const done: string[] = [];
    const pa = s.enqueue(makeRequest({ base: 1 })).then(() => done.push('a'));
    const pb = s.enqueue(makeRequest({ base: 2 })).then(() => done.push('b'));
    await until(() => sessions.every((x) => x.calls.length === 1), 'both instances busy');
    sessions
      .map((x) => x.call(0))
      .find((c) => c.values[0] === 2)
      ?.release();
    await pb;
    assert.deepEqual(done, ['b']);
    sessions
      .map((x) => x.call(0))
      .find((c) => c.values[0] === 1)
      ?.release();
    await pa;
  });

  test('a queued request whose signal aborts leaves the queue at once with CANCELLED', async () => {
    const session = new FakeSession();
    const { s, stats } = batcher({}, [session]);
    const blocker = (await occupy(s, session))();
    const ac = new AbortController();
    const cancelled = s.enqueue(makeRequest({ base: 1, signal: ac.signal }));
    const kept = s.enqueue(makeRequest({ base: 2 }));
    await flush();
    ac.abort();
    await assert.rejects(cancelled, isCode('CANCELLED'));
    assert.equal(s.pendingCount, 1);
    session.call(0).release();
    await until(() => session.calls.length === 2, 'batch');
    assert.deepEqual(session.call(1).values, [2, 3], 'the cancelled request is not in the batch');
    session.call(1).release();
    await Promise.all([blocker, kept]);
    assert.equal(stats.snapshot().inference_stats.fail.count, 1);
  });

  test('a signal shared by several requests (one connection) cancels exactly those requests, answered ones not', async () => {
    const session = new FakeSession();
    const { s } = batcher({}, [session]);
    const blocker = (await occupy(s, session))();
    const connA = new AbortController();
    const connB = new AbortController();
    // As REST's connection signals: one listener each, every request a waiter on it (util/abort-watch.ts).
    shareAbortSignal(connA.signal);
    shareAbortSignal(connB.signal);
    const a1 = s.enqueue(makeRequest({ base: 1, signal: connA.signal }));
    const b1 = s.enqueue(makeRequest({ base: 2, signal: connB.signal }));
    const a2 = s.enqueue(makeRequest({ base: 3, signal: connA.signal }));
    const b2 = s.enqueue(makeRequest({ base: 4, signal: connB.signal }));
    await flush();
    connA.abort();
    await assert.rejects(a1, isCode('CANCELLED'));
    await assert.rejects(a2, isCode('CANCELLED'));
    assert.equal(s.pendingCount, 2, "connection B's requests stay queued");
    session.call(0).release();
    await until(() => session.calls.length === 2, 'batch');
    assert.deepEqual(session.call(1).values, [2, 3, 4, 5], "only connection B's requests run");
    session.call(1).release();
    await expectOwnAnswer(b1, { base: 2 });
    await expectOwnAnswer(b2, { base: 4 });
    await blocker;
    // B's requests were answered: its signal aborting later cancels nothing and runs nothing.
    const b3 = s.enqueue(makeRequest({ base: 5, signal: connB.signal }));
    await until(() => session.calls.length === 3, 'third run');
    session.call(2).release();
    await expectOwnAnswer(b3, { base: 5 });
    connB.abort();
    assert.equal(s.inFlightCount, 0);
    assert.equal(s.pendingCount, 0);
  });

  test('an already aborted signal is refused at enqueue', async () => {
    const { s } = batcher({}, [new FakeSession()]);
    await assert.rejects(s.enqueue(makeRequest({ base: 1, signal: AbortSignal.abort() })), isCode('CANCELLED'));
    assert.equal(s.pendingCount, 0);
  });

  test('a dispatched request that is cancelled rejects at once; the rest of its batch still gets answers', async () => {
    const session = new FakeSession();
    const { s } = batcher({}, [session]);
    const blocker = (await occupy(s, session))();
    const ac1 = new AbortController();
    const ac2 = new AbortController();
    const p1 = s.enqueue(makeRequest({ base: 1, signal: ac1.signal }));
    const p2 = s.enqueue(makeRequest({ base: 2, signal: ac2.signal }));
    await flush();
    session.call(0).release();
    await until(() => session.calls.length === 2, 'batch');
    ac1.abort();
    await assert.rejects(p1, isCode('CANCELLED'));
    assert.equal(session.call(1).signal?.aborted, false, 'the run goes on for the others');
    session.call(1).release();
    await expectOwnAnswer(p2, { base: 2 });
    await blocker;
    assert.equal(s.inFlightCount, 0);
  });

  test('when every request of a running batch is cancelled the engine run is aborted', async () => {
    const session = new FakeSession();
    const { s } = batcher({}, [session]);
    const ac = new AbortController();
    const p = s.enqueue(makeRequest({ base: 1, signal: ac.signal }));
    await until(() => session.calls.length === 1, 'run');
    ac.abort();
    await assert.rejects(p, isCode('CANCELLED'));
    assert.equal(session.call(0).signal?.aborted, true);
    session.call(0).fail(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    await s.drain();
    assert.equal(s.inFlightCount, 0);
  });

  test('after a run is aborted, the next batch on that instance runs with a signal that is not aborted', async () => {
    const session = new FakeSession();
    const { s } = batcher({}, [session]);
    const ac = new AbortController();
    const p = s.enqueue(makeRequest({ base: 1, signal: ac.signal }));
    await until(() => session.calls.length === 1, 'run');
    const first = session.call(0).signal;
    ac.abort();
    await assert.rejects(p, isCode('CANCELLED'));
    assert.equal(first?.aborted, true);
    session.call(0).fail(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    await s.drain();
    // Batches of one instance share a signal until it is aborted; the aborted one must not carry over.
    const next = s.enqueue(makeRequest({ base: 2, signal: new AbortController().signal }));
    await until(() => session.calls.length === 2, 'second run');
    assert.equal(session.call(1).signal?.aborted, false);
    session.call(1).release();
    await expectOwnAnswer(next, { base: 2 });
  });

  test('an engine error fails only that batch and the batcher keeps serving', async () => {
    const session = new FakeSession();
    const { s, stats } = batcher({}, [session], 2);
    const p0 = s.enqueue(makeRequest({ base: 0 }));
    await until(() => session.calls.length === 1, 'first run');
    const p1 = s.enqueue(makeRequest({ base: 1 }));
    const p2 = s.enqueue(makeRequest({ base: 2 }));
    const p3 = s.enqueue(makeRequest({ base: 3 }));
    await flush();
    session.call(0).fail(new Error('CUDA exploded'));
    await assert.rejects(p0, (e: unknown) => {
      assert.ok(e instanceof RtError);
      assert.equal(e.code, 'ENGINE_FAILED');
      assert.doesNotMatch(e.message, /CUDA exploded/, 'library messages stay in `cause`');
      assert.ok(e.cause instanceof Error);
      return true;
    });
    await until(() => session.calls.length === 2, 'second run');
    assert.equal(session.call(1).rows, 2);
    session.call(1).fail(rtError('ENGINE_FAILED', 'engine says no'));
    await assert.rejects(p1, (e: unknown) => e instanceof RtError && e.message === 'engine says no');
    await assert.rejects(p2, isCode('ENGINE_FAILED'));
    await until(() => session.calls.length === 3, 'third run');
    session.call(2).release();
    await expectOwnAnswer(p3, { base: 3 });
    const snap = stats.snapshot();
    assert.equal(snap.inference_stats.fail.count, 3);
    assert.equal(snap.inference_stats.success.count, 1);
  });

  test('an engine answer without a requested output fails the batch with ENGINE_FAILED', async () => {
    const session = new FakeSession();
    session.run = () => Promise.resolve([]);
    const { s } = batcher({}, [session]);
    await assert.rejects(s.enqueue(makeRequest({ base: 1 })), (e: unknown) => {
      return e instanceof RtError && e.code === 'ENGINE_FAILED' && /'y'/.test(e.message);
    });
  });
});

describe('DynamicBatcher: drain and close', () => {
  test('drain resolves only once queue and in-flight are empty, and new requests are still accepted', async () => {
    const session = new FakeSession();
    const { s } = batcher({}, [session]);
    const blocker = (await occupy(s, session))();
    const queued = s.enqueue(makeRequest({ base: 1 }));
    const drained = track(s.drain());
    await flush();
    assert.equal(drained.settled(), false);
    session.call(0).release();
    await until(() => session.calls.length === 2, 'batch');
    await flush();
    assert.equal(drained.settled(), false, 'the second batch is still running');
    const late = s.enqueue(makeRequest({ base: 2 }));
    session.call(1).release();
    await until(() => session.calls.length === 3, 'late batch');
    session.call(2).release();
    await Promise.all([blocker, queued, late, drained.promise]);
    await s.drain();
  });

  test('close rejects queued requests with SERVER_DRAINING, waits for in-flight, refuses new ones', async () => {
    const session = new FakeSession();
    const { s } = batcher({}, [session]);
    const running = (await occupy(s, session))();
    const queued = s.enqueue(makeRequest({ base: 1 }));
    await flush();
    const closed = track(s.close());
    await assert.rejects(queued, isCode('SERVER_DRAINING'));
    await flush();
    assert.equal(closed.settled(), false, 'waits for the running batch');
    await assert.rejects(s.enqueue(makeRequest({ base: 2 })), isCode('SERVER_DRAINING'));
    session.call(0).release();
    await running;
    await closed.promise;
    assert.equal(session.calls.length, 1);
  });

  test('close for an unload answers MODEL_NOT_READY and stops the delay timer', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const session = new FakeSession();
    const { s } = batcher({ max_queue_delay_microseconds: 50_000 }, [session], 4);
    const queued = s.enqueue(makeRequest({ base: 1 }));
    await flush();
    await s.close('MODEL_NOT_READY');
    await assert.rejects(queued, isCode('MODEL_NOT_READY'));
    await advance(100, (ms) => mock.timers.tick(ms));
    await flush();
    assert.equal(session.calls.length, 0);
    await assert.rejects(s.enqueue(makeRequest({ base: 2 })), isCode('MODEL_NOT_READY'));
  });
});

describe('createScheduler', () => {
  test('chooses the dynamic batcher only for max_batch_size > 0 with dynamic_batching', () => {
    const sessions = [new FakeSession()];
    assert.ok(createScheduler(makeOptions({ max_batch_size: 4, dynamic_batching: {} }, sessions)) instanceof DynamicBatcher);
    assert.ok(createScheduler(makeOptions({ max_batch_size: 4 }, sessions)) instanceof DirectScheduler);
    assert.ok(createScheduler(makeOptions({ max_batch_size: 0, dynamic_batching: {} }, sessions)) instanceof DirectScheduler);
  });

  test('refuses configs that cannot work with BAD_CONFIG', () => {
    assert.throws(
      () => createScheduler(makeOptions({ max_batch_size: 4, dynamic_batching: { preferred_batch_size: [8] } }, [new FakeSession()])),
      isCode('BAD_CONFIG'),
    );
    assert.throws(() => createScheduler(makeOptions({ max_batch_size: 4, dynamic_batching: {} }, [])), isCode('BAD_CONFIG'));
  });
});
