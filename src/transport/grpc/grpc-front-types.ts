/** The gRPC front end's contract: its options, the admission hook it asks before every call, and what it returns. */
import type { Metadata, Server, ServerCredentials, StatusObject } from '@grpc/grpc-js';
import type { InferenceApi } from '../../api/inference-api.ts';
import type { InferResponse } from '../../api/types.ts';
import type { GrpcInferRequest } from '../../codec/grpc/infer-codec.ts';
import type { RequestContext } from '../../observability/request-context.ts';
import type { Logger } from '../../observability/logger.ts';
import type { OtelTracing } from '../../observability/otel-tracing.ts';
import type { Principal } from '../../security/principal.ts';
import type { ApiGroup } from '../../security/route-table.ts';

export interface GrpcServerOptions {
  readonly api: InferenceApi;
  readonly logger: Logger;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Largest message received or sent; a bigger one is refused with RESOURCE_EXHAUSTED naming the limit. */
  readonly maxMessageBytes: number;
  /** Interval of the server's HTTP/2 keepalive pings (grpc.keepalive_time_ms). */
  readonly keepaliveTimeMs: number;
  /** How long a keepalive ping may go unanswered before the connection is closed (grpc.keepalive_timeout_ms). */
  readonly keepaliveTimeoutMs: number;
  /** Passed as grpc.keepalive_permit_without_calls (see docs/grpc.md for what grpc-js does with it). */
  readonly keepalivePermitWithoutCalls: boolean;
  /** Connections older than this get a GOAWAY (grpc.max_connection_age_ms; 0 or absent = never), with this grace. */
  readonly maxConnectionAgeMs?: number;
  readonly maxConnectionAgeGraceMs?: number;
  /** Requests one ModelStreamInfer stream may have in flight before the server stops reading from it. */
  readonly maxInflightPerStream?: number;
  /**
   * Response bytes one ModelStreamInfer stream may have written and not yet sent (its client does not read): past
   * 4 × this (or 4 × maxMessageBytes, if larger) the stream is ended with RESOURCE_EXHAUSTED SLOW_CONSUMER and its
   * work cancelled (infer-stream.ts). The WebSocket bound's setting (wsMaxBufferedBytes); 8 MiB when absent.
   */
  readonly maxBufferedBytes?: number;
  /** Counts a stream ended by that bound (rtserve_slow_clients_total{kind="grpc_closed"}). */
  readonly onSlowClient?: (kind: 'grpc_closed') => void;
  /** HTTP/2 flow-control window per connection and per call (flow-control.ts); HTTP/2's 65,535 when absent. */
  readonly flowControlWindowBytes?: number;
  /** How often health Watch streams re-evaluate their status. */
  readonly healthPollIntervalMs?: number;
  /** TLS (src/security grpcServerCredentials); insecure when absent. */
  readonly credentials?: ServerCredentials;
  /**
   * Authentication, authorization and rate limits (src/security `Security.admit`), asked before every RPC and
   * before every request of a stream. Rejects with an RtError (UNAUTHENTICATED, PERMISSION_DENIED, RATE_LIMITED),
   * which becomes the call's status (or that stream request's error_message). Absent: every call is admitted.
   * The admitted principal's id scopes shared-memory regions to it.
   */
  readonly admit?: (ctx: GrpcAdmitContext) => Promise<GrpcAdmission>;
  /** API groups turned off (server setting disabledApis): their methods answer UNSUPPORTED. */
  readonly disabledApis?: readonly ApiGroup[];
  /** OpenTelemetry spans of ModelInfer calls, joined to the caller's `traceparent` metadata (otel-tracing.ts). */
  readonly tracing?: OtelTracing;
}

/** The operation groups of docs/security.md, as the gRPC RPCs map onto them (the same split as the REST routes). */
export type GrpcOperation = 'infer' | 'metadata' | 'repository' | 'metrics' | 'health' | 'admin';

/** What `admit` resolves with: the release of the call's slot, and who was admitted. */
export interface GrpcAdmission {
  readonly release: () => void;
  /** Its id scopes shared-memory regions; its model patterns, what the call may list (statistics, 404 suggestions). */
  readonly principal?: Principal;
}

export interface GrpcAdmitContext {
  readonly op: GrpcOperation;
  /** The model the RPC is about, when it names one. */
  readonly model: string | undefined;
  /** The call's metadata (credentials travel in `authorization`). */
  readonly metadata: Metadata;
  /** grpc-js getPeer(): `ipv4:1.2.3.4:5678` / `ipv6:[::1]:5678`. */
  readonly peer: string;
}

export interface GrpcFrontEnd {
  readonly server: Server;
  /** "host:port" as clients dial it (IPv6 hosts in brackets). */
  readonly address: string;
  readonly port: number;
  /**
   * Graceful stop: health turns NOT_SERVING, no new calls are accepted, streams end once their in-flight requests
   * are answered, and after `timeoutMs` whatever is still open is cut (forceShutdown).
   */
  close(timeoutMs: number): Promise<void>;
}

/** What a ModelStreamInfer stream (infer-stream.ts) asks of the front end that owns it (GrpcFront). */
export interface InferStreamHost {
  /** The server is stopping: a stream ends once its in-flight requests are answered. */
  readonly draining: boolean;
  /** Requests one stream may have in flight before the front end stops reading from it. */
  readonly inflightLimit: number;
  /** Unsent response bytes past which the stream's client is too slow. */
  readonly unsentLimit: number;
  /** The status an error becomes, its suggestions limited to what `principal` may see. */
  statusOf(err: unknown, principal?: Principal): StatusObject;
  /** The edge context of one request of the call; `id` names it when the metadata does not. */
  edgeContextOf(metadata: Metadata, id?: string): RequestContext;
  /** The responses of one streamed request (several for decoupled models). */
  inferResponses(req: GrpcInferRequest, signal: AbortSignal, context: RequestContext, principal?: string): AsyncIterable<InferResponse>;
  /** `out`, unless it exceeds the message limit (then PAYLOAD_TOO_LARGE naming the limit). */
  checkSize(out: Buffer, model: string): Buffer;
  /** Admission of one request: `run` once admitted, `refuse` with the status otherwise. */
  admitted(
    op: GrpcOperation,
    model: string | undefined,
    call: { readonly metadata: Metadata; getPeer(): string },
    run: (release: () => void, principal: Principal | undefined) => void,
    refuse: (status: StatusObject) => void,
  ): void;
  /** Counts a stream ended for its unread responses. */
  slowClient(): void;
}
