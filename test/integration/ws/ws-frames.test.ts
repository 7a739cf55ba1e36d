/**
 * Frame streams (docs/ws-protocol.md "Frame streams"): one frame runs per stream, at most max_pending_frames
 * wait, older waiting frames are dropped (latest frame wins) and every drop is reported. Counts are asserted,
 * never durations: a gate in front of the engine makes the model "slow" deterministically, and a burst against
 * a real model (resnet_tiny) checks the same invariants without a gate.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { startFrontEnd, type TestFrontEnd } from './front-end.ts';
import { Gate, startGatedServer } from './gated-engine.ts';
import { TestWs, type RecordedEvent } from './ws-test-client.ts';

const MLP_ROW = Array.from({ length: 64 }, (_, i) => i / 64);

function frame(stream: string, id: string, model = 'mlp'): Record<string, unknown> {
  return { type: 'infer', id, model, frame_stream: stream, inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], data: MLP_ROW }] };
}

const isTerminal = (e: RecordedEvent): boolean => e.type === 'result' || e.type === 'frame.dropped' || (e.type === 'error' && e.id !== undefined);

describe('WebSocket frame streams', () => {
  const gate = new Gate();
  let server: RunningServer;
  let fe: TestFrontEnd;
  before(async () => {
    server = await startGatedServer(gate);
    fe = await startFrontEnd(server.api, { wsResumeWindowMs: 60000 });
  });
  after(async () => {
    gate.release('mlp');
    await fe.close();
    await server.close();
  });

  test('a fast sender: waiting frames are superseded and reported; one runs, at most one waits', async () => {
    const c = await TestWs.open(fe.url);
    try {
      const session = fe.front.session(c.session.id)!;
      const runs = gate.runs('mlp');
      gate.hold('mlp');
      c.send(frame('cam', 'f1'));
      await gate.untilRuns('mlp', runs + 1);
      for (let i = 2; i <= 10; i++) c.send(frame('cam', `f${i}`));
      const drops = await Promise.all([2, 3, 4, 5, 6, 7, 8, 9].map((i) => c.terminal(`f${i}`)));
      drops.forEach((d, k) => {
        assert.equal(d.type, 'frame.dropped');
        assert.equal(d.seq, 1);
        assert.equal(d.frame_stream, 'cam');
        assert.equal(d.superseded_by, `f${k + 3}`, 'each waiting frame is superseded by the next one');
        assert.equal(d.dropped, k + 1, 'the running drop count of the stream');
      });
      assert.equal(session.pendingFrames('cam'), 1, 'only f10 waits');
      assert.equal(c.eventsOf('f10').length, 0);
      gate.release('mlp');
      assert.equal((await c.terminal('f1')).type, 'result');
      assert.equal((await c.terminal('f10')).type, 'result');
      const outcomes = c.events.filter(isTerminal);
      assert.equal(outcomes.length, 10, 'every frame has exactly one outcome');
      assert.equal(outcomes.filter((e) => e.type === 'result').length, 2);
      assert.equal(outcomes.filter((e) => e.type === 'frame.dropped').length, 8);
      assert.equal(gate.runs('mlp'), runs + 2, 'dropped frames never reached the model');
      assert.equal(session.pendingFrames('cam'), 0);
    } finally {
      gate.release('mlp');
      c.close();
    }
  });

  test('streams are independent, and ordinary requests are not frames', async () => {
    const c = await TestWs.open(fe.url);
    try {
      const runs = gate.runs('mlp');
      gate.hold('mlp');
      c.send(frame('a', 'a1'));
      await gate.untilRuns('mlp', runs + 1);
      c.send(frame('b', 'b1'));
      for (const id of ['a2', 'a3']) c.send(frame('a', id));
      for (const id of ['b2', 'b3']) c.send(frame('b', id));
      c.send({ ...frame('a', 'plain'), frame_stream: undefined });
      assert.equal((await c.terminal('a2')).superseded_by, 'a3');
      assert.equal((await c.terminal('b2')).superseded_by, 'b3');
      gate.release('mlp');
      for (const id of ['a1', 'b1', 'a3', 'b3', 'plain']) assert.equal((await c.terminal(id)).type, 'result', id);
      assert.equal(c.events.filter((e) => e.type === 'frame.dropped').length, 2);
    } finally {
      gate.release('mlp');
      c.close();
    }
  });

  test('cancelling a waiting frame ends it with CANCELLED; the running one still answers', async () => {
    const c = await TestWs.open(fe.url);
    try {
      const runs = gate.runs('mlp');
      gate.hold('mlp');
      c.send(frame('k', 'k1'));
      await gate.untilRuns('mlp', runs + 1);
      c.send(frame('k', 'k2'));
      c.send({ type: 'cancel', id: 'k2' });
      const cancelled = await c.terminal('k2');
      assert.equal((cancelled.error as { code: string }).code, 'CANCELLED');
      gate.release('mlp');
      assert.equal((await c.terminal('k1')).type, 'result');
      assert.equal(gate.runs('mlp'), runs + 1);
    } finally {
      gate.release('mlp');
      c.close();
    }
  });

  test('a burst against a real model (resnet_tiny): every frame one outcome, first and last answered, waiting bounded', async () => {
    const c = await TestWs.open(fe.url);
    try {
      const session = fe.front.session(c.session.id)!;
      let maxPending = 0;
      c.ws.on('message', () => {
        maxPending = Math.max(maxPending, session.pendingFrames('video'));
      });
      const N = 40;
      const pixels = 4 * 3 * 32 * 32;
      const bytes = new Uint8Array(new Float32Array(pixels).fill(0.5).buffer);
      for (let i = 1; i <= N; i++) {
        c.send({
          type: 'infer',
          id: `v${i}`,
          model: 'resnet_tiny',
          frame_stream: 'video',
          inputs: [{ name: 'input', datatype: 'FP32', shape: [4, 3, 32, 32], parameters: { binary_data_size: bytes.byteLength } }],
        });
        c.sendBinary(bytes);
      }
      await c.terminal(`v${N}`);
      const outcomes = c.events.filter(isTerminal);
      assert.equal(outcomes.length, N, 'every frame has exactly one outcome');
      assert.equal(new Set(outcomes.map((e) => e.id)).size, N);
      const results = outcomes.filter((e) => e.type === 'result');
      const drops = outcomes.filter((e) => e.type === 'frame.dropped');
      assert.equal(results.length + drops.length, N, JSON.stringify(outcomes.filter((e) => e.type === 'error')));
      assert.ok(drops.length > 0, 'a sender faster than the model sees drops');
      assert.equal(c.eventsOf('v1')[0]?.type, 'result', 'the first frame runs at once');
      assert.equal(c.eventsOf(`v${N}`)[0]?.type, 'result', 'the latest frame wins');
      for (const d of drops) assert.ok(Number(String(d.superseded_by).slice(1)) > Number(String(d.id).slice(1)), 'superseded by a newer frame');
      assert.ok(maxPending <= 1, `at most one frame waited (saw ${maxPending})`);
    } finally {
      c.close();
    }
  });
});
