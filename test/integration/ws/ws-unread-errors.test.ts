/**
 * The outgoing-buffer bound covers every event the server writes, errors included (issue 37, hole 2): an
 * authenticated client that never reads while it sends bad events gets its socket closed with 4429 (an error
 * event SLOW_CONSUMER, then the close) once 4 × max_buffered_bytes wait unread, counted in
 * rtserve_slow_clients_total{kind="ws_closed"}, and nothing more is queued for it. Before, only results were
 * bounded: error events queued without end (998,834 of them, +302 MB, in the adversarial run).
 */
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { hashApiKey } from '../../../src/security/authenticator.ts';
import { startTestServer } from '../../helpers/server.ts';
import { parseSamples, scrape, valueOf } from '../ops/helpers.ts';
import { TestWs } from './ws-test-client.ts';

const KEY = 'sk-unread-errors';
const MAX_BUFFERED = 16 * 1024;
/** Bad events sent per round before the server's counter is read again. */
const ROUND = 2000;
/**
 * A server without the bound never closes: give up after this many bad events (their error events, about 200
 * bytes each, are far more than the loopback socket buffers and 4 × MAX_BUFFERED together).
 */
const GIVE_UP = 150 * ROUND;

describe('a WebSocket client that never reads while sending bad events', () => {
  let server: RunningServer;
  const closedByBound = async (): Promise<number> =>
    valueOf(parseSamples(await scrape(`${server.metricsUrl}/metrics`)), 'rtserve_slow_clients_total', { kind: 'ws_closed' }) ?? 0;

  before(async () => {
    server = await startTestServer({
      wsMaxBufferedBytes: MAX_BUFFERED,
      auth: { enabled: true, apiKeys: [{ id: 'p', sha256: hashApiKey(KEY), scopes: ['infer'] }] },
    });
  });
  after(() => server?.close());

  test('is closed with 4429 once its unread error events pass 4 x max_buffered_bytes, and counted', async () => {
    const c = await TestWs.open(server.httpUrl, { headers: { authorization: `Bearer ${KEY}` } });
    const socket = (c.ws as unknown as { _socket: Socket })._socket;
    const before = await closedByBound();
    socket.pause();
    const bad = JSON.stringify({ type: 'no-such-event', padding: 'x'.repeat(64) });
    let sent = 0;
    while ((await closedByBound()) === before) {
      assert.ok(sent < GIVE_UP, `${sent} bad events sent to a client that reads nothing, and the server has not closed its socket`);
      for (let i = 0; i < ROUND; i++) c.ws.send(bad);
      sent += ROUND;
      // The round has left this client before the counter is read again.
      while (c.ws.bufferedAmount > 0) await new Promise((r) => setImmediate(r));
    }
    assert.equal((await closedByBound()) - before, 1, 'the close is counted once');
    // More bad events after the close: the server queues nothing for them.
    for (let i = 0; i < ROUND; i++) c.ws.send(bad);
    sent += ROUND;
    socket.resume();
    const closed = await c.closed;
    assert.equal(closed.code, 4429);
    assert.equal(closed.reason, 'see error event');
    const last = c.events.at(-1);
    assert.equal(last?.type, 'error');
    assert.equal((last?.error as { code?: string } | undefined)?.code, 'SLOW_CONSUMER', 'the last event says why');
    const answered = c.events.filter((e) => e.type === 'error').length - 1;
    process.stdout.write(`# bad events sent ${sent}, error events received before the close ${answered}\n`);
    // At most one error event per bad event sent before the close; none for those sent after it.
    assert.ok(answered <= sent - ROUND, `only what was queued before the close arrived: ${answered} of ${sent}`);
  });
});
