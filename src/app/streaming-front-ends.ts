/**
 * Wires both streaming front ends — WebSocket /v2/ws and SSE generate/generate_stream — onto the HTTP server
 * (createHttpServer's `extend` option) from the server config, and closes them together.
 */
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config/server-config.ts';
import type { InferenceApi } from '../api/inference-api.ts';
import type { Logger } from '../observability/logger.ts';
import type { StreamJournal } from '../state/stream-journal.ts';
import { registerSseRoutes, type SseFrontEnd } from '../transport/http/sse-routes.ts';
import type { WsAdmit, WsAuthenticate } from '../transport/ws/ws-auth.ts';
import { attachWsFrontEnd, type WsFrontEnd, type WsMetrics } from '../transport/ws/ws-server.ts';
import type { OtelTracing } from '../observability/otel-tracing.ts';

export interface StreamingFrontEndsOptions {
  /** OpenTelemetry spans of WebSocket infer events (otel-tracing.ts). */
  readonly tracing?: OtelTracing;
  readonly api: InferenceApi;
  readonly logger: Logger;
  readonly config: Readonly<ServerConfig>;
  /** ServerMetrics satisfies this (wsConnections, wsDroppedFrames). */
  readonly metrics?: WsMetrics;
  /** The security layer's hooks: who may connect (at the upgrade), and which requests may run. */
  readonly authenticate?: WsAuthenticate;
  readonly admit?: WsAdmit;
  /** The client's address behind trusted proxies (src/security/client-address.ts). */
  readonly clientAddress?: (peer: string | undefined, forwardedFor: string | string[] | undefined) => string | undefined;
  /** Shared stream journal (replicas resume each other's SSE and WebSocket streams) and this replica's id in it. */
  readonly journal?: StreamJournal;
  readonly replicaId?: string;
}

export interface StreamingFrontEnds {
  readonly ws: WsFrontEnd;
  readonly sse: SseFrontEnd;
  /** WebSocket sockets close with 1001 (going away); open SSE responses end. Call after the core drained. */
  close(): Promise<void>;
}

export function attachStreamingFrontEnds(app: FastifyInstance, options: StreamingFrontEndsOptions): StreamingFrontEnds {
  const { config } = options;
  // One journal for both front ends: SSE streams and WebSocket streaming requests resume on any replica.
  const journal =
    options.journal === undefined
      ? undefined
      : { journal: options.journal, replicaId: options.replicaId ?? 'replica', leaseMs: config.sharedState.streamLeaseMs, logger: options.logger };
  const ws = attachWsFrontEnd(app, {
    api: options.api,
    logger: options.logger,
    config,
    ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
    ...(options.authenticate === undefined ? {} : { authenticate: options.authenticate }),
    ...(options.admit === undefined ? {} : { admit: options.admit }),
    ...(options.clientAddress === undefined ? {} : { clientAddress: options.clientAddress }),
    ...(options.tracing === undefined ? {} : { tracing: options.tracing }),
    ...(journal === undefined ? {} : { journal }),
  });
  const sse = registerSseRoutes(app, {
    api: options.api,
    logger: options.logger,
    heartbeatIntervalMs: config.sseHeartbeatIntervalMs,
    resumeWindowMs: config.wsResumeWindowMs,
    maxRetainedBytes: config.sseMaxRetainedBytes,
    maxBufferedBytes: config.wsMaxBufferedBytes,
    ...(options.metrics?.slowClients === undefined ? {} : { onSlowClient: (kind) => options.metrics?.slowClients?.inc({ kind }) }),
    ...(journal === undefined ? {} : { journal: journal.journal, replicaId: journal.replicaId, leaseMs: journal.leaseMs }),
  });
  return {
    ws,
    sse,
    async close() {
      sse.close();
      await ws.close();
    },
  };
}
