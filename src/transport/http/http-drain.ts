import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * The REST port's part of a graceful stop (docs/operations.md "Stopping"). Closing a listening socket resets the
 * connections still waiting in its accept queue, and node's `server.close()` destroys keep-alive connections it
 * thinks idle, including one whose next request is on the wire: either way a client whose request reached the
 * host gets a reset instead of an answer. So, while draining, the port stays open and every answer carries
 * `Connection: close` (clients leave after the answer instead of sending the next request into a closing socket);
 * new inference requests are answered 503 SERVER_DRAINING by the core (and WebSocket ones get SERVER_DRAINING error
 * events); and WebSocket sockets, then the listener, are closed only once nothing has arrived for a quiet period after
 * the in-flight work drained.
 */
export interface HttpDrain {
  /** From now on every response closes its connection and arrivals are timed. */
  begin(): void;
  get draining(): boolean;
  /** Resolves once no request and no connection arrived for `quietMs`, or at `deadlineMs` (epoch ms) at the latest. */
  quiet(quietMs: number, deadlineMs: number): Promise<void>;
}

/** Installs the drain hooks on `app` (call before it listens; the hook costs one boolean test per request). */
export function installHttpDrain(app: FastifyInstance): HttpDrain {
  let draining = false;
  let lastArrival = 0;
  app.addHook('onRequest', (_req, reply, done) => {
    if (draining) {
      lastArrival = Date.now();
      reply.header('connection', 'close');
    }
    done();
  });
  app.server.on('connection', () => {
    if (draining) lastArrival = Date.now();
  });
  // WebSocket upgrades count as arrivals too, and so do messages on upgraded sockets: a request a client sends
  // after our close frame could not be answered (RFC 6455 §5.5.1), so sockets close only once clients went quiet.
  // Their traffic is read from the sockets' byte counters, leaving the sockets' data to the WebSocket front end.
  const upgraded = new Set<Socket>();
  app.server.on('upgrade', (_req, socket: Socket) => {
    if (draining) lastArrival = Date.now();
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
  });
  let bytesSeen = 0;
  const noteUpgradedTraffic = (): void => {
    let total = 0;
    for (const s of upgraded) total += s.bytesRead;
    if (total !== bytesSeen) {
      bytesSeen = total;
      lastArrival = Date.now();
    }
  };
  return {
    begin() {
      if (draining) return;
      draining = true;
      lastArrival = Date.now();
      for (const s of upgraded) bytesSeen += s.bytesRead;
    },
    get draining() {
      return draining;
    },
    async quiet(quietMs, deadlineMs) {
      for (;;) {
        noteUpgradedTraffic();
        const now = Date.now();
        const wait = Math.min(lastArrival + quietMs, deadlineMs) - now;
        if (wait <= 0) return;
        // Poll the WebSocket byte counters a few times per quiet period.
        await new Promise<void>((resolve) => setTimeout(resolve, upgraded.size === 0 ? wait : Math.min(wait, Math.max(10, quietMs / 4))));
      }
    },
  };
}
