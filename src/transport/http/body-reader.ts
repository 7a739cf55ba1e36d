/**
 * Reads a request body for fastify's catch-all content-type parser. Fastify's own reader (parseAs 'buffer') keeps
 * every socket chunk and joins them with Buffer.concat into a fresh allocation at the end; for a large body with a
 * Content-Length this one copies each chunk on arrival into a buffer from the request-body pool
 * (core/request-buffer-pool.ts), memory that is already mapped, so a 10 MB body costs one warm copy and no new
 * garbage. Small bodies, bodies without a Content-Length and bodies behind a preParsing stream are read the way
 * fastify reads them. The errors are fastify's, so the error mapping (errors.ts) and the status codes stay: 413
 * over the limit (before anything is read when Content-Length says so), 400 when the body does not match its
 * Content-Length.
 */
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { errorCodes } from 'fastify';
import { POOLED_BODY_MIN_BYTES, requestBufferPool } from '../../core/request-buffer-pool.ts';

export type BodyDone = (err: Error | null, body?: Buffer) => void;

export function readBody(raw: IncomingMessage, payload: Readable, limit: number, done: BodyDone): void {
  const contentLength = Number(raw.headers['content-length']);
  if (contentLength > limit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  const pooled = payload === raw && Number.isSafeInteger(contentLength) && contentLength >= POOLED_BODY_MIN_BYTES;
  const body = pooled ? requestBufferPool.acquire(contentLength) : undefined;
  const chunks: Buffer[] = [];
  let received = 0;
  let finished = false;
  const finish = (err: Error | null, result?: Buffer): void => {
    if (finished) return;
    finished = true;
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    done(err, result);
  };
  const onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    received += bytes.byteLength;
    if (received > limit) {
      finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    if (body === undefined) chunks.push(bytes);
    else if (received > body.byteLength) finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    else body.set(bytes, received - bytes.byteLength);
  };
  const onEnd = (): void => {
    const encoded = (payload as { receivedEncodedLength?: number }).receivedEncodedLength;
    if (!Number.isNaN(contentLength) && (encoded || received) !== contentLength) {
      finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      return;
    }
    finish(null, body ?? Buffer.concat(chunks, received));
  };
  const onError = (err: Error & { statusCode?: number }): void => {
    if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
    finish(err);
  };
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}
