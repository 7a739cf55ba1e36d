/**
 * rtserve's stable public API (the package entry `rtserve`): start and embed the server, its configuration
 * schemas, the InferenceApi contract and its request/response and tensor types, the error registry, the engine
 * interface with the bundled engines, and the client SDK for Node (`rtserve/client` is its browser-safe part).
 * What changes without notice between minor versions is in `rtserve/experimental` (src/experimental.ts).
 * test/unit/public-api.test.ts lists every export of each entry: a change to the surface shows there.
 */
export { startServer } from './app/rtserve-server.ts';
export type { RunningServer, StartOptions } from './app/rtserve-server.ts';
export { loadServerConfig } from './config/load-server-config.ts';
export { serverConfigSchema } from './config/server-config.ts';
export type { ServerConfig, ServerConfigInput } from './config/server-config.ts';
export { modelConfigSchema } from './config/model-config.ts';
export type { ModelConfig, ModelConfigInput } from './config/model-config.ts';
export type { InferenceApi, ModelMetadata, ServerMetadata, RepositoryIndexEntry } from './api/inference-api.ts';
export type { InferRequest, InferResponse, Parameters, SharedMemoryRef, SharedMemoryInput } from './api/types.ts';
export type { Tensor, TensorMetadata } from './tensor/tensor.ts';
export { DATA_TYPES } from './tensor/datatype.ts';
export type { DataType, TensorData } from './tensor/datatype.ts';
export { RtError, ERROR_CODES } from './errors/registry.ts';
export type { ErrorCode, ErrorCategory } from './errors/registry.ts';
export type { Engine, EngineSession, EngineLoadOptions } from './engine/engine.ts';
export { createOrtEngine } from './engine/ort/index.ts';
export { CudaSession, createCudaEngine, loadCudaAddon, loadCudaSession } from './engine/cuda/index.ts';
export type { CudaAddonStatus, CudaBenchResult, CudaEngineDescription } from './engine/cuda/index.ts';
export * from './client/index.ts';
export { createNodeClient, nodeWebSocketFactory } from './client/node.ts';
export type { NodeClientOptions } from './client/node.ts';
export { GrpcTransport } from './client/node.ts';
export type { GrpcTransportOptions } from './client/node.ts';
