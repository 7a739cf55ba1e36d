import type { FastifyInstance } from 'fastify';

/**
 * The REST port's part of a graceful stop (docs/operations.md "Stopping"). Closing a listening socket resets the
 * connections still waiting in its accept queue, and node's `server.close()` destroys keep-alive connections it
 * thinks idle, including one whose next request is on the wire: either way a client whose request reached the
 * host gets a reset instead of an answer. So, while draining, the port stays open and every answer carries
 * `Connection: close` (clients leave after the answer instead of sending the next request into a closing socket);
 * new inference requests are answered 503 SERVER_DRAINING by the core; and the listener is closed only once
 * nothing has arrived for a quiet period after the in-flight work drained.
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
  // WebSocket upgrades count as arrivals too (they are answered, then closed with 1001 by the WebSocket front end).
  app.server.on('upgrade', () => {
    if (draining) lastArrival = Date.now();
  });
  return {
    begin() {
      if (draining) return;
      draining = true;
      lastArrival = Date.now();
    },
    get draining() {
      return draining;
    },
    async quiet(quietMs, deadlineMs) {
      for (;;) {
        const now = Date.now();
        const wait = Math.min(lastArrival + quietMs, deadlineMs) - now;
        if (wait <= 0) return;
        await new Promise<void>((resolve) => setTimeout(resolve, wait));
      }
    },
  };
}
