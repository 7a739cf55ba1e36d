/**
 * A front-end worker's end of its channel to the engine owner (docs/workers.md): connects to the owner's socket,
 * says hello, and gives the worker its InferenceApi (remote-api.ts). The owner's calls and notifications to the
 * worker (mirror updates, metrics collection, the drain) go to `handlers`.
 */
import { connect } from 'node:net';
import { rtError } from '../errors/registry.ts';
import { FrameChannel } from './frame-channel.ts';
import type { MirrorSnapshot } from './model-mirror.ts';
import { RemoteInferenceApi, type RequestCheckOf } from './remote-api.ts';
import { RemoteGenerationApi } from './remote-generate.ts';
import type { GenerationApi } from '../generate/generate-service.ts';
import { RpcPeer } from './rpc-peer.ts';
import { TensorSlots } from './tensor-slots.ts';
import { OwnerBucketStore, OwnerConcurrencyStore, OwnerTicketStore } from './shared-limits.ts';
import type { BucketStore } from '../security/bucket-store.ts';
import type { ConcurrencyStore } from '../security/concurrency-store.ts';
import type { TicketStore } from '../security/ws-tickets.ts';

export interface WorkerHandlers {
  /** The worker's Prometheus metrics as prom-client's JSON (Registry.getMetricsAsJSON). */
  collectMetrics(): Promise<unknown>;
  /** The owner started draining: stop being ready, close connections behind their answers, GOAWAY. */
  beginDrain(): void;
  /** The owner drained: close the listeners once clients stopped sending, or at `deadlineMs`. */
  finishDrain(deadlineMs: number): Promise<void>;
  /** The owner went away (or closed the channel): the worker stops. */
  ownerGone(): void;
}

export interface WorkerLink {
  readonly api: RemoteInferenceApi;
  /** Generation in the owner's GenerateService, for the OpenAI-compatible routes (remote-generate.ts). */
  readonly generate: GenerationApi;
  /** Rate-limit buckets and WebSocket tickets kept in the owner (shared-limits.ts). */
  readonly bucketStore: BucketStore;
  readonly ticketStore: TicketStore;
  /** The per-principal concurrency cap, counted in the owner (shared-limits.ts). */
  readonly concurrencyStore: ConcurrencyStore;
  /** /metrics of the whole server, from the owner. */
  metricsText(): Promise<string>;
  close(): void;
}

export async function connectToOwner(
  socketPath: string,
  workerId: number,
  handlers: WorkerHandlers,
  /** The checks that refuse a bad request in the worker, from its mirror (app/worker-validation.ts). */
  checkOf?: RequestCheckOf,
): Promise<WorkerLink> {
  const socket = connect(socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const channel = new FrameChannel(socket);
  let api: RemoteInferenceApi | undefined;
  const peer = new RpcPeer(
    channel,
    async (method, args) => {
      if (method === 'metrics.collect') return { value: await handlers.collectMetrics() };
      if (method === 'drain.finish') {
        await handlers.finishDrain(Number((args.value as { deadlineMs: number }).deadlineMs));
        return { value: null };
      }
      throw rtError('INTERNAL', `worker channel: unknown call '${method}'`);
    },
    () => rtError('ENGINE_OWNER_GONE', 'the engine owner process went away: the server is stopping'),
  );
  peer.onNotify = (method, args) => {
    if (method === 'mirror') api?.update(args.value as MirrorSnapshot);
    else if (method === 'drain.begin') {
      api?.beginDrain();
      handlers.beginDrain();
    }
  };
  peer.onClose = () => handlers.ownerGone();
  // Large input tensors go through shared memory slots; where /dev/shm cannot take them, every tensor goes inline.
  const slots = await TensorSlots.create().catch(() => undefined);
  const hello = (
    await peer.call('hello', {
      value: { worker: workerId, ...(slots === undefined ? {} : { slots: { path: slots.path, byteSize: slots.byteSize } }) },
    })
  ).value as { snapshot: MirrorSnapshot; sharedMemory: boolean };
  await slots?.unlink();
  api = new RemoteInferenceApi(peer, hello.snapshot, hello.sharedMemory, slots, checkOf);
  return {
    api,
    generate: new RemoteGenerationApi(peer, api),
    bucketStore: new OwnerBucketStore(peer),
    ticketStore: new OwnerTicketStore(peer),
    concurrencyStore: new OwnerConcurrencyStore(peer),
    metricsText: async () => String((await peer.call('metrics', { value: null })).value),
    close: () => channel.close(),
  };
}
