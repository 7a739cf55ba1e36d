/**
 * Real POSIX shared memory objects for tests: files under /dev/shm (what shm_open creates on Linux), named per
 * process so parallel test files never collide, removed by `removeAll`.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const SHM_DIR = '/dev/shm';

export interface ShmObject {
  /** The key a client registers: "/name". */
  readonly key: string;
  readonly path: string;
  write(offset: number, bytes: Uint8Array): Promise<void>;
  read(): Promise<Buffer>;
}

export class ShmObjects {
  private readonly paths = new Set<string>();
  private next = 0;

  constructor(private readonly prefix: string) {}

  /** A new zero-filled object of `size` bytes. */
  async create(size: number): Promise<ShmObject> {
    const name = `rtserve-test-${this.prefix}-${process.pid}-${this.next++}`;
    const path = join(SHM_DIR, name);
    await writeFile(path, new Uint8Array(size));
    this.paths.add(path);
    return {
      key: `/${name}`,
      path,
      write: async (offset, bytes) => {
        const current = await readFile(path);
        current.set(bytes, offset);
        await writeFile(path, current);
      },
      read: () => readFile(path),
    };
  }

  async removeAll(): Promise<void> {
    await Promise.all([...this.paths].map((p) => rm(p, { force: true })));
    this.paths.clear();
  }
}

/** Little-endian INT32 bytes. */
export function int32Bytes(values: readonly number[]): Uint8Array {
  return new Uint8Array(Int32Array.from(values).buffer);
}

/** INT32 values of little-endian bytes. */
export function int32Values(bytes: Uint8Array): number[] {
  const copy = Uint8Array.from(bytes);
  return [...new Int32Array(copy.buffer, 0, copy.byteLength / 4)];
}

/** The shared-memory parameters as gRPC InferParameter objects (proto-loader / protobufjs; int64 as tritonclient sends them). */
export function shmInferParameters(region: string, byteSize: number, offset?: number): Record<string, unknown> {
  return {
    shared_memory_region: { string_param: region },
    shared_memory_byte_size: { int64_param: byteSize },
    ...(offset === undefined ? {} : { shared_memory_offset: { int64_param: offset } }),
  };
}
