/**
 * A small protobuf wire-format reader and writer (https://protobuf.dev/programming-guides/encoding/) for the one
 * hot message pair, ModelInferRequest / ModelInferResponse. The generic codec (@grpc/proto-loader over protobufjs)
 * builds a JS object per message and per repeated element and converts it once more with `toObject`; here the
 * reader walks the bytes once and hands out views (`bytes` fields are subarrays of the received buffer), and the
 * writer sizes a message first and fills one buffer.
 *
 * Every malformed input is an RtError (BAD_REQUEST) naming the byte offset, never an exception from deep inside a
 * library: a bad message from one client must not look like a server fault.
 */
import { RtError } from '../../errors/registry.ts';

/** Wire types (protobuf encoding guide, "Message Structure"). */
export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_FIXED32 = 5;

const TWO_POW_32 = 4294967296;

export class WireReader {
  /** The two 32-bit halves of the last varint read by `varint64` (unsigned). */
  lo = 0;
  hi = 0;
  pos: number;

  constructor(
    readonly buf: Buffer,
    pos: number,
    readonly end: number,
    /** The message name for error messages ("ModelInferRequest"). */
    readonly what: string,
  ) {
    this.pos = pos;
  }

  static of(bytes: Uint8Array, what: string): WireReader {
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return new WireReader(buf, 0, buf.length, what);
  }

  fail(reason: string, at = this.pos): never {
    throw new RtError('BAD_REQUEST', `the ${this.what} message is malformed: ${reason} at byte ${at}`);
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /**
   * Reads a varint into `lo`/`hi` (up to 64 bits). Bytes past the tenth are refused, as is a varint that runs
   * past the end of the current message.
   */
  varint64(): void {
    const buf = this.buf;
    const end = this.end;
    let pos = this.pos;
    let lo = 0;
    let hi = 0;
    let b: number;
    // Bits 0..27 come from the first four bytes.
    for (let shift = 0; shift < 28; shift += 7) {
      if (pos >= end) this.fail('a varint runs past the end');
      b = buf[pos++]!;
      lo |= (b & 0x7f) << shift;
      if (b < 0x80) {
        this.lo = lo >>> 0;
        this.hi = 0;
        this.pos = pos;
        return;
      }
    }
    // The fifth byte carries bits 28..34: four go to `lo`, three to `hi`.
    if (pos >= end) this.fail('a varint runs past the end');
    b = buf[pos++]!;
    lo |= (b & 0x0f) << 28;
    hi = (b & 0x7f) >>> 4;
    if (b >= 0x80) {
      for (let shift = 3; ; shift += 7) {
        if (shift > 31) this.fail('a varint is longer than 10 bytes');
        if (pos >= end) this.fail('a varint runs past the end');
        b = buf[pos++]!;
        hi |= (b & 0x7f) << shift;
        if (b < 0x80) break;
      }
    }
    this.lo = lo >>> 0;
    this.hi = hi >>> 0;
    this.pos = pos;
  }

  /** A varint as an unsigned 32-bit number (tags, lengths, enums, uint32); higher bits are dropped as protobuf does. */
  uint32(): number {
    const buf = this.buf;
    const pos = this.pos;
    // One-byte fast path: tags and small lengths.
    if (pos < this.end) {
      const b = buf[pos]!;
      if (b < 0x80) {
        this.pos = pos + 1;
        return b;
      }
    }
    this.varint64();
    return this.lo;
  }

  /** A varint as a signed 32-bit number (int32: negative values are sign-extended to 10 bytes on the wire). */
  int32(): number {
    return this.uint32() | 0;
  }

  /** An int64 varint as a number; values beyond ±2^53 are refused (they cannot be a shape or a parameter here). */
  int64Number(field: string): number {
    this.varint64();
    const { lo, hi } = this;
    if (hi <= 0x1fffff) return hi * TWO_POW_32 + lo;
    if (hi >= 0xffe00000) {
      // Negative: two's complement over 64 bits, within -2^53.
      const v = -((~hi >>> 0) * TWO_POW_32 + (~lo >>> 0) + 1);
      if (v >= -Number.MAX_SAFE_INTEGER) return v;
    }
    return this.fail(`${field} is beyond ±2^53`);
  }

  /** A uint64 varint as a number; values beyond 2^53 are refused. */
  uint64Number(field: string): number {
    this.varint64();
    if (this.hi > 0x1fffff) this.fail(`${field} is beyond 2^53`);
    return this.hi * TWO_POW_32 + this.lo;
  }

  bool(): boolean {
    this.varint64();
    return (this.lo | this.hi) !== 0;
  }

  /** Reads a length prefix and returns the end offset of the field's bytes, checked against the message end. */
  lengthEnd(): number {
    const start = this.pos;
    const len = this.uint32();
    const end = this.pos + len;
    if (end > this.end) this.fail(`a length-delimited field declares ${len} bytes but only ${this.end - this.pos} remain`, start);
    return end;
  }

  /** A `bytes` field as a view over the message (no copy). */
  bytes(): Uint8Array {
    const end = this.lengthEnd();
    const out = this.buf.subarray(this.pos, end);
    this.pos = end;
    return out;
  }

  string(): string {
    const end = this.lengthEnd();
    const s = end === this.pos ? '' : this.buf.toString('utf8', this.pos, end);
    this.pos = end;
    return s;
  }

  float(): number {
    if (this.pos + 4 > this.end) this.fail('a fixed32 field runs past the end');
    const v = this.buf.readFloatLE(this.pos);
    this.pos += 4;
    return v;
  }

  double(): number {
    if (this.pos + 8 > this.end) this.fail('a fixed64 field runs past the end');
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }

  /** Skips a field of an unknown number (forward compatibility: unknown fields are ignored, not refused). */
  skip(wireType: number): void {
    switch (wireType) {
      case WIRE_VARINT:
        this.varint64();
        return;
      case WIRE_FIXED64:
        if (this.pos + 8 > this.end) this.fail('a fixed64 field runs past the end');
        this.pos += 8;
        return;
      case WIRE_LEN:
        this.pos = this.lengthEnd();
        return;
      case WIRE_FIXED32:
        if (this.pos + 4 > this.end) this.fail('a fixed32 field runs past the end');
        this.pos += 4;
        return;
      default:
        // Groups (3, 4) are proto2-only and never appear in these proto3 messages.
        this.fail(`unsupported wire type ${wireType}`);
    }
  }

  /** A sub-reader over [pos, end) of the same buffer, for an embedded message; advances this reader past it. */
  sub(what?: string): WireReader {
    const end = this.lengthEnd();
    const r = new WireReader(this.buf, this.pos, end, what ?? this.what);
    this.pos = end;
    return r;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

/** Bytes a non-negative integer below 2^53 takes as a varint. */
export function varintSize(n: number): number {
  if (n < 0x80) return 1;
  if (n < 0x4000) return 2;
  if (n < 0x200000) return 3;
  if (n < 0x10000000) return 4;
  let size = 5;
  // Past 2^35 step by 7 bits with division (bit operators are 32-bit).
  for (let v = Math.floor(n / 0x800000000); v > 0; v = Math.floor(v / 128)) size++;
  return size;
}

/** Bytes an int64 takes as a varint: negative values always take 10 (two's complement, sign-extended). */
export function int64Size(n: number): number {
  return n < 0 ? 10 : varintSize(n);
}

/** Bytes of a length-delimited field whose payload is `len` bytes, including its tag (field numbers below 16). */
export function lenFieldSize(len: number): number {
  return 1 + varintSize(len) + len;
}

/** UTF-8 byte length of a string, with an ASCII fast path (names and datatypes are ASCII in practice). */
export function utf8Length(s: string): number {
  const n = s.length;
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) > 0x7f) return Buffer.byteLength(s, 'utf8');
  return n;
}

/**
 * Writes into a buffer sized beforehand. Field numbers used with `tag` stay below 16, so every tag is one byte.
 */
export class WireWriter {
  pos = 0;

  constructor(readonly buf: Buffer) {}

  static alloc(size: number): WireWriter {
    return new WireWriter(Buffer.allocUnsafe(size));
  }

  tag(field: number, wireType: number): void {
    this.buf[this.pos++] = (field << 3) | wireType;
  }

  /** A non-negative integer below 2^53. */
  varint(n: number): void {
    const buf = this.buf;
    let pos = this.pos;
    while (n >= 0x80000000) {
      buf[pos++] = (n % 128) | 0x80;
      n = Math.floor(n / 128);
    }
    while (n >= 0x80) {
      buf[pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    buf[pos++] = n;
    this.pos = pos;
  }

  /** An int64 from a safe integer; negative values as 10-byte two's complement. */
  int64(n: number): void {
    if (n >= 0) {
      this.varint(n);
      return;
    }
    const big = BigInt.asUintN(64, BigInt(n));
    this.varint64Parts(Number(big & 0xffffffffn), Number(big >> 32n));
  }

  /** A 64-bit varint from its unsigned halves. */
  varint64Parts(lo: number, hi: number): void {
    const buf = this.buf;
    let pos = this.pos;
    while (hi !== 0 || lo > 0x7f) {
      buf[pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    buf[pos++] = lo;
    this.pos = pos;
  }

  /** A string field's payload with its length prefix; `byteLength` from `utf8Length`. */
  stringField(field: number, s: string, byteLength: number): void {
    this.tag(field, WIRE_LEN);
    this.varint(byteLength);
    if (byteLength === s.length) {
      // ASCII: one byte per char, no encoder call.
      const buf = this.buf;
      let pos = this.pos;
      for (let i = 0; i < byteLength; i++) buf[pos++] = s.charCodeAt(i);
      this.pos = pos;
    } else {
      this.pos += this.buf.write(s, this.pos, byteLength, 'utf8');
    }
  }

  bytesField(field: number, bytes: Uint8Array): void {
    this.tag(field, WIRE_LEN);
    this.varint(bytes.byteLength);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.byteLength;
  }

  /** A length prefix for an embedded message or packed field whose payload follows. */
  lenHeader(field: number, len: number): void {
    this.tag(field, WIRE_LEN);
    this.varint(len);
  }

  double(v: number): void {
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }

  bool(v: boolean): void {
    this.buf[this.pos++] = v ? 1 : 0;
  }
}
