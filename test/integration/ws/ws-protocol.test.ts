/**
 * The WebSocket protocol on the wire (docs/ws-protocol.md), with real `ws` clients against a real server:
 * handshake, many requests per socket, out-of-order completion, binary frames both ways, streaming, cancel,
 * the error kinds, limits (1009, in-flight), session.update, ping, idle timeout and heartbeat.
 * "Slow" models are made slow deterministically with a gate in front of the engine (gated-engine.ts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { rtError } from '../../../src/errors/registry.ts';
import { startTestServer } from '../../helpers/server.ts';
import { startFrontEnd, type TestFrontEnd } from './front-end.ts';
import { Gate, startGatedServer } from './gated-engine.ts';
import { outputData, simpleInfer, TestWs } from './ws-test-client.ts';
import { ServerMetrics } from '../../../src/observability/metrics.ts';
import { parseSamples, valueOf } from '../ops/helpers.ts';

const MLP_ROW = Array.from({ length: 64 }, (_, i) => (i % 7) / 7);

function mlpInfer(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'infer', id, model: 'mlp', inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], data: MLP_ROW }], ...extra };
}

describe('WebSocket protocol', () => {
  const gate = new Gate();
  let server: RunningServer;
  before(async () => {
    server = await startGatedServer(gate, { wsMaxInFlight: 4, wsMaxMessageBytes: 64 * 1024 });
  });
  after(async () => {
    gate.release('mlp');
    await server.close();
  });

  test('handshake: session.created first, with the configured limits; rtserve.v1 is selected', async () => {
    const c = await TestWs.open(server.httpUrl);
    try {
      const first = c.events[0]!;
      assert.equal(first.type, 'session.created');
      assert.equal(typeof first.event_id, 'string');
      const { session, limits } = first as unknown as {
        session: { id: string; protocol: string; binary_outputs: boolean };
        limits: Record<string, number>;
      };
      assert.match(session.id, /^[0-9a-f-]{36}$/);
      assert.equal(session.protocol, 'rtserve.v1');
      assert.equal(session.binary_outputs, false);
      assert.deepEqual(limits, {
        max_message_bytes: 64 * 1024,
        max_in_flight: 4,
        heartbeat_interval_ms: 20000,
        idle_timeout_ms: 60000,
        max_buffered_bytes: 8 * 1024 * 1024,
        resume_window_ms: 60000,
        max_pending_frames: 1,
      });
      assert.equal(c.ws.protocol, 'rtserve.v1');
    } finally {
      c.close();
    }
  });

  test('a token subprotocol is never echoed; a client offering no subprotocol is served too', async () => {
    const withToken = await TestWs.open(server.httpUrl, { protocols: ['rtserve.v1', 'rtserve.bearer.s3cret'] });
    assert.equal(withToken.ws.protocol, 'rtserve.v1');
    withToken.close();
    const bare = await TestWs.open(server.httpUrl, { protocols: [] });
    assert.equal(bare.ws.protocol, '');
    bare.send(simpleInfer('r'));
    assert.equal((await bare.terminal('r')).type, 'result');
    bare.close();
  });

  test('other paths are not upgraded (404)', async () => {
    const ws = new WebSocket(`${server.httpUrl.replace('http', 'ws')}/v2/nope`);
    const status = await new Promise<number>((resolve) => {
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('error', () => resolve(-1));
    });
    assert.equal(status, 404);
  });

  test('many requests in flight on one socket, each answered once under its id with seq 1', async () => {
    const c = await TestWs.open(server.httpUrl);
    try {
      // 4 at a time (max_in_flight), 40 in total, without waiting for answers within a wave.
      for (let wave = 0; wave < 10; wave++) {
        const ids = [0, 1, 2, 3].map((k) => `w${wave}-${k}`);
        ids.forEach((id, k) => c.send(simpleInfer(id, wave * 10 + k)));
        for (const [k, id] of ids.entries()) {
          const r = await c.terminal(id);
          assert.equal(r.type, 'result', JSON.stringify(r));
          assert.equal(r.seq, 1);
          assert.equal(r.model_name, 'simple');
          assert.deepEqual(
            outputData(r, 'OUTPUT0'),
            Array.from({ length: 16 }, (_, i) => i + wave * 10 + k + 1),
          );
        }
      }
      const terminals = c.events.filter((e) => e.type === 'result');
      assert.equal(terminals.length, 40);
      assert.equal(new Set(terminals.map((e) => e.id)).size, 40);
      assert.equal(new Set(c.events.map((e) => e.event_id)).size, c.events.length, 'event ids are unique');
    } finally {
      c.close();
    }
  });

  test('answers arrive out of order: a fast request overtakes a slow one', async () => {
    const c = await TestWs.open(server.httpUrl);
    try {
      const runs = gate.runs('mlp');
      gate.hold('mlp');
      c.send(mlpInfer('slow'));
      await gate.untilRuns('mlp', runs + 1);
      c.send(simpleInfer('fast'));
      await c.terminal('fast');
      assert.equal(c.eventsOf('slow').length, 0, 'the slow request is still running');
      gate.release('mlp');
      const slow = await c.terminal('slow');
      assert.equal(slow.type, 'result');
      const order = c.events.filter((e) => e.type === 'result').map((e) => e.id);
      assert.deepEqual(order, ['fast', 'slow']);
    } finally {
      gate.release('mlp');
      c.close();
    }
  });

  test('binary frames both ways: inputs follow the infer event, outputs follow the result', async () => {
    const c = await TestWs.open(server.httpUrl);
    try {
      const in0 = Int32Array.from({ length: 16 }, (_, i) => i * 3);
      const in1 = Int32Array.from({ length: 16 }, () => 2);
      c.send({
        type: 'infer',
        id: 'b1',
        model: 'simple',
        inputs: [
          { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], parameters: { binary_data_size: 64 } },
          { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], parameters: { binary_data_size: 64 } },
        ],
        parameters: { binary_data_output: true },
      });
      c.sendBinary(new Uint8Array(in0.buffer));
      c.sendBinary(new Uint8Array(in1.buffer));
      const r = await c.terminal('b1');
      assert.equal(r.type, 'result', JSON.stringify(r));
      const outputs = (r as unknown as { outputs: { name: string; parameters: { binary_data_size: number } }[] }).outputs;
      assert.deepEqual(
        outputs.map((o) => [o.name, o.parameters.binary_data_size]),
        [
          ['OUTPUT0', 64],
          ['OUTPUT1', 64],
        ],
      );
      assert.equal(r.binary.length, 2);
      const out0 = new Int32Array(r.binary[0]!.slice().buffer);
      const out1 = new Int32Array(r.binary[1]!.slice().buffer);
      assert.deepEqual(
        [...out0],
        [...in0].map((v) => v + 2),
      );
      assert.deepEqual(
        [...out1],
        [...in0].map((v) => v - 2),
      );

      // The binary section may also come as one frame holding both inputs; one output binary, one JSON.
      c.send({
        type: 'infer',
        id: 'b2',
        model: 'simple',
        inputs: [
          { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], parameters: { binary_data_size: 64 } },
          { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], parameters: { binary_data_size: 64 } },
        ],
        outputs: [{ name: 'OUTPUT0', parameters: { binary_data: true } }, { name: 'OUTPUT1' }],
      });
      const both = new Uint8Array(128);
      both.set(new Uint8Array(in0.buffer), 0);
      both.set(new Uint8Array(in1.buffer), 64);
      c.sendBinary(both);
      const r2 = await c.terminal('b2');
      assert.equal(r2.binary.length, 1);
      assert.deepEqual(
        [...new Int32Array(r2.binary[0]!.slice().buffer)],
        [...in0].map((v) => v + 2),
      );
      assert.deepEqual(
        outputData(r2, 'OUTPUT1'),
        [...in0].map((v) => v - 2),
      );
      assert.equal(c.strayBinary, 0);
    } finally {
      c.close();
    }
  });

  test('binary framing errors: a text frame before the section is complete, an overshooting frame, a stray frame', async () => {
    const c = await TestWs.open(server.httpUrl);
    try {
      const declare = (id: string): Record<string, unknown> => ({
        type: 'infer',
        id,
        model: 'simple',
        inputs: [
          { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], parameters: { binary_data_size: 64 } },
          { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], parameters: { binary_data_size: 64 } },
        ],
      });
      c.send(declare('cut'));
      c.sendBinary(new Uint8Array(64));
      c.send(simpleInfer('after-cut'));
      const cut = await c.terminal('cut');
      assert.equal(cut.type, 'error');
      assert.equal((cut.error as { code: string }).code, 'BAD_REQUEST');
      assert.match((cut.error as { message: string }).message, /64 of 128 bytes/);
      assert.equal((await c.terminal('after-cut')).type, 'result', 'the interrupting text frame is processed normally');

      c.send(declare('over'));
      c.sendBinary(new Uint8Array(200));
      const over = await c.terminal('over');
      assert.equal((over.error as { code: string }).code, 'BAD_DATA');
      assert.match((over.error as { message: string }).message, /200 bytes.*128/);

      c.sendBinary(new Uint8Array(8));
      const stray = await c.waitFor((e) => e.type === 'error' && e.id === undefined && /binary frame/.test((e.error as { message: string }).message));
      assert.equal((stray.error as { code: string }).code, 'BAD_REQUEST');
      c.send(simpleInfer('still-open'));
      assert.equal((await c.terminal('still-open')).type, 'result');
    } finally {
      c.close();
    }
  });

  test('stream: true answers with delta events and exactly one done', async () => {
    const c = await TestWs.open(server.httpUrl);
    try {
      c.send(simpleInfer('s1', 0, { stream: true }));
      const done = await c.terminal('s1');
      assert.equal(done.type, 'done');
      const events = c.eventsOf('s1');
      assert.deepEqual(
        events.map((e) => [e.type, e.seq]),
        [
          ['delta', 1],
          ['done', 2],
        ],
      );
      assert.equal(done.responses, 1);
      assert.deepEqual(
        outputData(events[0]!, 'OUTPUT1'),
        Array.from({ length: 16 }, (_, i) => i - 1),
      );
    } finally {
      c.close();
    }
  });

  test('cancel: a running request and a queued one end with CANCELLED, exactly once', async () => {
    const c = await TestWs.open(server.httpUrl);
    try {
      const runs = gate.runs('mlp');
      gate.hold('mlp');
      c.send(mlpInfer('running'));
      await gate.untilRuns('mlp', runs + 1);
      c.send(mlpInfer('queued'));
      c.send({ type: 'cancel', id: 'queued' });
      c.send({ type: 'cancel', id: 'running' });
      for (const id of ['queued', 'running']) {
        const t = await c.terminal(id);
        assert.equal(t.type, 'error');
        assert.equal(t.seq, 1);
        assert.equal((t.error as { code: string }).code, 'CANCELLED');
      }
      // Cancelling something unknown or finished does nothing.
      c.send({ type: 'cancel', id: 'never-sent' });
      gate.release('mlp');
      c.send({ type: 'ping', id: 'sync' });
      await c.waitFor((e) => e.type === 'pong' && e.id === 'sync');
      // The released run's result is thrown away: still one event per request.
      c.send(mlpInfer('later'));
      await c.terminal('later');
      assert.equal(c.eventsOf('running').length, 1);
      assert.equal(c.eventsOf('queued').length, 1);
      assert.equal(c.events.filter((e) => e.type === 'error' && e.id === undefined).length, 0);
    } finally {
      gate.release('mlp');
      c.close();
    }
  });

  test('request errors keep the socket open and name what was wrong', async () => {
    const c = await TestWs.open(server.httpUrl);
    try {
      c.send({ type: 'infer', id: 'e-model', model: 'no_such_model', inputs: [] });
      c.send({ type: 'infer', id: 'e-nomodel', inputs: [] });
      c.send({
        type: 'infer',
        id: 'e-shape',
        model: 'simple',
        inputs: [
          { name: 'INPUT0', datatype: 'INT32', shape: [1, 15], data: new Array(15).fill(0) },
          { name: 'INPUT1', datatype: 'INT32', shape: [1, 15], data: new Array(15).fill(0) },
        ],
      });
      c.send({ type: 'infer', id: 'e-json', model: 'simple', inputs: 'nope' });
      c.send({ type: 'infer', id: 'e-frame', model: 'simple', inputs: [], stream: true, frame_stream: 'x' });
      const expect: [string, string, string, RegExp][] = [
        ['e-model', 'MODEL_NOT_FOUND', 'NOT_FOUND', /no_such_model/],
        ['e-nomodel', 'BAD_REQUEST', 'INVALID_ARGUMENT', /'model'/],
        ['e-shape', 'BAD_SHAPE', 'INVALID_ARGUMENT', /INPUT0/],
        ['e-json', 'BAD_JSON', 'INVALID_ARGUMENT', /'inputs'/],
        ['e-frame', 'BAD_REQUEST', 'INVALID_ARGUMENT', /frame stream/],
      ];
      for (const [id, code, category, message] of expect) {
        const t = await c.terminal(id);
        const err = t.error as { code: string; category: string; message: string; retryable: boolean };
        assert.equal(t.type, 'error');
        assert.equal(t.seq, 1);
        assert.equal(err.code, code, `${id}: ${err.message}`);
        assert.equal(err.category, category);
        assert.equal(err.retryable, false);
        assert.match(err.message, message);
      }

      // Event-level refusals carry no id; a client event_id is echoed.
      c.ws.send('{not json');
      c.send({ type: 'bogus', event_id: 'ev-1' });
      c.send({ type: 'infer', model: 'simple', inputs: [] });
      c.send({ type: 'cancel' });
      c.send({ type: 'session.update', session: { max_in_flight: 9 } });
      c.ws.send('[1,2]');
      const refusals = async (n: number) => {
        await c.waitFor(() => c.events.filter((e) => e.type === 'error' && e.id === undefined).length >= n, `${n} refusals`);
        return c.events
          .filter((e) => e.type === 'error' && e.id === undefined)
          .map((e) => e as unknown as { client_event_id?: string; error: { code: string; message: string; param?: string } });
      };
      const got = await refusals(6);
      assert.deepEqual(
        got.map((e) => e.error.code),
        ['BAD_JSON', 'BAD_REQUEST', 'BAD_REQUEST', 'BAD_REQUEST', 'BAD_REQUEST', 'BAD_JSON'],
      );
      assert.match(got[0]!.error.message, /position|JSON/i);
      assert.equal(got[1]!.client_event_id, 'ev-1');
      assert.match(got[1]!.error.message, /bogus/);
      assert.equal(got[2]!.error.param, 'id');
      assert.match(got[4]!.error.message, /max_in_flight/);

      // Still serving.
      c.send(simpleInfer('ok'));
      assert.equal((await c.terminal('ok')).type, 'result');
    } finally {
      c.close();
    }
  });

  test('a duplicate id of an unfinished request is refused without touching the original', async () => {
    const c = await TestWs.open(server.httpUrl);
    try {
      const runs = gate.runs('mlp');
      gate.hold('mlp');
      c.send(mlpInfer('dup'));
      await gate.untilRuns('mlp', runs + 1);
      c.send(mlpInfer('dup'));
      const refusal = await c.waitFor((e) => e.type === 'error' && e.id === undefined);
      assert.equal((refusal.error as { code: string; param: string }).param, 'id');
      assert.match((refusal.error as { message: string }).message, /'dup' is already in flight/);
      gate.release('mlp');
      assert.equal((await c.terminal('dup')).type, 'result');
      // Once finished, the id may be reused.
      c.send(mlpInfer('dup'));
      await c.waitFor((e) => e.id === 'dup' && e.type === 'result' && c.eventsOf('dup').length === 2);
    } finally {
      gate.release('mlp');
      c.close();
    }
  });

  test('TOO_MANY_IN_FLIGHT past max_in_flight, retryable with a hint; the socket stays usable', async () => {
    const c = await TestWs.open(server.httpUrl);
    try {
      const runs = gate.runs('mlp');
      gate.hold('mlp');
      for (let i = 0; i < 5; i++) c.send(mlpInfer(`f${i}`));
      const refused = await c.terminal('f4');
      const err = refused.error as { code: string; category: string; retryable: boolean; retry_after_ms: number };
      assert.equal(err.code, 'TOO_MANY_IN_FLIGHT');
      assert.equal(err.category, 'RESOURCE_EXHAUSTED');
      assert.equal(err.retryable, true);
      assert.ok(err.retry_after_ms > 0);
      await gate.untilRuns('mlp', runs + 1);
      gate.release('mlp');
      for (let i = 0; i < 4; i++) assert.equal((await c.terminal(`f${i}`)).type, 'result');
      c.send(mlpInfer('f5'));
      assert.equal((await c.terminal('f5')).type, 'result');
    } finally {
      gate.release('mlp');
      c.close();
    }
  });

  test('session.update patches binary_outputs and answers with the full session', async () => {
    const c = await TestWs.open(server.httpUrl);
    try {
      c.send({ type: 'session.update', session: { binary_outputs: true } });
      const updated = await c.waitFor((e) => e.type === 'session.updated');
      assert.deepEqual(updated.session, { id: c.session.id, protocol: 'rtserve.v1', binary_outputs: true });
      c.send(simpleInfer('bin'));
      const r = await c.terminal('bin');
      assert.equal(r.binary.length, 2);
      // A request can still ask for JSON.
      c.send(simpleInfer('json', 0, { parameters: { binary_data_output: false } }));
      const j = await c.terminal('json');
      assert.equal(j.binary.length, 0);
      assert.equal(outputData(j, 'OUTPUT0').length, 16);
    } finally {
      c.close();
    }
  });

  test('ping is answered with pong; keepalive is not answered', async () => {
    const c = await TestWs.open(server.httpUrl);
    try {
      c.send({ type: 'keepalive' });
      c.send({ type: 'ping', id: 'p1' });
      const pong = await c.waitFor((e) => e.type === 'pong');
      assert.equal(pong.id, 'p1');
      assert.deepEqual(
        c.events.map((e) => e.type),
        ['session.created', 'pong'],
      );
    } finally {
      c.close();
    }
  });

  test('a frame over max_message_bytes closes the socket with 1009', async () => {
    const c = await TestWs.open(server.httpUrl);
    c.ws.send(JSON.stringify({ type: 'ping', pad: 'x'.repeat(70 * 1024) }));
    const closed = await c.closed;
    assert.equal(closed.code, 1009);
  });

  test('a declared binary section over max_message_bytes: an error event, then 1009', async () => {
    const c = await TestWs.open(server.httpUrl);
    c.send({
      type: 'infer',
      id: 'big',
      model: 'simple',
      inputs: [{ name: 'INPUT0', datatype: 'INT32', shape: [1, 40000], parameters: { binary_data_size: 160000 } }],
    });
    const closed = await c.closed;
    assert.equal(closed.code, 1009);
    const err = c.events.find((e) => e.type === 'error');
    assert.equal((err?.error as { code: string }).code, 'PAYLOAD_TOO_LARGE');
  });
});

describe('WebSocket idle timeout and heartbeat', () => {
  // Two servers, so that no test races two timers: the idle timeout is tested where the heartbeat is a minute away,
  // the heartbeat where the idle timeout is. Each test then waits only for the event it is about.
  let idleServer: RunningServer;
  let heartbeatServer: RunningServer;
  before(async () => {
    idleServer = await startTestServer({ wsIdleTimeoutMs: 300, wsHeartbeatIntervalMs: 60_000 });
    heartbeatServer = await startTestServer({ wsIdleTimeoutMs: 600_000, wsHeartbeatIntervalMs: 100 });
  });
  after(async () => {
    await idleServer.close();
    await heartbeatServer.close();
  });

  test('an idle session gets IDLE_TIMEOUT, then close 4408', async () => {
    const server = idleServer;
    const c = await TestWs.open(server.httpUrl);
    const closed = await c.closed;
    assert.equal(closed.code, 4408);
    assert.equal(closed.reason, 'see error event');
    const err = c.events.find((e) => e.type === 'error');
    assert.equal((err?.error as { code: string }).code, 'IDLE_TIMEOUT');
    assert.equal((err?.error as { category: string }).category, 'DEADLINE_EXCEEDED');
  });

  test('the server pings; a client that answers stays connected across several intervals', async () => {
    const c = await TestWs.open(heartbeatServer.httpUrl);
    let pings = 0;
    c.ws.on('ping', () => pings++);
    await new Promise<void>((resolve) => c.ws.on('ping', () => pings >= 2 && resolve()));
    assert.ok(pings >= 2);
    assert.equal(c.ws.readyState, WebSocket.OPEN);
    c.close();
  });

  test('a client that never answers pings is cut off (no close frame: 1006)', async () => {
    const ws = new WebSocket(`${heartbeatServer.httpUrl.replace('http', 'ws')}/v2/ws`, ['rtserve.v1'], { autoPong: false });
    ws.on('error', () => {});
    const code = await new Promise<number>((resolve) => ws.once('close', (c) => resolve(c)));
    assert.equal(code, 1006);
  });
});

describe('WebSocket authentication hook', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  test('the hook sees header and subprotocol tokens; a refusal is an HTTP error before the upgrade', async () => {
    const seen: { token?: string; source: string }[] = [];
    const fe = await startFrontEnd(
      server.api,
      {},
      {
        authenticate: (_req, creds) => {
          seen.push({ ...(creds.token === undefined ? {} : { token: creds.token }), source: creds.source });
          if (creds.token !== 'good') throw rtError('BAD_REQUEST', 'bad token');
          return { subject: 'alice' };
        },
      },
    );
    try {
      const byHeader = await TestWs.open(fe.url, { headers: { authorization: 'Bearer good' } });
      byHeader.send(simpleInfer('auth'));
      assert.equal((await byHeader.terminal('auth')).type, 'result');
      byHeader.close();
      const bySubprotocol = await TestWs.open(fe.url, { protocols: ['rtserve.v1', 'rtserve.bearer.good'] });
      assert.equal(bySubprotocol.ws.protocol, 'rtserve.v1');
      bySubprotocol.close();
      await assert.rejects(TestWs.open(fe.url, { protocols: ['rtserve.v1', 'rtserve.bearer.bad'] }), /HTTP 400/);
      await assert.rejects(TestWs.open(fe.url), /HTTP 400/);
      assert.deepEqual(seen, [
        { token: 'good', source: 'authorization-header' },
        { token: 'good', source: 'subprotocol' },
        { token: 'bad', source: 'subprotocol' },
        { source: 'none' },
      ]);
    } finally {
      await fe.close();
    }
  });

  test('the admission hook runs per request: a refusal ends that request only; every admission is released', async () => {
    let admitted = 0;
    let released = 0;
    const fe = await startFrontEnd(
      server.api,
      {},
      {
        authenticate: () => ({ subject: 'bob', principal: { scopes: ['simple'] } }),
        admit: async (principal, model) => {
          assert.deepEqual(principal.principal, { scopes: ['simple'] });
          if (model !== 'simple') throw rtError('BAD_REQUEST', `not allowed to use '${model}'`);
          admitted++;
          return { release: () => released++ };
        },
      },
    );
    try {
      const c = await TestWs.open(fe.url);
      c.send(simpleInfer('yes'));
      c.send({ type: 'infer', id: 'no', model: 'mlp', inputs: [] });
      assert.equal((await c.terminal('yes')).type, 'result');
      const no = await c.terminal('no');
      assert.match((no.error as { message: string }).message, /not allowed to use 'mlp'/);
      assert.equal(admitted, 1);
      assert.equal(released, 1);
      c.close();
    } finally {
      await fe.close();
    }
  });
});

describe('WebSocket outgoing-buffer bound', () => {
  let server: RunningServer;
  // ws's bufferedAmount counts a frame until its whole write completed, and a client that does not read
  // cannot take in 24 MiB: after one such result the queue holds about 24 MiB — over the 8 MiB soft bound,
  // under the 32 MiB hard one — and after two, about 48 MiB, over the hard one.
  const BIG = 24 * 1024 * 1024;
  const gate = new Gate();
  // The server's own metrics registry: each bound that fires is counted in rtserve_slow_clients_total.
  const metrics = new ServerMetrics({ statistics: () => [], pending: () => [] });
  const slowClients = async (kind: string): Promise<number | undefined> =>
    valueOf(parseSamples(await metrics.text()), 'rtserve_slow_clients_total', { kind });
  let fe: TestFrontEnd;
  before(async () => {
    server = await startGatedServer(gate);
    fe = await startFrontEnd(
      server.api,
      { wsMaxMessageBytes: 32 * 1024 * 1024, wsMaxBufferedBytes: 8 * 1024 * 1024, wsResumeWindowMs: 60000 },
      { metrics },
    );
  });
  after(async () => {
    await fe.close();
    await server.close();
  });

  // identity_all needs every input: one element each, except the big UINT8 one (sent as binary data).
  const small = ['BOOL', 'UINT16', 'UINT32', 'UINT64', 'INT8', 'INT16', 'INT32', 'INT64', 'FP16', 'FP32', 'FP64', 'BYTES'].map((dt) => ({
    name: `IN_${dt}`,
    datatype: dt,
    shape: [1, 1],
    data: [dt === 'BOOL' ? true : dt === 'BYTES' ? 'a' : 1],
  }));
  const bigInfer = (c: TestWs, id: string): void => {
    const inputs = [...small, { name: 'IN_UINT8', datatype: 'UINT8', shape: [1, BIG], parameters: { binary_data_size: BIG } }];
    c.send({ type: 'infer', id, model: 'identity_all', inputs, outputs: [{ name: 'OUT_UINT8', parameters: { binary_data: true } }] });
    c.sendBinary(new Uint8Array(BIG));
  };
  const socketOf = (c: TestWs): Socket => (c.ws as unknown as { _socket: Socket })._socket;
  const inferenceCount = async (): Promise<number> => {
    const stats = (await (await fetch(`${server.httpUrl}/v2/models/identity_all/stats`)).json()) as { model_stats: { inference_count: number }[] };
    return stats.model_stats[0]?.inference_count ?? 0;
  };
  /** Resolves once the server has answered `n` more identity_all requests (their results are then written). */
  const untilAnswered = async (from: number, n: number): Promise<void> => {
    for (let i = 0; (await inferenceCount()) < from + n; i++) {
      assert.ok(i < 2000, 'the big requests never ran');
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  test('a client that does not read gets SLOW_CONSUMER (retryable) for new requests; the socket stays open', async () => {
    const c = await TestWs.open(fe.url);
    try {
      const before = await inferenceCount();
      socketOf(c).pause();
      bigInfer(c, 'big1');
      await untilAnswered(before, 1);
      c.send(simpleInfer('refused'));
      // Keep not reading until the server has handled the request (its stream exists in the session).
      const session = fe.front.session(c.session.id);
      for (let i = 0; session?.streams.get('refused') === undefined; i++) {
        assert.ok(i < 2000, 'the server never read the request');
        await new Promise((r) => setTimeout(r, 5));
      }
      socketOf(c).resume();
      const refused = await c.terminal('refused');
      const err = refused.error as { code: string; category: string; retryable: boolean; retry_after_ms: number };
      assert.equal(err.code, 'SLOW_CONSUMER');
      assert.equal(await slowClients('ws_refused'), 1);
      assert.equal(err.category, 'RESOURCE_EXHAUSTED');
      assert.equal(err.retryable, true);
      assert.ok(err.retry_after_ms > 0);
      const big = await c.terminal('big1');
      assert.equal(big.binary[0]?.byteLength, BIG);
      // Once the client caught up, requests are admitted again.
      c.send(simpleInfer('admitted'));
      assert.equal((await c.terminal('admitted')).type, 'result');
    } finally {
      c.close();
    }
  });

  test('when the queue passes 4 x max_buffered_bytes: an error event, then close 4429', async () => {
    const c = await TestWs.open(fe.url);
    const before = await inferenceCount();
    // Both requests must be admitted while the queue is still empty: hold the model until the server has
    // read both (the pong proves it), then stop reading and let the two results pile up.
    gate.hold('identity_all');
    bigInfer(c, 'h1');
    bigInfer(c, 'h2');
    c.send({ type: 'ping', id: 'admitted' });
    await c.waitFor((e) => e.type === 'pong');
    socketOf(c).pause();
    gate.release('identity_all');
    await untilAnswered(before, 2);
    socketOf(c).resume();
    const closed = await c.closed;
    assert.equal(closed.code, 4429);
    assert.equal(closed.reason, 'see error event');
    const fatal = c.events.find((e) => e.type === 'error' && e.id === undefined);
    assert.equal((fatal?.error as { code: string } | undefined)?.code, 'SLOW_CONSUMER');
    assert.equal(await slowClients('ws_closed'), 1);
  });
});
