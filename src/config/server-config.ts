import { z } from 'zod';
import { asyncQueueConfigSchema } from './async-queue-schema.ts';
import { authConfigSchema, rateLimitConfigSchema } from './security-schema.ts';
import { sharedStateConfigSchema } from './shared-state-schema.ts';
import { workersSetting } from './workers.ts';

/**
 * The server's configuration: one schema, defaults inside, strict (unknown keys rejected with a hint by
 * `loadServerConfig`). Sources, later ones winning: defaults < config file (JSON/YAML) < environment
 * (RTSERVE_*) < command-line flags. The result is deeply frozen.
 */
const port = z.coerce.number().int().min(0).max(65535);
/**
 * A boolean that also takes the strings an environment variable or a `--flag=value` holds: 'true'/'1'/'on' and
 * 'false'/'0'/'off' in any case (tritonserver's spellings).
 */
const bool = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? (({ true: true, '1': true, on: true, false: false, '0': false, off: false } as Record<string, boolean>)[v.toLowerCase()] ?? v)
      : v,
  z.boolean(),
);

/**
 * A list setting: an array in a file, or a comma-separated string from an environment variable or a flag (entries
 * trimmed, empty ones dropped). Defaults to empty.
 */
function commaList<T extends z.ZodType>(item: T) {
  return z
    .preprocess(
      (v) =>
        typeof v === 'string'
          ? v
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s !== '')
          : v,
      z.array(item),
    )
    .default([]);
}

export const serverConfigSchema = z.strictObject({
  host: z.string().default('127.0.0.1'),
  httpPort: port.default(8000),
  grpcPort: port.default(8001),
  /** Prometheus metrics are also served at GET /metrics on the HTTP port. */
  metricsPort: port.default(8002),
  /** Model repositories; empty means the bundled `models/` folder. */
  modelRepository: z.array(z.string()).default([]),
  modelControlMode: z.enum(['none', 'poll', 'explicit']).default('none'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Request bodies larger than this are refused with 413 before they are buffered (Triton: 64 MiB). */
  maxBodyBytes: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024 * 1024),
  // ---- security and limits (docs/security.md); everything here is off or generous by default
  /** PEM certificate chain and key: HTTPS and WSS on the HTTP port, TLS on the gRPC port. */
  tlsCert: z.string().min(1).optional(),
  tlsKey: z.string().min(1).optional(),
  /** PEM CA bundle: when set, clients must present a certificate it signed (mutual TLS). */
  tlsCa: z.string().min(1).optional(),
  auth: authConfigSchema.prefault({}),
  /**
   * One API key in plain text (vLLM's --api-key; RTSERVE_API_KEY): turns auth on with this key allowed every operation
   * on every model, beside the keys of auth.apiKeys. Where the key would sit in a file, give its sha256 in auth.apiKeys.
   */
  apiKey: z.string().min(1).optional(),
  rateLimit: rateLimitConfigSchema.prefault({}),
  /** JSON bodies (and binary requests' JSON headers) nested deeper than this are refused before parsing. */
  maxJsonDepth: z.coerce.number().int().min(2).default(64),
  /** Values (array elements and object members) in one JSON body, counted before parsing. */
  maxJsonElements: z.coerce
    .number()
    .int()
    .min(16)
    .default(16 * 1024 * 1024),
  maxInputsPerRequest: z.coerce.number().int().min(1).default(128),
  maxElementsPerTensor: z.coerce
    .number()
    .int()
    .min(1)
    .default(64 * 1024 * 1024),
  /** Largest request head (request line + headers) on the HTTP port (node's --max-http-header-size). */
  maxHeaderBytes: z.coerce
    .number()
    .int()
    .min(1024)
    .default(16 * 1024),
  /** A client must send its whole request head within this time (slowloris; node's headersTimeout). */
  headersTimeoutMs: z.coerce.number().int().min(100).default(15000),
  /** ...and its whole request, body included, within this time (node's requestTimeout). */
  requestTimeoutMs: z.coerce.number().int().min(100).default(120000),
  // ---- running exposed (docs/security.md "Running exposed"); each off or closed by default
  /**
   * Triton's system shared memory extension (docs/shared-memory.md): clients on this host register regions of
   * POSIX shared memory objects (/dev/shm) and send references instead of tensor bytes. The server then reads and
   * writes any shm object a client names that its own user may open, so it is off unless turned on, as in Triton
   * (--allow-client-shm=true).
   */
  allowClientShm: bool.default(false),
  /**
   * Where image requests are decoded and preprocessed (docs/image.md "On the GPU"): `auto` on the GPU for models
   * served by the CUDA engine (their JPEGs travel undecoded to the engine, which decodes them with nvJPEG straight into
   * its input, under --workers N too), `gpu` also for every other 3-channel image model while the addon loads (decoded
   * on the GPU, rows back to the host), `cpu` always with sharp. Without the addon every mode is the CPU path.
   */
  imageDecode: z.enum(['auto', 'gpu', 'cpu']).default('auto'),
  /**
   * ONNX on the GPU (docs/cuda-engine.md "Compiled at load"): every ONNX model that is not all KIND_CPU instances is
   * compiled to a CUDA plan when it loads on a host where the native engine loads, and served on it. Without this a
   * model still asks for it alone, with Triton's `optimization.execution_accelerators.gpu_execution_accelerator:
   * [{name: "tensorrt"}]`. A compile that fails serves the model on its configured engine, with the reason logged.
   */
  cudaCompileOnnx: bool.default(false),
  /**
   * Where plans compiled at load are kept, one file per model hash, GPU and tool versions, so a restart or a reload
   * of an unchanged model skips the compile. Empty: rtserve-cuda-plans in the OS temporary directory.
   */
  cudaPlanCache: z.string().default(''),
  /**
   * API groups answered UNSUPPORTED (the demo pages 404, gRPC server reflection is not served) on every front end;
   * Triton's restricted APIs, but off.
   */
  disabledApis: commaList(z.enum(['repository', 'logging', 'shared-memory', 'statistics', 'demo', 'reflection'])),
  /**
   * The only directory POST /v2/logging may point log_file into (relative names resolve inside it; escapes are
   * refused). Unset: log_file cannot be changed over the network, as in Triton.
   */
  logDirectory: z.string().min(1).optional(),
  /**
   * Proxies whose X-Forwarded-For is believed (addresses, CIDR ranges, `loopback`, `uniquelocal`): per-IP rate limits
   * and logs then use the client address they forward. Empty: the socket's peer address, X-Forwarded-For ignored.
   */
  trustedProxies: commaList(z.string().min(1)),
  /** Messages per second a WebSocket client may send (token bucket, burst = 2 s worth); 0 = unlimited. */
  wsMaxMessagesPerSec: z.coerce.number().min(0).default(0),
  // ---- gRPC front end (docs/grpc.md); keepalive defaults are Triton's --grpc-keepalive-* defaults
  /** Largest gRPC message received or sent. */
  grpcMaxMessageBytes: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024 * 1024),
  /** Interval of the server's HTTP/2 keepalive pings on each gRPC connection. */
  grpcKeepaliveTimeMs: z.coerce.number().int().min(1).default(7200000),
  /** A keepalive ping unanswered for this long closes the connection. */
  grpcKeepaliveTimeoutMs: z.coerce.number().int().min(1).default(20000),
  /** grpc.keepalive_permit_without_calls (Triton's --grpc-keepalive-permit-without-calls); see docs/grpc.md. */
  grpcKeepalivePermitWithoutCalls: z
    .preprocess((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v), z.boolean())
    .default(false),
  /**
   * gRPC connections older than this are closed gracefully (GOAWAY; grpc.max_connection_age_ms), so clients
   * reconnect through the load balancer and long-lived HTTP/2 connections spread over new replicas; 0 = never.
   */
  grpcMaxConnectionAgeMs: z.coerce.number().int().min(0).default(0),
  /** Calls still running on a connection past its age get this long before it is closed (max_connection_age_grace_ms). */
  grpcMaxConnectionAgeGraceMs: z.coerce.number().int().min(0).default(30000),
  /** Requests one ModelStreamInfer stream may have in flight; past it the server stops reading that stream. */
  grpcMaxInflightPerStream: z.coerce.number().int().min(1).default(1024),
  /**
   * HTTP/2 flow-control window the gRPC server grants each connection and each call (bytes a client may send
   * before the server acknowledges them). HTTP/2's 65,535-byte default makes a 10 MB request wait for ~150
   * WINDOW_UPDATE round trips through the event loop; a window as large as the usual message removes them.
   */
  grpcFlowControlWindowBytes: z.coerce
    .number()
    .int()
    .min(65535)
    .max(2147483647)
    .default(16 * 1024 * 1024),
  /** Bound applied to every model queue whose config leaves max_queue_size at 0 (Triton: unbounded). */
  maxQueueSizeDefault: z.coerce.number().int().min(1).default(4096),
  /** Seconds to wait for in-flight requests on SIGINT/SIGTERM before exiting anyway. */
  exitTimeoutSecs: z.coerce.number().min(0).default(30),
  /**
   * On SIGTERM the REST port closes this long after the last admitted request finished: arrivals meanwhile are
   * answered (503 SERVER_DRAINING, Connection: close), and clients that keep connecting do not extend it.
   */
  drainQuietMs: z.coerce.number().int().min(0).default(1000),
  /** Ready only when every model is ready (Triton's --strict-readiness). */
  // Not z.coerce.boolean(): that turns the string "false" (RTSERVE_STRICT_READINESS=false) into true.
  strictReadiness: bool.default(true),
  /** Triton's default-max-batch-size for auto-completed configs. */
  defaultMaxBatchSize: z.coerce.number().int().min(0).default(4),
  /** Default execution providers for models whose config does not name any. */
  providers: z.array(z.enum(['cpu', 'webgpu', 'cuda', 'tensorrt'])).default(['cpu']),
  // ---- WebSocket and SSE streaming (docs/ws-protocol.md)
  /** Largest WebSocket frame accepted; a larger one closes the socket with 1009 (RFC 6455 §7.4.1). */
  wsMaxMessageBytes: z.coerce
    .number()
    .int()
    .min(1024)
    .default(16 * 1024 * 1024),
  /** Unfinished requests per WebSocket session; more are refused with TOO_MANY_IN_FLIGHT. */
  wsMaxInFlight: z.coerce.number().int().min(1).default(128),
  /** Server ping interval on WebSocket connections (0 = no heartbeat). */
  wsHeartbeatIntervalMs: z.coerce.number().int().min(0).default(20000),
  /** A session with no unfinished request and no client message for this long is closed (0 = never). */
  wsIdleTimeoutMs: z.coerce.number().int().min(0).default(60000),
  /**
   * Outgoing bytes queued on a WebSocket before new requests are refused (SLOW_CONSUMER; at 4 × it closes); also
   * the bound of a gRPC ModelStreamInfer stream's unsent answers (4 × it or 4 × grpcMaxMessageBytes: the stream ends) and of an SSE response's
   * unsent bytes (the response is cut).
   */
  wsMaxBufferedBytes: z.coerce
    .number()
    .int()
    .min(1024)
    .default(8 * 1024 * 1024),
  /** How long a dropped WebSocket session or SSE stream stays resumable (0 = resume off). */
  wsResumeWindowMs: z.coerce.number().int().min(0).default(60000),
  /** Replay buffer per WebSocket session; finished requests are evicted oldest first when it is full. */
  wsResumeBufferBytes: z.coerce
    .number()
    .int()
    .min(1024)
    .default(16 * 1024 * 1024),
  /** Frames of one frame stream that may wait behind the running one (older ones are dropped). */
  wsMaxPendingFrames: z.coerce.number().int().min(0).default(1),
  /** Interval of `: ping` comments on quiet SSE streams (0 = none). */
  sseHeartbeatIntervalMs: z.coerce.number().int().min(0).default(15000),
  /** Replay buffer over all SSE streams (Last-Event-ID resume); oldest finished streams are evicted first. */
  sseMaxRetainedBytes: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024 * 1024),
  /** State shared between replicas: SSE resume journal and WebSocket tickets (docs/scaling.md). */
  sharedState: sharedStateConfigSchema.prefault({}),
  /** Async inference queue consumed by every replica (NATS JetStream; docs/scaling.md). */
  asyncQueue: asyncQueueConfigSchema.prefault({}),
  /**
   * Front-end processes sharing the HTTP, gRPC and WebSocket ports (docs/workers.md): 1 is the single process; N > 1
   * runs N workers doing the protocol work in front of one engine owner. 'auto' (the default) is `workersForCores` (workers.ts): 1 below 8 cores,
   * counting the container's CPU quota (cgroup v2 cpu.max) where one is set.
   */
  workers: workersSetting,
  // ---- generation: continuous batching of generative models (docs/generate.md)
  /** Sequences decoded together per model version (rows of one decode step). */
  generateMaxSequences: z.coerce.number().int().min(1).default(32),
  /** Generation requests waiting for a slot per model version; beyond it QUEUE_FULL (429). */
  generateMaxQueue: z.coerce.number().int().min(0).default(256),
  /** Sum of prompt + max_tokens over running sequences per model version (bounds KV-cache memory). */
  generateMaxTokensInFlight: z.coerce.number().int().min(1).default(32768),
  /** Padded prompt tokens prefilled in one engine run (a longer single prompt still runs alone). */
  generateMaxPrefillTokens: z.coerce.number().int().min(1).default(2048),
  // ---- operations (docs/operations.md)
  /** explicit mode: models loaded at startup ('*' = every model in the repositories); Triton's --load-model. */
  loadModel: commaList(z.string().min(1)),
  /** poll mode: seconds between repository scans (0 = no polling); Triton's --repository-poll-secs (default 15). */
  repositoryPollSecs: z.coerce.number().min(0).default(15),
  /** Response cache capacity in bytes (0 = no cache); models opt in with response_cache { enable: true }. */
  cacheSizeBytes: z.coerce.number().int().min(0).default(0),
  /** One info log line per HTTP request with request id, trace id, status and stage timings. */
  accessLog: z.preprocess((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v), z.boolean()).default(false),
  // ---- front ends, addresses and startup as tritonserver's flags set them (docs/triton-compat.md)
  /** Listen for HTTP (REST, WebSocket, SSE) on httpPort; off, the HTTP port is not opened (Triton's --allow-http). */
  allowHttp: bool.default(true),
  /** Listen for gRPC on grpcPort (Triton's --allow-grpc). */
  allowGrpc: bool.default(true),
  /** Serve Prometheus metrics, on metricsPort and at /metrics on the HTTP port (Triton's --allow-metrics). */
  allowMetrics: bool.default(true),
  /** Address of the HTTP port; default `host` (Triton's --http-address). */
  httpAddress: z.string().min(1).optional(),
  /** Address of the gRPC port; default `host` (Triton's --grpc-address). */
  grpcAddress: z.string().min(1).optional(),
  /** Address of the metrics port; default the HTTP address (Triton's --metrics-address). */
  metricsAddress: z.string().min(1).optional(),
  /** The server name in server metadata (GET /v2, ServerMetadata); default "rtserve" (Triton's --id). */
  serverId: z.string().min(1).optional(),
  /**
   * Exit (non-zero) when a model fails to load at startup, as Triton does by default (--exit-on-error=true); false
   * starts anyway and reports the failed models in the repository index (and, with strictReadiness, not ready).
   */
  exitOnError: bool.default(true),
  /** Complete partial model configs from the ONNX graph; false requires complete configs (--disable-auto-complete-config). */
  autoCompleteConfig: bool.default(true),
  /** Models loaded at the same time at startup and by loadAll; 0 = all at once (Triton's --model-load-thread-count). */
  modelLoadThreadCount: z.coerce.number().int().min(0).default(0),
  /** Log file ('' = standard error), appended to (Triton's --log-file). */
  logFile: z.string().default(''),
  /** 'default': epoch milliseconds in "time"; 'ISO8601': an ISO 8601 timestamp (Triton's --log-format). */
  logFormat: z.enum(['default', 'ISO8601']).default('default'),
  /** 'auto': one readable line per record on a terminal (no logFile), JSON lines otherwise; 'json' or 'pretty' always (--log-format json|pretty). */
  logStyle: z.enum(['auto', 'json', 'pretty']).default('auto'),
  // ---- OpenTelemetry traces (docs/operations.md "Traces"); Triton's --trace-config opentelemetry,url=... maps here
  /** OTLP/HTTP protobuf traces endpoint (e.g. http://127.0.0.1:4318/v1/traces); unset = no traces. */
  traceOtlpEndpoint: z.url().optional(),
  /** TIMESTAMPS traces inference requests, OFF does not (Triton's trace_level); changeable at /v2/trace/setting. */
  traceLevel: z.enum(['OFF', 'TIMESTAMPS']).default('TIMESTAMPS'),
  /** One new trace in this many requests (Triton's trace_rate); a caller's sampled traceparent is always followed. */
  traceRate: z.coerce.number().int().min(1).default(1000),
  /** NVML GPU metrics (nv_gpu_*) and the CUDA engine's device memory where NVML loads (Triton's --allow-gpu-metrics). */
  gpuMetrics: bool.default(true),
  /** Latency and batch-size histograms on /metrics (Triton has them off by default; rtserve on). */
  metricsHistograms: z.preprocess((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v), z.boolean()).default(true),
});

export type ServerConfig = z.infer<typeof serverConfigSchema>;
export type ServerConfigInput = z.input<typeof serverConfigSchema>;
