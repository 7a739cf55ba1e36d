/**
 * The one place the gRPC front end maps errors: the registry's gRPC status (RtError.grpcStatus, google.rpc.Code
 * numbers; KServe v2 gRPC errors are google.rpc.Status per OIP inference_grpc.md) with the error's message as
 * the status details. Trailing metadata carries the registry code (`rtserve-error-code`) and, for overload, the
 * retry hint in milliseconds (`retry-after-ms`). Anything that is not an RtError becomes INTERNAL with a generic
 * message; the original goes to the log, never to the client.
 */
import { Metadata, type StatusObject } from '@grpc/grpc-js';
import { toRtError, type RtError } from '../../errors/registry.ts';
import type { Logger } from '../../observability/logger.ts';

export function toStatus(err: unknown, log: Logger): StatusObject {
  const e: RtError = toRtError(err);
  if (e.category === 'INTERNAL') log.error({ err: e.cause ?? e, code: e.code }, 'internal error');
  const metadata = new Metadata();
  metadata.set('rtserve-error-code', e.code);
  if (e.retryAfterMs !== undefined) metadata.set('retry-after-ms', String(Math.max(1, Math.ceil(e.retryAfterMs))));
  return { code: e.grpcStatus, details: e.message, metadata };
}
