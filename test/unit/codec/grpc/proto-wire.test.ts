import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Reader, Writer } from 'protobufjs';
import { RtError } from '../../../../src/errors/registry.ts';
import { WIRE_LEN, WireReader, WireWriter, int64Size, varintSize } from '../../../../src/codec/grpc/proto-wire.ts';
import { fuzzParams } from '../../../helpers/fuzz.ts';

/** protobufjs (an independent implementation) is the reference for the varint encoding. */
function pbjsInt64(n: bigint): Uint8Array {
  return Writer.create()
    .int64(n.toString() as unknown as number)
    .finish();
}

describe('WireReader varints agree with protobufjs', () => {
  test('int64 values within ±2^53 round-trip, including negatives (10-byte sign extension)', (t) => {
    fc.assert(
      fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => {
        const bytes = pbjsInt64(BigInt(n));
        const r = WireReader.of(bytes, 'test');
        assert.equal(r.int64Number('v'), n);
        assert.equal(r.pos, bytes.length);
        assert.equal(int64Size(n), bytes.length);
      }),
      fuzzParams(t),
    );
  });

  test('varint64 halves match for any 64-bit value', (t) => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (v) => {
        const bytes = Writer.create()
          .uint64(v.toString() as unknown as number)
          .finish();
        const r = WireReader.of(bytes, 'test');
        r.varint64();
        assert.equal((BigInt(r.hi) << 32n) | BigInt(r.lo), v);
      }),
      fuzzParams(t),
    );
  });

  test('values beyond 2^53 are refused as numbers with a message, not silently rounded', () => {
    const r = WireReader.of(pbjsInt64(2n ** 60n), 'ModelInferRequest');
    assert.throws(
      () => r.int64Number('a dimension'),
      (e: unknown) => e instanceof RtError && e.category === 'INVALID_ARGUMENT' && /a dimension is beyond/.test(e.message),
    );
  });

  test('truncated and over-long varints are BAD_REQUEST errors naming where the varint starts', () => {
    const r = WireReader.of(Uint8Array.of(0x08, 0x80, 0x80), 'M');
    r.uint32();
    assert.throws(() => r.varint64(), /the M message is malformed: a varint runs past the end at byte 1/);
    const eleven = new Uint8Array(11).fill(0x80);
    assert.throws(() => WireReader.of(eleven, 'M').varint64(), /longer than 10 bytes/);
  });

  test('a length prefix beyond the message is refused', () => {
    const bytes = Writer.create()
      .uint32((1 << 3) | WIRE_LEN)
      .uint32(100)
      .finish();
    const r = WireReader.of(bytes, 'M');
    r.uint32();
    assert.throws(() => r.bytes(), /declares 100 bytes but only 0 remain/);
  });
});

describe('WireWriter agrees with protobufjs Reader', () => {
  test('varint and int64 writes decode back', (t) => {
    fc.assert(
      fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => {
        const w = WireWriter.alloc(int64Size(n));
        w.int64(n);
        assert.equal(w.pos, w.buf.length);
        const back = Reader.create(w.buf).int64();
        assert.equal(BigInt(back.toString()), BigInt(n));
        if (n >= 0) assert.equal(varintSize(n), w.buf.length);
      }),
      fuzzParams(t),
    );
  });

  test('string fields: ASCII fast path and UTF-8', () => {
    for (const s of ['', 'OUTPUT0', 'héllo ✓ 名前']) {
      const len = Buffer.byteLength(s);
      const w = WireWriter.alloc(1 + varintSize(len) + len);
      w.stringField(3, s, len);
      const r = Reader.create(w.buf);
      assert.equal(r.uint32(), (3 << 3) | WIRE_LEN);
      assert.equal(r.string(), s);
    }
  });
});
