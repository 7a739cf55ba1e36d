/**
 * System shared memory regions (Triton's shared-memory extension, docs/protocol.md §2.4/§2.5; S:docs/protocol/
 * extension_shared_memory.md): a client creates a POSIX shared memory object (shm_open, i.e. a file under
 * /dev/shm on Linux), registers a byte range of it under a name, and then sends only references
 * (`shared_memory_region`, `shared_memory_offset`, `shared_memory_byte_size`) instead of tensor bytes.
 *
 * The manager keeps the registered regions and hands out leases: a request holds a lease on every region it uses
 * from before it reads its inputs until its outputs are written, so unregistering a region in the meantime only
 * removes the name (it can be registered again at once); the region's backing is closed when the last lease ends
 * (Triton's `awaiting_unregister_`).
 *
 * Regions belong to the principal that registered them (its id, security/principal.ts): names are looked up in
 * the caller's own namespace, so one principal can neither see, use nor unregister another's region, and two
 * principals may use the same name. Without a principal (auth off) every caller is `ANONYMOUS_OWNER`.
 *
 * A key is opened as shm_open(3) opens it, O_NOFOLLOW: a symbolic link in /dev/shm is refused (ELOOP), so a
 * client cannot point a region at another file of the host. What the region may be is checked on the opened
 * descriptor (fstat: a regular file, large enough for the range), never on the name, and the name is not resolved
 * again afterwards: the opener gets the descriptor (`openShmFile`, docs/security.md).
 *
 * The bytes are reached through a RegionBacking, made once at registration by a RegionOpener from that open file:
 * by default the file handle itself, whose reads and writes run on libuv's thread pool (off the event loop); an
 * application can pass another opener (e.g. an mmap one from a native addon) to the server (`sharedMemoryOpener`,
 * src/app/rtserve-server.ts).
 */
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import { markExclusive } from '../tensor/exclusive-buffers.ts';
import { RtError, rtError } from '../errors/registry.ts';
import type { Logger } from '../observability/logger.ts';

/** The bytes of one registered region. Offsets are relative to the region's start. */
export interface RegionBacking {
  /** `byteSize` bytes at `offset` (relative to the region start). Never blocks the event loop. */
  read(offset: number, byteSize: number): Promise<Uint8Array>;
  write(offset: number, data: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/**
 * A shared memory object opened by `openShmFile`: a regular file of `size` bytes, reached through `handle` (never
 * through `path` again, which is for messages). Whoever is given it owns the handle and closes it.
 */
export interface ShmFile {
  readonly path: string;
  readonly handle: FileHandle;
  readonly size: number;
}

/**
 * Makes the backing of the part [offset, offset+byteSize) of an opened shm object; it owns `file.handle` from then
 * on (closes it in `close`, or at once when it keeps its own reference, as a mapping does).
 */
export type RegionOpener = (file: ShmFile, offset: number, byteSize: number) => Promise<RegionBacking>;

/** A registered region as the status endpoints report it (Triton's JSON names). */
export interface SharedMemoryRegionStatus {
  readonly name: string;
  readonly key: string;
  readonly offset: number;
  readonly byte_size: number;
}

/** The owner of regions registered without a principal: the id of security's ANONYMOUS principal. */
export const ANONYMOUS_OWNER = 'anonymous';

/**
 * What the front ends call (InferenceApi.systemSharedMemory); every method throws RtError. `owner` is the id of
 * the calling principal (undefined: ANONYMOUS_OWNER); each owner sees only its own regions.
 */
export interface SystemSharedMemoryApi {
  register(name: string, key: string, offset: number, byteSize: number, owner?: string): Promise<void>;
  /** Unregisters one region, or every region of `owner` when `name` is undefined. An unknown name is not an error (Triton). */
  unregister(name?: string, owner?: string): Promise<void>;
  /**
   * Every region of `owner`, or the one named (SHM_REGION_NOT_FOUND when `owner` has none of that name). A
   * front-end worker asks the engine owner, which holds the regions (docs/workers.md), hence the promise.
   */
  status(name?: string, owner?: string): SharedMemoryRegionStatus[] | Promise<SharedMemoryRegionStatus[]>;
}

/** The regions of an InferenceApi, or UNSUPPORTED when the server has the extension turned off. */
export function systemSharedMemoryOf(api: { readonly systemSharedMemory?: SystemSharedMemoryApi | undefined }): SystemSharedMemoryApi {
  const shm = api.systemSharedMemory;
  if (shm === undefined)
    throw rtError('UNSUPPORTED', 'client shared memory is off on this server: start it with --allow-client-shm=true (server setting allowClientShm)');
  return shm;
}

/** The answer to every CUDA shared-memory call (REST and gRPC): this server has no CUDA IPC. */
export function cudaSharedMemoryUnsupported(): never {
  throw rtError(
    'UNSUPPORTED',
    'CUDA shared memory is not supported by this server; use system shared memory (/v2/systemsharedmemory, the SystemSharedMemory* RPCs) or send the tensors in the request',
  );
}

/** A request's hold on a region: the region stays open until every lease on it is released. */
export interface RegionLease {
  readonly name: string;
  readonly byteSize: number;
  /** Throws SHM_OUT_OF_RANGE unless [offset, offset+byteSize) lies within the region; `what` names the tensor. */
  checkRange(what: string, offset: number, byteSize: number): void;
  read(offset: number, byteSize: number): Promise<Uint8Array>;
  write(offset: number, data: Uint8Array): Promise<void>;
  release(): void;
}

interface Region {
  readonly name: string;
  readonly key: string;
  readonly offset: number;
  readonly byteSize: number;
  readonly backing: RegionBacking;
  users: number;
  /** Unregistered: close the backing when the last lease is released. */
  retired: boolean;
}

/** Linux's directory of POSIX shared memory objects (shm_open(3): "/name" is /dev/shm/name). */
export const DEFAULT_SHM_DIRECTORY = '/dev/shm';

/** NAME_MAX: the longest file name, hence the longest shm object name. */
const NAME_MAX = 255;

/**
 * The file of a POSIX shared memory key: "/input0" or "input0" → `<directory>/input0`. A key is one name: no path
 * separator after the optional leading '/', not '.' or '..', not empty, no NUL (shm_open(3)).
 */
export function shmPathOfKey(key: string, directory: string = DEFAULT_SHM_DIRECTORY): string {
  const name = key.startsWith('/') ? key.slice(1) : key;
  let problem: string | undefined;
  if (name.length === 0) problem = 'it is empty';
  else if (name.includes('/')) problem = "it contains '/' after the leading one";
  else if (name === '.' || name === '..') problem = `'${name}' is not a name`;
  else if (name.includes('\0')) problem = 'it contains a NUL byte';
  else if (Buffer.byteLength(name) > NAME_MAX) problem = `it is longer than ${NAME_MAX} bytes`;
  if (problem !== undefined) {
    throw rtError(
      'SHM_BAD_KEY',
      `shared memory key ${JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key)} is not a POSIX shared memory name: ${problem} (expected "/name" as given to shm_open)`,
    );
  }
  return join(directory, name);
}

function isSafeSize(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

/**
 * Opens the shm object at `path` read-write as shm_open(O_RDWR) does, with O_NOFOLLOW: a symbolic link is refused
 * with ELOOP (the error's `code`), so the object is this name's own file, never a link's target. The checks run on
 * the opened descriptor (fstat): a regular file (SHM_BAD_KEY otherwise) of at least `end` bytes (SHM_OUT_OF_RANGE
 * otherwise). `what` names the object in those messages.
 */
export async function openShmFile(path: string, end: number, what: string): Promise<ShmFile> {
  const handle = await open(path, constants.O_RDWR | constants.O_NOFOLLOW);
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw rtError('SHM_BAD_KEY', `${what} is not a shared memory object (not a regular file)`);
    if (end > st.size) throw rtError('SHM_OUT_OF_RANGE', `${what} has ${st.size} bytes, fewer than the ${end} the region needs`);
    return { path, handle, size: st.size };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** The backing `opener` makes of [offset, offset+byteSize) of the shm object at `path`, opened by `openShmFile`. */
export async function openRegion(opener: RegionOpener, path: string, offset: number, byteSize: number, what: string): Promise<RegionBacking> {
  const file = await openShmFile(path, offset + byteSize, what);
  try {
    return await opener(file, offset, byteSize);
  } catch (err) {
    await file.handle.close();
    throw err;
  }
}

/**
 * The default RegionBacking: the opened shm object's file handle; every read is one `FileHandle.read` into a fresh
 * buffer, every write one `FileHandle.write`, both on libuv's thread pool.
 */
export const openFileRegion: RegionOpener = async ({ path, handle: fh }, offset, byteSize) => {
  const at = (rel: number): number => offset + rel;
  return {
    async read(rel, size) {
      // A fresh buffer of exactly this size, marked exclusive: the engine may transfer it to its worker thread
      // instead of copying the tensor out (tensor/exclusive-buffers.ts).
      const out = new Uint8Array(new ArrayBuffer(size));
      let done = 0;
      while (done < size) {
        const { bytesRead } = await fh.read(out, done, size - done, at(rel + done));
        if (bytesRead === 0) {
          throw rtError(
            'SHM_OUT_OF_RANGE',
            `shared memory object ${path} ended after ${offset + rel + done} bytes while reading ${size} bytes at offset ${offset + rel}: was it truncated after the region of ${byteSize} bytes was registered?`,
          );
        }
        done += bytesRead;
      }
      markExclusive(out);
      return out;
    },
    async write(rel, data) {
      let done = 0;
      while (done < data.byteLength) {
        const { bytesWritten } = await fh.write(data, done, data.byteLength - done, at(rel + done));
        done += bytesWritten;
      }
    },
    close: () => fh.close(),
  };
};

export interface SharedMemoryManagerOptions {
  /** How registered regions are opened; default `openFileRegion`. */
  readonly opener?: RegionOpener;
  /** Where POSIX shm objects live; default /dev/shm. */
  readonly directory?: string;
  readonly logger?: Logger;
}

/** The registry of system shared memory regions (see the file comment). */
export class SharedMemoryManager implements SystemSharedMemoryApi {
  /** Owner → its regions by name. */
  private readonly owners = new Map<string, Map<string, Region>>();
  /** Owner and name (`owner\0name`) of regions being registered (the file checks and the opener are asynchronous): a second register fails at once. */
  private readonly registering = new Set<string>();
  private readonly opener: RegionOpener;
  private readonly directory: string;
  private readonly log: Logger | undefined;

  constructor(options: SharedMemoryManagerOptions = {}) {
    this.opener = options.opener ?? openFileRegion;
    this.directory = options.directory ?? DEFAULT_SHM_DIRECTORY;
    this.log = options.logger;
  }

  /** The regions of `owner` (created empty on demand when `create`). */
  private regionsOf(owner: string | undefined, create = false): Map<string, Region> | undefined {
    const id = owner ?? ANONYMOUS_OWNER;
    let regions = this.owners.get(id);
    if (regions === undefined && create) this.owners.set(id, (regions = new Map()));
    return regions;
  }

  async register(name: string, key: string, offset: number, byteSize: number, owner?: string): Promise<void> {
    if (name.length === 0) throw rtError('BAD_REQUEST', 'a shared memory region needs a non-empty name');
    const pending = `${owner ?? ANONYMOUS_OWNER}\0${name}`;
    const existing = this.regionsOf(owner)?.get(name);
    if (existing !== undefined || this.registering.has(pending)) {
      const what =
        existing === undefined
          ? 'is being registered'
          : `is registered (key ${JSON.stringify(existing.key)}, offset ${existing.offset}, byte_size ${existing.byteSize})`;
      throw rtError('SHM_REGION_EXISTS', `shared memory region '${name}' already in manager: it ${what}; unregister it first`);
    }
    if (!isSafeSize(offset)) throw rtError('BAD_PARAMETER', `shared memory region '${name}': offset must be a non-negative integer, got ${offset}`);
    if (!isSafeSize(byteSize) || byteSize === 0)
      throw rtError('BAD_PARAMETER', `shared memory region '${name}': byte_size must be a positive integer, got ${byteSize}`);
    const path = shmPathOfKey(key, this.directory);
    this.registering.add(pending);
    try {
      const what = `failed to register shared memory region '${name}' (offset ${offset} + byte_size ${byteSize} = ${offset + byteSize} bytes): shared memory object ${JSON.stringify(key)} (${path})`;
      let backing: RegionBacking;
      try {
        backing = await openRegion(this.opener, path, offset, byteSize, what);
      } catch (err) {
        throw this.openError(err, name, key, path);
      }
      this.regionsOf(owner, true)?.set(name, { name, key, offset, byteSize, backing, users: 0, retired: false });
    } finally {
      this.registering.delete(pending);
    }
  }

  private openError(err: unknown, name: string, key: string, path: string): RtError {
    if (err instanceof RtError) return err;
    const code = (err as { code?: unknown }).code;
    const k = JSON.stringify(key);
    if (code === 'ENOENT')
      return rtError(
        'SHM_BAD_KEY',
        `failed to register shared memory region '${name}': no shared memory object ${k} (${path}); create it (shm_open) before registering`,
        { cause: err },
      );
    if (code === 'ELOOP')
      return rtError(
        'SHM_BAD_KEY',
        `failed to register shared memory region '${name}': shared memory object ${k} (${path}) is a symbolic link; shared memory objects are opened as shm_open opens them (O_NOFOLLOW), which refuses links (ELOOP)`,
        { cause: err },
      );
    if (code === 'EACCES' || code === 'EPERM')
      return rtError(
        'SHM_BAD_KEY',
        `failed to register shared memory region '${name}': the server may not read and write shared memory object ${k} (${path})`,
        { cause: err },
      );
    return rtError(
      'SHM_BAD_KEY',
      `failed to register shared memory region '${name}': cannot open shared memory object ${k} (${path})${typeof code === 'string' ? `: ${code}` : ''}`,
      { cause: err },
    );
  }

  async unregister(name?: string, owner?: string): Promise<void> {
    const regions = this.regionsOf(owner);
    if (regions === undefined) return;
    const names = name === undefined ? [...regions.keys()] : [name];
    const closing: Promise<void>[] = [];
    for (const n of names) {
      const region = regions.get(n);
      if (region === undefined) continue;
      regions.delete(n);
      region.retired = true;
      if (region.users === 0) closing.push(this.close(region));
    }
    if (regions.size === 0) this.owners.delete(owner ?? ANONYMOUS_OWNER);
    await Promise.all(closing);
  }

  /** Unregisters every region of every owner (the server's shutdown). */
  async unregisterEveryOwner(): Promise<void> {
    await Promise.all([...this.owners.keys()].map((owner) => this.unregister(undefined, owner)));
  }

  status(name?: string, owner?: string): SharedMemoryRegionStatus[] {
    const regions = this.regionsOf(owner);
    if (name === undefined) return [...(regions?.values() ?? [])].map(statusOf);
    const region = regions?.get(name);
    if (region === undefined) throw this.notFound(name, owner);
    return [statusOf(region)];
  }

  /** Registered regions, of every owner. */
  get size(): number {
    let n = 0;
    for (const regions of this.owners.values()) n += regions.size;
    return n;
  }

  /** Names only from the caller's own regions: another principal's region names are not disclosed. */
  private notFound(name: string, owner: string | undefined): RtError {
    const known = [...(this.regionsOf(owner)?.keys() ?? [])];
    const shown =
      known.length === 0
        ? 'no region is registered'
        : `registered: ${known
            .slice(0, 10)
            .map((n) => `'${n}'`)
            .join(', ')}${known.length > 10 ? ', …' : ''}`;
    return rtError('SHM_REGION_NOT_FOUND', `Unable to find system shared memory region: '${name}' (${shown})`);
  }

  /** A lease on a region of `owner` (SHM_REGION_NOT_FOUND when it has none of that name); release it when done. */
  acquire(name: string, owner?: string): RegionLease {
    const region = this.regionsOf(owner)?.get(name);
    if (region === undefined) throw this.notFound(name, owner);
    region.users++;
    let released = false;
    return {
      name,
      byteSize: region.byteSize,
      checkRange: (what, offset, byteSize) => {
        if (offset + byteSize > region.byteSize) {
          throw rtError(
            'SHM_OUT_OF_RANGE',
            `${what}: shared_memory_offset ${offset} + shared_memory_byte_size ${byteSize} = ${offset + byteSize} bytes, past the end of shared memory region '${name}' (${region.byteSize} bytes)`,
          );
        }
      },
      read: (offset, byteSize) => region.backing.read(offset, byteSize),
      write: (offset, data) => region.backing.write(offset, data),
      release: () => {
        if (released) return;
        released = true;
        region.users--;
        if (region.users === 0 && region.retired) void this.close(region);
      },
    };
  }

  private async close(region: Region): Promise<void> {
    try {
      await region.backing.close();
    } catch (err) {
      this.log?.warn({ region: region.name, key: region.key, err }, 'closing a shared memory region failed');
    }
  }
}

function statusOf(r: Region): SharedMemoryRegionStatus {
  return { name: r.name, key: r.key, offset: r.offset, byte_size: r.byteSize };
}
