/**
 * A generate_stream client that never reads (issue 37's abuse suite, "a slow or non-reading client"): the server
 * bounds what it holds unsent for that response (wsMaxBufferedBytes of the response's writable buffer, past what
 * the sockets hold), then cuts the response, counted in rtserve_slow_clients_total{kind="sse_closed"}; nothing more
 * is buffered for it, other clients keep being served, and the stream stays resumable with Last-Event-ID. The
 * stream's events come from a producer the test drives (ws/stream-api.ts), in rounds, so no timing decides it.
 */
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { createHttpServer } from '../../../src/transport/http/http-server.ts';
import { registerSseRoutes } from '../../../src/transport/http/sse-routes.ts';
import { startTestServer } from '../../helpers/server.ts';
import { parseSamples, scrape, valueOf } from '../ops/helpers.ts';
import { Ticker, withStream } from '../ws/stream-api.ts';

const MAX_BUFFERED = 16 * 1024;
/** Events let out per round before the counter is read again (about 10 KB: less than the bound, so one round alone is not cut). */
const ROUND = 100;
/** A server without the bound never cuts: give up after this many events (about 100 bytes each, far past the sockets). */
const GIVE_UP = 1000 * ROUND;
const BODY = { INPUT0: new Array(16).fill(1), INPUT1: new Array(16).fill(2), parameters: { tokens: true } };

describe('an SSE generate_stream client that never reads', () => {
  const ticker = new Ticker();
  let server: RunningServer;
  let app: FastifyInstance;
  let base: string;
  const cut = async (): Promise<number> =>
    valueOf(parseSamples(await scrape(`${server.metricsUrl}/metrics`)), 'rtserve_slow_clients_total', { kind: 'sse_closed' }) ?? 0;

  before(async () => {
    server = await startTestServer();
    const api = withStream(server.api, ticker);
    app = await createHttpServer({
      api,
      logger: silentLogger(),
      maxBodyBytes: 1 << 20,
      extend: (a) => {
        registerSseRoutes(a, {
          api,
          logger: silentLogger(),
          heartbeatIntervalMs: 0,
          resumeWindowMs: 60_000,
          maxRetainedBytes: 64 << 20,
          maxBufferedBytes: MAX_BUFFERED,
          onSlowClient: (kind) => server.metrics.slowClients.inc({ kind }),
        });
      },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/v2/models/simple`;
  });
  after(async () => {
    ticker.end();
    await app.close();
    await server.close();
  });

  test('is cut once its unsent bytes pass the bound, counted once; others are served; the stream resumes', async () => {
    const before = await cut();
    // The first event commits the 200; from then on the client reads nothing.
    ticker.emit(1);
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(`${base}/generate_stream`, { method: 'POST', headers: { 'content-type': 'application/json' } }, resolve);
      req.on('error', reject);
      req.end(JSON.stringify(BODY));
    });
    assert.equal(res.statusCode, 200);
    const streamId = res.headers['rtserve-stream-id'];
    const socket = res.socket as Socket;
    socket.pause();
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    let emitted = 1;
    while ((await cut()) === before) {
      assert.ok(emitted < GIVE_UP, `${emitted} events for a client that reads nothing, and the server has not cut its response`);
      ticker.emit(ROUND);
      emitted += ROUND;
      // The round has been produced (and written) before the counter is read again.
      while (ticker.produced < emitted) await new Promise((r) => setImmediate(r));
    }
    assert.equal((await cut()) - before, 1, 'the cut is counted once');
    // More events after the cut: nothing is written for them.
    ticker.emit(ROUND);
    emitted += ROUND;
    socket.resume();
    res.resume();
    await ended;
    process.stdout.write(`# events produced ${emitted} before the client read again\n`);
    assert.equal((await cut()) - before, 1, 'nothing more was buffered for the cut response');

    // Another client is served meanwhile (an ordinary answer, one event then done).
    const other = await fetch(`${base}/generate_stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ INPUT0: new Array(16).fill(1), INPUT1: new Array(16).fill(2) }),
    });
    assert.equal(other.status, 200);
    assert.match(await other.text(), /event: done/);

    // The cut stream is still resumable: its client asks for the rest with Last-Event-ID.
    assert.equal(typeof streamId, 'string');
    const resumed = await fetch(`${base}/generate_stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'last-event-id': `${String(streamId)}:1` },
      body: '{}',
    });
    assert.equal(resumed.status, 200);
    await resumed.body?.cancel();
  });
});
