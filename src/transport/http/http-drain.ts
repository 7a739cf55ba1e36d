import { readFile } from 'node:fs/promises';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * The REST port's part of a graceful stop (docs/operations.md "Graceful shutdown"). While draining, the port stays
 * open and every answer carries `Connection: close` (clients leave after the answer instead of sending the next
 * request into a closing socket); new inference requests are answered 503 SERVER_DRAINING by the core (and
 * WebSocket ones get SERVER_DRAINING error events). The listener closes `drainQuietMs` after the last admitted
 * request finished (front-ends.ts), however many clients keep connecting: arrivals that are only refused do not
 * keep the server up. Closing a listener resets the connections still waiting in its accept queue; `close` counts
 * them, and the connections still open then, for the log.
 */
export interface HttpDrain {
  /** From now on every response closes its connection. */
  begin(): void;
  get draining(): boolean;
  /** Closes the port (`app.close()`: the listener, idle connections, then the rest as their answers end). */
  close(): Promise<DrainResets>;
}

/** What closing the REST port cut. */
export interface DrainResets {
  /** Connections the kernel held in the listener's accept queue, reset by the close; undefined where unknown. */
  readonly acceptQueue: number | undefined;
  /** Connections open when the listener closed (idle ones are closed, others end with their answer). */
  readonly open: number;
}

/** Installs the drain hooks on `app` (call before it listens; the hook costs one boolean test per request). */
export function installHttpDrain(app: FastifyInstance): HttpDrain {
  let draining = false;
  app.addHook('onRequest', (_req, reply, done) => {
    if (draining) reply.header('connection', 'close');
    done();
  });
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    begin() {
      draining = true;
    },
    get draining() {
      return draining;
    },
    async close() {
      const address = app.server.address();
      const acceptQueue = address !== null && typeof address === 'object' ? await acceptQueueLength((address as AddressInfo).port) : undefined;
      const open = sockets.size;
      await app.close();
      return { acceptQueue, open };
    },
  };
}

/** TCP state LISTEN in /proc/net/tcp (include/net/tcp_states.h). */
const TCP_LISTEN = '0A';

/**
 * Connections waiting in the kernel's accept queue of the socket listening on `port`: on Linux the rx_queue of a
 * LISTEN socket in /proc/net/tcp and /proc/net/tcp6 is that queue's length. Undefined where neither can be read.
 */
export async function acceptQueueLength(port: number): Promise<number | undefined> {
  let total: number | undefined;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(file, 'latin1').catch(() => undefined);
    if (text === undefined) continue;
    total ??= 0;
    // "sl local_address rem_address st tx_queue:rx_queue ...", addresses as HEXADDR:HEXPORT.
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state, queues] = line.trim().split(/\s+/);
      if (state !== TCP_LISTEN || local === undefined || queues === undefined) continue;
      if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) !== port) continue;
      total += Number.parseInt(queues.slice(queues.indexOf(':') + 1), 16) || 0;
    }
  }
  return total;
}
