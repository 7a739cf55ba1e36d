/**
 * The SDK's Node entry: an RtserveClient whose WebSocket transport uses the `ws` package (Node 20 has no global
 * WebSocket) and sends the token in an Authorization header rather than a subprotocol. Browser code imports
 * src/client/index.ts instead, which has no Node-only imports.
 */
import WebSocket from 'ws';
import { RtserveClient, type RtserveClientOptions } from './rtserve-client.ts';
import type { WebSocketFactory, WebSocketLike } from './websocket-like.ts';

/** A factory that opens `ws` sockets with the given headers (e.g. Authorization). */
export function nodeWebSocketFactory(headers: Readonly<Record<string, string>> = {}): WebSocketFactory {
  // ws's event-handler types are its own (ws.MessageEvent, ...); their runtime shape matches WebSocketLike.
  return (url, protocols) => new WebSocket(url, protocols, { headers: { ...headers }, perMessageDeflate: false }) as unknown as WebSocketLike;
}

/** An RtserveClient for Node: WebSocket through `ws`, the token as `Authorization: Bearer`. */
export function createNodeClient(options: RtserveClientOptions): RtserveClient {
  if (options.webSocket !== undefined) return new RtserveClient(options);
  const headers: Record<string, string> = options.token === undefined ? {} : { authorization: `Bearer ${options.token}` };
  return new RtserveClient({ ...options, webSocket: nodeWebSocketFactory(headers), webSocketSendsToken: options.token !== undefined });
}
