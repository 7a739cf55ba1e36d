import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InferenceApi } from '../../../../src/api/inference-api.ts';
import type { InferRequest, InferResponse } from '../../../../src/api/types.ts';
import { rtError, RtError } from '../../../../src/errors/registry.ts';
import { runIntoStream, StreamRegistry, type StreamEvent } from '../../../../src/transport/streaming/stream-registry.ts';

const response = (bytes = 4): InferResponse => ({
  model_name: 'm',
  model_version: '1',
  outputs: [{ name: 'y', datatype: 'UINT8', shape: [bytes], data: new Uint8Array(bytes) }],
});

const kinds = (events: StreamEvent[]): string[] => events.map((e) => `${e.kind}@${e.seq}`);

describe('ReplayStream', () => {
  test('numbers events 1, 2, 3 and ends with exactly one terminal event', () => {
    const reg = new StreamRegistry({ windowMs: 1000, maxBytes: 1 << 20 });
    const s = reg.create('a', 'stream');
    const seen: StreamEvent[] = [];
    s.attach((e) => seen.push(e));
    let finished = 0;
    s.onFinish = () => finished++;
    s.push({ kind: 'data', response: response() });
    s.push({ kind: 'data', response: response() });
    s.push({ kind: 'end', responses: 2 });
    assert.equal(s.push({ kind: 'error', error: rtError('CANCELLED', 'late') }), undefined, 'nothing after the terminal event');
    assert.equal(s.push({ kind: 'data', response: response() }), undefined);
    assert.deepEqual(kinds(seen), ['data@1', 'data@2', 'end@3']);
    assert.equal(finished, 1);
    assert.equal(s.finished, true);
    assert.equal(s.responses, 2);
    reg.clear();
  });

  test("in 'single' mode the first data event is terminal", () => {
    const reg = new StreamRegistry({ windowMs: 1000, maxBytes: 1 << 20 });
    const s = reg.create('a', 'single');
    s.push({ kind: 'data', response: response() });
    assert.equal(s.finished, true);
    assert.equal(s.push({ kind: 'end', responses: 1 }), undefined);
    reg.clear();
  });

  test('replay delivers exactly the events after the given seq; attach then continues live', () => {
    const reg = new StreamRegistry({ windowMs: 1000, maxBytes: 1 << 20 });
    const s = reg.create('a', 'stream');
    for (let i = 0; i < 4; i++) s.push({ kind: 'data', response: response() });
    const replayed: StreamEvent[] = [];
    assert.equal(
      s.attach((e) => replayed.push(e), 2),
      true,
    );
    s.push({ kind: 'end', responses: 4 });
    assert.deepEqual(kinds(replayed), ['data@3', 'data@4', 'end@5']);
    const none: StreamEvent[] = [];
    assert.equal(
      s.replay(5, (e) => none.push(e)),
      true,
    );
    assert.deepEqual(none, []);
    reg.clear();
  });

  test('the budget evicts finished streams first, then the oldest events; a replay that lost events says so', () => {
    const reg = new StreamRegistry({ windowMs: 60000, maxBytes: 3000 });
    const done = reg.create('done', 'single');
    done.push({ kind: 'data', response: response(500) });
    const running = reg.create('running', 'stream');
    running.push({ kind: 'data', response: response(500) });
    running.push({ kind: 'data', response: response(500) });
    assert.ok(reg.get('done') !== undefined);
    // Over budget: the finished stream goes first.
    running.push({ kind: 'data', response: response(1000) });
    assert.equal(reg.get('done'), undefined);
    assert.ok(reg.retainedBytes <= 3000);
    assert.equal(running.firstRetainedSeq, 1);
    // Still over budget after more: the running stream's oldest events go.
    running.push({ kind: 'data', response: response(1000) });
    assert.ok(reg.retainedBytes <= 3000, `${reg.retainedBytes}`);
    assert.ok(running.firstRetainedSeq > 1);
    assert.equal(
      running.replay(0, () => {}),
      false,
      'events 1.. are gone: resume from 0 cannot be exact',
    );
    const tail: StreamEvent[] = [];
    assert.equal(
      running.replay(running.firstRetainedSeq - 1, (e) => tail.push(e)),
      true,
    );
    assert.equal(tail[tail.length - 1]?.seq, 4);
    reg.clear();
  });

  test('streams expire windowMs after they finished or lost their listener; expiry cancels a running producer', () => {
    const reg = new StreamRegistry({ windowMs: 1000, maxBytes: 1 << 20 });
    const live = reg.create('live', 'stream');
    live.attach(() => {});
    const detached = reg.create('detached', 'stream');
    detached.attach(() => {});
    detached.detach();
    const finished = reg.create('finished', 'single');
    finished.attach(() => {});
    finished.push({ kind: 'data', response: response() });
    const now = Date.now();
    reg.sweep(now + 500);
    assert.equal(reg.size, 3);
    reg.sweep(now + 5000);
    assert.deepEqual([...reg.keys()], ['live'], 'an attached running stream never expires');
    assert.equal(detached.controller.signal.aborted, true);
    assert.ok(detached.controller.signal.reason instanceof RtError);
    assert.equal(finished.controller.signal.aborted, false, 'a finished stream has no producer to cancel');
    reg.clear();
    assert.equal(live.controller.signal.aborted, true);
  });

  test('with window 0 a stream is dropped as soon as it loses its listener, or after its terminal event', () => {
    const removed: string[] = [];
    const reg = new StreamRegistry({ windowMs: 0, maxBytes: 1 << 20, onRemove: (s) => removed.push(s.key) });
    const a = reg.create('a', 'stream');
    const listener = (): void => {};
    a.attach(listener);
    a.detach(() => {});
    assert.equal(reg.get('a'), a, 'detach(other listener) does nothing');
    a.detach(listener);
    assert.equal(reg.get('a'), undefined);
    assert.equal(a.controller.signal.aborted, true);
    const b = reg.create('b', 'single');
    b.attach(() => {});
    b.push({ kind: 'data', response: response() });
    assert.equal(reg.get('b'), undefined);
    assert.deepEqual(removed, ['a', 'b']);
  });

  test('create replaces a finished stream under the same key', () => {
    const reg = new StreamRegistry({ windowMs: 1000, maxBytes: 1 << 20 });
    const first = reg.create('k', 'single');
    first.push({ kind: 'data', response: response() });
    const second = reg.create('k', 'single');
    assert.notEqual(first, second);
    assert.equal(reg.get('k'), second);
    assert.equal(second.lastSeq, 0);
    reg.clear();
  });
});

describe('runIntoStream', () => {
  const fakeApi = (over: Partial<InferenceApi>): InferenceApi => over as InferenceApi;

  test('single mode: one infer, one data event', async () => {
    const reg = new StreamRegistry({ windowMs: 1000, maxBytes: 1 << 20 });
    const s = reg.create('a', 'single');
    const seen: StreamEvent[] = [];
    s.attach((e) => seen.push(e));
    await runIntoStream(s, fakeApi({ infer: async () => response() }), { model: 'm', inputs: [] });
    assert.deepEqual(kinds(seen), ['data@1']);
    reg.clear();
  });

  test('stream mode without inferStream: the one response, then end', async () => {
    const reg = new StreamRegistry({ windowMs: 1000, maxBytes: 1 << 20 });
    const s = reg.create('a', 'stream');
    const seen: StreamEvent[] = [];
    s.attach((e) => seen.push(e));
    await runIntoStream(s, fakeApi({ infer: async () => response() }), { model: 'm', inputs: [] });
    assert.deepEqual(kinds(seen), ['data@1', 'end@2']);
    reg.clear();
  });

  test('stream mode with inferStream: every response, then end; a failure midway is the terminal error', async () => {
    const reg = new StreamRegistry({ windowMs: 1000, maxBytes: 1 << 20 });
    const ok = reg.create('ok', 'stream');
    const seen: StreamEvent[] = [];
    ok.attach((e) => seen.push(e));
    const api = fakeApi({
      infer: async () => assert.fail('inferStream should be used'),
      inferStream: async function* (req: InferRequest) {
        yield response();
        yield response();
        if (req.parameters?.['fail'] === true) throw rtError('ENGINE_FAILED', 'boom');
        yield response();
      },
    });
    await runIntoStream(ok, api, { model: 'm', inputs: [] });
    assert.deepEqual(kinds(seen), ['data@1', 'data@2', 'data@3', 'end@4']);

    const bad = reg.create('bad', 'stream');
    const badSeen: StreamEvent[] = [];
    bad.attach((e) => badSeen.push(e));
    await runIntoStream(bad, api, { model: 'm', inputs: [], parameters: { fail: true } });
    assert.deepEqual(kinds(badSeen), ['data@1', 'data@2', 'error@3']);
    assert.equal((badSeen[2] as { error: RtError }).error.code, 'ENGINE_FAILED');
    reg.clear();
  });

  test('a non-RtError becomes INTERNAL without details', async () => {
    const reg = new StreamRegistry({ windowMs: 1000, maxBytes: 1 << 20 });
    const s = reg.create('a', 'single');
    const seen: StreamEvent[] = [];
    s.attach((e) => seen.push(e));
    await runIntoStream(
      s,
      fakeApi({
        infer: async () => {
          throw new TypeError('secret internals');
        },
      }),
      { model: 'm', inputs: [] },
    );
    const err = (seen[0] as { error: RtError }).error;
    assert.equal(err.code, 'INTERNAL');
    assert.doesNotMatch(err.message, /secret/);
    reg.clear();
  });
});
