import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config/server-config.ts';
import { InferenceServer } from '../core/inference-server.ts';
import { bundledModelRepository } from '../util/package-root.ts';
import { createOrtEngine } from '../engine/ort/index.ts';
import { createCudaEngine } from '../engine/cuda/cuda-engine.ts';
import { defaultRegionOpener } from '../engine/cuda/shm-opener.ts';
import type { Engine } from '../engine/engine.ts';
import { ServerMetrics } from '../observability/metrics.ts';
import { logControlOf, type Logger } from '../observability/logger.ts';
import { registerHttpObservability } from '../observability/http-observability.ts';
import { OtelTracing } from '../observability/otel-tracing.ts';
import { loadNvmlSampler, registerGpuMetrics, type EngineDeviceMemory } from '../observability/gpu-metrics.ts';
import type { CudaEngineDescription } from '../engine/cuda/cuda-session.ts';
import { ObservedModelStats } from '../observability/observed-stats.ts';
import { ResponseCache } from '../core/response-cache.ts';
import { RepositoryManager } from '../repository/manager.ts';
import { RepositoryPoller } from '../repository/poller.ts';
import type { RtScheduler } from '../scheduler/queueing-scheduler.ts';
import { createScheduler } from '../scheduler/index.ts';
import { createHttpServer } from '../transport/http/http-server.ts';
import { installHttpDrain, type HttpDrain } from '../transport/http/http-drain.ts';
import { countSlowClients } from '../transport/http/slow-clients.ts';
import { GenerateService, registerGenerateMetrics } from '../generate/index.ts';
import { registerOpenAiRoutes } from '../transport/http/openai-routes.ts';
import { rtError } from '../errors/registry.ts';
import { registerWebDemo } from '../transport/http/web-demo.ts';
import { createHttpSecurity } from '../security/http-guard.ts';
import { createWsSecurityHooks } from '../security/ws-hooks.ts';
import { attachStreamingFrontEnds, type StreamingFrontEnds } from './streaming-front-ends.ts';
import { serverImageDecoding } from './image-decoding.ts';
import type { FrameDecoder } from '../preprocess/frame-decoder.ts';
import { createSharedState, type SharedState } from '../state/shared-state.ts';
import { NatsQueueTransport } from '../queue/nats-transport.ts';
import { startQueueWorker, type QueueWorker } from '../queue/queue-worker.ts';
import { Security } from '../security/security.ts';
import { grpcServerCredentials, httpsServerOptions, loadTlsMaterial } from '../security/tls.ts';
import { credentialsFromGrpcMetadata, ipFromGrpcPeer } from '../security/credentials.ts';
import { clientAddressResolver } from '../security/client-address.ts';
import { startGrpcServer } from '../transport/grpc/grpc-server.ts';
import { SharedMemoryManager, type RegionOpener } from '../shm/system-shared-memory.ts';
import { requestPipeline } from '../pipeline/request-pipeline.ts';

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
}

export interface RunningServer {
  readonly core: InferenceServer;
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
  /** Graceful stop: not ready, stop accepting, finish in-flight (up to exitTimeoutSecs), release engines. */
  close(): Promise<void>;
}

function urlOf(host: string, port: number, scheme = 'http'): string {
  const h = host.includes(':') ? `[${host}]` : host;
  return `${scheme}://${h}:${port}`;
}

/**
 * Composes the server: engine → repository → core, then the front ends on their ports. Port 0 picks a free
 * port; the chosen addresses are returned.
 */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { config, logger } = options;
  // TLS files and auth keys are read first, so a bad path fails the start before any model is loaded.
  const tls = loadTlsMaterial(config);
  // State replicas share (docs/scaling.md): SSE resume journal and WebSocket tickets in Redis, or nothing shared.
  const shared =
    options.sharedState ??
    (await createSharedState(config.sharedState, {
      ticketTtlMs: config.auth.wsTicketTtlSecs * 1000,
      resumeWindowMs: config.wsResumeWindowMs,
      logger,
    }));
  const security = await Security.create({
    auth: config.auth,
    rateLimit: config.rateLimit,
    logger,
    ...(shared.tickets === undefined ? {} : { tickets: shared.tickets }),
  });
  const repositories = config.modelRepository.length > 0 ? config.modelRepository : [bundledModelRepository()];
  // Metrics first: each loaded version's statistics feed its histograms (the source is wired below).
  const serverMetrics = new ServerMetrics({ statistics: () => [], pending: () => [] }, { histograms: config.metricsHistograms });
  security.onRateLimited = (protocol) => serverMetrics.rateLimited.inc({ protocol });
  const responseCache = config.cacheSizeBytes > 0 ? new ResponseCache(config.cacheSizeBytes) : undefined;
  const repository = new RepositoryManager({
    statsFactory: (name, version) => new ObservedModelStats(name, version, serverMetrics.observerFor(name, version), logger),
    repositories,
    // CUDA plans (`rtserve build --target cuda`) run on the native engine; everything else on onnxruntime.
    engine: options.engine ?? createCudaEngine({ fallback: createOrtEngine() }),
    schedulerFactory: createScheduler,
    logger,
    defaultMaxBatchSize: config.defaultMaxBatchSize,
    autoCompleteConfig: config.autoCompleteConfig,
    modelLoadThreadCount: config.modelLoadThreadCount,
    maxQueueSizeDefault: config.maxQueueSizeDefault,
    defaultProviders: config.providers.map((name) => ({ name })),
    engineChainEvents: serverMetrics.engineChainEvents(),
  });
  // Generative models (a `generate` config section) are served by continuous batching over their engine session;
  // withGeneration puts them behind the same InferenceApi every front end uses (docs/generate.md).
  const generate = new GenerateService({
    resolve: (model, version) => {
      const v = repository.get(model, version);
      const session = v.sessions[0];
      if (session === undefined) throw rtError('MODEL_NOT_READY', `model '${model}' has no engine session`);
      return { name: v.name, version: v.version, config: v.config, session, text: v.text };
    },
    limits: {
      maxSequences: config.generateMaxSequences,
      maxQueue: config.generateMaxQueue,
      maxTokensInFlight: config.generateMaxTokensInFlight,
      maxPrefillTokens: config.generateMaxPrefillTokens,
    },
    metrics: registerGenerateMetrics(serverMetrics.registry),
    logger,
  });
  // Every front end gets the same request pipeline around the core (src/pipeline/request-pipeline.ts): limits,
  // system shared memory (docs/shared-memory.md), classification, images (docs/image.md), generation.
  const sharedMemory = config.allowClientShm
    ? new SharedMemoryManager({ logger, opener: options.sharedMemoryOpener ?? defaultRegionOpener })
    : undefined;
  const core = requestPipeline(
    new InferenceServer({ config, repository, logger, observer: serverMetrics, ...(responseCache === undefined ? {} : { responseCache }) }),
    {
      generate,
      sharedMemory,
      limits: { maxInputsPerRequest: config.maxInputsPerRequest, maxElementsPerTensor: config.maxElementsPerTensor },
      // Images of CUDA-engine models decoded on the GPU (nvJPEG), where the addon loads (docs/image.md).
      imageDecoding: serverImageDecoding({
        mode: config.imageDecode,
        // A CUDA plan runs on the native engine (an engine chain names its link by the configured provider instead).
        providerOf: (model, version) => {
          try {
            const v = repository.get(model, version);
            return v.planTarget === 'cuda' ? 'cuda' : v.provider;
          } catch {
            return undefined;
          }
        },
        logger,
        ...(options.frameDecoder === undefined ? {} : { decoder: options.frameDecoder }),
      }),
    },
  );
  await core.start();
  // --exit-on-error: a model that failed to load at startup stops the start (the caller exits non-zero).
  const failed =
    config.exitOnError && !repository.allReady() ? repository.index(false).filter((e) => e.state !== 'READY' && e.reason !== 'not loaded') : [];
  if (failed.length > 0) {
    await core.stop();
    await security.close();
    throw rtError('MODEL_LOAD_FAILED', `--exit-on-error: ${failed.map((e) => `'${e.name}' failed to load: ${e.reason ?? ''}`).join('; ')}`);
  }
  let poller: RepositoryPoller | undefined;
  if (config.modelControlMode === 'poll' && config.repositoryPollSecs > 0) {
    poller = new RepositoryPoller(repository, { repositories, intervalMs: config.repositoryPollSecs * 1000, logger });
    await poller.prime();
    poller.start();
  }

  serverMetrics.setSource({
    statistics: () => core.modelStatistics(),
    pending: () => repository.loadedVersions().map((v) => ({ model: v.name, version: v.version, pending: v.scheduler.pendingCount })),
    instances: () =>
      repository.loadedVersions().map((v) => {
        const snap = (v.scheduler as Partial<RtScheduler>).snapshot?.();
        return {
          model: v.name,
          version: v.version,
          provider: v.provider,
          instances: v.sessions.length,
          ...(snap === undefined ? {} : { busy: snap.busyInstances }),
        };
      }),
    modelStates: () => {
      const states = new Map<string, string>();
      for (const e of repository.index(false)) if (states.get(e.name) !== 'READY') states.set(e.name, e.state);
      return [...states].map(([model, state]) => ({ model, state }));
    },
    engineChains: () =>
      repository.loadedVersions().flatMap((v) => {
        const c = v.engineChain;
        return c === undefined ? [] : [{ model: v.name, version: v.version, links: c.links, active: c.active?.position, state: c.state }];
      }),
    cache: () => responseCache?.stats(),
  });
  const metrics = async () => ({ contentType: serverMetrics.contentType, body: await serverMetrics.text() });
  if (config.allowMetrics && config.gpuMetrics) {
    // nv_gpu_* from NVML (skipped with one log line where the reader or the driver is absent), and what the CUDA
    // engine's instances hold on the device.
    const nvml = loadNvmlSampler();
    if ('reason' in nvml) logger.info({ reason: nvml.reason }, 'no GPU metrics');
    const described = new WeakMap<object, CudaEngineDescription>();
    const engineMemory = (): EngineDeviceMemory[] =>
      repository.loadedVersions().flatMap((v) =>
        v.sessions.flatMap((s, instance) => {
          const native = (s as { nativeDescription?: () => CudaEngineDescription }).nativeDescription;
          if (typeof native !== 'function') return [];
          let d = described.get(s);
          if (d === undefined) described.set(s, (d = native.call(s)));
          return [
            { model: v.name, version: v.version, instance, arenaBytes: d.arenaBytes, weightBytes: d.weightBytes, workspaceBytes: d.workspaceBytes },
          ];
        }),
      );
    registerGpuMetrics(serverMetrics.registry, 'sampler' in nvml ? nvml.sampler : undefined, engineMemory);
  }
  const tracing =
    config.traceOtlpEndpoint === undefined
      ? undefined
      : new OtelTracing({
          endpoint: config.traceOtlpEndpoint,
          level: config.traceLevel,
          rate: config.traceRate,
          serviceName: config.serverId ?? 'rtserve',
        });

  // TLS, auth / rate-limit hooks and request limits of the REST (and WebSocket) port (docs/security.md).
  const httpSecurity = createHttpSecurity(security);
  const httpGuards = {
    ...(tls === undefined ? {} : { https: httpsServerOptions(tls) }),
    ...(httpSecurity === undefined ? {} : { security: httpSecurity }),
    limits: {
      maxJsonDepth: config.maxJsonDepth,
      maxJsonElements: config.maxJsonElements,
      maxInputsPerRequest: config.maxInputsPerRequest,
      maxElementsPerTensor: config.maxElementsPerTensor,
    },
    maxHeaderBytes: config.maxHeaderBytes,
    headersTimeoutMs: config.headersTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    disabledApis: config.disabledApis,
    trustedProxies: config.trustedProxies,
  };
  // WebSocket /v2/ws and SSE generate_stream share the HTTP port (docs/ws-protocol.md), with the same auth and
  // rate limits as REST (docs/security.md).
  let streaming: StreamingFrontEnds | undefined;
  let httpDrain: HttpDrain | undefined;
  const wsHooks = createWsSecurityHooks(security);
  // Per-IP limits and logs see the client behind a trusted proxy (X-Forwarded-For), on every front end.
  const clientAddress = clientAddressResolver(config.trustedProxies);
  const extend = (app: FastifyInstance): void => {
    streaming = attachStreamingFrontEnds(app, {
      api: core,
      logger,
      config,
      metrics: serverMetrics,
      clientAddress,
      ...(wsHooks === undefined ? {} : wsHooks),
      ...(shared.journal === undefined ? {} : { journal: shared.journal, replicaId: shared.replicaId }),
      ...(tracing === undefined ? {} : { tracing }),
    });
    // The browser demo at / (web/, docs/image.md).
    registerWebDemo(app);
  };
  const http = await createHttpServer({
    extend,
    ...httpGuards,
    api: core,
    logger,
    maxBodyBytes: config.maxBodyBytes,
    ...(config.allowMetrics ? { metrics } : {}),
    observe: (app) => {
      // First of the hooks: while draining, every answer (401s and 404s included) closes its connection.
      httpDrain = installHttpDrain(app);
      registerHttpObservability(app, {
        logger,
        metrics: serverMetrics,
        accessLog: config.accessLog,
        logControl: logControlOf(logger),
        ...(config.logDirectory === undefined ? {} : { logDirectory: config.logDirectory }),
        ...(tracing === undefined ? {} : { tracing }),
      });
    },
  });
  // Slowloris heads and dribbled bodies that node's headersTimeout / requestTimeout cut off, counted on /metrics.
  countSlowClients(http.server, (kind) => serverMetrics.slowClients.inc({ kind }));
  // OpenAI-compatible /v1/completions and /v1/chat/completions (docs/generate.md), added before the port opens.
  registerOpenAiRoutes(http, { generate, api: core, logger });
  // --allow-http=false: the routes exist (for in-process use) but the port is not opened.
  const httpHost = config.httpAddress ?? config.host;
  if (config.allowHttp) await http.listen({ host: httpHost, port: config.httpPort });
  else await http.ready();
  const httpPort = config.allowHttp ? (http.server.address() as AddressInfo).port : undefined;

  const grpc = !config.allowGrpc
    ? undefined
    : await startGrpcServer({
        api: core,
        logger,
        host: config.grpcAddress ?? config.host,
        port: config.grpcPort,
        maxMessageBytes: config.grpcMaxMessageBytes,
        keepaliveTimeMs: config.grpcKeepaliveTimeMs,
        keepaliveTimeoutMs: config.grpcKeepaliveTimeoutMs,
        keepalivePermitWithoutCalls: config.grpcKeepalivePermitWithoutCalls,
        maxInflightPerStream: config.grpcMaxInflightPerStream,
        flowControlWindowBytes: config.grpcFlowControlWindowBytes,
        maxConnectionAgeMs: config.grpcMaxConnectionAgeMs,
        maxConnectionAgeGraceMs: config.grpcMaxConnectionAgeGraceMs,
        disabledApis: config.disabledApis,
        ...(tracing === undefined ? {} : { tracing }),
        // The same TLS material and the same auth / rate limits as the REST port (docs/security.md).
        ...(tls === undefined ? {} : { credentials: grpcServerCredentials(tls) }),
        ...(security.inactive
          ? {}
          : {
              admit: (ctx) => {
                const forwarded = ctx.metadata.get('x-forwarded-for').map(String);
                const ip = clientAddress(ipFromGrpcPeer(ctx.peer), forwarded.length === 0 ? undefined : forwarded);
                return security.admit(credentialsFromGrpcMetadata(ctx.metadata), ctx.op, ctx.model, ip, 'grpc');
              },
            }),
      });

  let metricsServer: Server | undefined;
  let metricsUrl: string | undefined;
  const metricsHost = config.metricsAddress ?? httpHost;
  if (config.allowMetrics && (config.metricsPort !== config.httpPort || config.metricsPort === 0 || !config.allowHttp || metricsHost !== httpHost)) {
    metricsServer = createServer((req, res) => {
      if (req.method === 'GET' && (req.url === '/metrics' || req.url?.startsWith('/metrics?') === true)) {
        metrics().then(
          (m) => res.writeHead(200, { 'content-type': m.contentType }).end(m.body),
          () => res.writeHead(500).end(),
        );
      } else {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'metrics are served at /metrics' }));
      }
    });
    await new Promise<void>((resolve, reject) => {
      metricsServer?.once('error', reject);
      metricsServer?.listen(config.metricsPort, metricsHost, () => resolve());
    });
    metricsUrl = urlOf(metricsHost, (metricsServer.address() as AddressInfo).port);
  }

  // The async inference queue: this replica consumes the broker's work queue through the same API as the front ends.
  let queueWorker: QueueWorker | undefined;
  if (config.asyncQueue.transport === 'nats') {
    const q = config.asyncQueue;
    queueWorker = startQueueWorker({
      api: core,
      transport: await NatsQueueTransport.connect(q),
      maxInFlight: q.maxInFlight,
      ackWaitMs: q.ackWaitMs,
      maxDeliveries: q.maxDeliveries,
      replicaId: shared.replicaId,
      logger,
    });
  }

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      // No new queued work; what this replica holds finishes within the drain below.
      const queueClosed = queueWorker?.close();
      const deadlineMs = Date.now() + config.exitTimeoutSecs * 1000;
      // At once, before anything awaits: not ready, new inference answered SERVER_DRAINING (503, Retry-After), every
      // REST answer closes its connection. The ports stay open: a request that reaches the server gets an answer.
      const drained = core.drain(config.exitTimeoutSecs * 1000);
      httpDrain?.begin();
      // gRPC: GOAWAY, in-flight calls finish, then what is left is cut at the timeout.
      const grpcClosed = grpc?.close(config.exitTimeoutSecs * 1000);
      // Generations are not the core's in-flight requests: they drain alongside, within the same timeout.
      const generationsDrained = generate.drain(config.exitTimeoutSecs * 1000);
      await poller?.stop();
      if (!(await drained)) {
        logger.warn({ inFlight: core.inFlightCount }, 'exit timeout reached with requests still in flight: answering queued ones SERVER_DRAINING');
        repository.rejectQueued();
      }
      if (!(await generationsDrained)) logger.warn('exit timeout reached with generations still running: ending them SERVER_DRAINING');
      await queueClosed;
      generate.close();
      await grpcClosed;
      // Clients are told SERVER_DRAINING until they stop sending (http-drain.ts); then WebSocket sockets close with
      // 1001 (going away) behind their last answers, open SSE responses end, and the listener closes last, once
      // nothing arrived for the quiet period again, so no request that reached the server is reset.
      const quietDeadlineMs = Math.max(deadlineMs, Date.now() + config.drainQuietMs);
      await httpDrain?.quiet(config.drainQuietMs, quietDeadlineMs);
      await streaming?.close();
      await httpDrain?.quiet(config.drainQuietMs, quietDeadlineMs);
      await http.close();
      if (metricsServer !== undefined) {
        const s = metricsServer;
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
      // Every front end is closed: release the shared memory regions (a request still holding one closes it last).
      await sharedMemory?.unregisterEveryOwner();
      await core.stop();
      await security.close();
      if (options.sharedState === undefined) await shared.close();
      await tracing?.close();
    })();
    return closing;
  };

  return {
    core,
    http,
    httpUrl: httpPort === undefined ? '' : urlOf(httpHost, httpPort, tls === undefined ? 'http' : 'https'),
    grpcAddress: grpc?.address,
    metricsUrl,
    security,
    metrics: serverMetrics,
    tracing,
    poller,
    generate,
    repository,
    close,
  };
}
