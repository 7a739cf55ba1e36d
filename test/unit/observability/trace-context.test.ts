import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTraceparent, parseTraceparent, traceFromHeaders } from '../../../src/observability/trace-context.ts';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

describe('W3C traceparent', () => {
  test('parses the spec example', () => {
    assert.deepEqual(parseTraceparent(`00-${TRACE}-${PARENT}-01`), { traceId: TRACE, parentSpanId: PARENT, flags: '01' });
  });

  test('refuses what §3.2 calls invalid', () => {
    for (const bad of [
      undefined,
      '',
      `00-${TRACE}-${PARENT}`, // three fields
      `00-${TRACE.toUpperCase()}-${PARENT}-01`, // uppercase hex
      `00-${'0'.repeat(32)}-${PARENT}-01`, // all-zero trace id
      `00-${TRACE}-${'0'.repeat(16)}-01`, // all-zero parent id
      `ff-${TRACE}-${PARENT}-01`, // version ff
      `00-${TRACE}-${PARENT}-01-extra`, // version 00 has exactly four fields
      `00-${TRACE.slice(1)}-${PARENT}-01`, // short trace id
    ]) {
      assert.equal(parseTraceparent(bad), undefined, String(bad));
    }
  });

  test('a future version may carry more fields after the four it shares with 00', () => {
    assert.deepEqual(parseTraceparent(`01-${TRACE}-${PARENT}-00-whatever`), { traceId: TRACE, parentSpanId: PARENT, flags: '00' });
  });

  test('joining a trace keeps its id and flags, makes a new span and passes tracestate on', () => {
    const t = traceFromHeaders(`00-${TRACE}-${PARENT}-00`, 'vendor=abc');
    assert.equal(t.traceId, TRACE);
    assert.equal(t.parentSpanId, PARENT);
    assert.equal(t.flags, '00');
    assert.equal(t.tracestate, 'vendor=abc');
    assert.match(t.spanId, /^[0-9a-f]{16}$/);
    assert.notEqual(t.spanId, PARENT);
    assert.equal(formatTraceparent(t), `00-${TRACE}-${t.spanId}-00`);
    assert.deepEqual(parseTraceparent(formatTraceparent(t)), { traceId: TRACE, parentSpanId: t.spanId, flags: '00' });
  });

  test('without a valid traceparent a new trace starts and tracestate is dropped', () => {
    const a = traceFromHeaders('garbage', 'vendor=abc');
    const b = traceFromHeaders(undefined, undefined);
    assert.match(a.traceId, /^[0-9a-f]{32}$/);
    assert.notEqual(a.traceId, b.traceId);
    assert.equal(a.parentSpanId, undefined);
    assert.equal(a.tracestate, undefined);
    assert.equal(a.flags, '01');
  });
});
