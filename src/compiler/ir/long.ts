/** protobufjs hands 64-bit integers back as Long objects when the `long` package is present. */
export interface LongLike {
  toString(): string;
}

export function toNumber(v: number | LongLike | null | undefined): number {
  if (v === null || v === undefined) return 0;
  return typeof v === 'number' ? v : Number(v.toString());
}

/**
 * A value for an int64 protobuf field. protobufjs converts a JS number through a double; for magnitudes past
 * 2^53 (INT64_MAX in Slice ends, for instance) it accepts a decimal string instead, which stays exact.
 */
export function toInt64Field(v: number): number {
  if (Number.isSafeInteger(v)) return v;
  const clamped = v >= 9.2e18 ? 2n ** 63n - 1n : v <= -9.2e18 ? -(2n ** 63n) : BigInt(Math.trunc(v));
  // protobufjs' LongBits.from accepts strings when `long` is installed; the typings only list number | Long.
  return clamped.toString() as unknown as number;
}
