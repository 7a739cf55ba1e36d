import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadPlan } from '../plan/load.ts';
import { readPlan } from '../plan/format.ts';
import type { PlanManifest } from '../plan/manifest.ts';
import type { ModelConfig } from '../config/model-config.ts';
import type { ModelMetadata, ModelState, RepositoryIndexEntry } from '../api/inference-api.ts';
import { ModelStats } from '../observability/model-stats.ts';
import type { Engine, EngineSession, ExecutionProviderSpec } from '../engine/engine.ts';
import { ERROR_CODES, rtError, toRtError, type ErrorCode } from '../errors/registry.ts';
import type { Logger } from '../observability/logger.ts';
import type { Scheduler, SchedulerFactory } from '../scheduler/scheduler.ts';
import { imageSpecOf } from '../config/image-spec.ts';
import type { EngineChain, EngineChainEvents, EngineChainView } from '../engine/engine-chain.ts';
import { loadModelConfig } from './load-config.ts';
import { ioMetadataOf, metadataOf, type ModelIoMetadata } from './model-metadata.ts';
import { warmup } from './warmup.ts';
import { findModelFile, isModelDirectory, scanModel, scanRepository, type ModelEntry } from './scan.ts';
import { foreignModelFile, foreignPlatform } from './model-format.ts';
import { selectVersions } from './version-policy.ts';
import { engineLoadOptions, loadInstances, readOutputLabels } from './instances.ts';
import type { HfText } from '../hf/hf-text.ts';
import { checkHfVersion, isHfVersion, loadHfVersion } from './hf-version.ts';
import { withDeviceDecoder, type DeviceDecoder, type DeviceDecoderFactory } from './device-decoder.ts';

/** One loaded, servable model version. */
export interface LoadedVersion {
  readonly name: string;
  readonly version: string;
  readonly config: ModelConfig;
  readonly metadata: ModelMetadata;
  readonly validation: ModelIoMetadata;
  /** The input its engine fills from encoded frames now (EngineSession.frameInput), if any. */
  readonly frameInputNow: () => string | undefined;
  readonly scheduler: Scheduler;
  readonly stats: ModelStats;
  readonly sessions: readonly EngineSession[];
  /** The provider serving now (it changes when the engine chain fails over or recovers). */
  readonly provider: string;
  /** The engine chain and its circuit breaker (engine.failover.enabled); undefined when failover is off. */
  readonly engineChain: EngineChainView | undefined;
  readonly labels: ReadonlyMap<string, readonly string[]>;
  /** Shape profiles of a plan (`rtserve build --profile`): requests outside them are refused. Empty for ONNX. */
  readonly profiles: PlanManifest['profiles'];
  /** The tokenizer and chat template of a Hugging Face checkpoint; undefined for other models. */
  readonly text: HfText | undefined;
  /** The plan's target (`cuda`: the native CUDA engine runs it); undefined for ONNX models. */
  readonly planTarget: PlanManifest['target'] | undefined;
  /** The device decoder of a Hugging Face checkpoint (device-decoder.ts), when the options' factory made one. */
  readonly deviceDecoder?: DeviceDecoder | undefined;
}

interface ModelRecord {
  readonly name: string;
  repository: string;
  state: ModelState;
  reason: string;
  /** Ready versions, keyed by version string; swapped as a whole on reload. */
  versions: ReadonlyMap<string, LoadedVersion>;
  /** Highest ready version: what a request without a version gets. */
  latest: string | undefined;
  /** The last load attempt failed (the versions above, if any, still serve): which version and why. */
  failed: { readonly version: string | undefined; readonly reason: string; readonly code: ErrorCode } | undefined;
}

export interface RepositoryManagerOptions {
  readonly repositories: readonly string[];
  readonly engine: Engine;
  readonly schedulerFactory: SchedulerFactory;
  readonly logger: Logger;
  readonly defaultMaxBatchSize: number;
  readonly maxQueueSizeDefault: number;
  /** False: model configs must be complete (Triton's --disable-auto-complete-config); default true. */
  readonly autoCompleteConfig?: boolean;
  /** Models loadAll loads at the same time; 0 or absent = all at once (Triton's --model-load-thread-count). */
  readonly modelLoadThreadCount?: number;
  /** Server-wide default providers for models whose config leaves `engine.providers` at its default. */
  readonly defaultProviders: readonly ExecutionProviderSpec[];
  /**
   * Whether engines that decode images on their device get the model's image spec (EngineLoadOptions.image), so
   * that its JPEGs reach them undecoded (server setting `imageDecode` other than `cpu`). Default false.
   */
  readonly engineFrames?: boolean;
  /** Told about engine failovers, recoveries and health probes (the metrics count them). */
  readonly engineChainEvents?: EngineChainEvents;
  /** Makes each loaded version's statistics (observability hooks histograms in here); default: plain ModelStats. */
  readonly statsFactory?: (name: string, version: string) => ModelStats;
  /** Builds a device decoder for each Hugging Face checkpoint version at load (device-decoder.ts). */
  readonly deviceDecoder?: DeviceDecoderFactory;
}

/**
 * Owns the models of one or more repositories: scanning, loading (engine sessions, warmup, scheduler), the state machine
 * Triton reports in the repository index, atomic version swaps on reload, and unloading; 'change' follows each change.
 */
export class RepositoryManager extends EventEmitter<{ change: [] }> {
  private readonly models = new Map<string, ModelRecord>();
  private readonly loading = new Map<string, Promise<void>>();
  /** Model names seen in the repositories (scans), listed by the index even when never loaded (explicit mode). */
  private readonly known = new Set<string>();

  constructor(private readonly options: RepositoryManagerOptions) {
    super();
  }

  /** Scans every repository and loads every model found; failures are recorded, not thrown. */
  async loadAll(): Promise<void> {
    const entries: ModelEntry[] = [];
    for (const repo of this.options.repositories) {
      for (const e of await scanRepository(repo)) {
        if (!isModelDirectory(e)) {
          this.options.logger.debug({ directory: e.dir }, 'not a model directory (no config file, no version directory): skipped');
          continue;
        }
        if (entries.some((x) => x.name === e.name)) {
          this.options.logger.warn({ model: e.name, repository: repo }, 'model name appears in several repositories; the first one wins');
          continue;
        }
        entries.push(e);
        this.known.add(e.name);
      }
    }
    const lanes = this.options.modelLoadThreadCount ?? 0;
    if (lanes <= 0) {
      await Promise.all(entries.map((e) => this.loadEntry(e)));
      return;
    }
    // At most `lanes` loads at a time: each lane takes the next entry when its load settles.
    let next = 0;
    const lane = async (): Promise<void> => {
      for (let e = entries[next++]; e !== undefined; e = entries[next++]) await this.loadEntry(e);
    };
    await Promise.all(Array.from({ length: Math.min(lanes, entries.length) }, lane));
  }

  /** Loads (or reloads) one model by name; `configOverride` is a JSON ModelConfig replacing the file's. */
  async load(name: string, configOverride?: string): Promise<void> {
    const previous = this.loading.get(name);
    const run = (async () => {
      if (previous !== undefined) await previous.catch(() => undefined);
      const entry = await this.findEntry(name);
      if (!isModelDirectory(entry))
        throw rtError('MODEL_NOT_FOUND', `'${name}' is not a model: its directory has no config file and no version directory`);
      await this.loadEntry(entry, configOverride);
      const rec = this.models.get(name);
      // A bad config or an incompatible plan is the caller's to fix (4xx); anything else is a load failure (5xx).
      const code = rec?.failed !== undefined && CLIENT_CATEGORIES.has(ERROR_CODES[rec.failed.code].category) ? rec.failed.code : 'MODEL_LOAD_FAILED';
      if (rec !== undefined && rec.state !== 'READY') throw rtError(code, `failed to load '${name}': ${rec.reason}`);
      // A failed reload keeps the old versions serving, and the caller still learns that its load failed.
      if (rec?.failed !== undefined) {
        throw rtError(
          code,
          `failed to load '${name}'${rec.failed.version === undefined ? '' : ` version ${rec.failed.version}`}: ${rec.failed.reason} (versions ${[...rec.versions.keys()].join(', ')} keep serving)`,
        );
      }
    })();
    this.loading.set(name, run);
    try {
      await run;
    } finally {
      if (this.loading.get(name) === run) this.loading.delete(name);
    }
  }

  async unload(name: string): Promise<void> {
    const rec = this.models.get(name);
    if (rec === undefined) throw rtError('MODEL_NOT_FOUND', `unknown model '${name}'`);
    const old = rec.versions;
    rec.state = 'UNLOADING';
    rec.versions = new Map();
    rec.latest = undefined;
    await Promise.all([...old.values()].map((v) => this.closeVersion(v)));
    rec.state = 'UNAVAILABLE';
    rec.reason = 'unloaded';
    this.emit('change');
  }

  /** The version a request addresses. Throws NOT_FOUND for unknown names/versions, UNAVAILABLE while not ready. */
  get(name: string, version?: string): LoadedVersion {
    const rec = this.models.get(name);
    if (rec === undefined) throw rtError('MODEL_NOT_FOUND', `unknown model '${name}'`);
    const v = version === undefined || version === '' ? rec.latest : version;
    if (v === undefined) {
      throw rtError('MODEL_NOT_READY', `model '${name}' is not ready (${rec.state.toLowerCase()}${rec.reason === '' ? '' : `: ${rec.reason}`})`);
    }
    const loaded = rec.versions.get(v);
    if (loaded === undefined) {
      const have = [...rec.versions.keys()];
      throw rtError('VERSION_NOT_FOUND', `model '${name}' has no version '${v}' loaded (loaded: ${have.length === 0 ? 'none' : have.join(', ')})`);
    }
    return loaded;
  }

  /** Whether the model (or version) is ready; throws MODEL_NOT_FOUND for names never seen. */
  isReady(name: string, version?: string): boolean {
    const rec = this.models.get(name);
    if (rec === undefined) throw rtError('MODEL_NOT_FOUND', `unknown model '${name}'`);
    if (version === undefined || version === '') return rec.state === 'READY' && rec.latest !== undefined;
    return rec.versions.has(version);
  }

  record(name: string): { versions: string[]; state: ModelState; reason: string } | undefined {
    const rec = this.models.get(name);
    return rec === undefined ? undefined : { versions: [...rec.versions.keys()], state: rec.state, reason: rec.reason };
  }

  allReady(): boolean {
    for (const rec of this.models.values()) if (rec.state !== 'READY' && rec.reason !== 'unloaded') return false;
    return true;
  }

  loadedVersions(): LoadedVersion[] {
    return [...this.models.values()].flatMap((r) => [...r.versions.values()]);
  }

  /** Records the model names of every repository without loading them, so the index lists them (explicit mode). */
  async scanNames(): Promise<void> {
    for (const repo of this.options.repositories) for (const e of await scanRepository(repo)) if (isModelDirectory(e)) this.known.add(e.name);
  }

  index(readyOnly: boolean): RepositoryIndexEntry[] {
    const out: RepositoryIndexEntry[] = [];
    // Triton's index lists every model of the repository; one never loaded is UNAVAILABLE.
    if (!readyOnly) {
      for (const name of this.known) if (!this.models.has(name)) out.push({ name, state: 'UNAVAILABLE', reason: 'not loaded' });
    }
    for (const rec of [...this.models.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      if (rec.versions.size === 0) {
        if (!readyOnly) out.push({ name: rec.name, state: rec.state, reason: rec.reason });
        continue;
      }
      // A failed reload leaves the old versions READY; the index says which version failed and why.
      const failed = rec.failed;
      for (const [v, loaded] of rec.versions) {
        // A version serving on a fallback engine (or on none) says so, and why.
        const degraded = loaded.engineChain?.degradedReason;
        const reason =
          failed !== undefined && failed.version === v ? `reload failed, the previous load keeps serving: ${failed.reason}` : (degraded ?? '');
        out.push({ name: rec.name, version: v, state: 'READY', reason });
      }
      if (failed !== undefined && !readyOnly && (failed.version === undefined || !rec.versions.has(failed.version))) {
        out.push({
          name: rec.name,
          ...(failed.version === undefined ? {} : { version: failed.version }),
          state: 'UNAVAILABLE',
          reason: failed.reason,
        });
      }
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Exit timeout reached: every queued request is answered at once with SERVER_DRAINING (the schedulers stop
   * taking requests); batches already running finish on their own.
   */
  rejectQueued(): void {
    for (const v of this.loadedVersions()) void v.scheduler.close().catch(() => undefined);
  }

  /** Waits until every scheduler has answered what it holds. */
  async drain(): Promise<void> {
    await Promise.all(this.loadedVersions().map((v) => v.scheduler.drain()));
  }

  async close(): Promise<void> {
    const all = this.loadedVersions();
    for (const rec of this.models.values()) {
      rec.versions = new Map();
      rec.latest = undefined;
      rec.state = 'UNAVAILABLE';
      rec.reason = 'server stopped';
    }
    await Promise.all(all.map((v) => this.closeVersion(v)));
  }

  private async findEntry(name: string): Promise<ModelEntry> {
    let lastError: unknown;
    for (const repo of this.options.repositories) {
      try {
        return await scanModel(repo, name);
      } catch (err) {
        lastError = err;
      }
    }
    throw lastError ?? rtError('MODEL_NOT_FOUND', `no model named '${name}' in the repository`);
  }

  private async loadEntry(entry: ModelEntry, configOverride?: string): Promise<void> {
    const log = this.options.logger.child({ model: entry.name });
    let rec = this.models.get(entry.name);
    if (rec === undefined) {
      rec = {
        name: entry.name,
        repository: dirname(entry.dir),
        state: 'LOADING',
        reason: '',
        versions: new Map(),
        latest: undefined,
        failed: undefined,
      };
      this.models.set(entry.name, rec);
    } else if (rec.versions.size === 0) rec.state = 'LOADING';
    this.emit('change');
    const started = Date.now();
    const built: LoadedVersion[] = [];
    let attempting: string | undefined;
    try {
      const firstVersion = entry.versions.at(-1);
      // The config stage reads the newest version's graph (auto-complete, checks): a failure there is that version's.
      attempting = firstVersion === undefined ? undefined : String(firstVersion.version);
      // A Hugging Face checkpoint is built into an ONNX decoder first: the config completes from that graph.
      const firstHf = isHfVersion(firstVersion) ? await loadHfVersion(firstVersion) : undefined;
      // A TensorRT engine, a PyTorch model, ...: named as a format this server does not run (model-format.ts).
      const foreign = firstHf === undefined ? await foreignModelFile(entry, firstVersion) : undefined;
      if (foreign !== undefined) throw foreign;
      const firstFile =
        firstHf !== undefined
          ? { fileName: 'checkpoint', path: firstHf.onnxPath, kind: 'onnx' as const }
          : firstVersion && findModelFile(firstVersion);
      const firstBytes = firstFile === undefined ? undefined : await readFile(firstFile.path);
      // A plan's payload is the optimized ONNX graph: auto-complete reads its inputs and outputs like an .onnx file's.
      const onnxBytes =
        firstBytes === undefined || firstFile === undefined
          ? undefined
          : firstFile.kind === 'plan'
            ? readPlan(firstBytes, { name: firstFile.fileName }).payload
            : firstBytes;
      const { config, warnings } = await loadModelConfig(entry, {
        defaultMaxBatchSize: this.options.defaultMaxBatchSize,
        ...(this.options.autoCompleteConfig === false ? { autoComplete: false } : {}),
        ...(onnxBytes === undefined || firstVersion === undefined || firstFile === undefined
          ? {}
          : { onnxBytes, graphSource: `${firstVersion.version}/${firstFile.fileName}` }),
        ...(configOverride === undefined ? {} : { configOverride }),
        ...(firstHf === undefined ? {} : { defaults: firstHf.configDefaults }),
      });
      for (const w of warnings) log.warn(w);
      const foreignConfig = foreignPlatform(entry.name, config);
      if (foreignConfig !== undefined) throw foreignConfig;
      // The image sections (preprocess/postprocess) are checked against the inputs and outputs now, so a wrong
      // one fails the load with its reason rather than every image request.
      imageSpecOf(config);
      const available = entry.versions.map((v) => v.version);
      const chosen = selectVersions(available, config.version_policy);
      if (chosen.length === 0)
        throw rtError('MODEL_LOAD_FAILED', `no version directory matches the version policy (found: ${available.join(', ') || 'none'})`);
      for (const v of chosen) {
        const ve = entry.versions.find((x) => x.version === v);
        if (ve === undefined) continue;
        const hf = !isHfVersion(ve) ? undefined : ve === firstVersion ? firstHf : await loadHfVersion(ve);
        checkHfVersion(entry.name, config, ve, hf);
        if (hf !== undefined) {
          attempting = String(v);
          const loaded = await this.loadVersion(entry, attempting, hf.onnxPath, config, undefined, hf.text);
          built.push(
            await withDeviceDecoder(loaded, this.options.deviceDecoder, { dir: ve.dir, arch: hf.arch, config }, (v) => this.closeVersion(v)),
          );
          continue;
        }
        const file = findModelFile(ve, { defaultModelFilename: config.default_model_filename });
        if (file === undefined) throw rtError('MODEL_LOAD_FAILED', `version ${v} has no ${config.default_model_filename ?? 'model.onnx'}`);
        attempting = String(v);
        if (file.kind === 'plan') {
          const { path, manifest, warnings: planWarnings } = await this.materializePlan(entry.name, attempting, file.path, config);
          for (const w of planWarnings) log.warn(w);
          built.push(await this.loadVersion(entry, attempting, path, config, manifest));
        } else {
          built.push(await this.loadVersion(entry, attempting, file.path, config));
        }
      }
    } catch (err) {
      await Promise.all(built.map((b) => this.closeVersion(b)));
      const e = toRtError(err);
      const reason = e.category === 'INTERNAL' && e.cause instanceof Error ? e.cause.message : e.message;
      log.error({ reason }, 'model failed to load');
      // A failed reload keeps the versions that were serving (Triton: "a failed reload keeps the old model").
      if (rec.versions.size === 0) rec.state = 'UNAVAILABLE';
      rec.reason = reason;
      rec.failed = { version: attempting, reason, code: e.code };
      this.emit('change');
      return;
    }
    const old = rec.versions;
    rec.versions = new Map(built.map((b) => [b.version, b]));
    rec.latest = built.map((b) => b.version).sort((a, b) => Number(b) - Number(a))[0];
    rec.state = 'READY';
    rec.reason = '';
    rec.failed = undefined;
    this.emit('change');
    log.info({ versions: [...rec.versions.keys()], provider: built[0]?.provider, ms: Date.now() - started }, 'model ready');
    // Old versions finish what they hold, then release their engines.
    await Promise.all([...old.values()].map((v) => this.closeVersion(v)));
  }

  /**
   * Checks a plan against this engine (FAILED_PRECONDITION with the reason when it was built for another target or
   * runtime) and writes its payload to a content-addressed cache file the engine can load.
   */
  private async materializePlan(
    name: string,
    version: string,
    planPath: string,
    config: ModelConfig,
  ): Promise<{ path: string; manifest: PlanManifest; warnings: readonly string[] }> {
    const runtime = this.options.engine.planRuntime?.(engineLoadOptions(config, this.options.defaultProviders).providers);
    if (runtime === undefined)
      throw rtError('ENGINE_UNAVAILABLE', `model '${name}' version ${version}: engine '${this.options.engine.name}' cannot load plan files`);
    const bytes = await readFile(planPath);
    const plan = loadPlan(bytes, runtime, `'${name}' version ${version} (model.plan)`);
    const dir = join(tmpdir(), 'rtserve-plans');
    await mkdir(dir, { recursive: true });
    const path = join(dir, `${createHash('sha256').update(plan.payload).digest('hex')}.onnx`);
    await writeFile(path, plan.payload);
    return { path, manifest: plan.manifest, warnings: plan.warnings };
  }

  private async loadVersion(
    entry: ModelEntry,
    version: string,
    modelPath: string,
    config: ModelConfig,
    plan?: PlanManifest,
    text?: HfText,
  ): Promise<LoadedVersion> {
    const image = this.options.engineFrames === true ? imageSpecOf(config) : undefined;
    const loadOptions = { ...engineLoadOptions(config, this.options.defaultProviders), ...(image === undefined ? {} : { image }) };
    let sessions: EngineSession[] = [];
    let chain: EngineChain | undefined;
    try {
      const validation = ioMetadataOf(entry.name, version, config);
      ({ sessions, chain } = await loadInstances({
        model: entry.name,
        version,
        modelPath,
        config,
        loadOptions,
        engine: this.options.engine,
        warmup: (s) => warmup(s, config, validation, plan),
        logger: this.options.logger,
        events: this.options.engineChainEvents,
      }));
      const first = sessions[0];
      if (first === undefined) throw rtError('INTERNAL', 'no session');
      const stats = this.options.statsFactory?.(entry.name, version) ?? new ModelStats(entry.name, version);
      const scheduler = this.options.schedulerFactory({
        modelName: entry.name,
        version,
        config,
        sessions,
        stats,
        maxQueueSizeDefault: this.options.maxQueueSizeDefault,
      });
      const labels = await readOutputLabels(entry.dir, config);
      const loaded: LoadedVersion = {
        name: entry.name,
        version,
        config,
        metadata: metadataOf(entry.name, [version], config),
        validation: image === undefined ? validation : { ...validation, frameInput: image.inputName },
        // Encoded frames go to the engine while every instance decodes them into the image input itself (a failover
        // chain may move to a link that does not).
        frameInputNow: () => (image !== undefined && sessions.every((s) => s.frameInput === image.inputName) ? image.inputName : undefined),
        scheduler,
        stats,
        sessions,
        provider: first.describe().provider,
        engineChain: chain,
        labels,
        profiles: plan?.profiles ?? [],
        text,
        planTarget: plan?.target,
      };
      // With a chain, the provider is whichever link serves at the time it is read.
      const serving = chain;
      if (serving !== undefined) Object.defineProperty(loaded, 'provider', { get: () => serving.provider, enumerable: true });
      return loaded;
    } catch (err) {
      await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
      throw err;
    }
  }

  private async closeVersion(v: LoadedVersion): Promise<void> {
    try {
      await v.scheduler.drain();
      await v.scheduler.close();
    } finally {
      await Promise.all([...v.sessions, ...(v.deviceDecoder === undefined ? [] : [v.deviceDecoder])].map((s) => s.close().catch(() => undefined)));
    }
  }
}

const CLIENT_CATEGORIES: ReadonlySet<string> = new Set(['INVALID_ARGUMENT', 'FAILED_PRECONDITION', 'NOT_FOUND', 'UNIMPLEMENTED']);
