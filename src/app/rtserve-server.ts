import { frontEndWorkers } from '../config/workers.ts';
import { startEngineSide, type EngineSide } from './engine-side.ts';
import { createFrontEndServices, createTracing, startFrontEnds } from './front-ends.ts';
import { startClusterServer } from './cluster-server.ts';
import { startAsyncQueue } from './async-queue.ts';

export type { RunningServer, StartOptions } from './server-types.ts';
import type { RunningServer, StartOptions } from './server-types.ts';

/**
 * Composes the server: engine → repository → core, then the front ends on their ports. Port 0 picks a free
 * port; the chosen addresses are returned. With `workers` above 1 (docs/workers.md) this process becomes the engine
 * owner and the front ends run in worker processes (cluster-server.ts).
 */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const workers = frontEndWorkers(options.config.workers);
  if (workers > 1) return startClusterServer(options, workers);
  const { config, logger } = options;
  // TLS files and auth keys are read first, so a bad path fails the start before any model is loaded.
  const { tls, shared, security, metrics: serverMetrics } = await createFrontEndServices(config, logger, options.sharedState);
  let engines: EngineSide;
  try {
    engines = await startEngineSide(options, serverMetrics);
  } catch (err) {
    await security.close();
    throw err;
  }
  const { core, api, repository, generate } = engines;
  const tracing = createTracing(config);
  const front = await startFrontEnds({
    config,
    logger,
    api,
    security,
    metrics: serverMetrics,
    metricsText: async () => ({ contentType: serverMetrics.contentType, body: await serverMetrics.text() }),
    shared,
    tls,
    tracing,
    generate,
  });

  // The async inference queue: this replica consumes the broker's work queue through the same API as the front ends.
  const queueWorker = await startAsyncQueue(config, api, shared.replicaId, logger);

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      // No new queued work; what this replica holds finishes within the drain below.
      const queueClosed = queueWorker?.close();
      // At once, before anything awaits: not ready, new inference answered SERVER_DRAINING (503, Retry-After), every
      // REST answer closes its connection, gRPC sends GOAWAY. The ports stay open: a request that reaches the
      // server gets an answer.
      const drained = engines.drain();
      front.beginDrain();
      await drained;
      await queueClosed;
      await front.finishDrain();
      await engines.stop();
      await security.close();
      if (options.sharedState === undefined) await shared.close();
      await tracing?.close();
    })();
    return closing;
  };

  return {
    core,
    api,
    http: front.http,
    httpUrl: front.httpUrl,
    grpcAddress: front.grpcAddress,
    metricsUrl: front.metricsUrl,
    security,
    metrics: serverMetrics,
    tracing,
    poller: engines.poller,
    generate,
    repository,
    close,
  };
}
