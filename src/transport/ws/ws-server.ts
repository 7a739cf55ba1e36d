/**
 * The WebSocket front end (docs/ws-protocol.md): GET /v2/ws upgrades on the HTTP server's port, through the
 * `ws` package in noServer mode so that the upgrade passes the authentication hook first and shares the port
 * with REST. `attachWsFrontEnd` is called from createHttpServer's `extend` option.
 */
import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type { InferenceApi } from '../../api/inference-api.ts';
import { rtError, toRtError, type RtError } from '../../errors/registry.ts';
import type { Logger } from '../../observability/logger.ts';
import { allowAllWs, extractWsCredentials, type WsAdmit, type WsAuthenticate, type WsPrincipal } from './ws-auth.ts';
import { WsConnection } from './ws-connection.ts';
import { WS_PATH, WS_SUBPROTOCOL, type WsLimits } from '../../codec/ws-protocol.ts';
import { WsSession, WsSessionStore, type WsSessionContext } from './ws-session.ts';
import type { OtelTracing } from '../../observability/otel-tracing.ts';
import type { WsJournalOptions } from './ws-journal.ts';

/** The server config keys this front end reads (src/config/server-config.ts). */
export interface WsFrontEndConfig {
  readonly wsMaxMessageBytes: number;
  readonly wsMaxInFlight: number;
  readonly wsHeartbeatIntervalMs: number;
  readonly wsIdleTimeoutMs: number;
  readonly wsMaxBufferedBytes: number;
  readonly wsResumeWindowMs: number;
  /** Client events per second per socket (src/security MessageRateLimiter); 0 = unlimited. Optional for tests. */
  readonly wsMaxMessagesPerSec?: number;
  readonly wsResumeBufferBytes: number;
  readonly wsMaxPendingFrames: number;
}

/** The metrics the front end reports (ServerMetrics in src/observability/metrics.ts satisfies it). */
export interface WsMetrics {
  readonly wsConnections: { inc(): void; dec(): void };
  /** Reasons: superseded (frame stream drop), too_large (1009), malformed (unparsable event). */
  readonly wsDroppedFrames: { inc(labels: { reason: string }): void };
  /** Clients too slow to read their results (kind ws_refused / ws_closed). */
  readonly slowClients?: { inc(labels: { kind: string }): void };
}

export interface WsFrontEndOptions {
  /** OpenTelemetry spans of infer events (otel-tracing.ts). */
  readonly tracing?: OtelTracing;
  readonly api: InferenceApi;
  readonly logger: Logger;
  readonly config: WsFrontEndConfig;
  /** Decides who may connect (default: everyone); see ws-auth.ts. */
  readonly authenticate?: WsAuthenticate;
  /** Per-request admission (authorization, rate limits); see ws-auth.ts. */
  readonly admit?: WsAdmit;
  readonly metrics?: WsMetrics;
  /** The client's address from the upgrade's peer and X-Forwarded-For (src/security/client-address.ts). */
  readonly clientAddress?: (peer: string | undefined, forwardedFor: string | string[] | undefined) => string | undefined;
  /** Shared stream journal: streaming requests resume on any replica (ws-journal.ts, docs/scaling.md). */
  readonly journal?: WsJournalOptions;
}

export interface WsFrontEnd {
  /** Open connections. */
  readonly connectionCount: number;
  /** Live and resumable sessions. */
  readonly sessionCount: number;
  /** Session by id (tests and introspection). */
  session(id: string): WsSession | undefined;
  /** Closes every socket with 1001 (going away), waits for them (up to `graceMs`), drops all sessions. */
  close(graceMs?: number): Promise<void>;
}

export function wsLimitsOf(config: WsFrontEndConfig): WsLimits {
  return {
    max_message_bytes: config.wsMaxMessageBytes,
    max_in_flight: config.wsMaxInFlight,
    heartbeat_interval_ms: config.wsHeartbeatIntervalMs,
    idle_timeout_ms: config.wsIdleTimeoutMs,
    max_buffered_bytes: config.wsMaxBufferedBytes,
    resume_window_ms: config.wsResumeWindowMs,
    max_pending_frames: config.wsMaxPendingFrames,
  };
}

/** Registers the /v2/ws upgrade on `app`'s HTTP server. Call before `listen`. */
export function attachWsFrontEnd(app: FastifyInstance, options: WsFrontEndOptions): WsFrontEnd {
  const { logger } = options;
  const authenticate = options.authenticate ?? allowAllWs;
  const clientAddress = options.clientAddress ?? ((peer: string | undefined) => peer);
  const store = new WsSessionStore();
  const ctx: WsSessionContext = {
    api: options.api,
    logger,
    limits: wsLimitsOf(options.config),
    resumeBufferBytes: options.config.wsResumeBufferBytes,
    store,
    maxMessagesPerSec: options.config.wsMaxMessagesPerSec ?? 0,
    ...(options.admit === undefined ? {} : { admit: options.admit }),
    ...(options.tracing === undefined ? {} : { tracing: options.tracing }),
    ...(options.journal === undefined ? {} : { journal: options.journal }),
    ...(options.metrics === undefined
      ? {}
      : {
          onDrop: (reason: string) => options.metrics?.wsDroppedFrames.inc({ reason }),
          onSlowClient: (kind: string) => options.metrics?.slowClients?.inc({ kind }),
        }),
  };
  const connections = new Set<WsConnection>();
  let closing = false;

  const wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    // ws refuses a larger frame before buffering it and closes with 1009 (RFC 6455 §7.4.1).
    maxPayload: options.config.wsMaxMessageBytes,
    // Tensors compress badly and deflate runs on the event loop.
    perMessageDeflate: false,
    // Select rtserve.v1 when offered; never echo a token-carrying entry (ws-auth.ts).
    handleProtocols: (protocols) => (protocols.has(WS_SUBPROTOCOL) ? WS_SUBPROTOCOL : false),
  });

  const onConnection = (ws: WebSocket, socket: Duplex, principal: WsPrincipal, remoteAddress: string | undefined): void => {
    const session = new WsSession(ctx, principal, remoteAddress);
    store.add(session);
    options.metrics?.wsConnections.inc();
    const conn = new WsConnection(
      ws,
      session,
      ctx,
      (c) => {
        if (connections.delete(c)) options.metrics?.wsConnections.dec();
      },
      socket,
    );
    connections.add(conn);
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== WS_PATH) {
      // Other front ends may own other upgrade paths; answer 404 only when nobody else listens.
      if (app.server.listenerCount('upgrade') <= 1)
        rejectUpgrade(socket, rtError('ROUTE_NOT_FOUND', `no WebSocket endpoint at ${path ?? ''}; use ${WS_PATH}`));
      return;
    }
    if (closing) {
      rejectUpgrade(socket, rtError('SERVER_DRAINING', 'server is shutting down and accepts no new connections', { retryAfterMs: 1000 }));
      return;
    }
    socket.on('error', () => socket.destroy());
    Promise.resolve()
      .then(() => authenticate(req, extractWsCredentials(req)))
      .then(
        (principal) => {
          if (socket.destroyed) return;
          wss.handleUpgrade(req, socket, head, (ws) =>
            onConnection(ws, socket, principal, clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'])),
          );
        },
        (err: unknown) => {
          const e = toRtError(err);
          if (e.category === 'INTERNAL') logger.error({ err: e.cause ?? e }, 'WebSocket authentication hook failed');
          rejectUpgrade(socket, e);
        },
      );
  };
  app.server.on('upgrade', onUpgrade);

  const close = async (graceMs = 2000): Promise<void> => {
    closing = true;
    app.server.off('upgrade', onUpgrade);
    const open = [...connections];
    const closed = open.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.ws.readyState === c.ws.CLOSED) resolve();
          else c.ws.once('close', () => resolve());
        }),
    );
    for (const c of open) c.goAway();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(closed),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
    for (const c of open) if (c.ws.readyState !== c.ws.CLOSED) c.ws.terminate();
    store.destroyAll();
    wss.close();
  };
  // A fastify close without an explicit front-end close still says goodbye properly.
  app.addHook('preClose', async () => {
    if (!closing) await close();
  });

  return {
    get connectionCount() {
      return connections.size;
    },
    get sessionCount() {
      return store.size;
    },
    session: (id) => store.get(id),
    close,
  };
}

/** Answers an upgrade request with an HTTP error (the registry's status) and a KServe-style JSON body. */
function rejectUpgrade(socket: Duplex, err: RtError): void {
  if (socket.destroyed) return;
  const status = err.httpStatus;
  const body = JSON.stringify({ error: err.message, code: err.code });
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Connection: close',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...(err.retryAfterMs === undefined ? [] : [`Retry-After: ${Math.max(1, Math.ceil(err.retryAfterMs / 1000))}`]),
  ];
  socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
}
