/**
 * The gRPC front end: inference.GRPCInferenceService (docs/protocol.md §2.5, byte-compatible with Triton's and KServe's
 * generated clients), grpc.health.v1.Health and server reflection, on @grpc/grpc-js.
 *
 * ModelInfer and ModelStreamInfer use rtserve's own codec (infer-codec.ts): requests decode straight into tensors
 * that are views over the received bytes, responses are written into one buffer with outputs in
 * raw_output_contents. Every other RPC uses the generic proto-loader codec: they are small and rare.
 *
 * Deadlines: a call's deadline aborts its requests' signal when it passes, so a request still queued leaves the
 * queue, and the call is answered DEADLINE_EXCEEDED. The scheduler's own `timeout` parameter (µs) applies only
 * when the model allows overrides (docs/protocol.md §1.3), so the transport enforces the call deadline itself.
 * Cancellation: a cancelled call aborts its requests the same way.
 * Streams: each ModelStreamInfer request is answered once, with its id; a failed request is answered with
 * `error_message` and the stream stays open (Triton's default, docs/protocol.md §2.5 "gRPC options"). A stream stops
 * reading while it has `maxInflightPerStream` requests in flight or its writes are backed up (HTTP/2 flow control
 * then holds the client back).
 */
import {
  Server,
  ServerCredentials,
  type Metadata,
  type MethodDefinition,
  type ServerDuplexStream,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceDefinition,
  type UntypedHandleCall,
  type UntypedServiceImplementation,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { ReflectionService } from '@grpc/reflection';
import type { InferenceApi } from '../../api/inference-api.ts';
import type { InferRequest, InferResponse } from '../../api/types.ts';
import { cudaSharedMemoryUnsupported, systemSharedMemoryOf, type SharedMemoryRegionStatus } from '../../shm/system-shared-memory.ts';
import { type RtError, rtError } from '../../errors/registry.ts';
import type { Logger } from '../../observability/logger.ts';
import { toStatus } from './errors.ts';
import type { GrpcAdmission, GrpcFrontEnd, GrpcOperation, GrpcServerOptions, InferStreamHost } from './grpc-front-types.ts';
import { widenFlowControlWindows } from './flow-control.ts';
import { HealthService } from './health.ts';
import { encodeModelInferResponse, type DecodedInferMessage, type GrpcInferRequest } from '../../codec/grpc/infer-codec.ts';
import { decodeOwnedMessage } from './owned-message.ts';
import { healthPackageDefinition, inferencePackageDefinition } from './proto.ts';
import { edgeContext, type RequestContext } from '../../observability/request-context.ts';
import { GRPC_METHODS } from '../../security/route-table.ts';
import { Deadline, deadlineError, deadlineMsOf } from './deadline.ts';
import { InferStream } from './infer-stream.ts';
import { checkRepositoryName, configMessage, loadConfigParameter, type ModelRef, type RepositoryModelRequest } from './repository-messages.ts';
import type { Principal } from '../../security/principal.ts';
import { statisticsFor, withVisibleModels } from '../streaming/caller-view.ts';

/** The first value of a metadata key, as a string. */
function metadataValue(metadata: Metadata, key: string): string | undefined {
  const v = metadata.get(key)[0];
  return v === undefined ? undefined : String(v);
}

const passThrough = (buf: Buffer): Buffer => buf;
/** A stream's unsent responses may reach this many × maxBufferedBytes (or × maxMessageBytes), as a WebSocket's 4 × (ws-connection.ts). */
const SLOW_STREAM_FACTOR = 4;
const noRelease = (): void => {};

/** The Triton extensions rtserve does not implement; their RPCs answer UNIMPLEMENTED. */
const UNSUPPORTED_RPCS: Readonly<Record<string, string>> = {
  TraceSetting: 'trace settings',
  LogSettings: 'log settings over gRPC',
};

/** Starts the gRPC front end on host:port and resolves once it listens. */
export async function startGrpcServer(options: GrpcServerOptions): Promise<GrpcFrontEnd> {
  const front = new GrpcFront(options);
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const port = await new Promise<number>((resolve, reject) => {
    const credentials = options.credentials ?? ServerCredentials.createInsecure();
    front.server.bindAsync(`${host}:${options.port}`, credentials, (err, p) => (err === null ? resolve(p) : reject(err)));
  });
  if (options.flowControlWindowBytes !== undefined && !widenFlowControlWindows(front.server, options.flowControlWindowBytes)) {
    options.logger.warn('grpc-js does not expose its HTTP/2 servers: gRPC flow-control windows stay at 65,535 bytes');
  }
  return {
    server: front.server,
    address: `${host}:${port}`,
    port,
    close: (timeoutMs) => front.close(timeoutMs),
  };
}

export class GrpcFront implements InferStreamHost {
  readonly server: Server;
  private readonly api: InferenceApi;
  private readonly log: Logger;
  private readonly health: HealthService;
  private readonly streams = new Set<InferStream>();
  private readonly maxInflightPerStream: number;
  private closing: Promise<void> | undefined;
  draining = false;

  constructor(private readonly options: GrpcServerOptions) {
    this.api = options.api;
    this.log = options.logger;
    this.maxInflightPerStream = options.maxInflightPerStream ?? 1024;
    this.server = new Server({
      'grpc.max_receive_message_length': options.maxMessageBytes,
      'grpc.max_send_message_length': options.maxMessageBytes,
      'grpc.keepalive_time_ms': options.keepaliveTimeMs,
      'grpc.keepalive_timeout_ms': options.keepaliveTimeoutMs,
      'grpc.keepalive_permit_without_calls': options.keepalivePermitWithoutCalls ? 1 : 0,
      // Long-lived HTTP/2 connections pin a client to one replica; an age makes clients reconnect through the
      // load balancer (docs/scaling.md).
      ...(options.maxConnectionAgeMs ? { 'grpc.max_connection_age_ms': options.maxConnectionAgeMs } : {}),
      ...(options.maxConnectionAgeMs && options.maxConnectionAgeGraceMs !== undefined
        ? { 'grpc.max_connection_age_grace_ms': options.maxConnectionAgeGraceMs }
        : {}),
    });
    this.health = new HealthService({
      api: this.api,
      ...(options.healthPollIntervalMs === undefined ? {} : { pollIntervalMs: options.healthPollIntervalMs }),
    });

    const inference = inferencePackageDefinition();
    const healthDef = healthPackageDefinition();
    this.server.addService(this.inferenceService(), this.inferenceImplementation());
    this.server.addService(
      healthDef['grpc.health.v1.Health'] as unknown as ServiceDefinition,
      this.guardService('health', this.health.implementation()),
    );
    // Server reflection describes the API, so it follows the route table like every other method: the metadata
    // scope when auth is on, and not served at all when its API group is turned off.
    if (!(options.disabledApis ?? []).includes('reflection')) {
      const op = this.operationOf('ServerReflectionInfo');
      new ReflectionService({ ...inference, ...healthDef }).addToServer({
        addService: (service, impl) => this.server.addService(service, this.guardService(op, impl)),
      });
    }
  }

  /** The proto-loader service definition, with rtserve's own codec for the two inference RPCs. */
  private inferenceService(): ServiceDefinition {
    const base = inferencePackageDefinition()['inference.GRPCInferenceService'] as unknown as ServiceDefinition;
    const own = (m: MethodDefinition<unknown, unknown> | undefined): MethodDefinition<DecodedInferMessage, Buffer> => {
      if (m === undefined) throw new Error('grpc_service.proto lacks an inference RPC');
      return { ...m, requestDeserialize: decodeOwnedMessage, responseSerialize: passThrough } as MethodDefinition<DecodedInferMessage, Buffer>;
    };
    return { ...base, ModelInfer: own(base['ModelInfer']), ModelStreamInfer: own(base['ModelStreamInfer']) };
  }

  /** The call's status; a 404 for a model suggests only the models `principal` may use (streaming/caller-view.ts). */
  private status(err: unknown, principal?: Principal) {
    return toStatus(withVisibleModels(err, this.api, principal), this.log);
  }

  /** The method's operation from the one route table (src/security/route-table.ts); a method it lacks is refused. */
  operationOf(method: string): GrpcOperation {
    const op = GRPC_METHODS[method]?.op;
    if (op === undefined || op === 'any' || op === 'public') {
      throw new Error(`gRPC method ${method} has no operation in the route table (src/security/route-table.ts)`);
    }
    return op;
  }

  /** The UNSUPPORTED error for a method of a turned-off API group (disabledApis), else undefined. */
  switchedOff(method: string): RtError | undefined {
    const api = GRPC_METHODS[method]?.api;
    if (api === undefined || !(this.options.disabledApis ?? []).includes(api)) return undefined;
    return rtError('UNSUPPORTED', `the ${api} API is turned off on this server (server setting disabledApis / --disable-api)`);
  }

  /** Runs `admit` for a call (when configured); resolves with the release function. */
  private admitCall(
    op: GrpcOperation,
    model: string | undefined,
    call: { readonly metadata: Metadata; getPeer(): string },
  ): Promise<GrpcAdmission> | undefined {
    const admit = this.options.admit;
    if (admit === undefined) return undefined;
    return admit({ op, model: model === '' ? undefined : model, metadata: call.metadata, peer: call.getPeer() });
  }

  /**
   * The one admission wrapper of every handler: `run` goes once the admission hook let the call in (at once
   * without a hook) and gets the release to call when its work is done and the admitted principal (its id scopes
   * shared-memory regions, its models what the call may list); a refusal goes to `refuse` as a status.
   */
  admitted(
    op: GrpcOperation,
    model: string | undefined,
    call: { readonly metadata: Metadata; getPeer(): string },
    run: (release: () => void, principal: Principal | undefined) => void,
    refuse: (status: ReturnType<typeof toStatus>) => void,
  ): void {
    const admission = this.admitCall(op, model, call);
    if (admission === undefined) run(noRelease, undefined);
    else
      admission.then(
        (a) => run(a.release, a.principal),
        (err: unknown) => refuse(this.status(err)),
      );
  }

  /** A unary handler's callback that releases the admission before it answers. */
  private releasing<Res>(release: () => void, callback: sendUnaryData<Res>): sendUnaryData<Res> {
    return (err, value) => {
      release();
      callback(err, value);
    };
  }

  /**
   * A unary handler whose work may throw or reject; either becomes the registry's status. `op` and `modelOf` say
   * what the admission hook checks; `fn` gets the admitted principal (undefined without an admission hook).
   */
  private unary<Req, Res>(
    method: string,
    modelOf: (request: Req) => string | undefined,
    fn: (request: Req, principal: Principal | undefined) => Res | Promise<Res>,
  ) {
    const op = this.operationOf(method);
    const off = this.switchedOff(method);
    const run = (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>, principal?: Principal): void => {
      let result: Res | Promise<Res>;
      try {
        if (off !== undefined) throw off;
        result = fn(call.request, principal);
      } catch (err) {
        callback(this.status(err, principal));
        return;
      }
      if (result instanceof Promise)
        result.then(
          (v) => callback(null, v),
          (err: unknown) => callback(this.status(err, principal)),
        );
      else callback(null, result);
    };
    return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>): void =>
      this.admitted(
        op,
        modelOf(call.request),
        call,
        (release, principal) => run(call, this.releasing(release, callback), principal),
        (status) => callback(status),
      );
  }

  /** A service of another package (grpc.health.v1, server reflection) behind the admission hook as `op`. */
  private guardService(op: GrpcOperation, impl: UntypedServiceImplementation): UntypedServiceImplementation {
    if (this.options.admit === undefined) return impl;
    const guarded: UntypedServiceImplementation = {};
    for (const [name, handler] of Object.entries(impl)) {
      // A health check or a reflection query holds nothing while it runs: the admission is released before the
      // handler. Streams (health Watch, ServerReflectionInfo) get a refusal as the stream's error; Check answers
      // once (a refusal is its callback's status).
      const run = handler as (call: ServerUnaryCall<unknown, unknown> & ServerWritableStream<unknown, unknown>, cb?: sendUnaryData<unknown>) => void;
      guarded[name] = ((call: ServerUnaryCall<unknown, unknown> & ServerWritableStream<unknown, unknown>, cb?: sendUnaryData<unknown>) =>
        this.admitted(
          op,
          undefined,
          call,
          (release) => {
            release();
            run(call, cb);
          },
          (status) => (name === 'Watch' || cb === undefined ? call.emit('error', status) : cb(status)),
        )) as UntypedHandleCall;
    }
    return guarded;
  }

  private inferenceImplementation(): UntypedServiceImplementation {
    const api = this.api;
    const version = (v: string): string | undefined => (v === '' ? undefined : v);
    const none = (): undefined => undefined;
    const named = (r: ModelRef): string => r.name;
    const target = (r: RepositoryModelRequest): string => r.model_name;
    const impl: UntypedServiceImplementation = {
      ServerLive: this.unary('ServerLive', none, () => ({ live: api.isLive() })),
      ServerReady: this.unary('ServerReady', none, () => ({ ready: api.isReady() })),
      ModelReady: this.unary('ModelReady', named, (r: ModelRef) => ({ ready: api.modelReady(r.name, version(r.version)) })),
      ServerMetadata: this.unary('ServerMetadata', none, () => api.serverMetadata()),
      ModelMetadata: this.unary('ModelMetadata', named, (r: ModelRef) => {
        const m = api.modelMetadata(r.name, version(r.version));
        return { name: m.name, versions: m.versions, platform: m.platform, inputs: m.inputs, outputs: m.outputs };
      }),
      ModelConfig: this.unary('ModelConfig', named, (r: ModelRef) => ({ config: configMessage(api.modelConfig(r.name, version(r.version))) })),
      // An empty name means every model the caller may use.
      ModelStatistics: this.unary('ModelStatistics', named, async (r: ModelRef, principal) => ({
        model_stats: await statisticsFor(api, principal, r.name === '' ? undefined : r.name, version(r.version)),
      })),
      RepositoryIndex: this.unary('RepositoryIndex', none, (r: { repository_name: string; ready: boolean }) => {
        checkRepositoryName(r.repository_name);
        return { models: api.repositoryIndex(r.ready).map((e) => ({ name: e.name, version: e.version ?? '', state: e.state, reason: e.reason })) };
      }),
      RepositoryModelLoad: this.unary('RepositoryModelLoad', target, async (r: RepositoryModelRequest) => {
        checkRepositoryName(r.repository_name);
        const config = loadConfigParameter(r.parameters);
        try {
          await api.loadModel(r.model_name, config === undefined ? {} : { config });
        } finally {
          this.health.refresh();
        }
        return {};
      }),
      RepositoryModelUnload: this.unary('RepositoryModelUnload', target, async (r: RepositoryModelRequest) => {
        checkRepositoryName(r.repository_name);
        try {
          await api.unloadModel(r.model_name);
        } finally {
          this.health.refresh();
        }
        return {};
      }),
      // Triton's system shared memory extension (docs/protocol.md §2.5; docs/shared-memory.md). Regions carry inference
      // inputs and outputs, so they are the 'infer' operation for the admission hook. An empty name means every
      // region, as in Triton.
      // Each principal sees and changes only the regions it registered (shm/system-shared-memory.ts).
      SystemSharedMemoryStatus: this.unary('SystemSharedMemoryStatus', none, async (r: { name: string }, principal) => {
        const regions: Record<string, SharedMemoryRegionStatus> = {};
        for (const s of await systemSharedMemoryOf(api).status(r.name === '' ? undefined : r.name, principal?.id)) regions[s.name] = s;
        return { regions };
      }),
      SystemSharedMemoryRegister: this.unary(
        'SystemSharedMemoryRegister',
        none,
        async (r: { name: string; key: string; offset: number; byte_size: number }, principal) => {
          await systemSharedMemoryOf(api).register(r.name, r.key, r.offset, r.byte_size, principal?.id);
          return {};
        },
      ),
      SystemSharedMemoryUnregister: this.unary('SystemSharedMemoryUnregister', none, async (r: { name: string }, principal) => {
        await systemSharedMemoryOf(api).unregister(r.name === '' ? undefined : r.name, principal?.id);
        return {};
      }),
      CudaSharedMemoryStatus: this.unary('CudaSharedMemoryStatus', none, cudaSharedMemoryUnsupported),
      CudaSharedMemoryRegister: this.unary('CudaSharedMemoryRegister', none, cudaSharedMemoryUnsupported),
      CudaSharedMemoryUnregister: this.unary('CudaSharedMemoryUnregister', none, cudaSharedMemoryUnsupported),
      ModelInfer: (call: ServerUnaryCall<DecodedInferMessage, Buffer>, callback: sendUnaryData<Buffer>) => this.modelInfer(call, callback),
      ModelStreamInfer: (call: ServerDuplexStream<DecodedInferMessage, Buffer>) => {
        const stream = new InferStream(call, this);
        this.streams.add(stream);
        stream.onDone = () => this.streams.delete(stream);
      },
    };
    for (const [rpc, what] of Object.entries(UNSUPPORTED_RPCS)) {
      impl[rpc] = this.unary(rpc, none, () => {
        throw rtError('UNSUPPORTED', `${rpc}: rtserve does not implement ${what}`);
      });
    }
    return impl;
  }

  private modelInfer(call: ServerUnaryCall<DecodedInferMessage, Buffer>, callback: sendUnaryData<Buffer>): void {
    const msg = call.request;
    this.admitted(
      'infer',
      msg.ok ? msg.request.model : msg.model,
      call,
      (release, principal) => this.runInfer(call, this.releasing(release, callback), principal),
      (status) => callback(status),
    );
  }

  private runInfer(call: ServerUnaryCall<DecodedInferMessage, Buffer>, callback: sendUnaryData<Buffer>, principal?: Principal): void {
    const msg = call.request;
    if (!msg.ok) {
      callback(this.status(msg.error, principal));
      return;
    }
    const req = msg.request;
    const controller = new AbortController();
    const deadline = new Deadline(deadlineMsOf(call), () => controller.abort());
    if (deadline.expired) {
      callback(this.status(deadlineError(req.model)));
      return;
    }
    const onCancel = (): void => controller.abort();
    call.once('cancelled', onCancel);
    // The call joins the caller's trace (traceparent metadata); with tracing on its stages become spans.
    const tracing = this.options.tracing?.enabled === true ? this.options.tracing : undefined;
    const ctx = this.edgeContextOf(call.metadata);
    const done = (err: unknown, out?: Buffer): void => {
      tracing?.finish(ctx, process.hrtime.bigint(), err === null ? undefined : this.status(err).details);
      if (err === null) callback(null, out);
      else callback(this.status(err, principal));
    };
    this.api.infer(this.inferRequest(req, controller.signal, ctx, principal?.id)).then(
      (resp) => {
        deadline.dispose();
        call.removeListener('cancelled', onCancel);
        let out: Buffer;
        try {
          out = this.checkSize(encodeModelInferResponse(resp), req.model);
        } catch (err) {
          done(err);
          return;
        }
        done(null, out);
      },
      (err: unknown) => {
        deadline.dispose();
        call.removeListener('cancelled', onCancel);
        done(deadline.expired ? deadlineError(req.model) : err);
      },
    );
  }

  /**
   * The edge context of a request of a call (edgeContext): x-request-id, traceparent and tracestate from the call's
   * metadata; `id` (a stream message's own id) names the request when the metadata does not.
   */
  edgeContextOf(metadata: Metadata, id?: string): RequestContext {
    return edgeContext(
      'grpc',
      { requestId: metadataValue(metadata, 'x-request-id') ?? (id === '' ? undefined : id) },
      { traceparent: metadataValue(metadata, 'traceparent'), tracestate: metadataValue(metadata, 'tracestate') },
    );
  }

  inferRequest(req: GrpcInferRequest, signal: AbortSignal, context: RequestContext, principal?: string): InferRequest {
    return { ...req, signal, protocol: 'grpc', context, ...(principal === undefined ? {} : { principal }) };
  }

  /**
   * The responses of one streamed request: several for decoupled (generative) models, each carrying
   * `triton_final_response` as Triton's decoupled protocol does, one for every other model.
   */
  inferResponses(req: GrpcInferRequest, signal: AbortSignal, context: RequestContext, principal?: string): AsyncIterable<InferResponse> {
    const api = this.api;
    const request = this.inferRequest(req, signal, context, principal);
    if (api.inferStream !== undefined) return api.inferStream(request);
    const one = api.infer(request);
    return (async function* single() {
      yield await one;
    })();
  }

  statusOf(err: unknown, principal?: Principal) {
    return this.status(err, principal);
  }

  get inflightLimit(): number {
    return this.maxInflightPerStream;
  }

  /**
   * Unsent response bytes past which a stream's client is too slow (infer-stream.ts). Never less than 4 messages of
   * the largest size: a client that reads at full speed still has answers unsent behind the one in transmission.
   */
  get unsentLimit(): number {
    return SLOW_STREAM_FACTOR * Math.max(this.options.maxBufferedBytes ?? 8 * 1024 * 1024, this.options.maxMessageBytes);
  }

  /** A stream ended for its unread responses: counted. */
  slowClient(): void {
    this.options.onSlowClient?.('grpc_closed');
  }

  /**
   * grpc-js would refuse an oversized response itself, but only as a bare status that, on a stream, ends the whole
   * stream; checking first lets the error name the limit and lets a stream answer just that request.
   */
  checkSize(out: Buffer, model: string): Buffer {
    const max = this.options.maxMessageBytes;
    if (out.length > max) {
      throw rtError(
        'PAYLOAD_TOO_LARGE',
        `the response of model '${model}' is ${out.length} bytes, over the gRPC message limit of ${max} bytes (grpcMaxMessageBytes); request fewer outputs or a smaller batch, or raise the limit`,
      );
    }
    return out;
  }

  close(timeoutMs: number): Promise<void> {
    this.closing ??= (async () => {
      this.draining = true;
      this.health.shutdown();
      for (const s of this.streams) s.drain();
      const graceful = new Promise<void>((resolve) => this.server.tryShutdown(() => resolve()));
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), timeoutMs);
      });
      const cut = await Promise.race([graceful.then(() => false), timedOut]);
      clearTimeout(timer);
      if (cut) {
        this.log.warn({ streams: this.streams.size }, 'gRPC exit timeout reached: cutting the calls still open');
        this.server.forceShutdown();
      }
    })();
    return this.closing;
  }
}
