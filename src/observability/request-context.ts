import { randomUUID } from 'node:crypto';
import { traceFromHeaders, type TraceContext } from './trace-context.ts';

/**
 * What one request carries through the server for logs and traces: its id, its W3C trace context, and the
 * stage timings the core fills in. Front ends create it at the edge and hand it to the core on the request
 * (`InferRequest.context`). It travels explicitly rather than in an AsyncLocalStorage: enabling one makes Node run
 * an async hook for every promise in the process, which cost the REST path a few µs of CPU per request
 * (bench/results/hotpath-2026-11-30.md).
 */
export interface RequestContext {
  readonly requestId: string;
  readonly trace: TraceContext;
  readonly protocol: string;
  /** hrtime when the edge received the request. */
  readonly receivedNs: bigint;
  /** Filled in by the core. */
  model?: string;
  version?: string;
  batchSize?: number;
  /** 'hit' | 'miss' when the model has the response cache enabled. */
  cache?: 'hit' | 'miss';
  /** hrtime when the core took the request (after the edge decoded it) and when it answered. */
  coreStartNs?: bigint;
  coreEndNs?: bigint;
  /** Microseconds the core spent validating, and waiting for the scheduler (queue + batch execution). */
  validateUs?: number;
  schedulerUs?: number;
  /** Stage timestamps (hrtime) for traces (otel-tracing.ts): enqueued, dispatched to an instance, batch inputs
   * gathered from computeStartNs, engine run until computeEndNs; and how many requests shared the batch. */
  enqueuedNs?: bigint;
  dispatchNs?: bigint;
  batchStartNs?: bigint;
  computeStartNs?: bigint;
  computeEndNs?: bigint;
  batchRequests?: number;
}

const SAFE_ID = /^[\w.:@/+=-]{1,128}$/;

/** A client-supplied request id (X-Request-Id) when it is short and plain, otherwise a fresh UUID. */
export function requestIdFrom(header: string | undefined): string {
  return header !== undefined && SAFE_ID.test(header) ? header : randomUUID();
}

/** What a front end read of the client's request ids: X-Request-Id (REST, gRPC metadata) or the message's own id. */
export interface EdgeIds {
  readonly requestId?: string | undefined;
}

/** The client's W3C trace context: HTTP headers, gRPC metadata, or fields of a WebSocket event of the same names. */
export interface TraceHeaders {
  readonly traceparent?: string | undefined;
  readonly tracestate?: string | undefined;
}

/**
 * The context of one request as a front end receives it, made the same way by every front end (REST, gRPC unary
 * and streams, WebSocket, SSE, the image route) whether tracing is on or not: the client's id when it is plain (else a
 * new UUID), the caller's trace joined (else a new one), the protocol, and `receivedNs` (now, unless the edge
 * noted it earlier).
 */
export function edgeContext(protocol: string, ids: EdgeIds, trace: TraceHeaders, receivedNs: bigint = process.hrtime.bigint()): RequestContext {
  return { requestId: requestIdFrom(ids.requestId), trace: traceFromHeaders(trace.traceparent, trace.tracestate), protocol, receivedNs };
}

/** Stage timings of a finished request in microseconds, for its log line. */
export function stageTimingsUs(ctx: RequestContext, endNs: bigint): Record<string, number> {
  const us = (ns: bigint): number => Math.round(Number(ns) / 1000);
  const out: Record<string, number> = { totalUs: us(endNs - ctx.receivedNs) };
  if (ctx.coreStartNs !== undefined) out['decodeUs'] = us(ctx.coreStartNs - ctx.receivedNs);
  if (ctx.validateUs !== undefined) out['validateUs'] = ctx.validateUs;
  if (ctx.schedulerUs !== undefined) out['schedulerUs'] = ctx.schedulerUs;
  if (ctx.coreEndNs !== undefined) out['encodeUs'] = us(endNs - ctx.coreEndNs);
  return out;
}
