/**
 * The per-principal concurrency cap across front-end workers (docs/workers.md): the owner counts every worker's
 * unfinished requests, so with `--workers 2` a principal has at most the cap in flight in the whole server, and the
 * holds of a worker that dies mid-request are released by the owner.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { until } from '../../helpers/until.ts';
import { Gate, startGatedServer } from '../ws/gated-engine.ts';
import type { TestWs } from '../ws/ws-test-client.ts';
import { sessionsOnEveryWorker } from './connections.ts';

const MLP_INPUTS = [{ name: 'input', datatype: 'FP32', shape: [1, 64], data: new Array<number>(64).fill(0.25) }];

describe('the per-principal concurrency cap with two workers', () => {
  // The model's runs wait at a gate: requests are certainly unfinished while it is held, however slow the machine.
  const gate = new Gate();
  let server: RunningServer;
  before(async () => {
    server = await startGatedServer(gate, { workers: 2, rateLimit: { enabled: true, maxConcurrentPerPrincipal: 2 } });
  });
  after(async () => {
    gate.release('mlp');
    await server.close();
  });

  const inFlight = (): number => server.security.rateLimiter?.inFlightOf('anonymous') ?? -1;

  // A refusal is immediate; without the whole-server count the third request would wait at the gate (the test's
  // timeout turns that into a failure, not a hang).
  test('a cap of 2 holds across workers; a killed worker’s holds are released by the owner', { timeout: 120_000 }, async () => {
    const pids = server.workerPids?.() ?? [];
    assert.equal(pids.length, 2);
    const sessions = await sessionsOnEveryWorker(server.httpUrl, pids);
    try {
      const a = sessions[0] as { ws: TestWs; pid: number };
      const b = sessions.find((x) => x.pid !== a.pid) as { ws: TestWs; pid: number };
      gate.hold('mlp');
      // One unfinished request through each worker: the owner counts both.
      a.ws.send({ type: 'infer', id: 'a1', model: 'mlp', inputs: MLP_INPUTS });
      b.ws.send({ type: 'infer', id: 'b1', model: 'mlp', inputs: MLP_INPUTS });
      await until(() => inFlight() === 2, 'two unfinished requests counted in the owner');
      // A third through either worker is refused, though each worker has only one of its own in flight.
      for (const [x, id] of [
        [a, 'a2'],
        [b, 'b2'],
      ] as const) {
        x.ws.send({ type: 'infer', id, model: 'mlp', inputs: MLP_INPUTS });
        const refused = (await x.ws.terminal(id)) as unknown as { type: string; error: { code: string; message: string } };
        assert.equal(refused.type, 'error', JSON.stringify(refused));
        assert.equal(refused.error.code, 'RATE_LIMITED');
        assert.match(refused.error.message, /principal 'anonymous' already has 2 unfinished requests \(limit 2\)/);
      }
      // Worker a dies with its request in flight: the owner releases its hold.
      process.kill(a.pid, 'SIGKILL');
      assert.equal((await a.ws.closed).code, 1006);
      await until(() => inFlight() === 1, "the killed worker's hold released");
      // The freed slot is usable through the surviving worker at once (the gate still holds b1).
      b.ws.send({ type: 'infer', id: 'b3', model: 'mlp', inputs: MLP_INPUTS });
      await until(() => inFlight() === 2, 'the freed slot taken again');
      gate.release('mlp');
      for (const id of ['b1', 'b3']) assert.equal((await b.ws.terminal(id)).type, 'result', id);
      await until(() => inFlight() === 0, 'every hold released once the requests were answered');
    } finally {
      gate.release('mlp');
      for (const x of sessions) x.ws.ws.close();
    }
  });
});
