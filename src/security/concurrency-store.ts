/**
 * The per-principal concurrency cap's counts (maxConcurrentPerPrincipal, docs/security.md "Rate limits"): how many
 * unfinished requests each principal has. One process keeps them in memory; the front-end workers of
 * `--workers N` keep them in the engine owner (cluster/shared-limits.ts), so the cap holds for the whole server.
 */

/** One more unfinished request was counted (`release` ends it), or the principal had `max` already. */
export type ConcurrencyHold = { readonly ok: true; readonly release: () => void } | { readonly ok: false; readonly count: number };

export interface ConcurrencyStore {
  /** Counts one more unfinished request of `id` unless it has `max` already. */
  acquire(id: string, max: number): Promise<ConcurrencyHold>;
}

/** The counts of one process, in memory. */
export class MemoryConcurrencyStore implements ConcurrencyStore {
  private readonly inFlight = new Map<string, number>();

  acquire(id: string, max: number): Promise<ConcurrencyHold> {
    return Promise.resolve(this.acquireSync(id, max));
  }

  acquireSync(id: string, max: number): ConcurrencyHold {
    const n = this.inFlight.get(id) ?? 0;
    if (n >= max) return { ok: false, count: n };
    this.inFlight.set(id, n + 1);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        const m = (this.inFlight.get(id) ?? 1) - 1;
        if (m <= 0) this.inFlight.delete(id);
        else this.inFlight.set(id, m);
      },
    };
  }

  /** Unfinished requests of `id` now. */
  count(id: string): number {
    return this.inFlight.get(id) ?? 0;
  }
}
