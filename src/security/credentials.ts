import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Credentials } from './authenticator.ts';

/**
 * Where each front end finds credentials. The WebSocket conventions (browsers cannot set Authorization on a
 * WebSocket): a `Sec-WebSocket-Protocol` entry `rtserve.bearer.<token>` or `rtserve.ticket.<ticket>`, or
 * `?ticket=<ticket>` in the URL (tickets are single-use and short-lived, so one in a URL or log is spent).
 */
export const WS_BEARER_PREFIX = 'rtserve.bearer.';
export const WS_TICKET_PREFIX = 'rtserve.ticket.';

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export function credentialsFromHeaders(headers: IncomingHttpHeaders): Credentials {
  return { authorization: first(headers.authorization) };
}

/** Structural type of @grpc/grpc-js Metadata (only `get` is needed), so this file does not import grpc. */
export interface MetadataLike {
  get(key: string): readonly (string | Buffer)[];
}

/** gRPC: the `authorization` metadata entry (lower-case, as HTTP/2 header names are), "Bearer <token>". */
export function credentialsFromGrpcMetadata(metadata: MetadataLike): Credentials {
  const v = metadata.get('authorization')[0];
  return { authorization: v === undefined ? undefined : typeof v === 'string' ? v : v.toString('utf8') };
}

/** `ipv4:127.0.0.1:5000` / `ipv6:[::1]:5000` (grpc-js getPeer()) → the address alone. */
export function ipFromGrpcPeer(peer: string): string | undefined {
  const m = /^(?:ipv4:)?([0-9.]+):\d+$/.exec(peer) ?? /^(?:ipv6:)?\[([^\]]+)\]:\d+$/.exec(peer);
  return m?.[1];
}

/** The subprotocols a client offered (RFC 6455 §4.1: comma-separated tokens). */
export function offeredWsProtocols(req: IncomingMessage): string[] {
  const raw = req.headers['sec-websocket-protocol'];
  if (raw === undefined) return [];
  return (Array.isArray(raw) ? raw.join(',') : raw)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Credentials of a WebSocket upgrade: Authorization header, then subprotocol entries, then `?ticket=`. */
export function credentialsFromWsUpgrade(req: IncomingMessage): Credentials {
  const authorization = first(req.headers.authorization);
  if (authorization !== undefined) return { authorization };
  for (const p of offeredWsProtocols(req)) {
    if (p.startsWith(WS_BEARER_PREFIX)) return { bearer: p.slice(WS_BEARER_PREFIX.length) };
    if (p.startsWith(WS_TICKET_PREFIX)) return { ticket: p.slice(WS_TICKET_PREFIX.length) };
  }
  const url = req.url ?? '';
  const q = url.indexOf('?');
  if (q >= 0) {
    const ticket = new URLSearchParams(url.slice(q + 1)).get('ticket');
    if (ticket !== null && ticket !== '') return { ticket };
  }
  return {};
}

/** Is this offered subprotocol a credential? The server must never echo one back as the selected protocol. */
export function isCredentialProtocol(protocol: string): boolean {
  return protocol.startsWith(WS_BEARER_PREFIX) || protocol.startsWith(WS_TICKET_PREFIX);
}
