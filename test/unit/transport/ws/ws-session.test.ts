import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InferenceApi } from '../../../../src/api/inference-api.ts';
import type { InferRequest, InferResponse } from '../../../../src/api/types.ts';
import type { RtError } from '../../../../src/errors/registry.ts';
import { silentLogger } from '../../../../src/observability/logger.ts';
import type { StreamEvent } from '../../../../src/transport/streaming/stream-registry.ts';
import type { WsLimits } from '../../../../src/codec/ws-protocol.ts';
import { WsSession, WsSessionStore } from '../../../../src/transport/ws/ws-session.ts';
import type { WsRequestEntry, WsSessionSink } from '../../../../src/transport/ws/ws-session-types.ts';

const LIMITS: WsLimits = {
  max_message_bytes: 1 << 20,
  max_in_flight: 2,
  heartbeat_interval_ms: 0,
  idle_timeout_ms: 0,
  max_buffered_bytes: 1000,
  resume_window_ms: 60000,
  max_pending_frames: 1,
};

/** An api whose infer calls wait until the test answers them. */
class HeldApi {
  readonly calls: { req: InferRequest; resolve: (r: InferResponse) => void; reject: (e: unknown) => void }[] = [];
  readonly api = {
    infer: (req: InferRequest) =>
      new Promise<InferResponse>((resolve, reject) => {
        this.calls.push({ req, resolve, reject });
        req.signal?.addEventListener('abort', () => reject(req.signal?.reason));
      }),
    modelConfig: () => ({ max_batch_size: 0 }),
    outputLabels: () => undefined,
  } as unknown as InferenceApi;
  answer(i: number): void {
    const c = this.calls[i]!;
    c.resolve({ model_name: c.req.model, model_version: '1', ...(c.req.id === undefined ? {} : { id: c.req.id }), outputs: [] });
  }
}

class FakeSink implements WsSessionSink {
  bufferedAmount = 0;
  readonly events: { id: string; event: StreamEvent }[] = [];
  readonly refusals: { err: RtError; param: string | undefined }[] = [];
  deliver(entry: WsRequestEntry, event: StreamEvent): void {
    this.events.push({ id: entry.id, event });
  }
  refuse(err: RtError, param?: string): void {
    this.refusals.push({ err, param });
  }
  touch(): void {}
  of(id: string): StreamEvent[] {
    return this.events.filter((e) => e.id === id).map((e) => e.event);
  }
}

function setup(limits: Partial<WsLimits> = {}): { session: WsSession; sink: FakeSink; held: HeldApi } {
  const held = new HeldApi();
  const store = new WsSessionStore();
  const session = new WsSession({ api: held.api, logger: silentLogger(), limits: { ...LIMITS, ...limits }, resumeBufferBytes: 1 << 20, store }, {});
  store.add(session);
  const sink = new FakeSink();
  session.attach(sink);
  return { session, sink, held };
}

const infer = (id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ type: 'infer', id, model: 'm', inputs: [], ...extra });
const flush = (): Promise<void> => new Promise((r) => setImmediate(r));
const codeOf = (e: StreamEvent | undefined): string | undefined => (e?.kind === 'error' ? e.error.code : undefined);

describe('WsSession admission', () => {
  test('SLOW_CONSUMER while the socket has more than max_buffered_bytes queued; admitted again below it', async () => {
    const { session, sink, held } = setup();
    sink.bufferedAmount = 1001;
    session.submit(infer('a'), undefined);
    const refused = sink.of('a')[0];
    assert.equal(codeOf(refused), 'SLOW_CONSUMER');
    assert.equal((refused as { error: RtError }).error.retryable, true);
    assert.ok(((refused as { error: RtError }).error.retryAfterMs ?? 0) > 0);
    assert.equal(held.calls.length, 0, 'nothing reached the model');
    sink.bufferedAmount = 1000;
    session.submit(infer('b'), undefined);
    await flush();
    assert.equal(held.calls.length, 1);
    session.destroy();
  });

  test('TOO_MANY_IN_FLIGHT beyond max_in_flight; refused requests do not count', async () => {
    const { session, sink, held } = setup();
    for (const id of ['a', 'b', 'c', 'd']) session.submit(infer(id), undefined);
    await flush();
    assert.equal(codeOf(sink.of('c')[0]), 'TOO_MANY_IN_FLIGHT');
    assert.equal(codeOf(sink.of('d')[0]), 'TOO_MANY_IN_FLIGHT');
    assert.equal(session.inFlight, 2);
    held.answer(0);
    await flush();
    assert.equal(sink.of('a')[0]?.kind, 'data');
    session.submit(infer('e'), undefined);
    await flush();
    assert.equal(held.calls.length, 3);
    session.destroy();
  });

  test('a frame that supersedes a waiting one is admitted even at the in-flight limit', async () => {
    const { session, sink, held } = setup();
    session.submit(infer('f1', { frame_stream: 'v' }), undefined);
    session.submit(infer('f2', { frame_stream: 'v' }), undefined);
    assert.equal(session.inFlight, 2);
    session.submit(infer('f3', { frame_stream: 'v' }), undefined);
    assert.equal(sink.of('f2')[0]?.kind, 'dropped');
    assert.equal(sink.of('f3').length, 0, 'f3 waits, admitted');
    session.submit(infer('other'), undefined);
    assert.equal(codeOf(sink.of('other')[0]), 'TOO_MANY_IN_FLIGHT');
    await flush();
    assert.equal(held.calls.length, 1);
    session.destroy();
  });

  test('a duplicate unfinished id and a bad id are refusals without an id', () => {
    const { session, sink } = setup();
    session.submit(infer('x'), undefined);
    session.submit(infer('x'), undefined);
    session.submit(infer(''), undefined);
    session.submit({ type: 'infer', model: 'm', inputs: [] }, undefined);
    assert.deepEqual(
      sink.refusals.map((r) => [r.err.code, r.param]),
      [
        ['BAD_REQUEST', 'id'],
        ['BAD_REQUEST', 'id'],
        ['BAD_REQUEST', 'id'],
      ],
    );
    assert.equal(sink.of('x').length, 0, 'the first x is untouched');
    session.destroy();
  });
});

describe('WsSession frame streams', () => {
  test('max_pending_frames 2: the oldest waiting frame is dropped on overflow; FIFO after that', async () => {
    const { session, sink, held } = setup({ max_pending_frames: 2, max_in_flight: 100 });
    for (let i = 1; i <= 5; i++) session.submit(infer(`f${i}`, { frame_stream: 'v' }), undefined);
    assert.deepEqual(
      sink.events.map((e) => [e.id, e.event.kind, (e.event as { supersededBy?: string }).supersededBy]),
      [
        ['f2', 'dropped', 'f4'],
        ['f3', 'dropped', 'f5'],
      ],
    );
    assert.equal(session.pendingFrames('v'), 2);
    await flush();
    held.answer(0);
    await flush();
    assert.equal(held.calls[1]?.req.id, 'f4');
    held.answer(1);
    await flush();
    assert.equal(held.calls[2]?.req.id, 'f5');
    held.answer(2);
    await flush();
    assert.equal(session.pendingFrames('v'), 0);
    assert.equal(session.inFlight, 0);
  });

  test('max_pending_frames 0: a frame arriving while one runs is dropped at once, superseded by the running one', async () => {
    const { session, sink } = setup({ max_pending_frames: 0 });
    session.submit(infer('f1', { frame_stream: 'v' }), undefined);
    session.submit(infer('f2', { frame_stream: 'v' }), undefined);
    const drop = sink.of('f2')[0] as { kind: string; supersededBy: string; dropped: number };
    assert.equal(drop.kind, 'dropped');
    assert.equal(drop.supersededBy, 'f1');
    assert.equal(drop.dropped, 1);
    session.destroy();
  });

  test('cancel: a running request ends CANCELLED and its signal aborts; unknown ids are ignored', async () => {
    const { session, sink, held } = setup();
    session.submit(infer('a'), undefined);
    await flush();
    session.cancel('nope');
    session.cancel('a');
    assert.equal(codeOf(sink.of('a')[0]), 'CANCELLED');
    assert.equal(held.calls[0]?.req.signal?.aborted, true);
    await flush();
    assert.equal(sink.of('a').length, 1, 'one terminal event, whatever the model does later');
    session.destroy();
  });

  test('destroy cancels everything in flight', async () => {
    const { session, held } = setup();
    session.submit(infer('a'), undefined);
    await flush();
    session.destroy();
    assert.equal(held.calls[0]?.req.signal?.aborted, true);
    assert.equal(session.inFlight, 0);
  });
});
