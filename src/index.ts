/**
 * rtserve's public API: embed the server, call it in-process, or speak its protocols from a client.
 */
export { startServer } from './app/rtserve-server.ts';
export type { RunningServer, StartOptions } from './app/rtserve-server.ts';
export { loadServerConfig } from './config/load-server-config.ts';
export { serverConfigSchema } from './config/server-config.ts';
export type { ServerConfig, ServerConfigInput } from './config/server-config.ts';
export { modelConfigSchema } from './config/model-config.ts';
export type { ModelConfig, ModelConfigInput } from './config/model-config.ts';
export { InferenceServer } from './core/inference-server.ts';
export type { InferenceApi, ModelMetadata, ServerMetadata, RepositoryIndexEntry } from './api/inference-api.ts';
export type { InferRequest, InferResponse, Parameters, SharedMemoryRef, SharedMemoryInput } from './api/types.ts';
export type { Tensor, TensorMetadata } from './tensor/tensor.ts';
// System shared memory (docs/shared-memory.md): the region manager, and the backing an app may replace.
export { SharedMemoryManager, openFileRegion, shmPathOfKey } from './shm/system-shared-memory.ts';
export type { RegionBacking, RegionOpener, SharedMemoryRegionStatus, SystemSharedMemoryApi } from './shm/system-shared-memory.ts';
export { withSharedMemory } from './pipeline/shared-memory.ts';
export { sharedMemoryParameters } from './codec/shared-memory-params.ts';
export { DATA_TYPES } from './tensor/datatype.ts';
export type { DataType, TensorData } from './tensor/datatype.ts';
export { RtError, ERROR_CODES } from './errors/registry.ts';
export type { ErrorCode, ErrorCategory } from './errors/registry.ts';
export type { Engine, EngineSession, EngineLoadOptions } from './engine/engine.ts';
export { createOrtEngine } from './engine/ort/index.ts';
export { CudaSession, createCudaEngine, loadCudaAddon, loadCudaSession } from './engine/cuda/index.ts';
export type { CudaAddonStatus, CudaBenchResult, CudaEngineDescription } from './engine/cuda/index.ts';
export { encodeInferRequest, decodeInferResponse } from './codec/kserve-client-codec.ts';
// Client SDK (docs/client-sdk.md); src/client/index.ts is the browser-safe subset.
export * from './client/index.ts';
export { createNodeClient, nodeWebSocketFactory } from './client/node.ts';
export type { NodeClientOptions } from './client/node.ts';
export { GrpcTransport } from './client/grpc-transport.ts';
export type { GrpcTransportOptions } from './client/grpc-transport.ts';
// Streaming front ends (docs/ws-protocol.md): the auth hook type and the shared event source.
export type { WsAuthenticate, WsCredentials, WsPrincipal } from './transport/ws/ws-auth.ts';
export { StreamRegistry, ReplayStream, runIntoStream } from './transport/streaming/stream-registry.ts';
export type { StreamEvent, StreamEventBody, StreamMode } from './transport/streaming/stream-registry.ts';
// gRPC front end (docs/grpc.md): the server, the .proto path and the inference-message client codec.
export { startGrpcServer } from './transport/grpc/grpc-server.ts';
export type { GrpcServerOptions, GrpcFrontEnd, GrpcAdmitContext, GrpcOperation } from './transport/grpc/grpc-server.ts';
export { inferenceProtoPath } from './transport/grpc/proto.ts';
export { encodeModelInferRequest, decodeModelInferResponse, decodeModelStreamInferResponse } from './codec/grpc/infer-client-codec.ts';
export type { GrpcClientRequest, StreamInferResult } from './codec/grpc/infer-client-codec.ts';
// Operations (docs/operations.md, docs/metrics.md): metrics, runtime log control, trace context, poller, cache.
export { ServerMetrics, failureReasonOf } from './observability/metrics.ts';
export type { MetricsSource, MetricsOptions, FailureReason } from './observability/metrics.ts';
export { createLogger, logControlOf, LogControl } from './observability/logger.ts';
export type { LogSettings } from './observability/logger.ts';
export { parseTraceparent, traceFromHeaders, formatTraceparent } from './observability/trace-context.ts';
export type { TraceContext } from './observability/trace-context.ts';
export { RepositoryPoller } from './repository/poller.ts';
export type { PollResult, RepositoryPollerOptions } from './repository/poller.ts';
export { ResponseCache } from './core/response-cache.ts';
// Images (docs/image.md): the image pipeline front ends share, the tensor form, and the API wrapper.
export { runImagePipeline, inferImageRequest, imageSpecOf } from './preprocess/index.ts';
export { withImageRequests } from './pipeline/images.ts';
export type { ImageResult, ClassificationResult, DetectionResult, TensorsResult, ImagePipelineOptions, ImageSpec } from './preprocess/index.ts';
export { classify, postprocessDetections, nonMaxSuppression, meanAveragePrecision } from './postprocess/index.ts';
export type { Detection, ClassScore, ImageTransform } from './postprocess/index.ts';
// Generation (docs/generate.md): continuous batching, token streams, the API wrapper and the OpenAI routes.
export { GenerateService, registerGenerateMetrics, renderChat } from './generate/index.ts';
export { withGeneration } from './pipeline/generation.ts';
export type { Generation, GenerateRequest, GenerationEvent, GenerationResult, FinishReason, Usage, SamplingOptions, BatcherLimits, DecoderSpec } from './generate/index.ts';
export { registerOpenAiRoutes } from './transport/http/openai-routes.ts';
// Benchmarking (docs/bench.md): `rtserve bench` as a library, its report types and the HTML report.
export { runBench, defaultFactories } from './bench/runner.ts';
export { renderHtmlReport } from './bench/report-html.ts';
export type { BenchOptions, EngineBenchOptions, InputSource } from './bench/runner.ts';
export type { BenchReport, LevelResult, LatencySummary, MeasureOptions, ServerBreakdown, WindowResult } from './bench/types.ts';
