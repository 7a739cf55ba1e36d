import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config/server-config.ts';
import type { InferenceServer } from '../core/inference-server.ts';
import type { InferenceApi } from '../api/inference-api.ts';
import type { Engine } from '../engine/engine.ts';
import type { CudaPlanCompiler } from '../engine/cuda/compile-at-load.ts';
import type { Logger } from '../observability/logger.ts';
import type { ServerMetrics } from '../observability/metrics.ts';
import type { OtelTracing } from '../observability/otel-tracing.ts';
import type { SharedState } from '../state/shared-state.ts';
import type { Security } from '../security/security.ts';
import type { RepositoryManager } from '../repository/manager.ts';
import type { RepositoryPoller } from '../repository/poller.ts';
import type { GenerateService } from '../generate/index.ts';
import type { RegionOpener } from '../shm/system-shared-memory.ts';
import type { FrameDecoder } from '../preprocess/frame-decoder.ts';
import { frontEndWorkers } from '../config/workers.ts';
import { startEngineSide, type EngineSide } from './engine-side.ts';
import { createFrontEndServices, createTracing, startFrontEnds } from './front-ends.ts';
import { startClusterServer } from './cluster-server.ts';
import { startAsyncQueue } from './async-queue.ts';
import type { TokenEngineFactory } from './token-engines.ts';

export interface StartOptions {
  readonly config: Readonly<ServerConfig>;
  readonly logger: Logger;
  /** Engine override (tests may pass one); defaults to onnxruntime-node. */
  readonly engine?: Engine;
  /**
   * How registered system shared memory regions are opened (docs/shared-memory.md); defaults to mapping them
   * through the CUDA addon where it loads (engine/cuda/shm-opener.ts: zero-copy, DMA to the GPU), else file handles
   * on /dev/shm (shm/system-shared-memory.ts `openFileRegion`).
   */
  readonly sharedMemoryOpener?: RegionOpener;
  /** State shared with other servers (tests run two servers on one in-memory journal); default from config.sharedState. */
  readonly sharedState?: SharedState;
  /** The device frame decoder for `imageDecode` (tests give the CPU reference); default: the CUDA addon's nvJPEG path. */
  readonly frameDecoder?: FrameDecoder;
  /**
   * Makes the device decoder of generative Hugging Face checkpoints (generate.engine cuda/auto, app/token-engines.ts);
   * default: the CUDA decoder where its addon and a GPU are there. null: none (`auto` serves the ONNX graph).
   */
  readonly tokenEngineFactory?: TokenEngineFactory | null;
  /**
   * Compiles ONNX models to CUDA plans at load (docs/cuda-engine.md "Compiled at load"): `rtserve serve` passes the
   * compiler's (src/cli/cuda-compile.ts; this layer does not import the compiler). Without it, models that ask for
   * a compile are served on onnxruntime, with the reason logged.
   */
  readonly cudaCompiler?: CudaPlanCompiler;
}

export interface RunningServer {
  /** The core: validation, scheduling, engines (requests in flight, drain). */
  readonly core: InferenceServer;
  /** The request pipeline around the core (src/pipeline/request-pipeline.ts): the InferenceApi every front end calls. */
  readonly api: InferenceApi;
  readonly http: FastifyInstance;
  /** '' when the HTTP port is off (allowHttp false). */
  readonly httpUrl: string;
  readonly grpcAddress: string | undefined;
  readonly metricsUrl: string | undefined;
  /** Auth, rate limits and WebSocket tickets (src/security); `security.reloadAuth(config.auth)` swaps API keys. */
  readonly security: Security;
  /** The Prometheus metrics; front ends report into it (e.g. `metrics.wsConnections.inc()`). */
  readonly metrics: ServerMetrics;
  /** OpenTelemetry traces when an OTLP endpoint is configured (traceOtlpEndpoint). */
  readonly tracing: OtelTracing | undefined;
  /** The repository poller in poll mode (--model-control-mode poll, --repository-poll-secs > 0). */
  readonly poller: RepositoryPoller | undefined;
  /** Generation (continuous batching) of the models with a `generate` config section (docs/generate.md). */
  readonly generate: GenerateService;
  /** The model repository: loaded versions, their engine sessions and engine chains (`engineChain`). */
  readonly repository: RepositoryManager;
  /** With `workers` above 1: the process ids of the front-end workers serving now (docs/workers.md). */
  readonly workerPids?: () => readonly number[];
  /** Graceful stop: not ready, stop accepting, finish in-flight (up to exitTimeoutSecs), release engines. */
  close(): Promise<void>;
}

/**
 * Composes the server: engine → repository → core, then the front ends on their ports. Port 0 picks a free
 * port; the chosen addresses are returned. With `workers` above 1 (docs/workers.md) this process becomes the engine
 * owner and the front ends run in worker processes (cluster-server.ts).
 */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const workers = frontEndWorkers(options.config.workers);
  if (workers > 1) return startClusterServer(options, workers);
  const { config, logger } = options;
  // TLS files and auth keys are read first, so a bad path fails the start before any model is loaded.
  const { tls, shared, security, metrics: serverMetrics } = await createFrontEndServices(config, logger, options.sharedState);
  let engines: EngineSide;
  try {
    engines = await startEngineSide(options, serverMetrics);
  } catch (err) {
    await security.close();
    throw err;
  }
  const { core, api, repository, generate } = engines;
  const tracing = createTracing(config);
  const front = await startFrontEnds({
    config,
    logger,
    api,
    security,
    metrics: serverMetrics,
    metricsText: async () => ({ contentType: serverMetrics.contentType, body: await serverMetrics.text() }),
    shared,
    tls,
    tracing,
    generate,
  });

  // The async inference queue: this replica consumes the broker's work queue through the same API as the front ends.
  const queueWorker = await startAsyncQueue(config, api, shared.replicaId, logger);

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      // No new queued work; what this replica holds finishes within the drain below.
      const queueClosed = queueWorker?.close();
      // At once, before anything awaits: not ready, new inference answered SERVER_DRAINING (503, Retry-After), every
      // REST answer closes its connection, gRPC sends GOAWAY. The ports stay open: a request that reaches the
      // server gets an answer.
      const drained = engines.drain();
      front.beginDrain();
      await drained;
      await queueClosed;
      await front.finishDrain();
      await engines.stop();
      await security.close();
      if (options.sharedState === undefined) await shared.close();
      await tracing?.close();
    })();
    return closing;
  };

  return {
    core,
    api,
    http: front.http,
    httpUrl: front.httpUrl,
    grpcAddress: front.grpcAddress,
    metricsUrl: front.metricsUrl,
    security,
    metrics: serverMetrics,
    tracing,
    poller: engines.poller,
    generate,
    repository,
    close,
  };
}
