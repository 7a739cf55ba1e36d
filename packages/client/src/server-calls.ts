/**
 * The REST calls of the client besides inference: health and metadata, and tritonclient's other calls —
 * statistics, model load/unload (the repository extension), system shared memory register/status/unregister,
 * and the log and trace settings (docs/protocol.md §2.4). Every call runs under the client's timeout and retry
 * policy (call-policy.ts), which its options may override.
 */
import type { ModelConfig } from '../../../src/config/model-config.ts';
import type { InferenceApi, ModelMetadata, RepositoryIndexEntry, ServerMetadata } from '../../../src/api/inference-api.ts';
import { withPolicy, type CallPolicy } from './call-policy.ts';
import type { RestTransport } from './rest-transport.ts';

/** One model version's statistics, as Triton's statistics extension answers them. */
export type ModelStatsSnapshot = Awaited<ReturnType<InferenceApi['modelStatistics']>>[number];
/** A registered system shared memory region: `name`, `key`, `offset`, `byte_size`. */
export type SharedMemoryRegionStatus = Awaited<ReturnType<NonNullable<InferenceApi['systemSharedMemory']>['status']>>[number];

/** Triton's log settings (GET /v2/logging): which levels are on, where logs go, the time format. */
export interface LogSettings {
  readonly log_file: string;
  readonly log_info: boolean;
  readonly log_warning: boolean;
  readonly log_error: boolean;
  readonly log_verbose_level: number;
  readonly log_format: 'default' | 'ISO8601';
}

/** Options every call takes. */
export interface CallOptions {
  readonly signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  readonly timeoutMs?: number;
}

/** Triton's trace settings (`trace_level`, `trace_rate`, `trace_count`, `log_frequency`, ...): strings or lists. */
export type TraceSettings = Readonly<Record<string, string | readonly string[]>>;

export interface LoadModelOptions extends CallOptions {
  /** A model configuration (JSON text) to load the model with instead of the repository's. */
  readonly config?: string;
}

const enc = encodeURIComponent;
const SHM = '/v2/systemsharedmemory';

export abstract class ServerCalls {
  abstract readonly rest: RestTransport;
  /** The client-wide timeout and retry policy. */
  protected abstract readonly policy: CallPolicy;

  /** Runs `call` under the client's policy, with the call's own timeout if it gives one. */
  protected run<T>(opts: CallOptions | undefined, call: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
    const policy = opts?.timeoutMs === undefined ? this.policy : { ...this.policy, timeoutMs: opts.timeoutMs };
    return withPolicy(policy, opts?.signal, call);
  }

  private get<T>(path: string, opts: CallOptions | undefined): Promise<T> {
    return this.run(opts, (signal) => this.rest.requestJson<T>('GET', path, undefined, signal));
  }

  private post<T>(path: string, body: unknown, opts: CallOptions | undefined): Promise<T> {
    return this.run(opts, (signal) => this.rest.requestJson<T>('POST', path, body, signal));
  }

  // ---- health and metadata
  isServerLive(opts?: CallOptions): Promise<boolean> {
    return this.run(opts, (signal) => this.rest.isServerLive(signal));
  }
  isServerReady(opts?: CallOptions): Promise<boolean> {
    return this.run(opts, (signal) => this.rest.isServerReady(signal));
  }
  isModelReady(model: string, version?: string, opts?: CallOptions): Promise<boolean> {
    return this.run(opts, (signal) => this.rest.isModelReady(model, version, signal));
  }
  serverMetadata(opts?: CallOptions): Promise<ServerMetadata> {
    return this.get('/v2', opts);
  }
  modelMetadata(model: string, version?: string, opts?: CallOptions): Promise<ModelMetadata> {
    return this.get(this.rest.modelPathOf(model, version), opts);
  }
  modelConfig(model: string, version?: string, opts?: CallOptions): Promise<ModelConfig> {
    return this.get(`${this.rest.modelPathOf(model, version)}/config`, opts);
  }
  repositoryIndex(readyOnly = false, opts?: CallOptions): Promise<RepositoryIndexEntry[]> {
    return this.post('/v2/repository/index', { ready: readyOnly }, opts);
  }

  // ---- statistics and the model repository (tritonclient's get_inference_statistics, load_model, unload_model)
  /** Triton's statistics of one model (and version), or of every model the caller may see. */
  async statistics(model?: string, version?: string, opts?: CallOptions): Promise<ModelStatsSnapshot[]> {
    const path = model === undefined ? '/v2/models/stats' : `${this.rest.modelPathOf(model, version)}/stats`;
    return (await this.get<{ model_stats: ModelStatsSnapshot[] }>(path, opts)).model_stats;
  }
  async loadModel(model: string, opts: LoadModelOptions = {}): Promise<void> {
    await this.post(`/v2/repository/models/${enc(model)}/load`, opts.config === undefined ? {} : { parameters: { config: opts.config } }, opts);
  }
  async unloadModel(model: string, opts?: CallOptions): Promise<void> {
    await this.post(`/v2/repository/models/${enc(model)}/unload`, {}, opts);
  }

  // ---- system shared memory (tritonclient's register_system_shared_memory, ...; docs/shared-memory.md)
  /** Registers `byteSize` bytes at `offset` of the POSIX shared memory object `key` (e.g. `/my_region`) as `name`. */
  async registerSystemSharedMemory(name: string, key: string, byteSize: number, offset = 0, opts?: CallOptions): Promise<void> {
    await this.post(`${SHM}/region/${enc(name)}/register`, { key, offset, byte_size: byteSize }, opts);
  }
  /** The caller's regions, or the one named. */
  systemSharedMemoryStatus(name?: string, opts?: CallOptions): Promise<SharedMemoryRegionStatus[]> {
    return this.get(name === undefined ? `${SHM}/status` : `${SHM}/region/${enc(name)}/status`, opts);
  }
  /** Unregisters the region named, or every region of the caller. */
  async unregisterSystemSharedMemory(name?: string, opts?: CallOptions): Promise<void> {
    await this.post(name === undefined ? `${SHM}/unregister` : `${SHM}/region/${enc(name)}/unregister`, {}, opts);
  }

  // ---- log and trace settings (tritonclient's get_log_settings, update_log_settings, get/update_trace_settings)
  logSettings(opts?: CallOptions): Promise<LogSettings> {
    return this.get('/v2/logging', opts);
  }
  /** Changes any subset of the settings; answers the settings now in force. */
  updateLogSettings(settings: Partial<LogSettings>, opts?: CallOptions): Promise<LogSettings> {
    return this.post('/v2/logging', settings, opts);
  }
  /** The trace settings (of a model: rtserve answers the server's, which every model follows). */
  traceSettings(model?: string, opts?: CallOptions): Promise<TraceSettings> {
    return this.get(model === undefined ? '/v2/trace/setting' : `/v2/models/${enc(model)}/trace/setting`, opts);
  }
  updateTraceSettings(settings: TraceSettings, opts?: CallOptions): Promise<TraceSettings> {
    return this.post('/v2/trace/setting', settings, opts);
  }
}
