import type { InferenceApi, LoadModelOptions, ModelMetadata, RepositoryIndexEntry, ServerMetadata } from './api.ts';
import type { InferRequest, InferResponse } from './types.ts';
import type { ModelConfig } from '../config/model-config.ts';
import type { ServerConfig } from '../config/server-config.ts';
import type { ModelStatsSnapshot } from './stats.ts';
import { validateRequest } from './validate.ts';
import { RTSERVE_VERSION, SERVER_NAME } from './version.ts';
import { rtError } from '../errors/registry.ts';
import type { Logger } from '../observability/logger.ts';
import type { RepositoryManager } from '../repository/manager.ts';

/** Extensions advertised in server metadata: only those rtserve implements (Triton's names, reference §2.4). */
const EXTENSIONS = ['binary_tensor_data', 'classification', 'model_configuration', 'model_repository', 'schedule_policy', 'statistics', 'parameters'];

export interface InferenceServerOptions {
  readonly config: ServerConfig;
  readonly repository: RepositoryManager;
  readonly logger: Logger;
}

/**
 * The transport-neutral heart: health, metadata, model lookup and the inference pipeline
 * (validate → scheduler). Front ends call it through the InferenceApi contract.
 */
export class InferenceServer implements InferenceApi {
  private draining = false;
  private started = false;
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: InferenceServerOptions) {}

  async start(): Promise<void> {
    if (this.options.config.modelControlMode !== 'explicit') await this.options.repository.loadAll();
    this.started = true;
  }

  /** Stop accepting requests (not ready, new ones get SERVER_DRAINING), then wait for in-flight ones. */
  async drain(timeoutMs: number): Promise<boolean> {
    this.draining = true;
    if (this.inFlight === 0) return true;
    const idle = new Promise<boolean>((resolve) => this.idleWaiters.push(() => resolve(true)));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const done = await Promise.race([idle, timeout]);
    clearTimeout(timer);
    return done;
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
    return { name: SERVER_NAME, version: RTSERVE_VERSION, extensions: EXTENSIONS };
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
    return this.options.repository.loadedVersions().filter((v) => v.name === name).map((v) => v.stats.snapshot());
  }

  repositoryIndex(readyOnly = false): RepositoryIndexEntry[] {
    return this.options.repository.index(readyOnly);
  }

  async loadModel(name: string, options: LoadModelOptions = {}): Promise<void> {
    if (this.options.config.modelControlMode === 'none') {
      throw rtError('UNSUPPORTED', `explicit model load/unload is not allowed with --model-control-mode none (start with --model-control-mode explicit or poll)`);
    }
    await this.options.repository.load(name, options.config);
  }

  async unloadModel(name: string): Promise<void> {
    if (this.options.config.modelControlMode === 'none') {
      throw rtError('UNSUPPORTED', `explicit model load/unload is not allowed with --model-control-mode none (start with --model-control-mode explicit or poll)`);
    }
    await this.options.repository.unload(name);
  }

  outputLabels(name: string, version: string, output: string): readonly string[] | undefined {
    return this.options.repository.get(name, version).labels.get(output);
  }

  async infer(request: InferRequest): Promise<InferResponse> {
    const arrivalNs = process.hrtime.bigint();
    if (this.draining) throw rtError('SERVER_DRAINING', 'server is shutting down and accepts no new requests', { retryAfterMs: 1000 });
    const loaded = this.options.repository.get(request.model, request.version);
    const validated = validateRequest(request, loaded.validation, arrivalNs);
    this.inFlight++;
    try {
      return await loaded.scheduler.enqueue(validated);
    } finally {
      this.inFlight--;
      if (this.inFlight === 0 && this.idleWaiters.length > 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const w of waiters) w();
      }
    }
  }
}
