/**
 * The network front ends around one InferenceApi: REST (with WebSocket /v2/ws and SSE on the same port), gRPC and
 * the separate metrics port, with TLS, auth and rate limits, and their part of a graceful stop. The single-process
 * server (rtserve-server.ts) runs them around its own core; each worker of the multi-process front end
 * (front-worker.ts, docs/workers.md) runs them around the engine owner's API over IPC.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config/server-config.ts';
import { otlpTracesEndpointInEnv } from '../config/otel-env.ts';
import type { InferenceApi } from '../api/inference-api.ts';
import { ServerMetrics } from '../observability/metrics.ts';
import { logControlOf, type Logger } from '../observability/logger.ts';
import { registerHttpObservability } from '../observability/http-observability.ts';
import { OtelTracing } from '../observability/otel-tracing.ts';
import { createHttpServer } from '../transport/http/http-server.ts';
import { installHttpDrain, type HttpDrain } from '../transport/http/http-drain.ts';
import { countSlowClients } from '../transport/http/slow-clients.ts';
import { registerOpenAiRoutes } from '../transport/http/openai-routes.ts';
import type { GenerationApi } from '../generate/index.ts';
import { registerWebDemo } from '../transport/http/web-demo.ts';
import { createHttpSecurity } from '../security/http-guard.ts';
import { createWsSecurityHooks } from '../security/ws-hooks.ts';
import { attachStreamingFrontEnds, type StreamingFrontEnds } from './streaming-front-ends.ts';
import { createSharedState, type SharedState } from '../state/shared-state.ts';
import { Security } from '../security/security.ts';
import type { BucketStore } from '../security/bucket-store.ts';
import type { TicketStore } from '../security/ws-tickets.ts';
import type { ConcurrencyStore } from '../security/concurrency-store.ts';
import { grpcServerCredentials, httpsServerOptions, loadTlsMaterial, type TlsMaterial } from '../security/tls.ts';
import { credentialsFromGrpcMetadata, ipFromGrpcPeer } from '../security/credentials.ts';
import { clientAddressResolver } from '../security/client-address.ts';
import { startGrpcServer } from '../transport/grpc/grpc-server.ts';

export interface FrontEndsOptions {
  readonly config: Readonly<ServerConfig>;
  readonly logger: Logger;
  readonly api: InferenceApi;
  readonly security: Security;
  readonly metrics: ServerMetrics;
  /** The Prometheus text of /metrics (the multi-process front end answers the totals of every process). */
  readonly metricsText: () => Promise<{ contentType: string; body: string }>;
  readonly shared: SharedState;
  readonly tls: TlsMaterial | undefined;
  readonly tracing: OtelTracing | undefined;
  /** The OpenAI-compatible routes (docs/generate.md): the generation service, or a worker's calls to the owner's. */
  readonly generate?: GenerationApi;
}

export interface FrontEnds {
  readonly http: FastifyInstance;
  /** '' when the HTTP port is off (allowHttp false). */
  readonly httpUrl: string;
  readonly grpcAddress: string | undefined;
  readonly metricsUrl: string | undefined;
  /** The first step of a graceful stop, at once: REST answers close their connections, gRPC sends GOAWAY. */
  beginDrain(): void;
  /** After the core drained: the listeners close drainQuietMs after the admitted work finished. */
  finishDrain(): Promise<void>;
}

export interface FrontEndServices {
  readonly tls: TlsMaterial | undefined;
  readonly shared: SharedState;
  readonly security: Security;
  /** The process's Prometheus metrics (the engine side wires the model statistics into it where it runs). */
  readonly metrics: ServerMetrics;
}

/**
 * What the front ends of one process need besides the API: TLS material and auth keys (read first, so a bad path
 * fails the start before any model is loaded), state shared with other replicas (docs/scaling.md: SSE resume
 * journal and WebSocket tickets in Redis, or nothing shared), auth and rate limits, and the metrics.
 */
export async function createFrontEndServices(
  config: Readonly<ServerConfig>,
  logger: Logger,
  sharedState: SharedState | undefined,
  /** Stores kept elsewhere (a front-end worker's, in the engine owner) where the config keeps them in memory. */
  stores: { readonly buckets?: BucketStore; readonly tickets?: TicketStore; readonly concurrency?: ConcurrencyStore } = {},
): Promise<FrontEndServices> {
  const tls = loadTlsMaterial(config);
  const shared =
    sharedState ??
    (await createSharedState(config.sharedState, {
      ticketTtlMs: config.auth.wsTicketTtlSecs * 1000,
      resumeWindowMs: config.wsResumeWindowMs,
      logger,
    }));
  const security = await Security.create({
    auth: config.auth,
    rateLimit: config.rateLimit,
    logger,
    ...(shared.tickets !== undefined ? { tickets: shared.tickets } : stores.tickets !== undefined ? { tickets: stores.tickets } : {}),
    ...(config.rateLimit.store === 'memory' && stores.buckets !== undefined ? { bucketStore: stores.buckets } : {}),
    ...(stores.concurrency === undefined ? {} : { concurrencyStore: stores.concurrency }),
  });
  // Metrics first: each loaded version's statistics feed its histograms (the source is wired by the engine side).
  const metrics = new ServerMetrics({ statistics: () => [], pending: () => [] }, { histograms: config.metricsHistograms });
  security.onRateLimited = (protocol) => metrics.rateLimited.inc({ protocol });
  return { tls, shared, security, metrics };
}

/**
 * OpenTelemetry traces when an OTLP endpoint is configured: traceOtlpEndpoint, else the OTEL_EXPORTER_OTLP_*
 * endpoint variables (src/config/otel-env.ts), which the exporter then reads itself.
 */
export function createTracing(
  config: Readonly<ServerConfig>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): OtelTracing | undefined {
  return config.traceOtlpEndpoint === undefined && !otlpTracesEndpointInEnv(env)
    ? undefined
    : new OtelTracing({
        endpoint: config.traceOtlpEndpoint,
        level: config.traceLevel,
        rate: config.traceRate,
        serviceName: config.serverId ?? 'rtserve',
      });
}

function urlOf(host: string, port: number, scheme = 'http'): string {
  const h = host.includes(':') ? `[${host}]` : host;
  return `${scheme}://${h}:${port}`;
}

/** Opens the configured ports around `api`. Port 0 picks a free port; the chosen addresses are returned. */
export async function startFrontEnds(options: FrontEndsOptions): Promise<FrontEnds> {
  const { config, logger, api: core, security, metrics: serverMetrics, shared, tls, tracing } = options;
  const metrics = options.metricsText;
  // TLS, auth / rate-limit hooks and request limits of the REST (and WebSocket) port (docs/security.md).
  const httpSecurity = createHttpSecurity(security);
  const httpGuards = {
    ...(tls === undefined ? {} : { https: httpsServerOptions(tls) }),
    ...(httpSecurity === undefined ? {} : { security: httpSecurity }),
    limits: {
      maxJsonDepth: config.maxJsonDepth,
      maxJsonElements: config.maxJsonElements,
      maxInputsPerRequest: config.maxInputsPerRequest,
      maxElementsPerTensor: config.maxElementsPerTensor,
    },
    maxHeaderBytes: config.maxHeaderBytes,
    headersTimeoutMs: config.headersTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    disabledApis: config.disabledApis,
    trustedProxies: config.trustedProxies,
  };
  // WebSocket /v2/ws and SSE generate_stream share the HTTP port (docs/ws-protocol.md), with the same auth and
  // rate limits as REST (docs/security.md).
  let streaming: StreamingFrontEnds | undefined;
  let httpDrain: HttpDrain | undefined;
  const wsHooks = createWsSecurityHooks(security);
  // Per-IP limits and logs see the client behind a trusted proxy (X-Forwarded-For), on every front end.
  const clientAddress = clientAddressResolver(config.trustedProxies);
  const extend = (app: FastifyInstance): void => {
    streaming = attachStreamingFrontEnds(app, {
      api: core,
      logger,
      config,
      metrics: serverMetrics,
      clientAddress,
      ...(wsHooks === undefined ? {} : wsHooks),
      ...(shared.journal === undefined ? {} : { journal: shared.journal, replicaId: shared.replicaId }),
      ...(tracing === undefined ? {} : { tracing }),
    });
    // The browser demo at / (web/, docs/image.md).
    registerWebDemo(app);
  };
  const http = await createHttpServer({
    extend,
    ...httpGuards,
    api: core,
    logger,
    maxBodyBytes: config.maxBodyBytes,
    ...(config.allowMetrics ? { metrics } : {}),
    observe: (app) => {
      // First of the hooks: while draining, every answer (401s and 404s included) closes its connection.
      httpDrain = installHttpDrain(app);
      registerHttpObservability(app, {
        logger,
        metrics: serverMetrics,
        accessLog: config.accessLog,
        logControl: logControlOf(logger),
        ...(config.logDirectory === undefined ? {} : { logDirectory: config.logDirectory }),
        ...(tracing === undefined ? {} : { tracing }),
      });
    },
  });
  // Slowloris heads and dribbled bodies that node's headersTimeout / requestTimeout cut off, counted on /metrics.
  countSlowClients(http.server, (kind) => serverMetrics.slowClients.inc({ kind }));
  // OpenAI-compatible /v1/completions and /v1/chat/completions (docs/generate.md), added before the port opens.
  if (options.generate !== undefined) registerOpenAiRoutes(http, { generate: options.generate, api: core, logger });
  // --allow-http=false: the routes exist (for in-process use) but the port is not opened.
  const httpHost = config.httpAddress ?? config.host;
  if (config.allowHttp) await http.listen({ host: httpHost, port: config.httpPort });
  else await http.ready();
  const httpPort = config.allowHttp ? (http.server.address() as AddressInfo).port : undefined;

  const grpc = !config.allowGrpc
    ? undefined
    : await startGrpcServer({
        api: core,
        logger,
        host: config.grpcAddress ?? config.host,
        port: config.grpcPort,
        maxMessageBytes: config.grpcMaxMessageBytes,
        keepaliveTimeMs: config.grpcKeepaliveTimeMs,
        keepaliveTimeoutMs: config.grpcKeepaliveTimeoutMs,
        keepalivePermitWithoutCalls: config.grpcKeepalivePermitWithoutCalls,
        maxInflightPerStream: config.grpcMaxInflightPerStream,
        maxBufferedBytes: config.wsMaxBufferedBytes,
        onSlowClient: (kind) => serverMetrics.slowClients.inc({ kind }),
        flowControlWindowBytes: config.grpcFlowControlWindowBytes,
        maxConnectionAgeMs: config.grpcMaxConnectionAgeMs,
        maxConnectionAgeGraceMs: config.grpcMaxConnectionAgeGraceMs,
        disabledApis: config.disabledApis,
        ...(tracing === undefined ? {} : { tracing }),
        // The same TLS material and the same auth / rate limits as the REST port (docs/security.md).
        ...(tls === undefined ? {} : { credentials: grpcServerCredentials(tls) }),
        ...(security.inactive
          ? {}
          : {
              admit: (ctx) => {
                const forwarded = ctx.metadata.get('x-forwarded-for').map(String);
                const ip = clientAddress(ipFromGrpcPeer(ctx.peer), forwarded.length === 0 ? undefined : forwarded);
                return security.admit(credentialsFromGrpcMetadata(ctx.metadata), ctx.op, ctx.model, ip, 'grpc');
              },
            }),
      });

  let metricsServer: Server | undefined;
  let metricsUrl: string | undefined;
  const metricsHost = config.metricsAddress ?? httpHost;
  if (config.allowMetrics && (config.metricsPort !== config.httpPort || config.metricsPort === 0 || !config.allowHttp || metricsHost !== httpHost)) {
    metricsServer = createServer((req, res) => {
      if (req.method === 'GET' && (req.url === '/metrics' || req.url?.startsWith('/metrics?') === true)) {
        metrics().then(
          (m) => res.writeHead(200, { 'content-type': m.contentType }).end(m.body),
          () => res.writeHead(500).end(),
        );
      } else {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'metrics are served at /metrics' }));
      }
    });
    await new Promise<void>((resolve, reject) => {
      metricsServer?.once('error', reject);
      metricsServer?.listen(config.metricsPort, metricsHost, () => resolve());
    });
    metricsUrl = urlOf(metricsHost, (metricsServer.address() as AddressInfo).port);
  }

  let grpcClosed: Promise<void> | undefined;
  const beginDrain = (): void => {
    httpDrain?.begin();
    // gRPC: GOAWAY, in-flight calls finish, then what is left is cut at the timeout.
    grpcClosed ??= grpc?.close(config.exitTimeoutSecs * 1000);
  };
  return {
    http,
    httpUrl: httpPort === undefined ? '' : urlOf(httpHost, httpPort, tls === undefined ? 'http' : 'https'),
    grpcAddress: grpc?.address,
    metricsUrl,
    beginDrain,
    async finishDrain() {
      beginDrain();
      await grpcClosed;
      // The admitted work is done (the caller awaited the core's drain, this the gRPC calls'). For drainQuietMs more,
      // arrivals are answered (inference SERVER_DRAINING, every REST answer closing its connection), so clients that
      // heed it leave before the port closes; clients that keep connecting do not extend it (http-drain.ts). Then
      // WebSocket sockets close with 1001 (going away) behind their last answers, open SSE responses end, and the
      // listener closes, resetting only what waits in its accept queue then: counted in the log.
      const workDoneMs = Date.now();
      await sleep(config.drainQuietMs);
      await streaming?.close();
      const resets = await httpDrain?.close();
      if (resets === undefined) await http.close();
      else
        logger.info(
          { ...resets, afterWorkDoneMs: Date.now() - workDoneMs },
          `drain: REST port closed ${config.drainQuietMs} ms after the last admitted request finished; ${resets.acceptQueue ?? 'an unknown number of'} connections in its accept queue were reset, ${resets.open} open connections closed`,
        );
      if (metricsServer !== undefined) {
        const s = metricsServer;
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    },
  };
}
