/**
 * WebSocket streams across replicas (src/transport/ws/ws-journal.ts, docs/scaling.md): two WebSocket front ends
 * on one shared stream journal are two replicas. A client whose socket dropped resumes its session on the other
 * one: while the first replica still produces the request, the second relays it from the journal; when the first
 * is gone, the second takes the request over (re-runs it) and sends only what the client lacks. Each event
 * arrives once, in seq order, and the tokens are those of an undisturbed run. The producer here is deterministic
 * by construction (token k is 7k) and driven by the test, so nothing depends on timing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InferenceApi } from '../../../src/api/inference-api.ts';
import type { InferRequest, InferResponse } from '../../../src/api/types.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { MemoryStreamJournal } from '../../../src/state/stream-journal.ts';
import { wsJournalKey } from '../../../src/transport/ws/ws-journal.ts';
import { startTestServer } from '../../helpers/server.ts';
import { startFrontEnd, type TestFrontEnd } from './front-end.ts';
import { simpleInfer, TestWs, type RecordedEvent } from './ws-test-client.ts';

/** Tokens 7, 14, 21, ... released up to `allowed`; a stream ends after `last` (once set). */
class Tokens {
  allowed = 0;
  last: number | undefined;
  private readonly waiters = new Set<() => void>();
  allow(n: number): void {
    this.allowed = n;
    for (const w of [...this.waiters]) w();
  }
  finishAt(n: number): void {
    this.last = n;
    this.allow(n);
  }
  async *run(req: InferRequest): AsyncGenerator<InferResponse> {
    for (let k = 1; ; k++) {
      while (k > this.allowed && this.last === undefined && req.signal?.aborted !== true) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            this.waiters.delete(done);
            resolve();
          };
          this.waiters.add(done);
          req.signal?.addEventListener('abort', done, { once: true });
        });
      }
      if (req.signal?.aborted === true || (this.last !== undefined && k > this.last)) return;
      yield { model_name: req.model, model_version: '1', outputs: [{ name: 'TOKEN', datatype: 'INT32', shape: [1], data: Int32Array.of(7 * k) }] };
    }
  }
}

/** A journal whose `create` waits until the test opens it (a slow Redis). */
class SlowJournal extends MemoryStreamJournal {
  private gate: Promise<void> | undefined;
  open: () => void = () => {};
  hold(): void {
    this.gate = new Promise((resolve) => {
      this.open = resolve;
    });
  }
  override async create(...args: Parameters<MemoryStreamJournal['create']>): Promise<void> {
    await this.gate;
    return super.create(...args);
  }
}

/** A replica's view of the core: streaming requests (`parameters.tokens`) come from `tokens`; counts its runs. */
function replicaApi(core: InferenceApi, tokens: Tokens): { api: InferenceApi; runs: () => number } {
  let runs = 0;
  const api = new Proxy(core, {
    get(target, key) {
      if (key === 'inferStream') {
        return (req: InferRequest) => {
          runs++;
          return tokens.run(req);
        };
      }
      const v: unknown = Reflect.get(target, key, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { api, runs: () => runs };
}

const tokenOf = (e: RecordedEvent): number => (e['outputs'] as { data: number[] }[])[0]?.data[0] as number;
const streamInfer = (id: string): Record<string, unknown> => simpleInfer(id, 0, { stream: true, parameters: { tokens: true } });
const user = (name: string) => ({ headers: { 'x-user': name } });

describe('WebSocket resume across replicas (shared journal)', () => {
  let server: RunningServer;
  let journal: MemoryStreamJournal;
  let tokens: Tokens;
  let a: TestFrontEnd;
  let b: TestFrontEnd;
  let aRuns: () => number;
  let bRuns: () => number;

  const start = async (shared = new MemoryStreamJournal({ leaseMs: 60_000, windowMs: 60_000 })): Promise<void> => {
    journal = shared;
    tokens = new Tokens();
    const ra = replicaApi(server.api, tokens);
    const rb = replicaApi(server.api, tokens);
    aRuns = ra.runs;
    bRuns = rb.runs;
    const authenticate = (req: { headers: Record<string, string | string[] | undefined> }) => ({
      subject: typeof req.headers['x-user'] === 'string' ? req.headers['x-user'] : 'anon',
    });
    const replica = (api: InferenceApi, replicaId: string): Promise<TestFrontEnd> =>
      startFrontEnd(api, { wsResumeWindowMs: 60_000 }, { authenticate, journal: { journal, replicaId, leaseMs: 60_000, logger: silentLogger() } });
    a = await replica(ra.api, 'replica-a');
    b = await replica(rb.api, 'replica-b');
  };
  /** Clients to close when the test ends. */
  const clients: TestWs[] = [];
  const open = async (url: string, name: string): Promise<TestWs> => {
    const c = await TestWs.open(url, user(name));
    clients.push(c);
    return c;
  };
  const stop = async (): Promise<void> => {
    for (const c of clients.splice(0)) c.close();
    tokens.finishAt(0);
    // A may be closed already (the takeover test shuts it down).
    await a.close().catch(() => undefined);
    await b.close();
    await journal.close();
  };

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  /** A client on replica A that has received tokens 1..3 of request r1 when its socket drops. */
  const dropAfterThree = async (): Promise<{ session: string; first: RecordedEvent[] }> => {
    const c = await open(a.url, 'alice');
    const session = c.session.id;
    c.send(streamInfer('r1'));
    tokens.allow(3);
    await c.waitFor((e) => e.id === 'r1' && e.seq === 3);
    const first = c.eventsOf('r1');
    c.terminate();
    await c.closed;
    return { session, first };
  };

  const assertWhole = (events: RecordedEvent[], n: number): void => {
    assert.deepEqual(
      events.map((e) => [e.type, e.seq]),
      [...Array.from({ length: n }, (_, k) => ['delta', k + 1]), ['done', n + 1]],
      'every event once, in order',
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'delta').map(tokenOf),
      Array.from({ length: n }, (_, k) => 7 * (k + 1)),
      'the tokens of an undisturbed run',
    );
  };

  test('while the first replica still produces, the other relays the rest from the journal', async () => {
    await start();
    try {
      const { session, first } = await dropAfterThree();
      const c = await open(b.url, 'alice');
      c.send({ type: 'resume', session, after: { r1: 3 } });
      const resumed = await c.waitFor((e) => e.type === 'session.resumed');
      assert.equal((resumed.session as { id: string }).id, session, 'the client keeps its session id');
      assert.equal(resumed.requests, 1);
      tokens.finishAt(6);
      assert.equal((await c.terminal('r1')).type, 'done');
      assertWhole([...first, ...c.eventsOf('r1')], 6);
      assert.equal(aRuns(), 1);
      assert.equal(bRuns(), 0, 'replica B relayed, it did not run the request');
      // The adopted session keeps serving new requests on B.
      c.send(simpleInfer('next'));
      assert.equal((await c.terminal('next')).type, 'result');
    } finally {
      await stop();
    }
  });

  test('when the producing replica is gone, the other takes the request over and sends only what the client lacks', async () => {
    await start();
    try {
      const { session, first } = await dropAfterThree();
      // Replica A shuts down: its unfinished journaled request is handed off (lease released, not ended).
      await a.close();
      const c = await open(b.url, 'alice');
      c.send({ type: 'resume', session, after: { r1: 3 } });
      await c.waitFor((e) => e.type === 'session.resumed');
      tokens.finishAt(6);
      assert.equal((await c.terminal('r1')).type, 'done');
      assertWhole([...first, ...c.eventsOf('r1')], 6);
      assert.equal(bRuns(), 1, 'replica B re-ran the request');
      // The client drops again and resumes on B, which now holds the request itself: nothing is repeated.
      c.terminate();
      await c.closed;
      const d = await open(b.url, 'alice');
      d.send({ type: 'resume', session, after: { r1: 5 } });
      assert.equal((await d.terminal('r1')).type, 'done');
      assert.deepEqual(
        d.eventsOf('r1').map((e) => [e.type, e.seq, e.type === 'delta' ? tokenOf(e) : undefined]),
        [
          ['delta', 6, 42],
          ['done', 7, undefined],
        ],
      );
    } finally {
      await stop();
    }
  });

  test('only the same principal resumes; ids the journal does not have get RESUME_EXPIRED', async () => {
    await start();
    try {
      const { session } = await dropAfterThree();
      const bob = await open(b.url, 'bob');
      bob.send({ type: 'resume', session, after: { r1: 3 } });
      const refused = await bob.waitFor((e) => e.type === 'error');
      assert.equal((refused.error as { code: string }).code, 'RESUME_EXPIRED');
      assert.equal(refused.id, undefined, 'the session is refused as a whole');
      // The connection stays usable as its own new session.
      bob.send(simpleInfer('own'));
      assert.equal((await bob.terminal('own')).type, 'result');
      const alice = await open(b.url, 'alice');
      alice.send({ type: 'resume', session, after: { r1: 3, nope: 0 } });
      const resumed = await alice.waitFor((e) => e.type === 'session.resumed');
      assert.equal(resumed.requests, 1);
      const expired = await alice.waitFor((e) => e.type === 'error' && e.id === 'nope');
      assert.equal((expired.error as { code: string }).code, 'RESUME_EXPIRED');
      tokens.finishAt(4);
      assert.equal((await alice.terminal('r1')).type, 'done');
      assert.deepEqual(
        alice.eventsOf('r1').map((e) => e.seq),
        [4, 5],
      );
    } finally {
      await stop();
    }
  });

  test('a request cancelled while it was being recorded is journaled as cancelled, not re-run elsewhere', async () => {
    const slow = new SlowJournal({ leaseMs: 60_000, windowMs: 60_000 });
    slow.hold();
    await start(slow);
    try {
      const c = await open(a.url, 'alice');
      const session = c.session.id;
      c.send(streamInfer('r1'));
      c.send({ type: 'cancel', id: 'r1' });
      const cancelled = await c.terminal('r1');
      assert.equal((cancelled.error as { code: string }).code, 'CANCELLED');
      slow.open();
      const key = wsJournalKey(session, 'r1');
      for (let i = 0; (await slow.read(key, 0))?.entries.at(-1)?.terminal !== true; i++) {
        assert.ok(i < 2000, 'the cancellation reached the journal');
        await new Promise((r) => setTimeout(r, 5));
      }
      c.terminate();
      await c.closed;
      const d = await open(b.url, 'alice');
      d.send({ type: 'resume', session, after: { r1: 0 } });
      const again = await d.terminal('r1');
      assert.deepEqual([again.type, again.seq, (again.error as { code: string }).code], ['error', 1, 'CANCELLED']);
      assert.equal(aRuns() + bRuns(), 0, 'the cancelled request never ran, here or there');
    } finally {
      await stop();
    }
  });

  test('without a journal (the memory store) a session lives on its replica: another answers RESUME_EXPIRED', async () => {
    const tokensLocal = new Tokens();
    const one = await startFrontEnd(replicaApi(server.api, tokensLocal).api, { wsResumeWindowMs: 60_000 });
    const two = await startFrontEnd(replicaApi(server.api, tokensLocal).api, { wsResumeWindowMs: 60_000 });
    try {
      const c = await TestWs.open(one.url);
      c.send(streamInfer('r1'));
      tokensLocal.allow(1);
      await c.waitFor((e) => e.id === 'r1' && e.seq === 1);
      c.terminate();
      await c.closed;
      const d = await TestWs.open(two.url);
      clients.push(d);
      d.send({ type: 'resume', session: c.session.id, after: { r1: 1 } });
      const refused = await d.waitFor((e) => e.type === 'error');
      assert.equal((refused.error as { code: string }).code, 'RESUME_EXPIRED');
    } finally {
      for (const c of clients.splice(0)) c.close();
      tokensLocal.finishAt(0);
      await one.close();
      await two.close();
    }
  });
});
