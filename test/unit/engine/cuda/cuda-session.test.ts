/**
 * CudaSession's JavaScript side with a stand-in for the native addon (no GPU needed): a batch given as its
 * requests' pieces (runBatch) is joined into a buffer the instance reuses and reaches the addon as one contiguous
 * input, exactly as `run` with the joined tensor would; the checks are the same as run's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CudaDeviceInfo, CudaNetwork } from '../../../../src/compiler/cuda/network.ts';
import type { Tensor } from '../../../../src/core/types.ts';
import type { CudaAddon, NativeEngineHandle } from '../../../../src/engine/cuda/addon.ts';
import { CudaSession } from '../../../../src/engine/cuda/cuda-session.ts';
import type { CudaPayload } from '../../../../src/engine/cuda/payload.ts';
import { RtError } from '../../../../src/errors/registry.ts';

const ROW = 3;

/** An "engine" whose output is its input (x → y, FP32 rows of 3), recording what the addon was given. */
function echoAddon(seen: ArrayBufferView[]): CudaAddon {
  return {
    abiVersion: '1',
    deviceInfo: () => '{}',
    tune: () => '{}',
    create: async () => ({}) as NativeEngineHandle,
    run: async (_h, _batch, rows, inputs, outputs) => {
      const input = inputs[0] as Uint8Array;
      seen.push(input);
      new Uint8Array((outputs[0] as Uint8Array).buffer, (outputs[0] as Uint8Array).byteOffset, rows * ROW * 4).set(input.subarray(0, rows * ROW * 4));
    },
    bench: async () => '{}',
    describe: () => '{}',
    destroy: () => undefined,
  };
}

const io = (name: string) => ({ name, off: 0, rowBytes: ROW * 4, datatype: 'FP32' as const, rowShape: [ROW] });
const network = { maxBatch: 8, batches: [1, 2, 4, 8], inputs: [io('x')], outputs: [io('y')], device: null } as unknown as CudaNetwork;
const payload: CudaPayload = { json: '{}', network, weights: new Uint8Array(0) };

const rows = (n: number, start: number): Tensor => ({ name: 'x', datatype: 'FP32', shape: [n, ROW], data: Float32Array.from({ length: n * ROW }, (_, i) => start + i) });

describe('CudaSession.runBatch', () => {
  test('joins the pieces in order into one input, reusing the instance buffer from batch to batch', async () => {
    const seen: ArrayBufferView[] = [];
    const session = await CudaSession.create(echoAddon(seen), {} as CudaDeviceInfo, payload);
    const a = rows(1, 0);
    const b = rows(2, 100);
    const [y] = await session.runBatch([{ name: 'x', datatype: 'FP32', shape: [3, ROW], parts: [a, b] }], ['y']);
    assert.deepEqual(y?.shape, [3, ROW]);
    assert.deepEqual([...(y?.data as Float32Array)], [0, 1, 2, 100, 101, 102, 103, 104, 105]);
    const [y2] = await session.runBatch([{ name: 'x', datatype: 'FP32', shape: [2, ROW], parts: [rows(1, 7), rows(1, 70)] }], ['y']);
    assert.deepEqual([...(y2?.data as Float32Array)], [7, 8, 9, 70, 71, 72]);
    assert.equal(seen.length, 2);
    assert.equal(seen[1]?.buffer, seen[0]?.buffer, 'the second batch was joined into the same memory');
    assert.notEqual(seen[0]?.buffer, (a.data as Float32Array).buffer, 'a copy, not a request buffer');
    await session.close();
  });

  test('refuses what run refuses, naming the input, before anything is joined', async () => {
    const session = await CudaSession.create(echoAddon([]), {} as CudaDeviceInfo, payload);
    const bad = { name: 'x', datatype: 'FP32' as const, shape: [2, 4], parts: [rows(1, 0), rows(1, 0)] };
    await assert.rejects(session.runBatch([bad], ['y']), (e: unknown) => e instanceof RtError && /input 'x' has shape \[2,4\], expected \[n,3\]/.test(e.message));
    const short = { name: 'x', datatype: 'FP32' as const, shape: [3, ROW], parts: [rows(1, 0), rows(1, 0)] };
    await assert.rejects(session.runBatch([short], ['y']), (e: unknown) => e instanceof RtError && /input 'x' holds 24 bytes, expected 36/.test(e.message));
    await session.close();
  });
});
