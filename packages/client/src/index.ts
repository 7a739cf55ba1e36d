/**
 * `@rtserve/client`, the TypeScript client (docs/client-sdk.md; its API reference: docs/client-api.md). This entry is
 * browser-safe; Node users import `createNodeClient` from `@rtserve/client/node` (./node.ts), which plugs in the
 * `ws` package and gRPC. The server package re-exports both (`rtserve/client`, `rtserve`).
 */
export { RtserveClient, FrameStream } from './rtserve-client.ts';
export type { RtserveClientOptions, InferOptions, FrameOutcome, TransportKind, GrpcTransportLike } from './rtserve-client.ts';
export { RtserveError } from './errors.ts';
export { isRetryable } from './call-policy.ts';
export type { CallPolicy, RetryOptions } from './call-policy.ts';
export type { CallOptions, LoadModelOptions, LogSettings, ModelStatsSnapshot, SharedMemoryRegionStatus, TraceSettings } from './server-calls.ts';
export { InferResult, toTensor, toTensors } from './tensors.ts';
export type { TensorInput, Inputs, TypedArray, DataTypeArrays } from './tensors.ts';
export { RestTransport } from './rest-transport.ts';
export type { RestTransportOptions, RestRequestOptions } from './rest-transport.ts';
export { WsTransport } from './ws-transport.ts';
export type { WsTransportOptions, WsRequestSpec, WsRequestEvent, WsRequestHandle } from './ws-transport.ts';
export type { WebSocketLike, WebSocketFactory } from './websocket-like.ts';
