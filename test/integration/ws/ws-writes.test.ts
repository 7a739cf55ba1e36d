/**
 * The events a WebSocket connection writes in one turn of the event loop leave in one socket write
 * (ws-connection.ts corkTick): every result of one batch, each a JSON frame and a binary frame, is one write. The
 * server side of the connection is the real socket the HTTP server upgraded; the test counts the writes Node's
 * stream hands to it (`_write` for one chunk, `_writev` for several). A gate holds the model so that the requests
 * run in batches the test can count.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Duplex } from 'node:stream';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { Gate, startGatedServer } from './gated-engine.ts';
import { TestWs } from './ws-test-client.ts';

const MLP_ROW = Array.from({ length: 64 }, (_, i) => i / 64);

type CountedSocket = Duplex & { _write: (...a: unknown[]) => unknown; _writev?: (...a: unknown[]) => unknown };

describe('WebSocket writes', () => {
  const gate = new Gate();
  let server: RunningServer;
  const sockets: CountedSocket[] = [];
  let writes = 0;
  before(async () => {
    server = await startGatedServer(gate);
    // Runs before the front end's upgrade handler: the socket it hands to ws is this one.
    server.http.server.prependListener('upgrade', (_req, socket: CountedSocket) => {
      sockets.push(socket);
      const write = socket._write.bind(socket);
      socket._write = (...a: unknown[]) => (writes++, write(...a));
      const writev = socket._writev?.bind(socket);
      if (writev !== undefined) socket._writev = (...a: unknown[]) => (writes++, writev(...a));
    });
  });
  after(async () => {
    gate.release('mlp');
    await server.close();
  });

  test('the results of one batch, each a JSON and a binary frame, leave in one write per batch', async () => {
    const c = await TestWs.open(server.httpUrl);
    try {
      assert.equal(sockets.length, 1);
      gate.hold('mlp');
      const runs = gate.runs('mlp');
      const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
      for (const id of ids)
        c.send({
          type: 'infer',
          id,
          model: 'mlp',
          inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], data: MLP_ROW }],
          parameters: { binary_data_output: true },
        });
      await gate.untilRuns('mlp', runs + 1);
      const before = writes;
      gate.release('mlp');
      const results = await Promise.all(ids.map((id) => c.terminal(id)));
      const batches = gate.runs('mlp') - runs;
      for (const r of results) {
        assert.equal(r.type, 'result');
        assert.equal(r.binary.length, 1, 'each result brings its binary output frame');
        assert.equal(r.binary[0]?.byteLength, 40, 'mlp answers 10 FP32 values per row');
      }
      // Unbatched writing is one write per frame: 2 per result, 12 here, more than the batches ever are.
      assert.ok(writes - before <= batches, `${writes - before} writes for ${ids.length} results in ${batches} batches`);
    } finally {
      c.close();
    }
  });
});
