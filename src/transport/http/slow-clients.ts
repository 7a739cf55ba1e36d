import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Counts the REST port's slow clients that node's own guards cut off (docs/security.md "Slow clients"): a request
 * head not complete within headersTimeout (slowloris) or a request not complete within requestTimeout (a dribbled
 * body). Node answers both 408 and closes the connection; it reports them as ERR_HTTP_REQUEST_TIMEOUT client errors,
 * and whether the head had been received tells which guard fired.
 */
export function countSlowClients(server: Server, onSlow: (kind: 'http_head' | 'http_body') => void): void {
  // Sockets whose current request's head is complete (and whose response has not finished yet).
  const inBody = new WeakSet<Socket>();
  server.on('request', (req, res) => {
    const socket = req.socket;
    inBody.add(socket);
    res.once('finish', () => inBody.delete(socket));
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') onSlow(inBody.has(socket) ? 'http_body' : 'http_head');
  });
}
