/**
 * The system shared memory region manager on real /dev/shm objects: key rules, registration checks, status,
 * leases that keep an unregistered region open until the last user is done, the default file backing (reads and
 * writes at the region's offset), and a custom RegionOpener as an application would plug one in.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { truncate } from 'node:fs/promises';
import { SharedMemoryManager, openFileRegion, shmPathOfKey, type RegionOpener } from '../../../src/shm/system-shared-memory.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { ShmObjects } from '../../helpers/shm.ts';

function rejectsCode(p: Promise<unknown> | (() => unknown), code: string, ...parts: string[]): Promise<void> {
  const check = (err: unknown): boolean => {
    assert.ok(err instanceof RtError, String(err));
    assert.equal(err.code, code, err.message);
    for (const part of parts) assert.ok(err.message.includes(part), `${JSON.stringify(err.message)} should mention ${JSON.stringify(part)}`);
    return true;
  };
  if (typeof p === 'function') {
    assert.throws(p, check);
    return Promise.resolve();
  }
  return assert.rejects(p, check);
}

/** openFileRegion, counting opens and closes (what a native mmap opener would also have to honour). */
function countingOpener(): { opener: RegionOpener; opened: { path: string; offset: number; byteSize: number }[]; closed: () => number } {
  const opened: { path: string; offset: number; byteSize: number }[] = [];
  let closed = 0;
  const opener: RegionOpener = async (file, offset, byteSize) => {
    opened.push({ path: file.path, offset, byteSize });
    const inner = await openFileRegion(file, offset, byteSize);
    return {
      read: (o, n) => inner.read(o, n),
      write: (o, d) => inner.write(o, d),
      close: async () => {
        closed++;
        await inner.close();
      },
    };
  };
  return { opener, opened, closed: () => closed };
}

describe('system shared memory regions', () => {
  const objects = new ShmObjects('unit');
  after(() => objects.removeAll());

  test('keys: "/name" and "name" are /dev/shm/name; paths, dot names and empty keys are refused', () => {
    assert.equal(shmPathOfKey('/input0'), '/dev/shm/input0');
    assert.equal(shmPathOfKey('input0'), '/dev/shm/input0');
    for (const key of ['', '/', '/a/b', 'a/b', '/..', '..', '.', '/x\0y', `/${'n'.repeat(256)}`]) {
      void rejectsCode(() => shmPathOfKey(key), 'SHM_BAD_KEY', 'POSIX shared memory name');
    }
  });

  test('regions are per owner: same names, separate leases, unregister-all of one owner, every owner at shutdown', async () => {
    const counting = countingOpener();
    const m = new SharedMemoryManager({ opener: counting.opener });
    const obj = await objects.create(64);
    await m.register('r', obj.key, 0, 64, 'a');
    await m.register('r', obj.key, 0, 32, 'b');
    await m.register('s', obj.key, 0, 16);
    await rejectsCode(m.register('r', obj.key, 0, 8, 'a'), 'SHM_REGION_EXISTS', "'r'");
    assert.deepEqual(
      m.status(undefined, 'a').map((r) => r.byte_size),
      [64],
    );
    assert.deepEqual(
      m.status('r', 'b').map((r) => r.byte_size),
      [32],
    );
    assert.deepEqual(
      m.status(undefined, 'anonymous').map((r) => r.name),
      ['s'],
      'no owner is the anonymous principal',
    );
    await rejectsCode(() => m.acquire('s', 'a'), 'SHM_REGION_NOT_FOUND', "'s'", "registered: 'r'");
    await rejectsCode(() => m.status('r', 'c'), 'SHM_REGION_NOT_FOUND', 'no region is registered');
    assert.equal(m.acquire('r', 'b').byteSize, 32);
    await m.unregister(undefined, 'a');
    assert.equal(m.size, 2);
    await rejectsCode(() => m.acquire('r', 'a'), 'SHM_REGION_NOT_FOUND');
    await m.unregisterEveryOwner();
    assert.equal(m.size, 0);
    assert.equal(counting.closed(), 2, "b's region stays open under its lease");
  });

  test("register checks the object and the range; status reports Triton's fields; a name registers once", async () => {
    const m = new SharedMemoryManager();
    const obj = await objects.create(100);
    await m.register('a', obj.key, 10, 90);
    assert.deepEqual(m.status(), [{ name: 'a', key: obj.key, offset: 10, byte_size: 90 }]);
    assert.deepEqual(m.status('a'), [{ name: 'a', key: obj.key, offset: 10, byte_size: 90 }]);
    await rejectsCode(m.register('a', obj.key, 0, 1), 'SHM_REGION_EXISTS', "'a' already in manager", 'offset 10, byte_size 90');
    await rejectsCode(m.register('b', obj.key, 10, 91), 'SHM_OUT_OF_RANGE', "'b'", 'offset 10 + byte_size 91 = 101 bytes', 'has 100 bytes');
    await rejectsCode(m.register('b', `/rtserve-test-none-${process.pid}`, 0, 1), 'SHM_BAD_KEY', "'b'", 'no shared memory object');
    await rejectsCode(m.register('b', obj.key, 0, 0), 'BAD_PARAMETER', 'byte_size must be a positive integer');
    await rejectsCode(m.register('b', obj.key, -1, 4), 'BAD_PARAMETER', 'offset must be a non-negative integer');
    await rejectsCode(m.register('b', '/tmp', 0, 4), 'SHM_BAD_KEY');
    await rejectsCode(() => m.status('b'), 'SHM_REGION_NOT_FOUND', "'b'", "registered: 'a'");
    // Two registrations of one name racing: the second fails at once, the first completes.
    const first = m.register('c', obj.key, 0, 4);
    await rejectsCode(m.register('c', obj.key, 0, 4), 'SHM_REGION_EXISTS', "'c'", 'being registered');
    await first;
    await m.unregister();
    assert.deepEqual(m.status(), []);
  });

  test("the file backing reads and writes at the region offset, off the event loop, and sees the client's writes", async () => {
    const m = new SharedMemoryManager();
    const obj = await objects.create(64);
    await obj.write(16, Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]));
    await m.register('r', obj.key, 16, 32);
    const lease = m.acquire('r');
    try {
      assert.deepEqual([...(await lease.read(2, 4))], [3, 4, 5, 6]);
      await lease.write(8, Uint8Array.from([9, 9]));
      const file = await obj.read();
      assert.deepEqual([...file.subarray(24, 26)], [9, 9]);
      // The client writes again; the next read sees it (no copy is kept).
      await obj.write(18, Uint8Array.from([42]));
      assert.deepEqual([...(await lease.read(2, 1))], [42]);
      lease.checkRange("input 'x'", 28, 4);
      void rejectsCode(
        () => lease.checkRange("input 'x'", 29, 4),
        'SHM_OUT_OF_RANGE',
        "input 'x'",
        '29 + shared_memory_byte_size 4 = 33',
        "region 'r' (32 bytes)",
      );
      // An object truncated behind the server's back: a clear error, not short data.
      await truncate(obj.path, 20);
      await rejectsCode(lease.read(0, 32), 'SHM_OUT_OF_RANGE', 'truncated');
    } finally {
      lease.release();
      await m.unregister();
    }
  });

  test('unregister while leased: the name goes at once, the backing closes when the last lease is released', async () => {
    const { opener, opened, closed } = countingOpener();
    const m = new SharedMemoryManager({ opener });
    const obj = await objects.create(32);
    await m.register('r', obj.key, 8, 16);
    assert.deepEqual(opened, [{ path: obj.path, offset: 8, byteSize: 16 }]);
    const l1 = m.acquire('r');
    const l2 = m.acquire('r');
    await m.unregister('r');
    assert.deepEqual(m.status(), []);
    void rejectsCode(() => m.acquire('r'), 'SHM_REGION_NOT_FOUND');
    assert.equal(closed(), 0);
    // The leases still work, and the name can be registered again meanwhile.
    await l1.write(0, Uint8Array.from([7]));
    await m.register('r', obj.key, 0, 32);
    l1.release();
    l1.release(); // twice is once
    assert.equal(closed(), 0);
    assert.deepEqual([...(await l2.read(0, 1))], [7]);
    l2.release();
    // close() runs on the next turn
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(closed(), 1);
    await m.unregister();
    assert.equal(closed(), 2);
    // Unregistering what is not registered is not an error (Triton).
    await m.unregister('r');
  });
});
