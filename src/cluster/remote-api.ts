/**
 * The InferenceApi of a front-end worker (docs/workers.md): every front end of the worker calls it exactly as it
 * calls the single process's core, and it forwards to the engine owner over the worker's channel: inference,
 * streams, statistics, model control and shared memory are calls; the synchronous questions (health, metadata,
 * configs, the index) are answered from the mirror the owner keeps up to date (model-mirror.ts).
 */
import type { InferenceApi, LoadModelOptions, ModelMetadata, RepositoryIndexEntry, ServerMetadata } from '../api/inference-api.ts';
import type { InferRequest, InferResponse } from '../api/types.ts';
import type { ImageRequest, ImageResult } from '../api/image-types.ts';
import type { ModelConfig } from '../config/model-config.ts';
import type { ModelStatsSnapshot } from '../observability/model-stats.ts';
import type { SharedMemoryRegionStatus, SystemSharedMemoryApi } from '../shm/system-shared-memory.ts';
import { ModelMirror, type MirrorSnapshot } from './model-mirror.ts';
import { imageRequestToWire, imageResultFromWire, inputBinaries, requestToWire, responseFromWire } from './infer-wire.ts';
import { SLOT_THRESHOLD_BYTES, type TensorSlots } from './tensor-slots.ts';
import type { Incoming, RpcPeer } from './rpc-peer.ts';
import type { RtError } from '../errors/registry.ts';

/**
 * Checks a request before it goes to the owner, from the mirrored configs (app/worker-validation.ts): the error the
 * owner would answer, and whether the owner counts it in the model's statistics (validation: yes; the tensor limits,
 * checked before the model is looked at: no); undefined when the owner is to decide.
 */
export type RequestCheck = (request: InferRequest) => { readonly error: RtError; readonly counted: boolean } | undefined;

/** Makes the check over a worker's mirror (its configs and readiness, kept current by the owner). */
export type RequestCheckOf = (configs: Pick<InferenceApi, 'modelConfig' | 'modelReady'>) => RequestCheck;

export class RemoteInferenceApi implements InferenceApi {
  private readonly mirror: ModelMirror;
  /** Set by the owner's drain order: not ready from then on, whatever the last snapshot said. */
  private draining = false;
  private readonly check: RequestCheck | undefined;
  readonly systemSharedMemory?: SystemSharedMemoryApi;

  constructor(
    private readonly peer: RpcPeer,
    snapshot: MirrorSnapshot,
    sharedMemory: boolean,
    /** Large inputs go through these (tensor-slots.ts); without them every tensor travels inline. */
    private readonly slots: TensorSlots | undefined,
    /** Made once over this API's mirror: refuses bad requests here, so they never cost the owner's loop. */
    checkOf?: RequestCheckOf,
  ) {
    this.mirror = new ModelMirror(snapshot);
    this.check = checkOf?.(this.mirror);
    if (sharedMemory) {
      this.systemSharedMemory = {
        register: async (name, key, offset, byteSize, owner) => {
          await peer.call('shm.register', { value: { name, key, offset, byteSize, owner } });
        },
        unregister: async (name, owner) => {
          await peer.call('shm.unregister', { value: { name, owner } });
        },
        status: async (name, owner) => (await peer.call('shm.status', { value: { name, owner } })).value as SharedMemoryRegionStatus[],
      };
    }
  }

  /** The owner's latest snapshot (a 'mirror' notification). */
  update(snapshot: MirrorSnapshot): void {
    this.mirror.snapshot = snapshot;
  }

  beginDrain(): void {
    this.draining = true;
  }

  isLive(): boolean {
    return !this.peer.closed && this.mirror.snapshot.live;
  }
  isReady(): boolean {
    return !this.peer.closed && !this.draining && this.mirror.snapshot.ready;
  }
  serverMetadata(): ServerMetadata {
    return this.mirror.snapshot.server;
  }
  modelMetadata(name: string, version?: string): ModelMetadata {
    return this.mirror.modelMetadata(name, version);
  }
  modelReady(name: string, version?: string): boolean {
    return this.mirror.modelReady(name, version);
  }
  modelConfig(name: string, version?: string): ModelConfig {
    return this.mirror.modelConfig(name, version);
  }
  outputLabels(name: string, version: string, output: string): readonly string[] | undefined {
    return this.mirror.outputLabels(name, version, output);
  }
  frameInputOf(name: string, version?: string): string | undefined {
    return this.mirror.frameInputOf(name, version);
  }
  repositoryIndex(readyOnly?: boolean): RepositoryIndexEntry[] {
    return this.mirror.repositoryIndex(readyOnly);
  }
  async modelStatistics(name?: string, version?: string): Promise<ModelStatsSnapshot[]> {
    return (await this.peer.call('stats', { value: { name, version } })).value as ModelStatsSnapshot[];
  }
  async loadModel(name: string, options: LoadModelOptions = {}): Promise<void> {
    await this.peer.call('load', { value: { name, options } });
  }
  async unloadModel(name: string): Promise<void> {
    await this.peer.call('unload', { value: { name } });
  }

  async infer(request: InferRequest): Promise<InferResponse> {
    // While draining the owner answers SERVER_DRAINING before it looks at a request.
    const refused = this.check !== undefined && !this.draining ? this.check(request) : undefined;
    if (refused !== undefined) {
      const { error: e, counted } = refused;
      // The owner still counts it, as it counts the requests it refuses itself (one small message, no request).
      const protocol = request.protocol ?? request.context?.protocol ?? 'unknown';
      if (counted)
        this.peer.notify('infer.refused', {
          value: { model: request.model, version: request.version, protocol, code: e.code, category: e.category },
        });
      throw e;
    }
    const signal = request.signal;
    const binaries = inputBinaries(request);
    const slots = this.slots;
    const placed =
      slots === undefined || !binaries.some((b) => b.byteLength >= SLOT_THRESHOLD_BYTES)
        ? undefined
        : await Promise.all(binaries.map((b) => (b.byteLength >= SLOT_THRESHOLD_BYTES ? slots.place(b) : undefined)));
    try {
      const payload = requestToWire(
        request,
        binaries,
        placed?.map((p) => p?.ref),
      );
      const answer = await this.peer.call('infer', payload, signal === undefined ? {} : { signal });
      return responseFromWire(answer.value, answer.parts, request.context);
    } finally {
      // The owner answered (or the channel closed): it reads the slots no more.
      if (placed !== undefined) for (const p of placed) p?.release();
    }
  }

  /** The owner's request pipeline decodes the image (on its device, where it has one) and runs the model. */
  async inferImage(request: ImageRequest): Promise<ImageResult> {
    const signal = request.signal;
    const answer = await this.peer.call('image', imageRequestToWire(request), signal === undefined ? {} : { signal });
    return imageResultFromWire(answer.value, answer.parts);
  }

  async *inferStream(request: InferRequest): AsyncIterable<InferResponse> {
    // Items arrive in order ahead of the call's answer; the iterator hands them out as they are asked for.
    const items: Incoming[] = [];
    let wake: (() => void) | undefined;
    let finished = false;
    let failure: unknown;
    const signal = request.signal;
    this.peer
      .call('stream', requestToWire(request), {
        ...(signal === undefined ? {} : { signal }),
        onItem: (item) => {
          items.push(item);
          wake?.();
        },
      })
      .then(
        () => {
          finished = true;
          wake?.();
        },
        (err: unknown) => {
          failure = err;
          finished = true;
          wake?.();
        },
      );
    for (;;) {
      const item = items.shift();
      if (item !== undefined) {
        yield responseFromWire(item.value, item.parts, request.context);
        continue;
      }
      if (finished) {
        if (failure !== undefined) throw failure;
        return;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  }
}
