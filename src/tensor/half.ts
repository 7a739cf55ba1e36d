/**
 * IEEE 754 binary16 (FP16) and bfloat16 (BF16) conversions.
 *
 * KServe v2 (docs/protocol.md §2.2) carries FP16 and BF16 tensors as raw 16-bit patterns (tensor/datatype.ts keeps them in
 * Uint16Array); JSON has only doubles, so the JSON codec converts numbers to bits here and back. Conversions from
 * a JS number round once, directly from the 64-bit double to the 16-bit format, with round-to-nearest-even
 * (IEEE 754 §4.3.1). Going through Math.fround first would round twice and can be off by one ulp at ties.
 *
 * No Node-only imports: the client codec uses this module in browsers too.
 */

const scratchF64 = new Float64Array(1);
const scratchU32 = new Uint32Array(scratchF64.buffer);
/** Index of the high 32-bit word of a double in `scratchU32` (depends on the host's byte order). */
const HIGH_WORD = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/**
 * Exact powers of two 2^k for k in [POW2_MIN, POW2_MAX], built by repeated doubling/halving so that no
 * platform `Math.pow` rounding can creep in.
 */
const POW2_MIN = -1100;
const POW2_MAX = 200;
const POW2 = new Float64Array(POW2_MAX - POW2_MIN + 1);
fillPowersOfTwo();
function fillPowersOfTwo(): void {
  POW2[-POW2_MIN] = 1;
  for (let k = 1; k <= POW2_MAX; k++) POW2[k - POW2_MIN] = POW2[k - 1 - POW2_MIN]! * 2;
  for (let k = -1; k >= POW2_MIN; k--) POW2[k - POW2_MIN] = POW2[k + 1 - POW2_MIN]! / 2;
}

/**
 * Rounds a double to a small binary float format with `expBits` exponent bits and `mantBits` stored mantissa
 * bits, returning its bit pattern. Handles subnormals, overflow to infinity, signed zero and NaN.
 */
function roundToSmallFloat(value: number, expBits: number, mantBits: number, quietNaN: number): number {
  scratchF64[0] = value;
  const hi = scratchU32[HIGH_WORD]!;
  const signBit = (hi >>> 31) << (expBits + mantBits);
  const doubleExp = (hi >>> 20) & 0x7ff;
  const infBits = ((1 << expBits) - 1) << mantBits;
  if (doubleExp === 0x7ff) return value !== value ? quietNaN : signBit | infBits;
  const bias = (1 << (expBits - 1)) - 1;
  const minExp = 1 - bias;
  // Unbiased exponent of the double; values below the target's normal range share its subnormal scale.
  let exp = doubleExp - 1023;
  if (exp < minExp) exp = minExp;
  // Scaling by a power of two is exact, so `scaled` holds the value in units of the target's last place.
  const scaled = Math.abs(value) * POW2[mantBits - exp - POW2_MIN]!;
  let units = Math.floor(scaled);
  const rest = scaled - units;
  if (rest > 0.5 || (rest === 0.5 && (units & 1) === 1)) units++;
  // (exp - minExp) << mantBits + units is the encoding for normals and subnormals alike; a mantissa that
  // rounds up to 2^(mantBits+1) carries into the exponent by itself.
  const bits = (exp - minExp) * (1 << mantBits) + units;
  return signBit | Math.min(bits, infBits);
}

/** Bits of the FP16 nearest to `value` (round-to-nearest-even; overflow gives ±Inf; NaN gives 0x7e00). */
export function floatToHalfBits(value: number): number {
  return roundToSmallFloat(value, 5, 10, 0x7e00);
}

/** Bits of the BF16 nearest to `value` (round-to-nearest-even; overflow gives ±Inf; NaN gives 0x7fc0). */
export function floatToBf16Bits(value: number): number {
  return roundToSmallFloat(value, 8, 7, 0x7fc0);
}

/** Lazily built table of all 65536 FP16 values (every FP16 value is exact in float32). */
let halfTable: Float32Array | undefined;

function buildHalfTable(): Float32Array {
  const table = new Float32Array(65536);
  for (let bits = 0; bits < 65536; bits++) {
    const sign = bits & 0x8000 ? -1 : 1;
    const exp = (bits >>> 10) & 0x1f;
    const mant = bits & 0x3ff;
    let v: number;
    if (exp === 0) v = sign * mant * POW2[-24 - POW2_MIN]!;
    else if (exp === 0x1f) v = mant === 0 ? sign * Infinity : NaN;
    else v = sign * (1024 + mant) * POW2[exp - 25 - POW2_MIN]!;
    table[bits] = v;
  }
  return table;
}

function getHalfTable(): Float32Array {
  halfTable ??= buildHalfTable();
  return halfTable;
}

/** The number an FP16 bit pattern encodes. */
export function halfBitsToFloat(bits: number): number {
  return getHalfTable()[bits & 0xffff]!;
}

const scratchF32 = new Float32Array(1);
const scratchF32U32 = new Uint32Array(scratchF32.buffer);

/** The number a BF16 bit pattern encodes (BF16 is the high half of a float32). */
export function bf16BitsToFloat(bits: number): number {
  scratchF32U32[0] = (bits & 0xffff) << 16;
  return scratchF32[0]!;
}

/** Decodes a whole FP16 array to float32 (exact). */
export function halfArrayToFloat32(src: Uint16Array): Float32Array {
  const table = getHalfTable();
  const out = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) out[i] = table[src[i]!]!;
  return out;
}

/** Decodes a whole BF16 array to float32 (exact: shifts each pattern into the high half of a float32). */
export function bf16ArrayToFloat32(src: Uint16Array): Float32Array {
  const words = new Uint32Array(src.length);
  for (let i = 0; i < src.length; i++) words[i] = src[i]! << 16;
  return new Float32Array(words.buffer, 0, src.length);
}

/** Encodes numbers as FP16 bit patterns (round-to-nearest-even from each value's double). */
export function floatArrayToHalf(src: ArrayLike<number>): Uint16Array {
  const out = new Uint16Array(src.length);
  for (let i = 0; i < src.length; i++) out[i] = floatToHalfBits(src[i]!);
  return out;
}

/** Encodes numbers as BF16 bit patterns (round-to-nearest-even from each value's double). */
export function floatArrayToBf16(src: ArrayLike<number>): Uint16Array {
  const out = new Uint16Array(src.length);
  for (let i = 0; i < src.length; i++) out[i] = floatToBf16Bits(src[i]!);
  return out;
}
