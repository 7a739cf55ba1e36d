import { pino, type Logger, type LevelWithSilent } from 'pino';

export type { Logger };

/**
 * Structured JSON logs (pino) on stderr, so that stdout stays free for the one "ready" line the CLI prints
 * and for machine-readable command output.
 */
export function createLogger(level: LevelWithSilent = 'info', name = 'rtserve'): Logger {
  return pino({ name, level, base: { pid: process.pid } }, pino.destination({ fd: 2, sync: false }));
}

/** A logger that drops everything: for tests and embedding. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
