/**
 * The one place the WebSocket front end maps errors (docs/ws-protocol.md "Errors and close codes"): an RtError
 * becomes the `error` object of an error event — registry code and category, message, whether a retry can
 * succeed and the server's retry hint — and, when fatal to the socket, the registry's close code. Anything that
 * is not an RtError becomes INTERNAL without details (the original goes to the log).
 */
import { toRtError, type RtError } from '../../errors/registry.ts';
import type { Logger } from '../../observability/logger.ts';
import type { WsErrorBody } from '../../codec/ws-protocol.ts';

export function wsErrorBody(err: RtError, param?: string): WsErrorBody {
  return {
    code: err.code,
    category: err.category,
    message: err.message,
    retryable: err.retryable,
    ...(err.retryAfterMs !== undefined && { retry_after_ms: err.retryAfterMs }),
    ...(param !== undefined && { param }),
  };
}

/** Normalizes a thrown value, logging internal errors once with their cause. */
export function wsError(err: unknown, log: Logger): RtError {
  const e = toRtError(err);
  if (e.category === 'INTERNAL') log.error({ err: e.cause ?? e, code: e.code }, 'internal error on a WebSocket request');
  return e;
}
