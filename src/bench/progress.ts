/** The live progress line of `rtserve bench`: on stderr, and only when stderr is a terminal (never in logs or pipes). */
import { formatRate, formatUs } from './format.ts';
import type { LevelProgress } from './measure.ts';

export interface Progress {
  update(label: string, p: LevelProgress): void;
  /** Erases the line (before the caller prints something else). */
  clear(): void;
}

const NO_PROGRESS: Progress = { update: () => undefined, clear: () => undefined };

export function progressLine(label: string, p: LevelProgress): string {
  const seconds = `${(p.elapsedMs / 1000).toFixed(1)}s`;
  if (p.phase === 'warmup') return `${label}  warm-up ${seconds}  sent ok ${p.succeeded} err ${p.failed}`;
  if (p.phase === 'draining') return `${label}  draining`;
  const last =
    p.lastWindow === undefined
      ? ''
      : `  last: ${formatRate(p.lastWindow.inferencesPerSec)} infer/s p50 ${formatUs(p.lastWindow.latency.p50Us)} p99 ${formatUs(p.lastWindow.latency.p99Us)}`;
  return `${label}  window ${p.window}/${p.maxTrials}  ${seconds}  ok ${p.succeeded} err ${p.failed}${last}`;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr, enabled = true): Progress {
  if (!enabled || stream.isTTY !== true) return NO_PROGRESS;
  let shown = false;
  return {
    update(label, p) {
      const width = stream.columns ?? 120;
      stream.write(`\r\x1b[K${progressLine(label, p).slice(0, Math.max(20, width - 1))}`);
      shown = true;
    },
    clear() {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
