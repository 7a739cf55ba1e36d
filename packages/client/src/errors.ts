/**
 * The one error type the SDK throws. It carries what the server said — the registry code (`QUEUE_FULL`,
 * `BAD_SHAPE`, ...), its category, whether retrying can succeed and the server's retry hint — whichever
 * transport the request went over. Client-side failures (connection lost, bad arguments) use the same type with
 * the registry codes that describe them.
 */
import { CATEGORY_MAPPING, ERROR_CODES, type ErrorCategory, type ErrorCode } from '../../../src/errors/registry.ts';

export class RtserveError extends Error {
  override readonly name = 'RtserveError';

  constructor(
    /** A code of rtserve's error registry (docs/errors.md), e.g. `QUEUE_FULL`. */
    readonly code: string,
    message: string,
    readonly details: {
      /** The registry category, e.g. `RESOURCE_EXHAUSTED`. */
      readonly category?: string;
      readonly retryable?: boolean;
      readonly retryAfterMs?: number;
      /** HTTP status (REST and SSE). */
      readonly status?: number;
      /** WebSocket close code when the error closed the connection. */
      readonly closeCode?: number;
      readonly cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }

  get category(): string | undefined {
    return this.details.category;
  }
  get retryable(): boolean {
    return this.details.retryable ?? false;
  }
  get retryAfterMs(): number | undefined {
    return this.details.retryAfterMs;
  }
  get status(): number | undefined {
    return this.details.status;
  }
}

/**
 * An RtserveError from a server error body `{"error": message, "code"?: CODE}` (REST, SSE) and its HTTP status.
 * The category and retryability come from the registry (src/errors/registry.ts has no Node-only imports), so
 * client and server agree on them.
 */
export function errorFromHttp(status: number, body: unknown, retryAfterHeader: string | null): RtserveError {
  const obj = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const message = typeof obj['error'] === 'string' ? obj['error'] : `HTTP ${status}`;
  let code = typeof obj['code'] === 'string' ? obj['code'] : undefined;
  let category = code !== undefined && code in ERROR_CODES ? ERROR_CODES[code as ErrorCode].category : undefined;
  if (category === undefined) {
    for (const [name, m] of Object.entries(CATEGORY_MAPPING)) {
      if (m.http === status) {
        category = name as ErrorCategory;
        break;
      }
    }
  }
  code ??= category ?? 'INTERNAL';
  const seconds = retryAfterHeader === null ? Number.NaN : Number(retryAfterHeader);
  const retryable = category === undefined ? status >= 500 : CATEGORY_MAPPING[category].retryable;
  return new RtserveError(code, message, {
    ...(category === undefined ? {} : { category }),
    retryable,
    ...(Number.isFinite(seconds) ? { retryAfterMs: seconds * 1000 } : {}),
    status,
  });
}
