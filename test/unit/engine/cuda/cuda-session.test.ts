/**
 * CudaSession's JavaScript side with a stand-in for the native addon (no GPU needed): a batch given as its
 * requests' pieces (runBatch) reaches the addon as those pieces, uncopied (the addon gathers them into pinned memory
 * off the event loop); a batch larger than the largest program is joined into a buffer the instance reuses and runs
 * in chunks; the checks are the same as run's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CudaDeviceInfo, CudaNetwork } from '../../../../src/plan/cuda-network.ts';
import type { Tensor } from '../../../../src/tensor/tensor.ts';
import type { CudaAddon, NativeEngineHandle } from '../../../../src/engine/cuda/addon.ts';
import { CudaSession } from '../../../../src/engine/cuda/cuda-session.ts';
import type { CudaPayload } from '../../../../src/engine/cuda/payload.ts';
import { RtError } from '../../../../src/errors/registry.ts';

const ROW = 3;

const bytes = (v: ArrayBufferView): Uint8Array => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

/**
 * An "engine" whose output is its input (x → y, FP32 rows of 3), gathering pieces as the native addon does and
 * recording what it was given: per run, the list of views of input 0.
 */
function echoAddon(seen: (readonly ArrayBufferView[])[]): CudaAddon {
  return {
    abiVersion: '3',
    deviceCount: () => 1,
    deviceInfo: () => '{}',
    tune: () => '{}',
    create: async () => ({}) as NativeEngineHandle,
    run: async (_h, batch, rows, inputs, outputs) => {
      assert.ok(rows <= batch);
      const input = inputs[0] as ArrayBufferView | readonly ArrayBufferView[];
      const pieces = Array.isArray(input) ? (input as readonly ArrayBufferView[]) : [input as ArrayBufferView];
      seen.push(pieces);
      const out = bytes(outputs[0] as ArrayBufferView);
      assert.equal(out.byteLength, rows * ROW * 4);
      let at = 0;
      for (const p of pieces) {
        out.set(bytes(p), at);
        at += p.byteLength;
      }
      assert.equal(at, rows * ROW * 4, 'the pieces hold exactly the rows');
    },
    bench: async () => '{}',
    probe: async () => undefined,
    describe: () => '{}',
    destroy: () => undefined,
    mapShm: () => new ArrayBuffer(0),
  };
}

const io = (name: string) => ({ name, off: 0, rowBytes: ROW * 4, datatype: 'FP32' as const, rowShape: [ROW] });
const network = { maxBatch: 8, batches: [1, 2, 4, 8], inputs: [io('x')], outputs: [io('y')], device: null } as unknown as CudaNetwork;
const payload: CudaPayload = { json: '{}', network, weights: new Uint8Array(0) };

const rows = (n: number, start: number): Tensor => ({
  name: 'x',
  datatype: 'FP32',
  shape: [n, ROW],
  data: Float32Array.from({ length: n * ROW }, (_, i) => start + i),
});

describe('CudaSession.runBatch', () => {
  test("hands the requests' pieces to the addon in order, uncopied", async () => {
    const seen: (readonly ArrayBufferView[])[] = [];
    const session = await CudaSession.create(echoAddon(seen), {} as CudaDeviceInfo, payload);
    const a = rows(1, 0);
    const b = rows(2, 100);
    const [y] = await session.runBatch([{ name: 'x', datatype: 'FP32', shape: [3, ROW], parts: [a, b] }], ['y']);
    assert.deepEqual(y?.shape, [3, ROW]);
    assert.deepEqual([...(y?.data as Float32Array)], [0, 1, 2, 100, 101, 102, 103, 104, 105]);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.length, 2);
    assert.equal(seen[0]?.[0], a.data, "the request's own array, not a copy");
    assert.equal(seen[0]?.[1], b.data);
    await session.close();
  });

  test('a batch over the largest program is joined once into the instance buffer and runs in chunks', async () => {
    const seen: (readonly ArrayBufferView[])[] = [];
    const session = await CudaSession.create(echoAddon(seen), {} as CudaDeviceInfo, payload);
    const parts = [rows(6, 0), rows(5, 1000)];
    const [y] = await session.runBatch([{ name: 'x', datatype: 'FP32', shape: [11, ROW], parts }], ['y']);
    const expected = [...(parts[0]?.data as Float32Array), ...(parts[1]?.data as Float32Array)];
    assert.deepEqual([...(y?.data as Float32Array)], expected);
    assert.deepEqual(
      seen.map((p) => p.map((v) => v.byteLength / (ROW * 4))),
      [[8], [3]],
      'chunks of the batch-8 program, then the rest',
    );
    assert.equal(seen[0]?.[0]?.buffer, seen[1]?.[0]?.buffer, 'both chunks are views of one joined buffer');
    assert.notEqual(seen[0]?.[0]?.buffer, (parts[0]?.data as Float32Array).buffer, 'a copy, not a request buffer');
    const [y2] = await session.runBatch([{ name: 'x', datatype: 'FP32', shape: [9, ROW], parts: [rows(9, 7)] }], ['y']);
    assert.equal((y2?.data as Float32Array)[0], 7);
    assert.equal(seen[2]?.[0]?.buffer, seen[0]?.[0]?.buffer, 'the next oversized batch reuses the instance buffer');
    await session.close();
  });

  test('refuses what run refuses, naming the input, before anything is joined', async () => {
    const session = await CudaSession.create(echoAddon([]), {} as CudaDeviceInfo, payload);
    const bad = { name: 'x', datatype: 'FP32' as const, shape: [2, 4], parts: [rows(1, 0), rows(1, 0)] };
    await assert.rejects(
      session.runBatch([bad], ['y']),
      (e: unknown) => e instanceof RtError && /input 'x' has shape \[2,4\], expected \[n,3\]/.test(e.message),
    );
    const short = { name: 'x', datatype: 'FP32' as const, shape: [3, ROW], parts: [rows(1, 0), rows(1, 0)] };
    await assert.rejects(
      session.runBatch([short], ['y']),
      (e: unknown) => e instanceof RtError && /input 'x' holds 24 bytes, expected 36/.test(e.message),
    );
    await session.close();
  });
});
