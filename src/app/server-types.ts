/**
 * What starting a server takes and gives (rtserve-server.ts composes it; cluster-server.ts and engine-side.ts are
 * its parts and need only these shapes, not the composer).
 */
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config/server-config.ts';
import type { InferenceServer } from '../core/inference-server.ts';
import type { InferenceApi } from '../api/inference-api.ts';
import type { Engine } from '../engine/engine.ts';
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
import type { CudaPlanCompiler } from '../engine/cuda/compile-at-load.ts';
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
