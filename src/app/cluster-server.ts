/**
 * `rtserve serve --workers N` (docs/workers.md): this process becomes the engine owner — engines, the repository
 * with one batcher per model, the core and the request pipeline, statistics — and forks N front-end workers
 * (node:cluster, front-worker.ts) that share the HTTP, gRPC, WebSocket and metrics ports and do the protocol work.
 * Requests reach the owner over one channel per worker (src/cluster). A worker that dies is replaced (its clients'
 * connections end with it, so they get errors, never a hang); when the owner goes, the workers leave too.
 */
import cluster, { type Worker } from 'node:cluster';
import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServerMetrics } from '../observability/metrics.ts';
import { rtError } from '../errors/registry.ts';
import { Security } from '../security/security.ts';
import { MemoryBucketStore } from '../security/bucket-store.ts';
import { MemoryConcurrencyStore } from '../security/concurrency-store.ts';
import { createHttpServer } from '../transport/http/http-server.ts';
import { OwnerHub } from '../cluster/owner-hub.ts';
import { defaultRegionOpener } from '../engine/cuda/shm-opener.ts';
import { startAsyncQueue } from './async-queue.ts';
import { startEngineSide } from './engine-side.ts';
import type { OwnerOrder, WorkerInit, WorkerReport } from './front-worker.ts';
import type { RunningServer, StartOptions } from './server-types.ts';

/** A worker that dies this soon after the previous start of its slot waits before it is forked again. */
const RESTART_BACKOFF_MS = 1000;

/**
 * The worker entry (the `.ts` source where this module runs from source, as the tests and the GPU machine run it) and
 * the node flags that run it: this process's own (a tsx import, type stripping), without the test runner's.
 */
function workerEntry(): { exec: string; execArgv: string[] } {
  const ts = import.meta.url.endsWith('.ts');
  const exec = fileURLToPath(new URL(ts ? './front-worker-main.ts' : './front-worker-main.js', import.meta.url));
  return { exec, execArgv: process.execArgv.filter((a) => !a.startsWith('--test')) };
}

export async function startClusterServer(options: StartOptions, workers: number): Promise<RunningServer> {
  const { config, logger } = options;
  // Auth keys are checked before any model loads; the workers read the same config.
  const security = await Security.create({ auth: config.auth, rateLimit: config.rateLimit, logger });
  const serverMetrics = new ServerMetrics({ statistics: () => [], pending: () => [] }, { histograms: config.metricsHistograms });
  const engines = await startEngineSide(options, serverMetrics).catch(async (err: unknown) => {
    await security.close();
    throw err;
  });
  const { core, api } = engines;
  const hub = await OwnerHub.listen({
    api,
    registry: serverMetrics.registry,
    logger,
    // Rate limits, WebSocket tickets kept in memory and the concurrency cap are the whole server's: the workers keep
    // them here (the cap in the owner's Security, so server.security.rateLimiter.inFlightOf counts every worker's).
    limits: {
      buckets: new MemoryBucketStore(),
      tickets: security.tickets,
      concurrency: security.rateLimiter?.concurrency ?? new MemoryConcurrencyStore(),
    },
    // Workers' tensor slots are opened as client regions are: mapped and page-locked where the CUDA addon loads.
    opener: options.sharedMemoryOpener ?? defaultRegionOpener,
    // The workers' OpenAI-compatible routes generate here: one continuous batcher per model for the whole server.
    generate: engines.generate,
    // Model state changes reach the workers' mirrors as they happen.
    stateChanges: engines.repository,
    socketPath: join(tmpdir(), `rtserve-${process.pid}-${randomBytes(4).toString('hex')}.sock`),
  });

  const { exec, execArgv } = workerEntry();
  cluster.setupPrimary({ exec, execArgv, args: [] });
  const slots = new Map<Worker, number>();
  /** Workers whose ports are open. */
  const serving = new Set<Worker>();
  const startedAt = new Map<number, number>();
  let closing = false;
  let ready: Extract<WorkerReport, { type: 'rtserve.ready' }> | undefined;

  const fork = (slot: number): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      startedAt.set(slot, Date.now());
      const worker = cluster.fork();
      slots.set(worker, slot);
      const init: WorkerInit = { type: 'rtserve.init', config, socketPath: hub.socketPath, slot };
      const onMessage = (m: WorkerReport): void => {
        // The worker's entry module is loaded and listening: it gets the config (a message sent before would be lost).
        if (m.type === 'rtserve.waiting') worker.send(init);
        else if (m.type === 'rtserve.ready') {
          ready ??= m;
          serving.add(worker);
          worker.off('message', onMessage);
          resolve();
        } else if (m.type === 'rtserve.failed') {
          worker.off('message', onMessage);
          reject(rtError('INTERNAL', `front-end worker ${slot} failed to start: ${m.message}`));
        }
      };
      worker.on('message', onMessage);
      worker.once('exit', (code, signal) => {
        worker.off('message', onMessage);
        slots.delete(worker);
        serving.delete(worker);
        reject(rtError('INTERNAL', `front-end worker ${slot} exited while starting (code ${code}, signal ${signal})`));
        if (closing) return;
        // A worker died: its connections ended with it (its clients get errors); a new one takes its place.
        logger.warn({ slot, code, signal }, 'front-end worker exited: starting a new one');
        const wait = Math.max(0, (startedAt.get(slot) ?? 0) + RESTART_BACKOFF_MS - Date.now());
        setTimeout(() => {
          if (!closing) fork(slot).catch((err: unknown) => logger.error({ err, slot }, 'restarting a front-end worker failed'));
        }, wait).unref();
      });
    });

  /** A failed start: the workers, the hub, the engines and the security stores go. */
  const abandon = async (): Promise<void> => {
    closing = true;
    for (const w of slots.keys()) w.kill();
    await hub.close();
    await engines.stop();
    await security.close();
  };
  try {
    await Promise.all(Array.from({ length: workers }, (_, i) => fork(i + 1)));
  } catch (err) {
    await abandon();
    throw err;
  }
  logger.info({ workers, socket: hub.socketPath }, 'front-end workers serving');
  if (ready === undefined) throw rtError('INTERNAL', 'no front-end worker reported its ports');

  // API keys reloaded here (SIGHUP, the config file) reach every worker.
  const reloadAuth = security.reloadAuth.bind(security);
  security.reloadAuth = async (auth) => {
    await reloadAuth(auth);
    const order: OwnerOrder = { type: 'rtserve.auth', auth };
    for (const w of slots.keys()) w.send(order);
  };

  // The async inference queue consumes the broker, not the ports: its worker runs here, against the owner's core.
  const queueWorker = await startAsyncQueue(config, api, randomUUID(), logger).catch(async (err: unknown) => {
    await abandon();
    throw err;
  });

  // In-process routes over the owner's core (tests inject requests); the ports are the workers'.
  const http = await createHttpServer({ api, logger, maxBodyBytes: config.maxBodyBytes });
  await http.ready();

  let stopping: Promise<void> | undefined;
  const close = (): Promise<void> => {
    stopping ??= (async () => {
      closing = true;
      // No new queued work; what the owner holds finishes within the drain below.
      const queueClosed = queueWorker?.close();
      const deadlineMs = Date.now() + config.exitTimeoutSecs * 1000;
      // At once: the core answers new inference SERVER_DRAINING; the workers turn not ready, close REST connections
      // behind their answers and send gRPC GOAWAY. The ports stay open until the clients stopped sending.
      const drained = engines.drain();
      hub.beginDrain();
      await drained;
      await queueClosed;
      await hub.finishDrain(deadlineMs);
      const exited = [...slots.keys()].map((w) => new Promise<void>((resolve) => (w.isDead() ? resolve() : w.once('exit', () => resolve()))));
      for (const w of slots.keys()) w.disconnect();
      await hub.close();
      await Promise.all(exited);
      await http.close();
      await engines.stop();
      await security.close();
    })();
    return stopping;
  };

  return {
    core,
    api,
    http,
    httpUrl: ready.httpUrl,
    grpcAddress: ready.grpcAddress,
    metricsUrl: ready.metricsUrl,
    security,
    metrics: serverMetrics,
    tracing: undefined,
    poller: engines.poller,
    generate: engines.generate,
    repository: engines.repository,
    workerPids: () => [...serving].flatMap((w) => (w.process.pid === undefined || w.isDead() ? [] : [w.process.pid])),
    close,
  };
}
