/**
 * HTTP/2 flow-control windows for the gRPC server (RFC 9113 §6.9). A peer may send only as many DATA bytes as the
 * receiver's window allows; HTTP/2 starts every stream and the connection at 65,535 bytes, and Node's http2 opens
 * the window again only as the event loop reads. A 10 MB ModelInfer request then waits for ~150 WINDOW_UPDATE
 * round trips, each behind whatever else the event loop is doing, and every call on the connection shares the
 * connection's 64 KB. grpc-js has the `grpc-node.flow_control_window` option on its client only, so the server side
 * is set here, on each HTTP/2 session as it opens: SETTINGS_INITIAL_WINDOW_SIZE for the streams and a connection
 * window of the same size.
 */
import type { Http2Server, Http2Session } from 'node:http2';
import type { Server } from '@grpc/grpc-js';

/** What grpc-js keeps per listening socket (build/src/server.js `http2Servers`); not part of its typed API. */
interface GrpcServerInternals {
  readonly http2Servers?: Map<Http2Server, unknown>;
}

/** Grants `windowBytes` to one session: the connection window now, and each stream's through SETTINGS. */
export function widenSessionWindow(session: Http2Session, windowBytes: number): void {
  if (session.destroyed) return;
  session.setLocalWindowSize(windowBytes);
  session.settings({ initialWindowSize: windowBytes });
}

/**
 * Applies `windowBytes` to every HTTP/2 session the bound server accepts from now on. Returns false when grpc-js
 * does not expose its HTTP/2 servers the way 1.14 does (the windows then stay at HTTP/2's defaults).
 */
export function widenFlowControlWindows(server: Server, windowBytes: number): boolean {
  const servers = (server as unknown as GrpcServerInternals).http2Servers;
  if (!(servers instanceof Map) || servers.size === 0) return false;
  for (const http2Server of servers.keys()) {
    http2Server.on('session', (session: Http2Session) => widenSessionWindow(session, windowBytes));
  }
  return true;
}
