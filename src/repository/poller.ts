import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { toRtError } from '../errors/registry.ts';
import type { Logger } from '../observability/logger.ts';
import { scanRepository, type ModelEntry } from './scan.ts';

/** What the poller drives: the repository manager's load/unload (atomic swap on reload). */
export interface PollTarget {
  load(name: string): Promise<void>;
  unload(name: string): Promise<void>;
}

export interface RepositoryPollerOptions {
  readonly repositories: readonly string[];
  /** Time between the end of one scan and the start of the next. */
  readonly intervalMs: number;
  readonly logger: Logger;
  /**
   * A changed model is fingerprinted twice, this far apart, and reloaded only when both agree: a model still
   * being copied into the repository is picked up on a later poll instead of half-written (Triton's poll mode
   * has no such guard and its docs warn about partial changes, docs/protocol.md §1.4).
   */
  readonly settleMs?: number;
}

export interface PollResult {
  readonly loaded: readonly string[];
  readonly unloaded: readonly string[];
  readonly failed: readonly { readonly name: string; readonly reason: string }[];
  /** Changed models left for the next poll because their files were still changing. */
  readonly unsettled: readonly string[];
}

/** Walks at most this many entries per model: a repository is configs and model files, not a data lake. */
const MAX_ENTRIES = 10_000;
const MAX_DEPTH = 4;

/**
 * A model's fingerprint: every file and folder under its directory with size and modification time. Any
 * change to a config, a version folder or a model file changes it.
 */
export async function fingerprintModel(dir: string): Promise<string> {
  const h = createHash('sha256');
  let count = 0;
  const walk = async (d: string, rel: string, depth: number): Promise<void> => {
    let names: string[];
    try {
      names = (await readdir(d)).sort();
    } catch {
      h.update(`!${rel}\n`);
      return;
    }
    for (const name of names) {
      if (++count > MAX_ENTRIES) return;
      const p = join(d, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      try {
        const st = await stat(p);
        if (st.isDirectory()) {
          h.update(`d ${r}\n`);
          if (depth < MAX_DEPTH) await walk(p, r, depth + 1);
        } else {
          h.update(`f ${r} ${st.size} ${st.mtimeMs}\n`);
        }
      } catch {
        h.update(`? ${r}\n`);
      }
    }
  };
  await walk(dir, '', 0);
  return h.digest('hex');
}

/**
 * Triton's poll mode (--model-control-mode poll, --repository-poll-secs; docs/protocol.md §1.4): rescans the
 * repositories in the background, loads new models, reloads changed ones and unloads removed ones. Reloads go
 * through the manager, which builds the new versions beside the old and swaps them in atomically, so requests
 * keep being served; a failed reload keeps the old versions serving and the repository index says why.
 */
export class RepositoryPoller {
  private readonly fingerprints = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<PollResult> | undefined;
  private stopped = false;

  constructor(
    private readonly target: PollTarget,
    private readonly options: RepositoryPollerOptions,
  ) {}

  /** Records the repository as it is now (after the initial load), so the first poll reloads nothing. */
  async prime(): Promise<void> {
    for (const e of await this.scan()) this.fingerprints.set(e.name, await fingerprintModel(e.dir));
  }

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** One scan: load what is new, reload what changed, unload what is gone. Never throws. */
  pollOnce(): Promise<PollResult> {
    // One scan at a time: a manual poll during a timed one waits for it and then runs its own.
    const previous = this.running ?? Promise.resolve(undefined);
    const run = previous.catch(() => undefined).then(() => this.doPoll());
    this.running = run;
    return run;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.pollOnce().finally(() => this.schedule());
    }, this.options.intervalMs);
    // The poller must never keep the process alive by itself.
    this.timer.unref();
  }

  private async scan(): Promise<ModelEntry[]> {
    const out: ModelEntry[] = [];
    for (const repo of this.options.repositories) {
      let entries: ModelEntry[];
      try {
        entries = await scanRepository(repo);
      } catch (err) {
        this.options.logger.error({ repository: repo, reason: toRtError(err).message }, 'repository scan failed');
        continue;
      }
      for (const e of entries) if (!out.some((x) => x.name === e.name)) out.push(e);
    }
    return out;
  }

  private async doPoll(): Promise<PollResult> {
    const log = this.options.logger;
    const loaded: string[] = [];
    const unloaded: string[] = [];
    const failed: { name: string; reason: string }[] = [];
    const unsettled: string[] = [];
    const entries = await this.scan();
    const changed: { entry: ModelEntry; fp: string }[] = [];
    for (const e of entries) {
      const fp = await fingerprintModel(e.dir);
      if (this.fingerprints.get(e.name) !== fp) changed.push({ entry: e, fp });
    }
    if (changed.length > 0 && (this.options.settleMs ?? 250) > 0) {
      await new Promise((r) => setTimeout(r, this.options.settleMs ?? 250));
    }
    for (const { entry, fp } of changed) {
      if (this.stopped) break;
      if ((this.options.settleMs ?? 250) > 0 && (await fingerprintModel(entry.dir)) !== fp) {
        unsettled.push(entry.name);
        continue;
      }
      // Recorded before the load: a broken model is retried when its files change again, not every poll.
      const isNew = !this.fingerprints.has(entry.name);
      this.fingerprints.set(entry.name, fp);
      try {
        await this.target.load(entry.name);
        loaded.push(entry.name);
        log.info({ model: entry.name }, isNew ? 'poll: new model loaded' : 'poll: changed model reloaded');
      } catch (err) {
        const reason = toRtError(err).message;
        failed.push({ name: entry.name, reason });
        log.error({ model: entry.name, reason }, 'poll: load failed');
      }
    }
    const present = new Set(entries.map((e) => e.name));
    for (const name of [...this.fingerprints.keys()]) {
      if (present.has(name) || this.stopped) continue;
      this.fingerprints.delete(name);
      try {
        await this.target.unload(name);
        unloaded.push(name);
        log.info({ model: name }, 'poll: removed model unloaded');
      } catch (err) {
        failed.push({ name, reason: toRtError(err).message });
      }
    }
    return { loaded, unloaded, failed, unsettled };
  }
}
