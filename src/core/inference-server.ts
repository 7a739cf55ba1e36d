import type { InferenceApi, LoadModelOptions, ModelMetadata, RepositoryIndexEntry, ServerMetadata } from '../api/inference-api.ts';
import type { InferRequest, InferResponse } from '../api/types.ts';
import type { ModelConfig } from '../config/model-config.ts';
import type { ServerConfig } from '../config/server-config.ts';
import type { ModelStatsSnapshot } from '../observability/model-stats.ts';
import { validateRequest } from './validate.ts';
import { checkInputsInProfiles } from '../plan/profiles.ts';
import { RTSERVE_VERSION, SERVER_NAME } from '../util/version.ts';
import { rtError, toRtError, type RtError } from '../errors/registry.ts';
import type { Logger } from '../observability/logger.ts';
import type { LoadedVersion, RepositoryManager } from '../repository/manager.ts';
import type { ValidatedRequest } from '../scheduler/scheduler.ts';
import type { ResponseCache } from './response-cache.ts';
import { settlesWithin } from '../util/timeout.ts';

/** Told once per inference request of a known model version (metrics: per-protocol counts, failure reasons). */
export interface InferObserver {
  inferDone(protocol: string, model: string, version: string, error?: { readonly code: string; readonly category: string }): void;
}

/** Extensions advertised in server metadata: only those rtserve implements (Triton's names, docs/protocol.md §2.4). */
const EXTENSIONS = [
  'binary_tensor_data',
  'classification',
  'model_configuration',
  'model_repository',
  'schedule_policy',
  'statistics',
  'parameters',
  'logging',
];

export interface InferenceServerOptions {
  readonly config: ServerConfig;
  readonly repository: RepositoryManager;
  readonly logger: Logger;
  readonly observer?: InferObserver;
  /** The server's response cache (--cache-size-bytes > 0); used for models with response_cache.enable. */
  readonly responseCache?: ResponseCache;
}

const usSince = (startNs: bigint, endNs: bigint): number => Math.round(Number(endNs - startNs) / 1000);

/**
 * The transport-neutral heart: health, metadata, model lookup and the inference pipeline
 * (validate → scheduler). Front ends call it through the InferenceApi contract.
 */
export class InferenceServer implements InferenceApi {
  private draining = false;
  private started = false;
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  /** Load generation of each loaded version: part of the response-cache key, so a reload never serves stale entries. */
  private readonly generations = new WeakMap<LoadedVersion, number>();
  private nextGeneration = 1;

  private readonly extensions: readonly string[];

  constructor(private readonly options: InferenceServerOptions) {
    // system_shared_memory: the regions and requests that use them are served by the layer the app wraps around
    // this core (pipeline/shared-memory.ts); it is advertised only when switched on.
    this.extensions = options.config.allowClientShm ? [...EXTENSIONS, 'system_shared_memory'] : EXTENSIONS;
  }

  /**
   * Loads the models (Triton's model control modes, docs/protocol.md §1.4): none and poll load everything; explicit
   * loads only --load-model names ('*' = everything). A model that fails to load is recorded (repository index,
   * readiness), not thrown.
   */
  async start(): Promise<void> {
    const { modelControlMode, loadModel } = this.options.config;
    if (modelControlMode !== 'explicit' && loadModel.length > 0) {
      this.options.logger.warn(
        { modelControlMode, loadModel },
        '--load-model only applies with --model-control-mode explicit; every model is loaded',
      );
    }
    if (modelControlMode !== 'explicit' || loadModel.includes('*')) {
      await this.options.repository.loadAll();
    } else {
      await this.options.repository.scanNames().catch((err: unknown) => {
        this.options.logger.error({ reason: toRtError(err).message }, 'repository scan failed');
      });
      await Promise.all(
        loadModel.map((name) =>
          this.options.repository.load(name).catch((err: unknown) => {
            this.options.logger.error({ model: name, reason: toRtError(err).message }, '--load-model: model failed to load');
          }),
        ),
      );
    }
    this.started = true;
  }

  /** Stop accepting requests (not ready, new ones get SERVER_DRAINING), then wait for in-flight ones. */
  async drain(timeoutMs: number): Promise<boolean> {
    this.draining = true;
    if (this.inFlight === 0) return true;
    return settlesWithin(new Promise<void>((resolve) => this.idleWaiters.push(resolve)), timeoutMs);
  }

  async stop(): Promise<void> {
    this.draining = true;
    await this.options.repository.close();
  }

  get isDraining(): boolean {
    return this.draining;
  }

  get inFlightCount(): number {
    return this.inFlight;
  }

  isLive(): boolean {
    return true;
  }

  isReady(): boolean {
    if (!this.started || this.draining) return false;
    return this.options.config.strictReadiness ? this.options.repository.allReady() : true;
  }

  serverMetadata(): ServerMetadata {
    return { name: this.options.config.serverId ?? SERVER_NAME, version: RTSERVE_VERSION, extensions: this.extensions };
  }

  modelMetadata(name: string, version?: string): ModelMetadata {
    const v = this.options.repository.get(name, version);
    const rec = this.options.repository.record(name);
    return { ...v.metadata, versions: rec?.versions ?? [v.version] };
  }

  modelReady(name: string, version?: string): boolean {
    return this.options.repository.isReady(name, version);
  }

  modelConfig(name: string, version?: string): ModelConfig {
    return this.options.repository.get(name, version).config;
  }

  modelStatistics(name?: string, version?: string): ModelStatsSnapshot[] {
    if (name === undefined) return this.options.repository.loadedVersions().map((v) => v.stats.snapshot());
    if (version !== undefined) return [this.options.repository.get(name, version).stats.snapshot()];
    this.options.repository.get(name); // throws for unknown / not ready
    return this.options.repository
      .loadedVersions()
      .filter((v) => v.name === name)
      .map((v) => v.stats.snapshot());
  }

  repositoryIndex(readyOnly = false): RepositoryIndexEntry[] {
    return this.options.repository.index(readyOnly);
  }

  async loadModel(name: string, options: LoadModelOptions = {}): Promise<void> {
    this.assertExplicitControl();
    await this.options.repository.load(name, options.config);
  }

  async unloadModel(name: string): Promise<void> {
    this.assertExplicitControl();
    await this.options.repository.unload(name);
  }

  /** Triton allows the load/unload API only in explicit mode (its message, so tritonclient tests match it). */
  private assertExplicitControl(): void {
    const mode = this.options.config.modelControlMode;
    if (mode !== 'explicit') {
      throw rtError(
        'UNSUPPORTED',
        `explicit model load / unload is not allowed if polling is enabled (model control mode is '${mode}'; start with --model-control-mode explicit)`,
      );
    }
  }

  outputLabels(name: string, version: string, output: string): readonly string[] | undefined {
    return this.options.repository.get(name, version).labels.get(output);
  }

  frameInputOf(name: string, version?: string): string | undefined {
    try {
      return this.options.repository.get(name, version).frameInputNow();
    } catch {
      // Not loaded (or unknown): infer reports it.
      return undefined;
    }
  }

  recordRefusal(name: string, version: string | undefined, protocol: string, error: { readonly code: string; readonly category: string }): void {
    let loaded: LoadedVersion;
    try {
      loaded = this.options.repository.get(name, version);
    } catch {
      return;
    }
    // As a request refused by validation here (infer below): a failure of the version it addressed.
    loaded.stats.recordFailure(0);
    this.options.observer?.inferDone(protocol, loaded.name, loaded.version, error);
  }

  async infer(request: InferRequest): Promise<InferResponse> {
    const arrivalNs = process.hrtime.bigint();
    if (this.draining) throw rtError('SERVER_DRAINING', 'server is shutting down and accepts no new requests', { retryAfterMs: 1000 });
    const loaded = this.options.repository.get(request.model, request.version);
    // The edge's request context (request id, trace, stage timings), when the front end set one.
    const ctx = request.context;
    if (ctx !== undefined) {
      ctx.coreStartNs = arrivalNs;
      ctx.model = loaded.name;
      ctx.version = loaded.version;
    }
    const protocol = request.protocol ?? ctx?.protocol ?? 'unknown';
    let error: RtError | undefined;
    let validated: ValidatedRequest | undefined;
    this.inFlight++;
    try {
      try {
        validated = validateRequest(request, loaded.validation, arrivalNs);
        // Encoded frames are decoded by the engine into the profile's shape (its programs take the batch).
        if (request.frames === undefined) checkInputsInProfiles(loaded.profiles, request.inputs);
      } catch (err) {
        // Triton counts a request refused by validation as a failure of the model it addressed.
        loaded.stats.recordFailure(Number(process.hrtime.bigint() - arrivalNs));
        throw err;
      }
      const validatedNs = process.hrtime.bigint();
      if (ctx !== undefined) {
        ctx.batchSize = validated.batchSize;
        ctx.validateUs = usSince(arrivalNs, validatedNs);
      }
      const cache = loaded.config.response_cache?.enable === true ? this.options.responseCache : undefined;
      let key: string | undefined;
      let lookupNs = 0;
      if (cache !== undefined) {
        // The key is computed before enqueue: the engine may take (transfer) the input buffers.
        key = cache.keyOf(loaded.name, loaded.version, this.generationOf(loaded), request.inputs, request.outputs);
        const hit = cache.get(key);
        const lookedUpNs = process.hrtime.bigint();
        lookupNs = Number(lookedUpNs - validatedNs);
        if (hit !== undefined) {
          loaded.stats.recordCacheHit(Number(lookedUpNs - arrivalNs), lookupNs);
          if (ctx !== undefined) ctx.cache = 'hit';
          return { model_name: loaded.name, model_version: loaded.version, ...(request.id === undefined ? {} : { id: request.id }), ...hit };
        }
        if (ctx !== undefined) ctx.cache = 'miss';
      }
      const enqueuedNs = process.hrtime.bigint();
      if (ctx !== undefined) ctx.enqueuedNs = enqueuedNs;
      const response = await loaded.scheduler.enqueue(validated);
      const answeredNs = process.hrtime.bigint();
      if (ctx !== undefined) ctx.schedulerUs = usSince(enqueuedNs, answeredNs);
      if (cache !== undefined && key !== undefined) {
        cache.put(key, response);
        loaded.stats.recordCacheMiss(lookupNs + Number(process.hrtime.bigint() - answeredNs));
      }
      return response;
    } catch (err) {
      error = toRtError(err);
      throw err;
    } finally {
      this.inFlight--;
      if (this.inFlight === 0 && this.idleWaiters.length > 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const w of waiters) w();
      }
      const endNs = process.hrtime.bigint();
      if (ctx !== undefined) ctx.coreEndNs = endNs;
      this.options.observer?.inferDone(protocol, loaded.name, loaded.version, error);
      const log = this.options.logger;
      if (log.isLevelEnabled('debug')) {
        log.debug(
          {
            ...(ctx === undefined ? {} : { requestId: ctx.requestId, traceId: ctx.trace.traceId, spanId: ctx.trace.spanId }),
            model: loaded.name,
            version: loaded.version,
            protocol,
            batchSize: validated?.batchSize,
            ...(ctx?.cache === undefined ? {} : { cache: ctx.cache }),
            ...(error === undefined ? { outcome: 'success' } : { outcome: 'failure', code: error.code }),
            ...(ctx?.validateUs === undefined ? {} : { validateUs: ctx.validateUs }),
            ...(ctx?.schedulerUs === undefined ? {} : { schedulerUs: ctx.schedulerUs }),
            coreUs: usSince(arrivalNs, endNs),
          },
          'inference',
        );
      }
    }
  }

  private generationOf(v: LoadedVersion): number {
    let g = this.generations.get(v);
    if (g === undefined) {
      g = this.nextGeneration++;
      this.generations.set(v, g);
    }
    return g;
  }
}
