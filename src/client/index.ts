/**
 * The TypeScript client SDK (docs/client-sdk.md). Browser-safe; Node users who need WebSocket on Node 20 also
 * import `createNodeClient` from './node.ts' (re-exported by the package entry src/index.ts).
 */
export { RtserveClient, FrameStream } from './rtserve-client.ts';
export type { RtserveClientOptions, InferOptions, FrameOutcome, TransportKind, GrpcTransportLike } from './rtserve-client.ts';
export { RtserveError } from './errors.ts';
export { InferResult, toTensor, toTensors } from './tensors.ts';
export type { TensorInput, Inputs, TypedArray } from './tensors.ts';
export { RestTransport } from './rest-transport.ts';
export type { RestTransportOptions, RestRequestOptions } from './rest-transport.ts';
export { WsTransport } from './ws-transport.ts';
export type { WsTransportOptions, WsRequestSpec, WsRequestEvent, WsRequestHandle } from './ws-transport.ts';
export type { WebSocketLike, WebSocketFactory } from './websocket-like.ts';
