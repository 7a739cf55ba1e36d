/**
 * The SDK's Node entry: an RtserveClient whose WebSocket transport uses the `ws` package (Node 20 has no global
 * WebSocket) and sends the token in an Authorization header rather than a subprotocol. Browser code imports
 * index.ts instead, which has no Node-only imports.
 */
import type { ChannelCredentials } from '@grpc/grpc-js';
import WebSocket from 'ws';
import { GrpcTransport } from './grpc-transport.ts';

export { GrpcTransport, type GrpcTransportOptions } from './grpc-transport.ts';
import { RtserveClient, type RtserveClientOptions } from './rtserve-client.ts';
import type { WebSocketFactory, WebSocketLike } from './websocket-like.ts';

/** A factory that opens `ws` sockets with the given headers (e.g. Authorization). */
export function nodeWebSocketFactory(headers: Readonly<Record<string, string>> = {}): WebSocketFactory {
  // ws's event-handler types are its own (ws.MessageEvent, ...); their runtime shape matches WebSocketLike.
  return (url, protocols) => new WebSocket(url, protocols, { headers: { ...headers }, perMessageDeflate: false }) as unknown as WebSocketLike;
}

export interface NodeClientOptions extends RtserveClientOptions {
  /** host:port of the gRPC front end: enables transport 'grpc'. */
  readonly grpcAddress?: string;
  /** gRPC channel credentials (default: insecure). */
  readonly grpcCredentials?: ChannelCredentials;
}

/** An RtserveClient for Node: WebSocket through `ws` (the token as `Authorization: Bearer`), gRPC when asked. */
export function createNodeClient(options: NodeClientOptions): RtserveClient {
  const { grpcAddress, grpcCredentials, ...rest } = options;
  const grpc =
    grpcAddress === undefined
      ? undefined
      : new GrpcTransport({
          address: grpcAddress,
          ...(grpcCredentials === undefined ? {} : { credentials: grpcCredentials }),
          ...(options.token === undefined ? {} : { token: options.token }),
        });
  const withGrpc: RtserveClientOptions = grpc === undefined ? rest : { ...rest, grpc };
  if (options.webSocket !== undefined) return new RtserveClient(withGrpc);
  const headers: Record<string, string> = options.token === undefined ? {} : { authorization: `Bearer ${options.token}` };
  return new RtserveClient({ ...withGrpc, webSocket: nodeWebSocketFactory(headers), webSocketSendsToken: options.token !== undefined });
}
