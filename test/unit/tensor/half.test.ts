import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { bf16ArrayToFloat32, bf16BitsToFloat, floatArrayToBf16, floatArrayToHalf, floatToBf16Bits, floatToHalfBits, halfArrayToFloat32, halfBitsToFloat } from '../../../src/tensor/half.ts';

const hex = (n: number): string => `0x${n.toString(16).padStart(4, '0')}`;

describe('FP16', () => {
  test('known bit patterns', () => {
    const cases: Array<[number, number]> = [
      [0, 0x0000],
      [-0, 0x8000],
      [1, 0x3c00],
      [-2, 0xc000],
      [0.5, 0x3800],
      [65504, 0x7bff], // largest finite
      [2 ** -14, 0x0400], // smallest normal
      [2 ** -24, 0x0001], // smallest subnormal
      [2 ** -14 - 2 ** -24, 0x03ff], // largest subnormal
      [0.1, 0x2e66],
      [1 / 3, 0x3555],
      [Infinity, 0x7c00],
      [-Infinity, 0xfc00],
    ];
    for (const [value, bits] of cases) {
      assert.equal(hex(floatToHalfBits(value)), hex(bits), `floatToHalfBits(${value})`);
    }
  });

  test('NaN encodes to the canonical quiet NaN and decodes to NaN', () => {
    assert.equal(hex(floatToHalfBits(NaN)), '0x7e00');
    assert.ok(Number.isNaN(halfBitsToFloat(0x7e00)));
    assert.ok(Number.isNaN(halfBitsToFloat(0x7c01)));
    assert.ok(Number.isNaN(halfBitsToFloat(0xfe00)));
  });

  test('decodes known patterns', () => {
    assert.equal(halfBitsToFloat(0x3c00), 1);
    assert.equal(halfBitsToFloat(0xc000), -2);
    assert.equal(halfBitsToFloat(0x7bff), 65504);
    assert.equal(halfBitsToFloat(0x0001), 2 ** -24);
    assert.equal(halfBitsToFloat(0x7c00), Infinity);
    assert.equal(halfBitsToFloat(0xfc00), -Infinity);
    assert.ok(Object.is(halfBitsToFloat(0x8000), -0));
  });

  test('rounds to nearest, ties to even', () => {
    // 1 + 2^-11 is halfway between 1 (0x3c00, even) and 1 + 2^-10 (0x3c01): ties go to even.
    assert.equal(hex(floatToHalfBits(1 + 2 ** -11)), '0x3c00');
    // 1 + 3·2^-11 is halfway between 0x3c01 (odd) and 0x3c02 (even).
    assert.equal(hex(floatToHalfBits(1 + 3 * 2 ** -11)), '0x3c02');
    // Just above the tie rounds up. Rounding through float32 first would lose 2^-30 and round down (double
    // rounding); the direct conversion must not.
    assert.equal(hex(floatToHalfBits(1 + 2 ** -11 + 2 ** -30)), '0x3c01');
    assert.equal(hex(floatToHalfBits(1 + 2 ** -11 - 2 ** -30)), '0x3c00');
    // Subnormal ties: 2^-25 is halfway between 0 and the smallest subnormal.
    assert.equal(hex(floatToHalfBits(2 ** -25)), '0x0000');
    assert.equal(hex(floatToHalfBits(3 * 2 ** -25)), '0x0002');
    assert.equal(hex(floatToHalfBits(2 ** -25 * 1.0001)), '0x0001');
    assert.equal(hex(floatToHalfBits(-(2 ** -26))), '0x8000');
    // Overflow: 65520 is halfway between 65504 and 65536 (Inf): even wins, which is Inf.
    assert.equal(hex(floatToHalfBits(65519.99)), '0x7bff');
    assert.equal(hex(floatToHalfBits(65520)), '0x7c00');
    assert.equal(hex(floatToHalfBits(-1e10)), '0xfc00');
    // A mantissa that rounds up carries into the exponent.
    assert.equal(hex(floatToHalfBits(2 - 2 ** -12)), '0x4000');
  });

  test('every FP16 value round-trips exactly', () => {
    for (let bits = 0; bits < 0x10000; bits++) {
      const v = halfBitsToFloat(bits);
      if (Number.isNaN(v)) continue;
      assert.equal(floatToHalfBits(v), bits, `bits ${hex(bits)} → ${v}`);
    }
  });

  test('conversion picks the nearest FP16 (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 65504, noNaN: true }), (x) => {
        const bits = floatToHalfBits(x);
        const v = halfBitsToFloat(bits);
        const err = Math.abs(x - v);
        for (const n of [bits - 1, bits + 1]) {
          if (n < 0 || n > 0x7bff) continue;
          const other = Math.abs(x - halfBitsToFloat(n));
          assert.ok(err < other || (err === other && (bits & 1) === 0), `${x} → ${hex(bits)}; ${hex(n)} is nearer or wins the tie`);
        }
        assert.equal(floatToHalfBits(-x), bits | 0x8000);
      }),
      { numRuns: 2000 },
    );
  });

  test('array helpers match the scalar functions', () => {
    const values = [1, -2.5, 0.1, 70000, NaN];
    const bits = floatArrayToHalf(values);
    assert.deepEqual([...bits], values.map(floatToHalfBits));
    const back = halfArrayToFloat32(bits);
    assert.deepEqual([...back].slice(0, 4), [1, -2.5, halfBitsToFloat(0x2e66), Infinity]);
    assert.ok(Number.isNaN(back[4]));
  });
});

describe('BF16', () => {
  test('known bit patterns', () => {
    const cases: Array<[number, number]> = [
      [0, 0x0000],
      [-0, 0x8000],
      [1, 0x3f80],
      [-2, 0xc000],
      [Math.PI, 0x4049],
      [0.1, 0x3dcd],
      [2 ** -133, 0x0001], // smallest subnormal
      [2 ** -126, 0x0080], // smallest normal
      [(2 - 2 ** -7) * 2 ** 127, 0x7f7f], // largest finite
      [Infinity, 0x7f80],
      [-Infinity, 0xff80],
      [1e39, 0x7f80], // beyond float32 too
    ];
    for (const [value, bits] of cases) {
      assert.equal(hex(floatToBf16Bits(value)), hex(bits), `floatToBf16Bits(${value})`);
    }
    assert.equal(hex(floatToBf16Bits(NaN)), '0x7fc0');
  });

  test('rounds to nearest, ties to even', () => {
    assert.equal(hex(floatToBf16Bits(1 + 2 ** -8)), '0x3f80');
    assert.equal(hex(floatToBf16Bits(1 + 3 * 2 ** -8)), '0x3f82');
    assert.equal(hex(floatToBf16Bits(1 + 2 ** -8 + 2 ** -40)), '0x3f81'); // no double rounding via float32
    assert.equal(hex(floatToBf16Bits((2 - 2 ** -8) * 2 ** 127)), '0x7f80'); // tie at the top goes to Inf (even)
    assert.equal(hex(floatToBf16Bits(2 ** -134)), '0x0000'); // subnormal tie to even (0)
    assert.equal(hex(floatToBf16Bits(3 * 2 ** -134)), '0x0002');
  });

  test('decodes by shifting into the high half of a float32', () => {
    assert.equal(bf16BitsToFloat(0x3f80), 1);
    assert.equal(bf16BitsToFloat(0x4049), 3.140625);
    assert.equal(bf16BitsToFloat(0xff80), -Infinity);
    assert.ok(Number.isNaN(bf16BitsToFloat(0x7fc0)));
    assert.ok(Object.is(bf16BitsToFloat(0x8000), -0));
  });

  test('every BF16 value round-trips exactly', () => {
    for (let bits = 0; bits < 0x10000; bits++) {
      const v = bf16BitsToFloat(bits);
      if (Number.isNaN(v)) continue;
      assert.equal(floatToBf16Bits(v), bits, `bits ${hex(bits)} → ${v}`);
    }
  });

  test('conversion picks the nearest BF16 (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 3.3e38, noNaN: true }), (x) => {
        const bits = floatToBf16Bits(x);
        const err = Math.abs(x - bf16BitsToFloat(bits));
        for (const n of [bits - 1, bits + 1]) {
          if (n < 0 || n > 0x7f7f) continue;
          const other = Math.abs(x - bf16BitsToFloat(n));
          assert.ok(err < other || (err === other && (bits & 1) === 0), `${x} → ${hex(bits)}; ${hex(n)} is nearer`);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('array helpers match the scalar functions', () => {
    const values = [1, -2.5, Math.PI, 1e39];
    const bits = floatArrayToBf16(values);
    assert.deepEqual([...bits], values.map(floatToBf16Bits));
    assert.deepEqual([...bf16ArrayToFloat32(bits)], [...bits].map(bf16BitsToFloat));
  });
});
