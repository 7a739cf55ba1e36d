/**
 * The engine side of the server: engines, the model repository (one batcher per model), the core and the request
 * pipeline every front end calls, and what /metrics reads of them. The single-process server runs it beside its
 * front ends (rtserve-server.ts); with `--workers N` it runs in the engine owner only (cluster-server.ts,
 * docs/workers.md), so batching still forms full batches across every worker's requests.
 */
import { deviceEnv } from '../config/device-env.ts';
import type { ServerConfig } from '../config/server-config.ts';
import { InferenceServer } from '../core/inference-server.ts';
import { bundledModelRepository } from '../util/package-root.ts';
import { createOrtEngine } from '../engine/ort/index.ts';
import { createCudaEngine } from '../engine/cuda/cuda-engine.ts';
import { defaultRegionOpener } from '../engine/cuda/shm-opener.ts';
import type { ServerMetrics } from '../observability/metrics.ts';
import type { Logger } from '../observability/logger.ts';
import { loadNvmlSampler, nvmlAddonPath, registerGpuMetrics, type EngineDeviceMemory } from '../observability/gpu-metrics.ts';
import type { CudaEngineDescription } from '../engine/cuda/cuda-session.ts';
import { ObservedModelStats } from '../observability/observed-stats.ts';
import { ResponseCache } from '../core/response-cache.ts';
import { RepositoryManager } from '../repository/manager.ts';
import { RepositoryPoller } from '../repository/poller.ts';
import type { RtScheduler } from '../scheduler/queueing-scheduler.ts';
import { createScheduler } from '../scheduler/index.ts';
import { GenerateService, registerGenerateMetrics } from '../generate/index.ts';
import { DeviceTokenEngines, type TokenEngineFactory } from './token-engines.ts';
import { loadLlmAddon } from '../engine/cuda/llm-addon.ts';
import { createCudaTokenEngine } from '../engine/cuda/llm-engine.ts';
import { rtError } from '../errors/registry.ts';
import { SharedMemoryManager } from '../shm/system-shared-memory.ts';
import { RequestPipeline } from '../pipeline/request-pipeline.ts';
import { serverImageDecoding } from './image-decoding.ts';
import type { StartOptions } from './server-types.ts';

export interface EngineSide {
  /** Validation, scheduling, engines: what drains and counts requests in flight. */
  readonly core: InferenceServer;
  /** The request pipeline around the core (src/pipeline/request-pipeline.ts): what every front end calls. */
  readonly api: RequestPipeline;
  readonly repository: RepositoryManager;
  readonly generate: GenerateService;
  readonly poller: RepositoryPoller | undefined;
  /**
   * The first step of a graceful stop, started before it awaits anything: not ready, new inference answered
   * SERVER_DRAINING; resolves once in-flight requests and generations finished (or the exit timeout ended them).
   */
  drain(): Promise<void>;
  /** After the front ends closed: shared memory regions released, engines closed. */
  stop(): Promise<void>;
}

/**
 * The device decoder Hugging Face checkpoints get at load (generate.engine cuda / auto): the CUDA decoder where its
 * addon and a GPU are there, unless the caller gives its own factory (or null: none).
 */
function tokenEngineFactoryOf(options: StartOptions): TokenEngineFactory | undefined {
  if (options.tokenEngineFactory === undefined) return loadLlmAddon().available ? createCudaTokenEngine : undefined;
  return options.tokenEngineFactory ?? undefined;
}

/** Loads the repository and composes the core; `serverMetrics` gets the model statistics as its source. */
export async function startEngineSide(options: StartOptions, serverMetrics: ServerMetrics): Promise<EngineSide> {
  const { config, logger } = options;
  const repositories = config.modelRepository.length > 0 ? config.modelRepository : [bundledModelRepository()];
  const responseCache = config.cacheSizeBytes > 0 ? new ResponseCache(config.cacheSizeBytes) : undefined;
  const generateLimits = {
    maxSequences: config.generateMaxSequences,
    maxQueue: config.generateMaxQueue,
    maxTokensInFlight: config.generateMaxTokensInFlight,
    maxPrefillTokens: config.generateMaxPrefillTokens,
  };
  const tokenEngines = new DeviceTokenEngines(tokenEngineFactoryOf(options), generateLimits, logger);
  const chainMetrics = serverMetrics.engineChainEvents();
  const repository: RepositoryManager = new RepositoryManager({
    deviceDecoder: tokenEngines.factory,
    statsFactory: (name, version) => new ObservedModelStats(name, version, serverMetrics.observerFor(name, version), logger),
    repositories,
    // CUDA plans (`rtserve build --target cuda`) run on the native engine, and ONNX models compiled to one at load
    // (cudaCompileOnnx, or a tensorrt accelerator in their config); everything else on onnxruntime.
    engine:
      options.engine ??
      createCudaEngine({
        fallback: createOrtEngine(),
        compileAtLoad: { compiler: options.cudaCompiler, all: config.cudaCompileOnnx, cacheDir: config.cudaPlanCache, logger },
      }),
    schedulerFactory: createScheduler,
    logger,
    defaultMaxBatchSize: config.defaultMaxBatchSize,
    autoCompleteConfig: config.autoCompleteConfig,
    modelLoadThreadCount: config.modelLoadThreadCount,
    maxQueueSizeDefault: config.maxQueueSizeDefault,
    defaultProviders: config.providers.map((name) => ({ name })),
    // JPEGs of models whose engine decodes on its device travel to it undecoded (docs/image.md), unless --image-decode cpu.
    engineFrames: config.imageDecode !== 'cpu',
    // A failover or recovery changes the index's reason and the input that takes frames: the workers' mirrors follow.
    engineChainEvents: {
      failover: (e) => {
        chainMetrics.failover(e);
        repository.emit('change');
      },
      recovered: (e) => {
        chainMetrics.recovered(e);
        repository.emit('change');
      },
      probed: (e) => chainMetrics.probed(e),
    },
  });
  // Generative models (a `generate` config section) are served by continuous batching over their engine session;
  // the pipeline's generation layer puts them behind the same InferenceApi every front end uses (docs/generate.md).
  const generate = new GenerateService({
    resolve: (model, version) => {
      const v = repository.get(model, version);
      const session = v.sessions[0];
      if (session === undefined) throw rtError('MODEL_NOT_READY', `model '${model}' has no engine session`);
      return { name: v.name, version: v.version, config: v.config, session, text: v.text, tokenEngine: tokenEngines.of(v) };
    },
    limits: generateLimits,
    metrics: registerGenerateMetrics(serverMetrics.registry),
    logger,
  });
  // Every front end gets the same request pipeline around the core (src/pipeline/request-pipeline.ts): limits,
  // system shared memory (docs/shared-memory.md), classification, images (docs/image.md), generation.
  const sharedMemory = config.allowClientShm
    ? new SharedMemoryManager({ logger, opener: options.sharedMemoryOpener ?? defaultRegionOpener })
    : undefined;
  const core = new InferenceServer({
    config,
    repository,
    logger,
    observer: serverMetrics,
    ...(responseCache === undefined ? {} : { responseCache }),
  });
  const api = new RequestPipeline(core, {
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
  });
  await core.start();
  // --exit-on-error: a model that failed to load at startup stops the start (the caller exits non-zero).
  const failed =
    config.exitOnError && !repository.allReady() ? repository.index(false).filter((e) => e.state !== 'READY' && e.reason !== 'not loaded') : [];
  if (failed.length > 0) {
    await core.stop();
    throw rtError('MODEL_LOAD_FAILED', `--exit-on-error: ${failed.map((e) => `'${e.name}' failed to load: ${e.reason ?? ''}`).join('; ')}`);
  }
  let poller: RepositoryPoller | undefined;
  if (config.modelControlMode === 'poll' && config.repositoryPollSecs > 0) {
    poller = new RepositoryPoller(repository, { repositories, intervalMs: config.repositoryPollSecs * 1000, logger });
    await poller.prime();
    poller.start();
  }
  observeEngineSide(config, serverMetrics, core, repository, responseCache, logger);

  return {
    core,
    api,
    repository,
    generate,
    poller,
    async drain() {
      // At once, before anything awaits: not ready, new inference answered SERVER_DRAINING (503, Retry-After).
      const drained = core.drain(config.exitTimeoutSecs * 1000);
      // Generations are not the core's in-flight requests: they drain alongside, within the same timeout.
      const generationsDrained = generate.drain(config.exitTimeoutSecs * 1000);
      await poller?.stop();
      if (!(await drained)) {
        logger.warn({ inFlight: core.inFlightCount }, 'exit timeout reached with requests still in flight: answering queued ones SERVER_DRAINING');
        repository.rejectQueued();
      }
      if (!(await generationsDrained)) logger.warn('exit timeout reached with generations still running: ending them SERVER_DRAINING');
      generate.close();
    },
    async stop() {
      // Every front end is closed: release the shared memory regions (a request still holding one closes it last).
      await sharedMemory?.unregisterEveryOwner();
      await core.stop();
    },
  };
}

/** What /metrics reads of the engine side: model statistics, queues, instances, states, engine chains, cache, GPUs. */
function observeEngineSide(
  config: Readonly<ServerConfig>,
  serverMetrics: ServerMetrics,
  core: InferenceServer,
  repository: RepositoryManager,
  responseCache: ResponseCache | undefined,
  logger: Logger,
): void {
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
  if (config.allowMetrics && config.gpuMetrics) {
    // nv_gpu_* from NVML (skipped with one log line where the reader or the driver is absent), and what the CUDA
    // engine's instances hold on the device.
    const nvml = loadNvmlSampler(nvmlAddonPath(deviceEnv().nvmlAddon));
    // Expected on every CPU host: worth a line only when debugging.
    if ('reason' in nvml) logger.debug({ reason: nvml.reason }, 'no GPU metrics');
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
}
