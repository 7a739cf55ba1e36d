/**
 * One 'abort' listener per signal, however many waiters it has. A connection's signal (REST: one per HTTP/1.1
 * connection) is shared by every request that connection sends, one after another; adding and removing an
 * EventTarget listener for each of them cost a few µs per request (node's EventTarget allocates a listener record
 * and walks its list both times, bench/results/cpu-budget-2026-12-02.md). Here the first waiter on a signal adds
 * the one listener, and every later waiter is an entry of a Set: adding and forgetting one is a hash operation.
 * When the signal aborts, every waiter still watching is called once, in the order they started watching (one that
 * an earlier waiter's onAbort stopped is not called).
 */
export interface AbortWaiter {
  /** Called once when the watched signal aborts while this waiter still watches it. */
  onAbort(): void;
}

const waitersBySignal = new WeakMap<AbortSignal, Set<AbortWaiter>>();

/**
 * Calls `waiter.onAbort()` when `signal` aborts, until `unwatchAbort` is called. The caller checks
 * `signal.aborted` first: a signal that has already aborted never calls a waiter added afterwards.
 */
export function watchAbort(signal: AbortSignal, waiter: AbortWaiter): void {
  if (signal.aborted) return;
  let waiters = waitersBySignal.get(signal);
  if (waiters === undefined) {
    const set = new Set<AbortWaiter>();
    waiters = set;
    waitersBySignal.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        // A waiter that another one's onAbort stopped is skipped, as EventTarget skips a removed listener.
        for (const w of set) {
          set.delete(w);
          w.onAbort();
        }
        waitersBySignal.delete(signal);
      },
      { once: true },
    );
  }
  waiters.add(waiter);
}

/** Stops watching: `waiter.onAbort` is not called for `signal` any more. */
export function unwatchAbort(signal: AbortSignal, waiter: AbortWaiter): void {
  waitersBySignal.get(signal)?.delete(waiter);
}
