import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { holdOut, loadDataset } from '../../../../src/compiler/data/dataset.ts';
import { readNpy, writeNpy } from '../../../../src/compiler/data/npy.ts';
import { readNpz, writeNpz } from '../../../../src/compiler/data/npz.ts';
import { DT } from '../../../../src/tensor/onnx-dtype.ts';
import type { ValueInfo } from '../../../../src/compiler/ir/graph.ts';
import { RtError } from '../../../../src/errors/registry.ts';

// Written by numpy 2.x (np.savez / np.savez_compressed / np.save of a Fortran-ordered array): real-world
// layouts, including the ZIP64 extra fields numpy puts in every local header (force_zip64=True).
const NUMPY_SAVEZ =
  'UEsDBC0AAAAAAAAAIQBP6QAq//////////8FABQAeC5ucHkBABAAmAAAAAAAAACYAAAAAAAAAJNOVU1QWQEAdgB7J2Rlc2NyJzogJzxmNCcsICdmb3J0cmFuX29yZGVyJzogRmFsc2UsICdzaGFwZSc6ICgyLCAzKSwgfSAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAKAAAAAAAAgD8AAABAAABAQAAAgEAAAKBAUEsDBC0AAAAAAAAAIQBx+zmr//////////8KABQAbGFiZWxzLm5weQEAEACQAAAAAAAAAJAAAAAAAAAAk05VTVBZAQB2AHsnZGVzY3InOiAnPGk4JywgJ2ZvcnRyYW5fb3JkZXInOiBGYWxzZSwgJ3NoYXBlJzogKDIsKSwgfSAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgIAoBAAAAAAAAAAAAAAAAAAAAUEsBAi0DLQAAAAAAAAAhAE/pACqYAAAAmAAAAAUAAAAAAAAAAAAAAIABAAAAAHgubnB5UEsBAi0DLQAAAAAAAAAhAHH7OauQAAAAkAAAAAoAAAAAAAAAAAAAAIABzwAAAGxhYmVscy5ucHlQSwUGAAAAAAIAAgBrAAAAmwEAAAAA';
const NUMPY_SAVEZ_COMPRESSED =
  'UEsDBC0AAAAIAAAAIQALwLB2//////////8FABQAeC5ucHkBABAAmAAAAAAAAABXAAAAAAAAAJvsF+obEMnIUMZQrZ6SWpxcpG6loG6TZqKuo6Cell9UUpSYF59flJIKEndLzClOBYoXZyQWpAL5GkY6CsaaOgq1CmQDLgYIsGdgaADiA0DM4MDAoOAAAFBLAQItAy0AAAAIAAAAIQALwLB2VwAAAJgAAAAFAAAAAAAAAAAAAACAAQAAAAB4Lm5weVBLBQYAAAAAAQABADMAAACOAAAAAAA=';
const NUMPY_FORTRAN_F8 =
  'k05VTVBZAQB2AHsnZGVzY3InOiAnPGY4JywgJ2ZvcnRyYW5fb3JkZXInOiBUcnVlLCAnc2hhcGUnOiAoMiwgMyksIH0gICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgIAoAAAAAAAAAAAAAAAAAAAhAAAAAAAAA8D8AAAAAAAAQQAAAAAAAAABAAAAAAAAAFEA=';

const b64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'base64'));

describe('npy / npz', () => {
  test('reads numpy np.savez output (ZIP64 local headers)', () => {
    const m = readNpz(b64(NUMPY_SAVEZ));
    assert.deepEqual([...m.keys()].sort(), ['labels', 'x']);
    const x = m.get('x');
    assert.equal(x?.elemType, DT.FLOAT);
    assert.deepEqual(x?.dims, [2, 3]);
    assert.deepEqual([...(x?.data as Float32Array)], [0, 1, 2, 3, 4, 5]);
    assert.deepEqual([...(m.get('labels')?.data as BigInt64Array)], [1n, 0n]);
  });

  test('reads numpy np.savez_compressed output (deflate)', () => {
    const x = readNpz(b64(NUMPY_SAVEZ_COMPRESSED)).get('x');
    assert.deepEqual([...(x?.data as Float32Array)], [0, 0.5, 1, 1.5, 2, 2.5]);
  });

  test('reads a Fortran-ordered float64 .npy into row-major order', () => {
    const t = readNpy(b64(NUMPY_FORTRAN_F8));
    assert.equal(t.elemType, DT.DOUBLE);
    assert.deepEqual([...(t.data as Float64Array)], [0, 1, 2, 3, 4, 5]);
  });

  test('writer and reader round-trip, stored and deflated', () => {
    const arrays = {
      a: { elemType: DT.FLOAT, dims: [2, 2], data: Float32Array.from([1, 2, 3, 4]) },
      b: { elemType: DT.INT64, dims: [3], data: BigInt64Array.from([5n, -6n, 7n]) },
      c: { elemType: DT.UINT8, dims: [], data: Uint8Array.from([9]) },
    };
    for (const compress of [false, true]) {
      const back = readNpz(writeNpz(arrays, compress));
      assert.deepEqual(back.get('a'), arrays.a);
      assert.deepEqual(back.get('b'), arrays.b);
      assert.deepEqual(back.get('c'), arrays.c);
    }
  });

  test('a damaged member fails its CRC check; big-endian dtypes are refused clearly', () => {
    const z = writeNpz({ a: { elemType: DT.FLOAT, dims: [4], data: Float32Array.from([1, 2, 3, 4]) } });
    const at = z.indexOf(0x80, 100); // a byte inside the float data
    z[at] = (z[at] ?? 0) ^ 0x40;
    assert.throws(() => readNpz(z, 'calib.npz'), /calib\.npz .*CRC-32/);
    const npy = writeNpy({ elemType: DT.FLOAT, dims: [1], data: Float32Array.from([1]) });
    // Buffer's latin1 is ISO-8859-1, one byte per character (TextDecoder's 'latin1' is windows-1252, which maps
    // the magic's 0x93 to U+201C on Node 24's ICU).
    const text = Buffer.from(npy).toString('latin1').replace("'<f4'", "'>f4'");
    assert.throws(() => readNpy(new Uint8Array(Buffer.from(text, 'latin1')), 'be.npy'), /be\.npy: dtype '>f4' is not supported/);
    assert.throws(() => readNpy(Uint8Array.from([1, 2, 3]), 'junk.npy'), /junk\.npy is not a readable \.npy/);
  });
});

describe('datasets', () => {
  const inputs: ValueInfo[] = [{ name: 'x', type: { elemType: DT.FLOAT, shape: ['N', 3, 4] } }];

  async function dir(): Promise<string> {
    return mkdtemp(join(tmpdir(), 'rtserve-data-'));
  }

  test('a calibration .npy with the wrong shape names the dimension', async () => {
    const d = await dir();
    const path = join(d, 'bad.npy');
    await writeFile(path, writeNpy({ elemType: DT.FLOAT, dims: [5, 3, 5], data: new Float32Array(75) }));
    await assert.rejects(
      loadDataset(path, inputs, 'calibration'),
      (e: unknown) =>
        e instanceof RtError &&
        e.code === 'BAD_SHAPE' &&
        /calibration data for input 'x' has shape \[5,3,5\] but model input 'x' has shape \[N,3,4\]: dimension 2 must be 4, got 5/.test(e.message),
    );
    await writeFile(path, writeNpy({ elemType: DT.FLOAT, dims: [3, 4], data: new Float32Array(12) }));
    await assert.rejects(loadDataset(path, inputs, 'calibration'), /rank 2.*rank 3.*first dimension counts samples/);
  });

  test('dtype mismatch, missing inputs and stray arrays are explained', async () => {
    const d = await dir();
    const p1 = join(d, 'ints.npy');
    await writeFile(p1, writeNpy({ elemType: DT.INT32, dims: [1, 3, 4], data: new Int32Array(12) }));
    await assert.rejects(
      loadDataset(p1, inputs, 'calibration'),
      (e: unknown) => e instanceof RtError && e.code === 'BAD_DATATYPE' && /int32.*float32/.test(e.message),
    );
    const p2 = join(d, 'stray.npz');
    await writeFile(p2, writeNpz({ y: { elemType: DT.FLOAT, dims: [1, 3, 4], data: new Float32Array(12) } }));
    await assert.rejects(loadDataset(p2, inputs, 'validation'), /array 'y' that is not a model input/);
    await assert.rejects(loadDataset(join(d, 'nope.npy'), inputs, 'calibration'), /does not exist/);
  });

  test('float64 is converted, labels are read, directories concatenate in name order', async () => {
    const d = await dir();
    await writeFile(
      join(d, 'b.npz'),
      writeNpz({
        x: { elemType: DT.DOUBLE, dims: [1, 3, 4], data: new Float64Array(12).fill(2) },
        labels: { elemType: DT.INT64, dims: [1], data: BigInt64Array.from([7n]) },
      }),
    );
    await writeFile(
      join(d, 'a.npz'),
      writeNpz({
        x: { elemType: DT.FLOAT, dims: [2, 3, 4], data: new Float32Array(24).fill(1) },
        labels: { elemType: DT.INT32, dims: [2], data: Int32Array.from([3, 4]) },
      }),
    );
    const ds = await loadDataset(d, inputs, 'validation');
    assert.equal(ds.samples, 3);
    assert.deepEqual([...(ds.labels ?? [])], [3, 4, 7]);
    const x = ds.inputs.get('x');
    assert.equal(x?.elemType, DT.FLOAT);
    assert.equal((x?.data as Float32Array)[24], 2);
    const { train, heldOut } = holdOut(ds, 0.34);
    assert.equal(train.samples, 2);
    assert.equal(heldOut.samples, 1);
    assert.deepEqual([...(heldOut.labels ?? [])], [7]);
  });

  test('a .npy cannot feed a model with two inputs', async () => {
    const d = await dir();
    const p = join(d, 'x.npy');
    await writeFile(p, writeNpy({ elemType: DT.FLOAT, dims: [1, 2], data: new Float32Array(2) }));
    const two: ValueInfo[] = [
      { name: 'a', type: { elemType: DT.FLOAT, shape: ['N', 2] } },
      { name: 'b', type: { elemType: DT.FLOAT, shape: ['N', 2] } },
    ];
    await assert.rejects(loadDataset(p, two, 'calibration'), /single-input model.*use an \.npz/);
  });
});
