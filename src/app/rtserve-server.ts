import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config/server-config.ts';
import { InferenceServer } from '../core/inference-server.ts';
import { bundledModelRepository } from '../core/package-root.ts';
import { createOrtEngine } from '../engine/ort/index.ts';
import type { Engine } from '../engine/engine.ts';
import { createMetricsRegistry } from '../observability/metrics.ts';
import type { Logger } from '../observability/logger.ts';
import { RepositoryManager } from '../repository/manager.ts';
import { createScheduler } from '../scheduler/index.ts';
import { createHttpServer } from '../transport/http/http-server.ts';

export interface StartOptions {
  readonly config: Readonly<ServerConfig>;
  readonly logger: Logger;
  /** Engine override (tests may pass one); defaults to onnxruntime-node. */
  readonly engine?: Engine;
}

export interface RunningServer {
  readonly core: InferenceServer;
  readonly http: FastifyInstance;
  readonly httpUrl: string;
  readonly grpcAddress: string | undefined;
  readonly metricsUrl: string | undefined;
  /** Graceful stop: not ready, stop accepting, finish in-flight (up to exitTimeoutSecs), release engines. */
  close(): Promise<void>;
}

function urlOf(host: string, port: number, scheme = 'http'): string {
  const h = host.includes(':') ? `[${host}]` : host;
  return `${scheme}://${h}:${port}`;
}

/**
 * Composes the server: engine → repository → core, then the front ends on their ports. Port 0 picks a free
 * port; the chosen addresses are returned.
 */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { config, logger } = options;
  const repositories = config.modelRepository.length > 0 ? config.modelRepository : [bundledModelRepository()];
  const repository = new RepositoryManager({
    repositories,
    engine: options.engine ?? createOrtEngine(),
    schedulerFactory: createScheduler,
    logger,
    defaultMaxBatchSize: config.defaultMaxBatchSize,
    maxQueueSizeDefault: config.maxQueueSizeDefault,
    defaultProviders: config.providers.map((name) => ({ name })),
  });
  const core = new InferenceServer({ config, repository, logger });
  await core.start();

  const registry = createMetricsRegistry({
    statistics: () => core.modelStatistics(),
    pending: () => repository.loadedVersions().map((v) => ({ model: v.name, version: v.version, pending: v.scheduler.pendingCount })),
  });
  const metrics = async () => ({ contentType: registry.contentType, body: await registry.metrics() });

  const http = await createHttpServer({ api: core, logger, maxBodyBytes: config.maxBodyBytes, metrics });
  await http.listen({ host: config.host, port: config.httpPort });
  const httpPort = (http.server.address() as AddressInfo).port;

  let metricsServer: Server | undefined;
  let metricsUrl: string | undefined;
  if (config.metricsPort !== config.httpPort || config.metricsPort === 0) {
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
      metricsServer?.listen(config.metricsPort, config.host, () => resolve());
    });
    metricsUrl = urlOf(config.host, (metricsServer.address() as AddressInfo).port);
  }

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const drained = await core.drain(config.exitTimeoutSecs * 1000);
      if (!drained) logger.warn({ inFlight: core.inFlightCount }, 'exit timeout reached with requests still in flight');
      await http.close();
      if (metricsServer !== undefined) {
        const s = metricsServer;
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
      await core.stop();
    })();
    return closing;
  };

  return {
    core,
    http,
    httpUrl: urlOf(config.host, httpPort),
    grpcAddress: undefined,
    metricsUrl,
    close,
  };
}
