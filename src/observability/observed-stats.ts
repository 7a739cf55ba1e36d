import { ModelStats } from './model-stats.ts';
import type { Logger } from './logger.ts';
import type { VersionObserver } from './metrics.ts';

/**
 * ModelStats that also feeds the latency and batch-size histograms and logs each batch execution at trace
 * level. The scheduler already reports every request and batch to ModelStats (src/observability/model-stats.ts), so this
 * hook sees exactly what the statistics extension sees, with no change to the scheduler.
 */
export class ObservedModelStats extends ModelStats {
  constructor(
    name: string,
    version: string,
    private readonly observer: VersionObserver,
    private readonly logger?: Logger,
  ) {
    super(name, version);
  }

  override recordSuccess(batchSize: number, totalNs: number, queueNs: number): void {
    super.recordSuccess(batchSize, totalNs, queueNs);
    this.observer.success(totalNs / 1e9, queueNs / 1e9);
  }

  override recordExecution(batchSize: number, requests: number, inputNs: number, inferNs: number, outputNs: number, device?: number): void {
    super.recordExecution(batchSize, requests, inputNs, inferNs, outputNs, device);
    this.observer.execution(batchSize, (inputNs + inferNs + outputNs) / 1e9);
    // Stage timings of each batch: per-request logs (access log) carry the request's own total; this line
    // carries the split of the batch it ran in. Trace level: one line per batch is a lot under load.
    if (this.logger?.isLevelEnabled('trace') === true) {
      this.logger.trace(
        {
          model: this.name,
          version: this.version,
          batchSize,
          requests,
          inputUs: Math.round(inputNs / 1e3),
          inferUs: Math.round(inferNs / 1e3),
          outputUs: Math.round(outputNs / 1e3),
        },
        'batch executed',
      );
    }
  }
}

/** The factory the repository manager uses for each loaded version's statistics. */
export type StatsFactory = (name: string, version: string) => ModelStats;
