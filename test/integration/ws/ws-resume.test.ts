/**
 * Resume (docs/ws-protocol.md "Resume"): a client whose socket dropped reconnects with
 * {"type":"resume","session","after":{id: seq}} and gets every event it missed exactly once — nothing lost,
 * nothing repeated — while unlisted requests are dropped; after the window it gets RESUME_EXPIRED. A streaming
 * producer with many responses is plugged in through `InferenceApi.inferStream` (what generative models do).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { startFrontEnd, type TestFrontEnd } from './front-end.ts';
import { Gate, startGatedServer } from './gated-engine.ts';
import { Ticker, withStream } from './stream-api.ts';
import { simpleInfer, TestWs } from './ws-test-client.ts';

const MLP_ROW = Array.from({ length: 64 }, () => 0.25);
const mlpInfer = (id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'infer',
  id,
  model: 'mlp',
  inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], data: MLP_ROW }],
  ...extra,
});

const tokenOf = (e: Record<string, unknown>): number => (e['outputs'] as { data: number[] }[])[0]!.data[0] as number;

describe('WebSocket resume', () => {
  const gate = new Gate();
  const ticker = new Ticker();
  let server: RunningServer;
  let fe: TestFrontEnd;
  let shortWindow: TestFrontEnd;
  before(async () => {
    server = await startGatedServer(gate);
    const api = withStream(server.api, ticker);
    fe = await startFrontEnd(
      api,
      { wsResumeWindowMs: 60000 },
      {
        authenticate: (req) => ({ subject: typeof req.headers['x-user'] === 'string' ? req.headers['x-user'] : 'anon' }),
      },
    );
    shortWindow = await startFrontEnd(api, { wsResumeWindowMs: 200 });
  });
  after(async () => {
    gate.release('mlp');
    ticker.end();
    await shortWindow.close();
    await fe.close();
    await server.close();
  });

  test('after a forced disconnect, the missed results arrive exactly once; unlisted requests are dropped', async () => {
    const a = await TestWs.open(fe.url);
    const sessionId = a.session.id;
    const runs = gate.runs('mlp');
    gate.hold('mlp');
    a.send(simpleInfer('r3'));
    await a.terminal('r3');
    a.send(mlpInfer('r1'));
    await gate.untilRuns('mlp', runs + 1);
    a.send(mlpInfer('r2', { stream: true }));
    a.send(mlpInfer('r4'));
    a.send({ type: 'ping', id: 'sent' });
    await a.waitFor((e) => e.type === 'pong');
    a.terminate();
    await a.closed;
    gate.release('mlp');

    const b = await TestWs.open(fe.url);
    try {
      b.send({ type: 'resume', session: sessionId, after: { r1: 0, r2: 0, r3: 1 } });
      const resumed = await b.waitFor((e) => e.type === 'session.resumed');
      assert.equal((resumed.session as { id: string }).id, sessionId, 'the client keeps its session id');
      assert.equal(resumed.requests, 3);
      assert.equal((await b.terminal('r1')).type, 'result');
      assert.equal((await b.terminal('r2')).type, 'done');
      b.send({ type: 'ping', id: 'sync' });
      await b.waitFor((e) => e.type === 'pong' && e.id === 'sync');
      assert.deepEqual(
        b.eventsOf('r1').map((e) => [e.type, e.seq]),
        [['result', 1]],
      );
      assert.deepEqual(
        b.eventsOf('r2').map((e) => [e.type, e.seq]),
        [
          ['delta', 1],
          ['done', 2],
        ],
      );
      assert.equal(b.eventsOf('r3').length, 0, 'r3 was already received: nothing repeated');
      assert.equal(b.eventsOf('r4').length, 0, 'r4 was not listed: dropped');
      assert.equal(fe.front.session(sessionId)?.streams.get('r4'), undefined);
      // The resumed session keeps working.
      b.send(simpleInfer('r5'));
      assert.equal((await b.terminal('r5')).type, 'result');
    } finally {
      gate.release('mlp');
      b.close();
    }
  });

  test('a stream resumed mid-way: the first socket got tokens 1..3, the second gets 4..5 and done', async () => {
    const a = await TestWs.open(fe.url);
    const sessionId = a.session.id;
    const base = ticker.produced;
    a.send(simpleInfer('gen', 0, { stream: true, parameters: { tokens: true } }));
    ticker.emit(3);
    await a.waitFor((e) => e.id === 'gen' && e.seq === 3);
    const first = a.eventsOf('gen');
    a.terminate();
    await a.closed;
    ticker.emit(2);
    ticker.end();
    // Wait until the producer is done while nobody listens (the events are buffered).
    const session = fe.front.session(sessionId)!;
    for (let i = 0; session.streams.get('gen')?.finished !== true; i++) {
      assert.ok(i < 2000, 'the stream never finished');
      await new Promise((r) => setTimeout(r, 5));
    }

    const b = await TestWs.open(fe.url);
    try {
      b.send({ type: 'resume', session: sessionId, after: { gen: 3 } });
      const done = await b.terminal('gen');
      assert.equal(done.type, 'done');
      assert.equal(done.responses, 5);
      const second = b.eventsOf('gen');
      const all = [...first, ...second];
      assert.deepEqual(
        all.map((e) => e.seq),
        [1, 2, 3, 4, 5, 6],
        'nothing lost, nothing duplicated',
      );
      assert.deepEqual(
        all.filter((e) => e.type === 'delta').map(tokenOf),
        [1, 2, 3, 4, 5].map((k) => base + k),
      );
    } finally {
      b.close();
    }
  });

  test('listed ids the session does not know get RESUME_EXPIRED; resume must come first', async () => {
    const a = await TestWs.open(fe.url);
    const sessionId = a.session.id;
    a.send(simpleInfer('known'));
    await a.terminal('known');
    a.terminate();
    await a.closed;
    const b = await TestWs.open(fe.url);
    try {
      b.send({ type: 'resume', session: sessionId, after: { known: 1, ghost: 0 } });
      const ghost = await b.waitFor((e) => e.type === 'error' && e.id === 'ghost');
      assert.equal((ghost.error as { code: string }).code, 'RESUME_EXPIRED');
      assert.equal(ghost.seq, undefined);
      b.send({ type: 'resume', session: sessionId, after: {} });
      const late = await b.waitFor((e) => e.type === 'error' && e.id === undefined);
      assert.equal((late.error as { code: string }).code, 'BAD_REQUEST');
      assert.match((late.error as { message: string }).message, /first event/);
    } finally {
      b.close();
    }
  });

  test('an open socket whose session is resumed elsewhere is closed with 1000', async () => {
    const a = await TestWs.open(fe.url);
    const runs = gate.runs('mlp');
    gate.hold('mlp');
    a.send(mlpInfer('moved'));
    await gate.untilRuns('mlp', runs + 1);
    const b = await TestWs.open(fe.url);
    try {
      b.send({ type: 'resume', session: a.session.id, after: { moved: 0 } });
      await b.waitFor((e) => e.type === 'session.resumed');
      const closed = await a.closed;
      assert.deepEqual(closed, { code: 1000, reason: 'session resumed on another connection' });
      gate.release('mlp');
      assert.equal((await b.terminal('moved')).type, 'result');
      assert.equal(a.eventsOf('moved').length, 0);
    } finally {
      gate.release('mlp');
      b.close();
    }
  });

  test('another principal cannot resume the session', async () => {
    const a = await TestWs.open(fe.url, { headers: { 'x-user': 'alice' } });
    a.send(simpleInfer('mine'));
    await a.terminal('mine');
    a.terminate();
    await a.closed;
    const mallory = await TestWs.open(fe.url, { headers: { 'x-user': 'mallory' } });
    mallory.send({ type: 'resume', session: a.session.id, after: { mine: 0 } });
    const refused = await mallory.waitFor((e) => e.type === 'error');
    assert.equal((refused.error as { code: string }).code, 'RESUME_EXPIRED');
    assert.equal(mallory.eventsOf('mine').length, 0);
    mallory.close();
    const alice = await TestWs.open(fe.url, { headers: { 'x-user': 'alice' } });
    alice.send({ type: 'resume', session: a.session.id, after: { mine: 0 } });
    assert.equal((await alice.terminal('mine')).type, 'result');
    alice.close();
  });

  test('after the window: RESUME_EXPIRED, and the new connection carries on as its own session', async () => {
    const a = await TestWs.open(shortWindow.url);
    const sessionId = a.session.id;
    a.send(simpleInfer('old'));
    await a.terminal('old');
    a.terminate();
    await a.closed;
    for (let i = 0; shortWindow.front.session(sessionId) !== undefined; i++) {
      assert.ok(i < 2000, 'the session never expired');
      await new Promise((r) => setTimeout(r, 10));
    }
    const b = await TestWs.open(shortWindow.url);
    try {
      b.send({ type: 'resume', session: sessionId, after: { old: 0 } });
      const expired = await b.waitFor((e) => e.type === 'error');
      const err = expired.error as { code: string; category: string; message: string };
      assert.equal(err.code, 'RESUME_EXPIRED');
      assert.equal(err.category, 'NOT_FOUND');
      assert.match(err.message, /resume window \(200 ms\)/);
      assert.equal(b.eventsOf('old').length, 0);
      b.send(simpleInfer('new'));
      assert.equal((await b.terminal('new')).type, 'result');
    } finally {
      b.close();
    }
  });

  test('without resume (window 0) a dropped socket ends its session at once', async () => {
    const noResume = await startFrontEnd(server.api, { wsResumeWindowMs: 0 });
    try {
      const a = await TestWs.open(noResume.url);
      const runs = gate.runs('mlp');
      gate.hold('mlp');
      a.send(mlpInfer('x1'));
      await gate.untilRuns('mlp', runs + 1);
      a.send(mlpInfer('x2'));
      a.send({ type: 'ping' });
      await a.waitFor((e) => e.type === 'pong');
      const sessionId = a.session.id;
      a.terminate();
      await a.closed;
      for (let i = 0; noResume.front.session(sessionId) !== undefined; i++) {
        assert.ok(i < 2000, 'the session was not dropped');
        await new Promise((r) => setTimeout(r, 5));
      }
      assert.equal(noResume.front.sessionCount, 0);
      gate.release('mlp');
    } finally {
      gate.release('mlp');
      await noResume.close();
    }
  });

  test('a client that closes normally (1000) ends its session: nothing is kept for resume', async () => {
    const a = await TestWs.open(fe.url);
    const sessionId = a.session.id;
    const runs = gate.runs('mlp');
    gate.hold('mlp');
    a.send(mlpInfer('left-behind'));
    await gate.untilRuns('mlp', runs + 1);
    a.ws.close(1000);
    await a.closed;
    for (let i = 0; fe.front.session(sessionId) !== undefined; i++) {
      assert.ok(i < 2000, 'the session was kept');
      await new Promise((r) => setTimeout(r, 5));
    }
    gate.release('mlp');
  });

  test('a resume for an unknown session is refused without closing the socket', async () => {
    const b = await TestWs.open(fe.url);
    try {
      b.send({ type: 'resume', session: 'no-such-session', after: {} });
      const e = await b.waitFor((x) => x.type === 'error');
      assert.equal((e.error as { code: string; param: string }).code, 'RESUME_EXPIRED');
      assert.equal((e.error as { param: string }).param, 'session');
      b.send(simpleInfer('fine'));
      assert.equal((await b.terminal('fine')).type, 'result');
    } finally {
      b.close();
    }
  });
});
