/**
 * One front-end worker process of `--workers N` (docs/workers.md): the REST, WebSocket, SSE, gRPC and metrics ports
 * (shared with the other workers through node:cluster), with TLS, auth and rate limits, around the engine owner's
 * API over IPC. It holds no model: inference, statistics, model control and shared memory go to the owner.
 */
import cluster from 'node:cluster';
import type { ServerConfig } from '../config/server-config.ts';
import { createLogger } from '../observability/logger.ts';
import { connectToOwner } from '../cluster/worker-link.ts';
import { FrontPipeline } from '../pipeline/front-pipeline.ts';
import { workerRequestCheck } from './worker-validation.ts';
import type { AuthConfig } from '../config/security-schema.ts';
import { createFrontEndServices, createTracing, startFrontEnds, type FrontEndServices, type FrontEnds } from './front-ends.ts';

/** The owner's first message to a worker it forked. */
export interface WorkerInit {
  readonly type: 'rtserve.init';
  readonly config: ServerConfig;
  readonly socketPath: string;
  readonly slot: number;
}

/** The worker's answer once its ports are open (or why they could not be). */
export type WorkerReport =
  | { readonly type: 'rtserve.waiting' }
  | { readonly type: 'rtserve.ready'; readonly httpUrl: string; readonly grpcAddress?: string; readonly metricsUrl?: string }
  | { readonly type: 'rtserve.failed'; readonly message: string };

/** Messages the owner sends a running worker over the cluster channel. */
export type OwnerOrder = { readonly type: 'rtserve.auth'; readonly auth: AuthConfig };

export async function runFrontWorker(init: WorkerInit): Promise<void> {
  const { config } = init;
  const logger = createLogger(config.logLevel, `rtserve-worker-${init.slot}`, { file: config.logFile, format: config.logFormat });
  const tracing = createTracing(config);
  let services: FrontEndServices | undefined;
  let front: FrontEnds | undefined;
  let stopping = false;
  const exit = (code: number): void => {
    logger.flush();
    process.exit(code);
  };
  const link = await connectToOwner(
    init.socketPath,
    init.slot,
    {
      collectMetrics: async () => (await services?.metrics.registry.getMetricsAsJSON()) ?? [],
      beginDrain: () => {
        stopping = true;
        front?.beginDrain();
      },
      finishDrain: async () => {
        stopping = true;
        await front?.finishDrain();
        await services?.security.close();
        await services?.shared.close();
        await tracing?.close();
      },
      ownerGone: () => {
        // The engine owner stopped (or died): no request can be answered any more.
        if (!stopping) logger.error('the engine owner went away: stopping');
        exit(stopping ? 0 : 1);
      },
    },
    workerRequestCheck({ maxInputsPerRequest: config.maxInputsPerRequest, maxElementsPerTensor: config.maxElementsPerTensor }),
  );
  // Rate limits and WebSocket tickets kept in memory, and the concurrency cap, live in the owner, shared by every
  // worker (shared-limits.ts).
  services = await createFrontEndServices(config, logger, undefined, {
    buckets: link.bucketStore,
    tickets: link.ticketStore,
    concurrency: link.concurrencyStore,
  });
  const { tls, shared, security, metrics } = services;
  front = await startFrontEnds({
    config,
    logger,
    // Images of models whose engine decodes frames are placed here and cross undecoded (pipeline/front-pipeline.ts).
    api: new FrontPipeline(link.api),
    security,
    metrics,
    metricsText: async () => ({ contentType: metrics.contentType, body: await link.metricsText() }),
    shared,
    tls,
    tracing,
    // The OpenAI-compatible routes generate in the owner (cluster/remote-generate.ts).
    generate: link.generate,
  });
  // API keys reloaded on the owner (SIGHUP, config file change) reach every worker.
  process.on('message', (m: OwnerOrder) => {
    if (m.type === 'rtserve.auth') {
      security.reloadAuth(m.auth).catch((err: unknown) => logger.error({ err }, 'auth reload failed in a worker; keeping the previous keys'));
    }
  });
  const report: WorkerReport = {
    type: 'rtserve.ready',
    httpUrl: front.httpUrl,
    ...(front.grpcAddress === undefined ? {} : { grpcAddress: front.grpcAddress }),
    ...(front.metricsUrl === undefined ? {} : { metricsUrl: front.metricsUrl }),
  };
  process.send?.(report, undefined, {}, () => {});
}

/** The worker process's entry (front-worker-main.ts): waits for the owner's init, then serves. */
export function frontWorkerMain(): void {
  if (!cluster.isWorker) throw new Error('front-worker-main runs as a node:cluster worker of `rtserve serve --workers N`');
  // The owner orchestrates the stop (SIGTERM to the process group reaches the workers too): a worker drains when
  // the owner tells it to, and leaves when the owner is gone.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => {});
  process.on('disconnect', () => process.exit(0));
  process.once('message', (m: WorkerInit) => {
    if (m.type !== 'rtserve.init') return;
    runFrontWorker(m).catch((err: unknown) => {
      const report: WorkerReport = { type: 'rtserve.failed', message: err instanceof Error ? err.message : String(err) };
      process.send?.(report, () => process.exit(1));
    });
  });
  const waiting: WorkerReport = { type: 'rtserve.waiting' };
  // The owner may be stopping already (the channel closed): 'disconnect' above ends this process.
  process.send?.(waiting, undefined, {}, () => {});
}
