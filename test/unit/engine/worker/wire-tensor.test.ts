import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MessageChannel, type TransferListItem } from 'node:worker_threads';
import type { Tensor } from '../../../../src/tensor/tensor.ts';
import { BatchScratch } from '../../../../src/engine/batch-scratch.ts';
import { markExclusive, markMapped } from '../../../../src/tensor/exclusive-buffers.ts';
import {
  fromWire,
  isPartsTensor,
  packBytes,
  toWire,
  toWireParts,
  transferable,
  unpackBytes,
  type WireTensor,
} from '../../../../src/engine/worker/wire-tensor.ts';

/** Sends one message through a real MessageChannel with a transfer list and returns what arrives. */
function roundTrip<T>(message: T, transfer: TransferListItem[]): Promise<T> {
  const { port1, port2 } = new MessageChannel();
  return new Promise<T>((resolve) => {
    port2.once('message', (m: T) => {
      port1.close();
      port2.close();
      resolve(m);
    });
    port1.postMessage(message, transfer);
  });
}

describe('transferable', () => {
  test('an array covering its whole buffer is passed as is and its buffer is listed once', () => {
    const data = Float32Array.of(1, 2, 3);
    const transfer: TransferListItem[] = [];
    assert.equal(transferable(data, transfer), data);
    assert.deepEqual(transfer, [data.buffer]);
    // The same buffer again (one array fed twice): a second transfer would be a DataCloneError, so it is copied.
    const again = transferable(data, transfer);
    assert.notEqual(again, data);
    assert.equal(transfer.length, 2);
    assert.deepEqual([...again], [1, 2, 3]);
  });

  test('a view into a larger buffer is copied once into a buffer of exactly its size', () => {
    const body = new Uint8Array(64).map((_, i) => i);
    const view = new Int16Array(body.buffer, 8, 4);
    const transfer: TransferListItem[] = [];
    const out = transferable(view, transfer);
    assert.notEqual(out, view);
    assert.equal(out.byteOffset, 0);
    assert.equal(out.buffer.byteLength, 8);
    assert.deepEqual([...out], [...view]);
    assert.deepEqual(transfer, [out.buffer]);
  });

  test('a Node Buffer view is copied, not re-sliced over the same memory', () => {
    const body = Buffer.from(new ArrayBuffer(64));
    body.fill(9);
    const view = body.subarray(8, 16);
    const transfer: TransferListItem[] = [];
    const out = transferable<Uint8Array>(view, transfer);
    assert.ok(!Buffer.isBuffer(out));
    assert.ok(out instanceof Uint8Array);
    assert.equal(out.buffer.byteLength, 8);
    assert.notEqual(out.buffer, body.buffer);
    assert.deepEqual([...out], new Array<number>(8).fill(9));
  });

  test('mapped shared memory is copied even when the array covers its whole buffer (a transfer would detach the mapping)', () => {
    const region = new ArrayBuffer(12);
    markMapped(region);
    const data = new Float32Array(region).fill(5);
    const transfer: TransferListItem[] = [];
    const out = transferable(data, transfer);
    assert.notEqual(out.buffer, region);
    assert.deepEqual(transfer, [out.buffer]);
    assert.deepEqual([...out], [5, 5, 5]);
    markExclusive(new Uint8Array(region));
    assert.notEqual(transferable(data, []).buffer, region, 'mapped wins over exclusive');
  });

  test('SharedArrayBuffer memory is shared, not transferred', () => {
    const shared = new Float64Array(new SharedArrayBuffer(16));
    const transfer: TransferListItem[] = [];
    assert.equal(transferable(shared, transfer), shared);
    assert.equal(transfer.length, 0);
  });
});

describe('BYTES packing', () => {
  test('pack and unpack keep every element, empty ones included', () => {
    const enc = new TextEncoder();
    const elements = ['a', '', 'ünïcode', 'xyz'].map((s) => enc.encode(s));
    const { bytes, ends } = packBytes(elements);
    assert.deepEqual([...ends], [1, 1, 10, 13]);
    assert.deepEqual(unpackBytes(bytes, ends), elements);
    assert.deepEqual(unpackBytes(new Uint8Array(0), new Uint32Array(0)), []);
  });
});

describe('toWire / fromWire', () => {
  test('tensors survive a real postMessage with transfer; exact buffers move, views are copied', async () => {
    const body = new ArrayBuffer(64);
    const view = new Float32Array(body, 16, 4).fill(2.5);
    const tensors: Tensor[] = [
      { name: 'own', datatype: 'INT64', shape: [2], data: BigInt64Array.of(-1n, 2n ** 40n) },
      { name: 'view', datatype: 'FP32', shape: [2, 2], data: view },
      { name: 'half', datatype: 'FP16', shape: [1], data: Uint16Array.of(0x3c00) },
      { name: 'flag', datatype: 'BOOL', shape: [3], data: Uint8Array.of(1, 0, 1) },
      { name: 'text', datatype: 'BYTES', shape: [2], data: [Uint8Array.of(104, 105), Uint8Array.of()] },
    ];
    const owned = tensors[0]?.data as BigInt64Array;
    const transfer: TransferListItem[] = [];
    const wire = tensors.map((t) => toWire(t, transfer));
    const received = (await roundTrip<WireTensor[]>(wire, transfer)).map(fromWire);

    assert.equal(owned.byteLength, 0, 'the owned buffer was transferred, not cloned');
    assert.equal(body.byteLength, 64, 'the larger buffer stays with the sender');
    assert.deepEqual(
      received.map((t) => [t.name, t.datatype, t.shape]),
      tensors.map((t) => [t.name, t.datatype, t.shape]),
    );
    assert.deepEqual([...(received[0]?.data as BigInt64Array)], [-1n, 2n ** 40n]);
    assert.deepEqual([...(received[1]?.data as Float32Array)], [2.5, 2.5, 2.5, 2.5]);
    assert.ok(received[2]?.data instanceof Uint16Array);
    assert.deepEqual([...(received[3]?.data as Uint8Array)], [1, 0, 1]);
    assert.deepEqual(
      (received[4]?.data as Uint8Array[]).map((b) => [...b]),
      [[104, 105], []],
    );
  });

  test('without a transfer list (same thread) numeric data is not copied', () => {
    const data = new Float32Array(new ArrayBuffer(32), 4, 2);
    const wire = toWire({ name: 'x', datatype: 'FP32', shape: [2], data });
    assert.equal(wire.datatype !== 'BYTES' && wire.data, data);
  });
});

describe('exclusive request buffers (tensor/exclusive-buffers.ts)', () => {
  test('views over a request-owned buffer move with the whole buffer: no copy, listed once, offsets kept', async () => {
    // A body as an HTTP transport holds it: a JSON header, then two tensors' bytes, in one buffer of its own.
    const body = Buffer.alloc(16 + 8 + 12);
    body.writeFloatLE(1.5, 16);
    body.writeFloatLE(-2, 20);
    new Int32Array(body.buffer, 24, 3).set([7, 8, 9]);
    assert.equal(markExclusive(body), true);
    const a = new Float32Array(body.buffer, 16, 2);
    const b = new Int32Array(body.buffer, 24, 3);
    const transfer: TransferListItem[] = [];
    assert.equal(transferable(a, transfer), a, 'no copy');
    assert.equal(transferable(b, transfer), b, 'no copy for a second tensor of the same body');
    assert.deepEqual(transfer, [body.buffer]);
    const got = await roundTrip({ a, b }, transfer);
    assert.equal(body.buffer.byteLength, 0, 'the sender no longer holds the body (transferred, not cloned)');
    assert.equal(got.a.byteOffset, 16);
    assert.deepEqual([...got.a], [1.5, -2]);
    assert.deepEqual([...got.b], [7, 8, 9]);
  });

  test('a buffer larger than its bytes by more than the allowed slack (a pool slab) is not marked, so it is copied', () => {
    const slab = new Uint8Array(8192);
    const mine = slab.subarray(100, 200);
    assert.equal(markExclusive(mine), false);
    assert.equal(markExclusive(mine, 5), false);
    const framed = new Uint8Array(105).subarray(5);
    assert.equal(markExclusive(framed, 5), true, 'a 5-byte frame prefix is allowed when asked for');
    const view = new Float32Array(slab.buffer, 100, 25);
    const transfer: TransferListItem[] = [];
    const out = transferable(view, transfer);
    assert.notEqual(out, view);
    assert.equal(out.buffer.byteLength, 100);
  });
});

describe('batch pieces joined on the worker side', () => {
  const part = (rows: number, start: number): Float32Array => Float32Array.from({ length: rows * 2 }, (_, i) => start + i);

  test('pieces cross as pieces (moved, not copied) and BatchScratch joins them in order', async () => {
    const p0 = part(1, 0);
    const p1 = part(2, 100);
    const transfer: TransferListItem[] = [];
    const wire = toWireParts('x', 'FP32', [3, 2], [p0, p1], transfer);
    assert.equal(wire.parts[0], p0);
    assert.equal(wire.parts[1], p1);
    assert.deepEqual(transfer, [p0.buffer, p1.buffer]);
    const arrived = await roundTrip(wire, transfer);
    assert.equal(isPartsTensor(arrived), true);
    assert.deepEqual(arrived.shape, [3, 2]);
    const joined = new BatchScratch().join(arrived.name, arrived.datatype, arrived.parts);
    assert.ok(joined instanceof Float32Array);
    assert.deepEqual([...joined], [0, 1, 100, 101, 102, 103]);
  });
});
