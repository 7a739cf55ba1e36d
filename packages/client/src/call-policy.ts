/**
 * Timeouts and retries of the client's calls. A timeout aborts the call (an AbortSignal of its own, combined with
 * the caller's) and fails it with DEADLINE_EXCEEDED. A retry happens only when the server refused the request
 * before doing its work, which it says with a retryable 429 (queue full, rate limited) or 503 (unavailable,
 * draining) — or when no connection could be made — and waits the server's `Retry-After` when it sent one, else
 * an exponential backoff. Nothing else is retried: not a client error, not a timeout, not a cancellation.
 */
import { CATEGORY_MAPPING, type ErrorCategory } from '../../../src/errors/registry.ts';
import { RtserveError } from './errors.ts';

export interface RetryOptions {
  /** Attempts after the first (default 0: no retry). */
  readonly maxRetries?: number;
  /** The backoff without a Retry-After: this, doubled per retry (default 100 ms), ... */
  readonly baseDelayMs?: number;
  /** ... up to this (default 5 s). A Retry-After longer than this is not waited for: the error is thrown. */
  readonly maxDelayMs?: number;
  /** Called before each wait, e.g. for logging. */
  readonly onRetry?: (error: RtserveError, retry: number, delayMs: number) => void;
}

export interface CallPolicy {
  /** Fail the call with DEADLINE_EXCEEDED when it has not finished after this long (each attempt: its own). */
  readonly timeoutMs?: number;
  readonly retry?: RetryOptions;
}

/** The HTTP statuses a refusal can be retried after. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** Whether `err` says the request was refused before the server did anything, so that sending it again is safe. */
export function isRetryable(err: unknown): err is RtserveError {
  if (!(err instanceof RtserveError) || !err.retryable) return false;
  const category = err.category as ErrorCategory | undefined;
  const status = err.status ?? (category !== undefined && category in CATEGORY_MAPPING ? CATEGORY_MAPPING[category].http : undefined);
  return status !== undefined && RETRY_STATUSES.has(status);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(new RtserveError('CANCELLED', 'the request was cancelled', { category: 'CANCELLED' }));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new RtserveError('CANCELLED', 'the request was cancelled', { category: 'CANCELLED' }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** One attempt under the timeout: the caller's signal and the timeout's, either aborting the call. */
async function attempt<T>(
  timeoutMs: number | undefined,
  signal: AbortSignal | undefined,
  call: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (timeoutMs === undefined) return call(signal);
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    return await call(signal === undefined ? timeout : AbortSignal.any([signal, timeout]));
  } catch (err) {
    if (timeout.aborted && signal?.aborted !== true)
      throw new RtserveError('DEADLINE_EXCEEDED', `no answer within the timeout of ${timeoutMs} ms`, { category: 'DEADLINE_EXCEEDED', cause: err });
    throw err;
  }
}

/** Runs `call` under the policy: retried while the server refuses it retryably, each attempt under the timeout. */
export async function withPolicy<T>(
  policy: CallPolicy,
  signal: AbortSignal | undefined,
  call: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  const retry = policy.retry ?? {};
  const maxRetries = retry.maxRetries ?? 0;
  const maxDelay = retry.maxDelayMs ?? 5000;
  for (let n = 0; ; n++) {
    try {
      return await attempt(policy.timeoutMs, signal, call);
    } catch (err) {
      if (n >= maxRetries || !isRetryable(err) || signal?.aborted === true) throw err;
      const delay = err.retryAfterMs ?? Math.min(maxDelay, (retry.baseDelayMs ?? 100) * 2 ** n);
      if (delay > maxDelay) throw err;
      retry.onRetry?.(err, n + 1, delay);
      await sleep(delay, signal);
    }
  }
}
