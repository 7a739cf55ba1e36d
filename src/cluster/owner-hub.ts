/**
 * The engine owner's end of the workers' channels (docs/workers.md): a Unix socket every front-end worker connects
 * to; each worker's calls run against the owner's one InferenceApi (the request pipeline around the core), so every
 * model has one batcher, one set of statistics and one set of shared memory regions whichever worker a request
 * came in through. The owner keeps the workers' mirrors current, asks them for their metrics, and orders the drain.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { rmSync } from 'node:fs';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue, type Registry } from 'prom-client';
import type { InferenceApi } from '../api/inference-api.ts';
import { rtError } from '../errors/registry.ts';
import { markExclusive } from '../tensor/exclusive-buffers.ts';
import type { Logger } from '../observability/logger.ts';
import { openFileRegion, openRegion, systemSharedMemoryOf, type RegionBacking, type RegionOpener } from '../shm/system-shared-memory.ts';
import type { BucketSpec, BucketStore } from '../security/bucket-store.ts';
import type { ConcurrencyStore } from '../security/concurrency-store.ts';
import type { TicketStore } from '../security/ws-tickets.ts';
import { FrameChannel } from './frame-channel.ts';
import { principalFromWire, principalToWire, type WireHold, type WirePrincipal } from './shared-limits.ts';
import { imageRequestFromWire, imageResultToWire, requestFromWire, responseToWire } from './infer-wire.ts';
import { takeSnapshot } from './model-mirror.ts';
import { RpcPeer, type CallContext, type Incoming, type Payload } from './rpc-peer.ts';
import { serveGeneration } from './remote-generate.ts';
import type { GenerationApi } from '../generate/generate-service.ts';

type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

const REUSED_SIGNALS: ReadonlySet<string> = new Set(['infer']);

export interface OwnerHubOptions {
  readonly api: InferenceApi & {
    inferStream(request: import('../api/types.ts').InferRequest): AsyncIterable<import('../api/types.ts').InferResponse>;
  };
  /** The owner's own Prometheus registry: /metrics answers it summed with every worker's. */
  readonly registry: Registry;
  readonly logger: Logger;
  /** Where the socket is created (a path under the temporary directory). */
  readonly socketPath: string;
  /**
   * How the workers' tensor slots are opened (tensor-slots.ts): the server's region opener, mapped where the CUDA
   * addon loads; default file handles.
   */
  readonly opener?: RegionOpener;
  /** Rate-limit buckets, concurrency counts and WebSocket tickets the workers keep here (shared-limits.ts). */
  readonly limits?: { readonly buckets: BucketStore; readonly tickets: TicketStore; readonly concurrency: ConcurrencyStore };
  /** The owner's generation service: the workers' OpenAI-compatible routes generate here (remote-generate.ts). */
  readonly generate?: GenerationApi;
  /**
   * Emits 'change' when what the mirror holds may have changed (the repository: a load began or ended, an unload, an
   * engine failover): the owner sends the workers a new snapshot, ahead of anything it sends after the change.
   */
  readonly stateChanges?: { on(event: 'change', listener: () => void): unknown; off(event: 'change', listener: () => void): unknown };
}

interface WorkerLink {
  readonly id: number;
  readonly peer: RpcPeer;
  /** The worker's tensor slots, when it has them. */
  readonly slots: RegionBacking | undefined;
  /** The worker's unfinished requests in the concurrency cap, by hold number: released when the worker goes. */
  readonly holds: Map<number, () => void>;
}

interface Hello {
  readonly worker: number;
  readonly slots?: { readonly path: string; readonly byteSize: number };
}

function addCounts(into: FrameChannel['counts'], from: FrameChannel['counts']): void {
  into.framesSent += from.framesSent;
  into.messagesSent += from.messagesSent;
  into.framesReceived += from.framesReceived;
  into.messagesReceived += from.messagesReceived;
}

export class OwnerHub {
  private readonly server: Server;
  private readonly links = new Set<WorkerLink>();
  private nextHold = 1;
  private lastSnapshot = '';
  private mirrorQueued = false;
  private readonly changed = (): void => {
    // Once for the changes of one synchronous run, before the caller that awaited the change goes on.
    if (this.mirrorQueued) return;
    this.mirrorQueued = true;
    queueMicrotask(() => {
      this.mirrorQueued = false;
      this.pushMirror();
    });
  };
  private closed = false;
  /** Calls served, by method, and the channels' frames and messages (summed over the workers that left too). */
  readonly served = new Map<string, number>();
  private readonly leftCounts = { framesSent: 0, messagesSent: 0, framesReceived: 0, messagesReceived: 0 };

  get socketPath(): string {
    return this.options.socketPath;
  }

  private constructor(private readonly options: OwnerHubOptions) {
    this.server = createServer((socket) => this.accept(socket));
    options.stateChanges?.on('change', this.changed);
  }

  static async listen(options: OwnerHubOptions): Promise<OwnerHub> {
    rmSync(options.socketPath, { force: true });
    const hub = new OwnerHub(options);
    await new Promise<void>((resolve, reject) => {
      hub.server.once('error', reject);
      hub.server.listen(options.socketPath, () => resolve());
    });
    return hub;
  }

  get workerCount(): number {
    return this.links.size;
  }

  /** Frames and messages each way over every worker's channel since the hub opened. */
  channelCounts(): FrameChannel['counts'] {
    const sum = { ...this.leftCounts };
    for (const l of this.links) addCounts(sum, l.peer.channel.counts);
    return sum;
  }

  private accept(socket: Socket): void {
    const channel = new FrameChannel(socket);
    let link: WorkerLink | undefined;
    const peer = new RpcPeer(
      channel,
      async (method, args, ctx) => {
        this.served.set(method, (this.served.get(method) ?? 0) + 1);
        if (method === 'hello') {
          const hello = args.value as Hello;
          // Opened and checked as client regions are (no links, a regular file large enough), then by the opener.
          const slots =
            hello.slots === undefined
              ? undefined
              : await openRegion(
                  this.options.opener ?? openFileRegion,
                  hello.slots.path,
                  0,
                  hello.slots.byteSize,
                  `the worker's tensor slots (${hello.slots.path})`,
                );
          link = { id: Number(hello.worker), peer, slots, holds: new Map() };
          this.links.add(link);
          return { value: { snapshot: takeSnapshot(this.options.api), sharedMemory: this.options.api.systemSharedMemory !== undefined } };
        }
        if (method === 'limits.acquire' && link !== undefined) return this.acquire(link, args.value as { id: string; max: number });
        return this.serve(method, args, ctx, link?.slots);
      },
      () => rtError('CANCELLED', 'the front-end worker went away'),
      // The core stops watching a request's signal when it answers (the scheduler's unwatchAbort), as it does for
      // a REST connection's: an infer call reuses the signal of one that finished unaborted.
      REUSED_SIGNALS,
    );
    peer.onNotify = (method, args) => {
      if (method === 'infer.refused') {
        const r = args.value as { model: string; version?: string; protocol: string; code: string; category: string };
        this.options.api.recordRefusal?.(r.model, r.version, r.protocol, r);
        return;
      }
      if (method !== 'limits.release' || link === undefined) return;
      const hold = Number(args.value);
      link.holds.get(hold)?.();
      link.holds.delete(hold);
    };
    peer.onClose = () => {
      if (link === undefined) return;
      this.links.delete(link);
      addCounts(this.leftCounts, channel.counts);
      // The worker died (or stopped) with requests in flight: they end with its connections, so do their holds.
      for (const release of link.holds.values()) release();
      link.holds.clear();
      // Requests of the worker still running hold views of a mapped object: the mapping goes with the last of them.
      link.slots?.close().catch(() => undefined);
    };
  }

  private async serve(method: string, args: Incoming, ctx: CallContext, slots: RegionBacking | undefined): Promise<Payload> {
    const api = this.options.api;
    const a = args.value as Record<string, string | undefined>;
    switch (method) {
      case 'infer': {
        // The frame's buffer holds this request's tensors alone and nothing reads them after infer: an engine may
        // take it whole instead of copying (tensor/exclusive-buffers.ts).
        if (args.frameBuffer !== undefined) markExclusive(new Uint8Array(args.frameBuffer));
        const request = await requestFromWire(args.value, args.parts, ctx.signal, slots === undefined ? undefined : ([at, n]) => slots.read(at, n));
        return responseToWire(await api.infer(request), request.context);
      }
      case 'stream': {
        const request = await requestFromWire(args.value, args.parts, ctx.signal);
        for await (const r of api.inferStream(request)) ctx.item(responseToWire(r, request.context));
        return { value: null };
      }
      case 'image': {
        if (api.inferImage === undefined) throw rtError('UNSUPPORTED', 'this server has no image pipeline (InferenceApi.inferImage)');
        return imageResultToWire(await api.inferImage(imageRequestFromWire(args.value, args.parts, ctx.signal)));
      }
      case 'stats':
        return { value: await api.modelStatistics(a['name'], a['version']) };
      case 'load':
        await api.loadModel(String(a['name']), (args.value as { options?: object }).options ?? {});
        this.pushMirror();
        return { value: null };
      case 'unload':
        await api.unloadModel(String(a['name']));
        this.pushMirror();
        return { value: null };
      case 'shm.register': {
        const r = args.value as { name: string; key: string; offset: number; byteSize: number; owner?: string };
        await systemSharedMemoryOf(api).register(r.name, r.key, r.offset, r.byteSize, r.owner);
        return { value: null };
      }
      case 'shm.unregister':
        await systemSharedMemoryOf(api).unregister(a['name'], a['owner']);
        return { value: null };
      case 'shm.status':
        return { value: await systemSharedMemoryOf(api).status(a['name'], a['owner']) };
      case 'metrics':
        return { value: await this.metricsText() };
      case 'limits.take':
        return { value: await this.limits().buckets.take(args.value as BucketSpec[]) };
      case 'tickets.issue':
        return { value: await this.limits().tickets.issue(principalFromWire(args.value as WirePrincipal)) };
      case 'tickets.redeem': {
        const p = await this.limits().tickets.redeem(String(args.value));
        return { value: p === undefined ? null : principalToWire(p) };
      }
      case 'gen.start':
      case 'gen.chat': {
        const generate = this.options.generate;
        if (generate === undefined) throw rtError('INTERNAL', 'worker channel: this owner runs no generation service');
        return serveGeneration(generate, method, args, ctx);
      }
      default:
        throw rtError('INTERNAL', `worker channel: unknown call '${method}'`);
    }
  }

  /** One more unfinished request of a principal, counted for the whole server (shared-limits.ts). */
  private async acquire(link: WorkerLink, a: { id: string; max: number }): Promise<Payload> {
    const hold = await this.limits().concurrency.acquire(String(a.id), Number(a.max));
    if (!hold.ok) return { value: { count: hold.count } satisfies WireHold };
    if (link.peer.closed) {
      // The worker went away while this was counted: nobody will release it.
      hold.release();
      return { value: null };
    }
    const n = this.nextHold++;
    link.holds.set(n, hold.release);
    return { value: { hold: n } satisfies WireHold };
  }

  private limits(): NonNullable<OwnerHubOptions['limits']> {
    const l = this.options.limits;
    if (l === undefined) throw rtError('INTERNAL', 'worker channel: this owner keeps no rate limits or tickets');
    return l;
  }

  /** Sends the snapshot of the owner's API to every worker when it changed since the last one sent. */
  pushMirror(force = false): void {
    if (this.closed) return;
    let snapshot;
    try {
      snapshot = takeSnapshot(this.options.api);
    } catch (err) {
      this.options.logger.warn({ err }, 'taking the workers mirror failed');
      return;
    }
    const text = JSON.stringify(snapshot);
    if (!force && text === this.lastSnapshot) return;
    this.lastSnapshot = text;
    for (const l of this.links) l.peer.notify('mirror', { value: snapshot });
  }

  /** /metrics of the whole server: the owner's registry and every worker's, summed per series. */
  async metricsText(): Promise<string> {
    const own = (await this.options.registry.getMetricsAsJSON()) as MetricsJson;
    const theirs = await Promise.all(
      [...this.links].map((l) =>
        l.peer.call('metrics.collect', { value: null }).then(
          (r) => r.value as MetricsJson,
          () => [] as MetricsJson,
        ),
      ),
    );
    return AggregatorRegistry.aggregate([own, ...theirs]).metrics();
  }

  /** Drain, first step: every worker turns not ready, answers REST with `Connection: close`, sends gRPC GOAWAY. */
  beginDrain(): void {
    this.pushMirror(true);
    for (const l of this.links) l.peer.notify('drain.begin', { value: null });
  }

  /** Drain, last step: every worker closes its listeners once its clients stopped sending (or at the deadline). */
  async finishDrain(deadlineMs: number): Promise<void> {
    await Promise.all([...this.links].map((l) => l.peer.call('drain.finish', { value: { deadlineMs } }).catch(() => undefined)));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.options.stateChanges?.off('change', this.changed);
    for (const l of this.links) l.peer.channel.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.options.socketPath, { force: true });
  }
}
