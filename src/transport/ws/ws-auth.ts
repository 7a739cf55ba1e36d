/**
 * The authentication hook of the WebSocket front end (docs/ws-protocol.md "Connecting"). The server extracts
 * credentials from the upgrade request — `Authorization: Bearer <token>` for non-browser clients, or a
 * `rtserve.bearer.<token>` entry in Sec-WebSocket-Protocol for browsers, which cannot set headers on a
 * WebSocket (reference streaming-protocols §4 convention 4) — and calls a `WsAuthenticate` hook before the
 * upgrade completes. The security work provides the real hook; the default admits everyone.
 */
import type { IncomingMessage } from 'node:http';
import { WS_BEARER_PROTOCOL_PREFIX, WS_TICKET_PROTOCOL_PREFIX } from '../../codec/ws-protocol.ts';

export interface WsCredentials {
  /** The bearer token, when the client sent one. */
  readonly token?: string;
  /** Where the token came from. */
  readonly source: 'authorization-header' | 'subprotocol' | 'none';
  /**
   * A single-use ticket (src/security/ws-tickets.ts) from a `rtserve.ticket.<ticket>` subprotocol entry or a
   * `?ticket=` query parameter, when present.
   */
  readonly ticket?: string;
  /** Subprotocols the client offered, token entries removed. */
  readonly protocols: readonly string[];
}

/** Who is on the other end, as the hook established it. `subject` gates session resume. */
export interface WsPrincipal {
  readonly subject?: string;
  readonly claims?: Readonly<Record<string, unknown>>;
  /** The security layer's own principal object, handed back to `WsAdmit` unchanged. */
  readonly principal?: unknown;
}

/** What an admission returns: called once when the request ends, however it ends (concurrency caps). */
export interface WsAdmission {
  readonly release: () => void;
}

/**
 * Per-request admission (authorization, rate limits, concurrency caps) for an authenticated socket: called for
 * every `infer` before it runs. Throw (or reject with) an RtError to refuse the request: it ends with an error
 * event carrying that error, and the socket stays open.
 */
export type WsAdmit = (principal: WsPrincipal, model: string, remoteAddress: string | undefined) => WsAdmission | Promise<WsAdmission>;

/**
 * Decides whether an upgrade may proceed. Return the principal to admit the client; throw an RtError to refuse
 * it — the server answers the upgrade request with the error's HTTP status and `{"error","code"}` body.
 */
export type WsAuthenticate = (request: IncomingMessage, credentials: WsCredentials) => WsPrincipal | Promise<WsPrincipal>;

/** The default hook: everyone is admitted, anonymously. */
export const allowAllWs: WsAuthenticate = () => ({});

/** Parses the credentials of an upgrade request (header first, then subprotocol). */
export function extractWsCredentials(request: IncomingMessage): WsCredentials {
  const offered = (request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const isSecret = (p: string): boolean => p.startsWith(WS_BEARER_PROTOCOL_PREFIX) || p.startsWith(WS_TICKET_PROTOCOL_PREFIX);
  const protocols = offered.filter((p) => !isSecret(p));
  const ticketEntry = offered.find((p) => p.startsWith(WS_TICKET_PROTOCOL_PREFIX) && p.length > WS_TICKET_PROTOCOL_PREFIX.length);
  const query = new URLSearchParams((request.url ?? '').split('?')[1] ?? '').get('ticket');
  const ticket = ticketEntry?.slice(WS_TICKET_PROTOCOL_PREFIX.length) ?? (query === null || query === '' ? undefined : query);
  const withTicket = ticket === undefined ? {} : { ticket };
  const auth = request.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m?.[1] !== undefined) return { token: m[1], source: 'authorization-header', protocols, ...withTicket };
  }
  const entry = offered.find((p) => p.startsWith(WS_BEARER_PROTOCOL_PREFIX));
  if (entry !== undefined && entry.length > WS_BEARER_PROTOCOL_PREFIX.length) {
    return { token: entry.slice(WS_BEARER_PROTOCOL_PREFIX.length), source: 'subprotocol', protocols, ...withTicket };
  }
  return { source: 'none', protocols, ...withTicket };
}
