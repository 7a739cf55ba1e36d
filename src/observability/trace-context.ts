import { randomFillSync } from 'node:crypto';

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): `traceparent: 00-<trace-id>-<parent-id>-<flags>`.
 * rtserve joins the caller's trace (or starts one), gives its own work a new span id, and reports that span as
 * the parent on its responses, so a client or proxy can correlate its logs with rtserve's.
 */
export interface TraceContext {
  /** 32 lowercase hex digits, never all zeros. */
  readonly traceId: string;
  /** rtserve's span for this request: 16 lowercase hex digits. */
  readonly spanId: string;
  /** The caller's span id when a valid traceparent came in. */
  readonly parentSpanId?: string;
  /** trace-flags, 2 hex digits (01 = sampled). */
  readonly flags: string;
  /** The caller's tracestate, passed on unchanged (§3.3: vendors may only edit their own entries). */
  readonly tracestate?: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/**
 * Parses a traceparent header. Per §3.2: version ff is invalid; version 00 must have exactly four fields; a
 * higher version may carry more fields after the fourth (parsed by its 00 prefix); all-zero ids are invalid.
 */
export function parseTraceparent(header: string | undefined): { traceId: string; parentSpanId: string; flags: string } | undefined {
  if (header === undefined) return undefined;
  const m = TRACEPARENT.exec(header.trim());
  if (m === null) return undefined;
  const [, version, traceId, parentSpanId, flags, rest] = m;
  if (version === undefined || traceId === undefined || parentSpanId === undefined || flags === undefined) return undefined;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || parentSpanId === ZERO_SPAN) return undefined;
  return { traceId, parentSpanId, flags };
}

/**
 * Random bytes for span and trace ids come from a pool refilled 4 KiB at a time: one `randomFillSync` per ~170
 * requests instead of a `randomBytes` call (and its Buffer) per id, which the c = 1 profile put at ~33 µs of CPU
 * per request (bench/results/foundation-findings.md).
 */
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let poolOffset = POOL_BYTES;

function randomHex(bytes: number, zero: string): string {
  for (;;) {
    if (poolOffset + bytes > POOL_BYTES) {
      randomFillSync(pool);
      poolOffset = 0;
    }
    const hex = pool.toString('hex', poolOffset, poolOffset + bytes);
    poolOffset += bytes;
    if (hex !== zero) return hex;
  }
}

/** Joins the incoming trace (when its traceparent is valid) or starts a new, sampled one. */
export function traceFromHeaders(traceparent: string | undefined, tracestate: string | undefined): TraceContext {
  const parsed = parseTraceparent(traceparent);
  const spanId = randomHex(8, ZERO_SPAN);
  if (parsed === undefined) return { traceId: randomHex(16, ZERO_TRACE), spanId, flags: '01' };
  // tracestate without a valid traceparent is dropped (§3.3.1.1).
  const state = tracestate?.trim();
  return {
    traceId: parsed.traceId,
    spanId,
    parentSpanId: parsed.parentSpanId,
    flags: parsed.flags,
    ...(state === undefined || state === '' ? {} : { tracestate: state }),
  };
}

/** The traceparent rtserve sends on: same trace, rtserve's span as the parent. */
export function formatTraceparent(t: TraceContext): string {
  return `00-${t.traceId}-${t.spanId}-${t.flags}`;
}
