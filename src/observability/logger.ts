import { closeSync, mkdirSync, openSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { pino, type Logger, type LevelWithSilent, type DestinationStream } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { z } from 'zod';
import { RtError, rtError } from '../errors/registry.ts';

export type { Logger };

/**
 * Triton's logging extension settings (S:docs/protocol/extension_logging.md), as GET/POST /v2/logging show and
 * take them. rtserve's logs are pino JSON lines; the booleans and the verbose level map onto one pino level
 * threshold (error < warn < info < debug (verbose 1) < trace (verbose ≥ 2)), so a combination that is not a
 * threshold (info on, warning off) is reported back as the threshold actually in force.
 */
export interface LogSettings {
  /** '' = standard error (stdout carries the CLI's ready line); otherwise a file, appended to. */
  readonly log_file: string;
  readonly log_info: boolean;
  readonly log_warning: boolean;
  readonly log_error: boolean;
  readonly log_verbose_level: number;
  /** 'default' writes epoch milliseconds in "time"; 'ISO8601' writes an ISO 8601 timestamp. */
  readonly log_format: 'default' | 'ISO8601';
}

/** The body of POST /v2/logging: any subset of the settings (/openapi.json is generated from it). */
export const logSettingsPatchSchema = z.strictObject({
  log_file: z.string().optional(),
  log_info: z.boolean().optional(),
  log_warning: z.boolean().optional(),
  log_error: z.boolean().optional(),
  log_verbose_level: z.number().int().min(0).optional(),
  log_format: z.enum(['default', 'ISO8601']).optional(),
});

function settingsOfLevel(level: string): Pick<LogSettings, 'log_info' | 'log_warning' | 'log_error' | 'log_verbose_level'> {
  const rank: Record<string, number> = { silent: 0, fatal: 1, error: 1, warn: 2, info: 3, debug: 4, trace: 5 };
  const r = rank[level] ?? 3;
  return { log_error: r >= 1, log_warning: r >= 2, log_info: r >= 3, log_verbose_level: r >= 5 ? 2 : r >= 4 ? 1 : 0 };
}

export function levelOfSettings(s: Pick<LogSettings, 'log_info' | 'log_warning' | 'log_error' | 'log_verbose_level'>): LevelWithSilent {
  if (s.log_verbose_level >= 2) return 'trace';
  if (s.log_verbose_level === 1) return 'debug';
  if (s.log_info) return 'info';
  if (s.log_warning) return 'warn';
  if (s.log_error) return 'error';
  return 'silent';
}

/** A destination that can be pointed at another file at run time (log_file), keeping pino's async writer. */
class SwitchableDestination implements DestinationStream {
  private current: ReturnType<typeof pino.destination>;
  file = '';

  /** `sync`: every line written before `write` returns (the readable lines of a terminal: nothing lost at exit). */
  constructor(private readonly sync = false) {
    this.current = pino.destination({ fd: 2, sync });
  }

  write(msg: string): void {
    this.current.write(msg);
  }

  flush(cb?: (err?: Error) => void): void {
    try {
      this.current.flushSync();
      cb?.();
    } catch (err) {
      // Nothing written yet (the async open has not finished) is not an error worth reporting.
      cb?.(err instanceof Error && /not ready/.test(err.message) ? undefined : (err as Error));
    }
  }

  /** Switches to `file` ('' = standard error). Opens it first so a bad path fails the request, not the logs. */
  switchTo(file: string): void {
    if (file === this.file) return;
    let next: ReturnType<typeof pino.destination>;
    if (file === '') {
      next = pino.destination({ fd: 2, sync: this.sync });
    } else {
      try {
        mkdirSync(dirname(file), { recursive: true });
        closeSync(openSync(file, 'a'));
      } catch (err) {
        throw rtError('BAD_PARAMETER', `log_file '${file}' cannot be opened for appending: ${(err as Error).message}`);
      }
      next = pino.destination({ dest: file, sync: this.sync, append: true });
    }
    const old = this.current;
    this.current = next;
    this.file = file;
    try {
      old.flushSync();
    } catch {
      // an old destination that never opened has nothing to flush
    }
    if ((old as { fd?: number }).fd !== 2) old.end();
  }
}

/**
 * Where a log_file from the network may go. Without a configured directory, nowhere: a client able to name a file
 * could create or append to any file the server's user may write (Triton refuses the same way since 2024). With
 * one, `file` (relative names resolve inside it) must stay inside it once `..` and symbolic links are resolved.
 */
export function logFileInside(file: string, logDirectory: string | undefined): string {
  if (logDirectory === undefined) {
    throw rtError(
      'UNSUPPORTED',
      'log file location can not be updated through network protocol (the operator may allow files inside one directory: server setting logDirectory)',
    );
  }
  let root: string;
  try {
    mkdirSync(logDirectory, { recursive: true });
    root = realpathSync(logDirectory);
  } catch (err) {
    throw rtError('UNSUPPORTED', `the configured logDirectory cannot be used: ${(err as Error).message}`);
  }
  const target = resolve(root, file);
  const inside = (p: string): boolean => {
    const rel = relative(root, p);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  };
  if (!inside(target)) throw rtError('PERMISSION_DENIED', `log_file '${file}' is outside the log directory ${root}`);
  // The nearest existing ancestor, symbolic links resolved, must be inside too (a link in the directory to /etc).
  let existing = target;
  for (;;) {
    try {
      const real = realpathSync(existing);
      if (real !== root && !inside(real)) throw rtError('PERMISSION_DENIED', `log_file '${file}' resolves outside the log directory ${root}`);
      break;
    } catch (err) {
      if (err instanceof RtError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      // Not there yet (or under a file): the switch itself reports what cannot be created.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw rtError('BAD_PARAMETER', `log_file '${file}' cannot be used: ${(err as Error).message}`);
      existing = dirname(existing);
    }
  }
  return target;
}

/** Runtime control of one logger tree: what /v2/logging reads and changes. */
export class LogControl {
  private format: 'default' | 'ISO8601' = 'default';

  constructor(
    readonly logger: Logger,
    private readonly destination?: SwitchableDestination,
  ) {}

  get isoTime(): boolean {
    return this.format === 'ISO8601';
  }

  settings(): LogSettings {
    return { log_file: this.destination?.file ?? '', ...settingsOfLevel(this.logger.level), log_format: this.format };
  }

  /**
   * Applies a partial settings object (unknown keys and wrong types are refused with BAD_PARAMETER) and returns
   * the settings now in force. Child loggers follow the root's level (pino children inherit it unless they set
   * their own).
   */
  update(patch: unknown, logDirectory?: string): LogSettings {
    const r = logSettingsPatchSchema.safeParse(patch);
    if (!r.success) {
      const issues = r.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      throw rtError(
        'BAD_PARAMETER',
        `invalid logging settings: ${issues} (keys: log_file, log_info, log_warning, log_error, log_verbose_level, log_format)`,
      );
    }
    const p = r.data;
    if (p.log_file !== undefined && p.log_file !== (this.destination?.file ?? '')) {
      // Checked before anything else changes: a refused request changes nothing.
      const file = p.log_file === '' ? '' : logFileInside(p.log_file, logDirectory);
      if (this.destination === undefined) throw rtError('UNSUPPORTED', 'this server was started with a logger whose destination cannot be changed');
      this.destination.switchTo(file);
    }
    if (p.log_format !== undefined) this.format = p.log_format;
    const current = settingsOfLevel(this.logger.level);
    const next = {
      log_info: p.log_info ?? current.log_info,
      log_warning: p.log_warning ?? current.log_warning,
      log_error: p.log_error ?? current.log_error,
      log_verbose_level: p.log_verbose_level ?? current.log_verbose_level,
    };
    this.logger.level = levelOfSettings(next);
    return this.settings();
  }
}

const controls = new WeakMap<Logger, LogControl>();

/**
 * How log records are written: `json`, one JSON object per line (for pipes, files and log collectors); `pretty`,
 * one readable line per record (time, level, name, message, then its fields; pino-pretty); `auto`, pretty when
 * standard error is a terminal and no log file is set, JSON otherwise.
 */
export type LogStyle = 'auto' | 'json' | 'pretty';

export function resolveLogStyle(style: LogStyle, file: string | undefined, stderrIsTty = process.stderr.isTTY === true): 'json' | 'pretty' {
  if (style !== 'auto') return style;
  return stderrIsTty && (file === undefined || file === '') ? 'pretty' : 'json';
}

/**
 * Logs (pino) on stderr, so that stdout stays free for the one "ready" line the CLI prints and for
 * machine-readable command output: JSON lines, or readable lines (`style`, see LogStyle; JSON unless asked).
 * Its level, destination and time format can be changed at run time through `logControlOf(logger)` (GET/POST
 * /v2/logging).
 */
export function createLogger(
  level: LevelWithSilent = 'info',
  name = 'rtserve',
  output: { readonly file?: string; readonly format?: LogSettings['log_format']; readonly style?: LogStyle } = {},
): Logger {
  const readable = resolveLogStyle(output.style ?? 'json', output.file) === 'pretty';
  const destination = new SwitchableDestination(readable);
  // --log-file: opened (and its folder made) before the first line, so a bad path fails the start.
  if (output.file !== undefined && output.file !== '') destination.switchTo(output.file);
  let control: LogControl | undefined;
  const logger = pino(
    {
      name,
      level,
      base: { pid: process.pid },
      // "level":"warn", not pino's number (40): what log pipelines and people read without a table. (pino-pretty
      // reads the numbers and prints the names itself.)
      ...(readable ? {} : { formatters: { level: (label: string) => ({ level: label }) } }),
      timestamp: () => (control?.isoTime === true ? `,"time":"${new Date().toISOString()}"` : `,"time":${Date.now()}`),
    },
    readable ? readableLines(destination, output.file === undefined || output.file === '') : destination,
  );
  control = new LogControl(logger, destination);
  if (output.format !== undefined) control.update({ log_format: output.format });
  controls.set(logger, control);
  return logger;
}

/** One line per record: `12:00:00.123 INFO (rtserve): message {fields}`; colours only on a terminal. */
function readableLines(destination: SwitchableDestination, toStderr: boolean): DestinationStream {
  const format = prettyFactory({
    singleLine: true,
    colorize: toStderr && process.stderr.isTTY === true,
    ignore: 'pid,hostname',
    translateTime: 'SYS:HH:MM:ss.l',
  });
  // pino-pretty's formatter on each JSON line pino writes, into the same switchable destination as JSON lines.
  return { write: (line: string) => destination.write(format(line)) };
}

/** The runtime control of a logger made by createLogger; for any other logger, one that changes only levels. */
export function logControlOf(logger: Logger): LogControl {
  let c = controls.get(logger);
  if (c === undefined) {
    c = new LogControl(logger);
    controls.set(logger, c);
  }
  return c;
}

/** A logger that drops everything: for tests and embedding. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
