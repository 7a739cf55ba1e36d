import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { KvBatch, type PrefilledKv } from '../../../src/generate/kv-batch.ts';
import { fuzzParams } from '../../helpers/fuzz.ts';

const geo = { numLayers: 2, kvHeads: 2, headDim: 3 };
/** A distinct, float32-exact value for each cache element of (owner, position, layer, key/value, head, dim). */
const enc = (owner: number, p: number, l: number, s: number, h: number, d: number): number =>
  ((((owner * 64 + p) * 2 + l) * 2 + s) * 2 + h) * 3 + d + 1;

function prefill(owners: { owner: number; length: number }[]): PrefilledKv {
  const cols = Math.max(...owners.map((o) => o.length));
  const mk = (s: number) =>
    Array.from({ length: geo.numLayers }, (_, l) => {
      const a = new Float32Array(owners.length * geo.kvHeads * cols * geo.headDim);
      owners.forEach((o, i) => {
        for (let h = 0; h < geo.kvHeads; h++)
          for (let p = 0; p < o.length; p++)
            for (let d = 0; d < geo.headDim; d++) a[((i * geo.kvHeads + h) * cols + p) * geo.headDim + d] = enc(o.owner, p, l, s, h, d);
      });
      return a;
    });
  return { cols, keys: mk(0), values: mk(1) };
}

/** What a decode step returns: past plus one column, holding each live row's next position. */
function present(b: KvBatch<number>, s: number): Float32Array[] {
  const cols = b.cols + 1;
  return Array.from({ length: geo.numLayers }, (_, l) => {
    const src = (s === 0 ? b.keys : b.values)[l] as Float32Array;
    const a = new Float32Array(b.rows * geo.kvHeads * cols * geo.headDim);
    for (let r = 0; r < b.rows; r++) {
      for (let h = 0; h < geo.kvHeads; h++) {
        const from = (r * geo.kvHeads + h) * b.cols * geo.headDim;
        a.set(src.subarray(from, from + b.cols * geo.headDim), (r * geo.kvHeads + h) * cols * geo.headDim);
        const owner = b.owners[r];
        if (owner === undefined) continue;
        for (let d = 0; d < geo.headDim; d++)
          a[((r * geo.kvHeads + h) * cols + b.cols) * geo.headDim + d] = enc(owner, b.lengths[r] as number, l, s, h, d);
      }
    }
    return a;
  });
}

/** Every live row's unmasked columns, in column order, hold exactly its positions 0..length-1. */
function checkInvariant(b: KvBatch<number>): void {
  assert.equal(b.mask.length, b.rows * b.cols);
  if (b.rows === 0) return;
  for (let l = 0; l < geo.numLayers; l++) {
    for (const [s, arr] of [
      [0, b.keys[l]],
      [1, b.values[l]],
    ] as const) {
      assert.equal((arr as Float32Array).length, b.rows * geo.kvHeads * b.cols * geo.headDim);
      for (let r = 0; r < b.rows; r++) {
        const owner = b.owners[r];
        if (owner === undefined) continue;
        let p = 0;
        for (let c = 0; c < b.cols; c++) {
          if (b.mask[r * b.cols + c] !== 1) continue;
          for (let h = 0; h < geo.kvHeads; h++)
            for (let d = 0; d < geo.headDim; d++)
              assert.equal((arr as Float32Array)[((r * geo.kvHeads + h) * b.cols + c) * geo.headDim + d], enc(owner, p, l, s, h, d));
          p++;
        }
        assert.equal(p, b.lengths[r], `row ${r} (owner ${owner}) has ${p} valid columns, length says ${b.lengths[r]}`);
      }
    }
  }
}

type Op = { kind: 'admit'; lengths: number[] } | { kind: 'release'; pick: number } | { kind: 'step' } | { kind: 'compact' };

test("property: admissions, releases, decode steps and compaction keep every row's cache intact", (t) => {
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('admit' as const), lengths: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 3 }) }),
    fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('step' as const) }),
    fc.record({ kind: fc.constant('compact' as const) }),
  );
  fc.assert(
    fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
      const b = new KvBatch<number>(geo);
      let nextOwner = 0;
      for (const o of ops) {
        if (o.kind === 'admit') {
          const owners = o.lengths.map((length) => ({ owner: nextOwner++ % 20, length }));
          b.admit(
            prefill(owners),
            owners.map((x, i) => ({ owner: x.owner, source: i, length: x.length })),
          );
        } else if (o.kind === 'release') {
          const live = b.owners.flatMap((x, r) => (x === undefined ? [] : [r]));
          if (live.length > 0) b.release(live[o.pick % live.length] as number);
        } else if (o.kind === 'step') {
          if (b.rows > 0) b.appendColumn(present(b, 0), present(b, 1));
        } else {
          b.compactIfWasteful();
        }
        checkInvariant(b);
      }
    }),
    fuzzParams(t, { numRuns: 300 }),
  );
});

test('a sequence that fits a dead row reuses it in place; otherwise the batch is rebuilt', () => {
  const b = new KvBatch<number>(geo);
  b.admit(
    prefill([
      { owner: 1, length: 5 },
      { owner: 2, length: 3 },
    ]),
    [
      { owner: 1, source: 0, length: 5 },
      { owner: 2, source: 1, length: 3 },
    ],
  );
  assert.deepEqual([b.rows, b.cols, b.rebuilds], [2, 5, 1]);
  b.appendColumn(present(b, 0), present(b, 1));
  b.release(0);
  b.admit(prefill([{ owner: 3, length: 4 }]), [{ owner: 3, source: 0, length: 4 }]);
  assert.deepEqual([b.rows, b.cols, b.rebuilds], [2, 6, 1], 'no copy of the batch: owner 3 took row 0');
  assert.equal(b.owners[0], 3);
  checkInvariant(b);
  b.admit(prefill([{ owner: 4, length: 9 }]), [{ owner: 4, source: 0, length: 9 }]);
  assert.deepEqual([b.rows, b.cols, b.rebuilds], [3, 9, 2], 'longer than the columns: rebuilt');
  checkInvariant(b);
  b.release(0);
  b.release(1);
  b.release(2);
  b.compactIfWasteful();
  assert.deepEqual([b.rows, b.cols], [0, 0], 'an empty batch is reset');
});
