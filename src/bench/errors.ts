/**
 * Errors of the benchmark tool itself. They are not server errors (those live in src/errors/registry.ts and reach
 * clients); these stop a benchmark run (bad flags, unreachable server) or describe one failed request.
 */

/** Stops the run: a bad flag, a server that cannot be reached, a model that cannot be found. */
export class BenchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BenchError';
  }
}

/**
 * One request failed. `key` groups failures in the report: the HTTP status (or gRPC code) and the server's message,
 * or the transport error. A failed request is counted and reported, never retried or hidden.
 */
export class RequestFailure extends Error {
  constructor(
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(key, options);
    this.name = 'RequestFailure';
  }
}

/** A short, grouping-friendly description of anything a request threw. */
export function failureKey(err: unknown): string {
  if (err instanceof RequestFailure) return err.key;
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}
