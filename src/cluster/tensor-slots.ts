/**
 * Shared memory slots for a worker's large input tensors (docs/workers.md): each worker owns one POSIX shared memory
 * object (a sparse file under /dev/shm) cut into fixed slots. The worker writes a tensor's bytes into a free slot
 * and sends only its place; the owner opens the object once with the server's region opener — mapped (and
 * page-locked for CUDA) where the CUDA addon loads, so the tensor is a view of the slot and goes to the GPU by
 * DMA without another copy; file reads elsewhere. The slot is free again when the owner has answered the request.
 * The object is unlinked as soon as the owner has it open, so nothing is left behind when a process dies.
 */
import { open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { DEFAULT_SHM_DIRECTORY, openFileRegion, type RegionBacking } from '../shm/system-shared-memory.ts';

/** Tensors below this size travel inline in the channel's frame: a slot's write and read cost more than the bytes. */
export const SLOT_THRESHOLD_BYTES = 64 * 1024;
/** One slot; a larger tensor travels inline. */
export const SLOT_BYTES = 16 * 1024 * 1024;
/** Slots per worker (the object is sparse: only slots written hold memory; freed slots are reused first). */
export const SLOT_COUNT = 64;

/** Where a tensor's bytes are: `byteSize` bytes at `offset` of the worker's slots object. */
export type SlotRef = readonly [offset: number, byteSize: number];

export class TensorSlots {
  /** Free slot indexes, most recently freed last (reused first: its pages are already there). */
  private readonly free: number[];

  private constructor(
    readonly path: string,
    private readonly backing: RegionBacking,
    readonly byteSize: number,
  ) {
    this.free = Array.from({ length: SLOT_COUNT }, (_, i) => SLOT_COUNT - 1 - i);
  }

  /** Creates the worker's object (`rtserve-slots-<pid>-<random>` under /dev/shm). */
  static async create(directory = DEFAULT_SHM_DIRECTORY): Promise<TensorSlots> {
    const path = join(directory, `rtserve-slots-${process.pid}-${randomBytes(4).toString('hex')}`);
    const byteSize = SLOT_BYTES * SLOT_COUNT;
    const handle = await open(path, 'wx+', 0o600);
    try {
      await handle.truncate(byteSize);
    } catch (err) {
      await handle.close();
      throw err;
    }
    return new TensorSlots(path, await openFileRegion({ path, handle, size: byteSize }, 0, byteSize), byteSize);
  }

  /** The owner has the object open: its name can go. */
  async unlink(): Promise<void> {
    await unlink(this.path).catch(() => undefined);
  }

  /** Writes `bytes` into a free slot; undefined when it does not fit one, none is free, or the write failed. */
  async place(bytes: Uint8Array): Promise<{ ref: SlotRef; release: () => void } | undefined> {
    if (bytes.byteLength > SLOT_BYTES) return undefined;
    const slot = this.free.pop();
    if (slot === undefined) return undefined;
    const release = (): void => {
      this.free.push(slot);
    };
    try {
      await this.backing.write(slot * SLOT_BYTES, bytes);
    } catch {
      // /dev/shm full (ENOSPC) and the like: the tensor goes inline instead.
      release();
      return undefined;
    }
    return { ref: [slot * SLOT_BYTES, bytes.byteLength], release };
  }

  async close(): Promise<void> {
    await this.backing.close();
    await this.unlink();
  }
}
