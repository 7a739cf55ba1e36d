/**
 * rtserve's experimental API (`rtserve/experimental`): the building blocks below the stable entry (src/index.ts)
 * for embedders who compose their own server: the core, the request pipeline's layers, shared memory, the
 * codecs, the streaming and gRPC front ends, metrics and logging, the image and generation pipelines, and the
 * benchmark as a library. These follow the code and may change in any release.
 */
export { InferenceServer } from './core/inference-server.ts';
export { SharedMemoryManager, openFileRegion, shmPathOfKey } from './shm/system-shared-memory.ts';
export type { RegionBacking, RegionOpener, SharedMemoryRegionStatus, SystemSharedMemoryApi } from './shm/system-shared-memory.ts';
export { SharedMemoryLayer } from './pipeline/shared-memory.ts';
export { sharedMemoryParameters } from './codec/shared-memory-params.ts';
export { encodeInferRequest, decodeInferResponse } from './codec/kserve-client-codec.ts';
export type { WsAuthenticate, WsCredentials, WsPrincipal } from './transport/ws/ws-auth.ts';
export { StreamRegistry, ReplayStream, runIntoStream } from './transport/streaming/stream-registry.ts';
export type { StreamEvent, StreamEventBody, StreamMode } from './transport/streaming/stream-registry.ts';
export { startGrpcServer } from './transport/grpc/grpc-server.ts';
export type { GrpcServerOptions, GrpcFrontEnd, GrpcAdmitContext, GrpcOperation } from './transport/grpc/grpc-front-types.ts';
export { inferenceProtoPath } from './transport/grpc/proto.ts';
export { encodeModelInferRequest, decodeModelInferResponse, decodeModelStreamInferResponse } from './codec/grpc/infer-client-codec.ts';
export type { GrpcClientRequest, StreamInferResult } from './codec/grpc/infer-client-codec.ts';
export { ServerMetrics, failureReasonOf } from './observability/metrics.ts';
export type { MetricsSource, MetricsOptions, FailureReason } from './observability/metrics.ts';
export { createLogger, logControlOf, LogControl } from './observability/logger.ts';
export type { LogSettings } from './observability/logger.ts';
export { parseTraceparent, traceFromHeaders, formatTraceparent } from './observability/trace-context.ts';
export type { TraceContext } from './observability/trace-context.ts';
export { RepositoryPoller } from './repository/poller.ts';
export type { PollResult, RepositoryPollerOptions } from './repository/poller.ts';
export { ResponseCache } from './core/response-cache.ts';
export { imageToTensor, imageSpecOf } from './preprocess/index.ts';
export type { ImageSpec, ImageTensor } from './preprocess/index.ts';
export { ImageLayer } from './pipeline/images.ts';
export type { ImageResult, ClassificationResult, DetectionResult, TensorsResult, ImageRequest, ImageRequestOptions } from './api/image-types.ts';
export { classify, postprocessDetections, nonMaxSuppression, meanAveragePrecision } from './postprocess/index.ts';
export type { Detection, ClassScore, ImageTransform } from './postprocess/index.ts';
export { GenerateService, registerGenerateMetrics, renderChat } from './generate/index.ts';
export { GenerationLayer } from './pipeline/generation.ts';
export type {
  Generation,
  GenerateRequest,
  GenerationEvent,
  GenerationResult,
  FinishReason,
  Usage,
  SamplingOptions,
  BatcherLimits,
  DecoderSpec,
} from './generate/index.ts';
export { registerOpenAiRoutes } from './transport/http/openai-routes.ts';
export { runBench, defaultFactories } from './bench/runner.ts';
export { renderHtmlReport } from './bench/report-html.ts';
export type { BenchOptions, EngineBenchOptions, InputSource } from './bench/runner.ts';
export type { BenchReport, LevelResult, LatencySummary, MeasureOptions, ServerBreakdown, WindowResult } from './bench/types.ts';
export { RequestPipeline } from './pipeline/request-pipeline.ts';
export { compose } from './pipeline/layer.ts';
export type { InferFn, PipelineLayer, StreamFn } from './pipeline/layer.ts';
export type { RequestPipelineOptions } from './pipeline/request-pipeline.ts';
export { ClassificationLayer } from './pipeline/classification.ts';
export { RequestLimitsLayer } from './pipeline/limits.ts';
