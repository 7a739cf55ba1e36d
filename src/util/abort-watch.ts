/**
 * Waiting on an AbortSignal with one EventTarget listener per shared signal. A connection's signal (REST: one per
 * HTTP/1.1 connection) is shared by every request that connection sends, one after another; adding and removing
 * an EventTarget listener for each of them cost about a µs per request (node's EventTarget allocates a listener
 * record and walks its list both times, bench/results/cpu-budget-after-2026-12-02.md). A signal marked with
 * `shareAbortSignal` gets one listener (a module-level function, no closure) and holds its waiters itself: one
 * directly, more in a Set, so adding and forgetting one is a property write or a hash operation. Any other signal
 * (one per request: WebSocket, gRPC) gets the waiter's own listener, as before: marking it would cost more than
 * the one listener it saves.
 *
 * When a signal aborts, every waiter still watching is called once, in the order they started watching (one that
 * an earlier waiter's onAbort stopped is not called, as EventTarget skips a removed listener).
 */
export interface AbortWaiter {
  /** Called once when the watched signal aborts while this waiter still watches it. */
  readonly onAbort: () => void;
}

const WAITERS = Symbol('rtserve.abortWaiters');
/** undefined: not shared; false: shared, nobody waiting; null: fired. */
type Held = AbortWaiter | Set<AbortWaiter> | false | null | undefined;
type Shared = AbortSignal & { [WAITERS]?: Held };

function onSharedAbort(event: Event): void {
  const signal = event.target as Shared;
  const held = signal[WAITERS];
  if (held instanceof Set) {
    for (const w of held) {
      held.delete(w);
      w.onAbort();
    }
  } else if (held) {
    signal[WAITERS] = false;
    held.onAbort();
  }
  signal[WAITERS] = null;
}

/** Marks a signal that many waiters will watch (over its life, or at once): they share one listener. */
export function shareAbortSignal(signal: AbortSignal): void {
  const s = signal as Shared;
  if (s[WAITERS] !== undefined || signal.aborted) return;
  s[WAITERS] = false;
  signal.addEventListener('abort', onSharedAbort, { once: true });
}

/**
 * Calls `waiter.onAbort()` when `signal` aborts, until `unwatchAbort` is called. The caller checks
 * `signal.aborted` first: a waiter added after the signal aborted is not called.
 */
export function watchAbort(signal: AbortSignal, waiter: AbortWaiter): void {
  const s = signal as Shared;
  const held = s[WAITERS];
  if (held === undefined) signal.addEventListener('abort', waiter.onAbort, { once: true });
  else if (held === false) s[WAITERS] = waiter;
  else if (held instanceof Set) held.add(waiter);
  else if (held !== null) s[WAITERS] = new Set([held, waiter]);
}

/** Stops watching: `waiter.onAbort` is not called for `signal` any more. */
export function unwatchAbort(signal: AbortSignal, waiter: AbortWaiter): void {
  const s = signal as Shared;
  const held = s[WAITERS];
  if (held === undefined) signal.removeEventListener('abort', waiter.onAbort);
  else if (held === waiter) s[WAITERS] = false;
  else if (held instanceof Set) held.delete(waiter);
}
