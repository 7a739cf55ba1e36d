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
  // Open connections, for their byte counters: a WebSocket message (or an upgrade, or a request head still arriving)
  // reads bytes on one. A request a client sends after our WebSocket close frame could not be answered (RFC 6455
  // §5.5.1), so sockets close only once clients went quiet. The counters are read, never the sockets' data, and no
  // 'upgrade' listener is added (the WebSocket front end answers 404 to upgrades only when it is the only one).
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    if (draining) lastArrival = Date.now();
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  let bytesSeen = 0;
  const bytesRead = (): number => {
    let total = 0;
    for (const s of sockets) total += s.bytesRead;
    return total;
  };
  const noteTraffic = (): void => {
    const total = bytesRead();
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
      bytesSeen = bytesRead();
    },
    get draining() {
      return draining;
    },
    async quiet(quietMs, deadlineMs) {
      for (;;) {
        noteTraffic();
        const now = Date.now();
        const wait = Math.min(lastArrival + quietMs, deadlineMs) - now;
        if (wait <= 0) return;
        // Poll the byte counters a few times per quiet period.
        await new Promise<void>((resolve) => setTimeout(resolve, sockets.size === 0 ? wait : Math.min(wait, Math.max(10, quietMs / 4))));
      }
    },
  };
}
