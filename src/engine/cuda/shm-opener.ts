/**
 * System shared memory regions mapped into the process (the CUDA addon's `mapShm`: mmap, shared, read-write, and
 * page-locked for CUDA when it allows) instead of read through a file handle. An input in a region is then a view
 * of the client's memory: nothing is copied on the way in, and the CUDA engine copies it to the GPU directly (DMA)
 * from there. Outputs are written into the mapping. Without the addon (no CUDA toolkit or GPU here) regions are
 * opened with the file-handle backing (shm/system-shared-memory.ts).
 */
import { markMapped } from '../../tensor/exclusive-buffers.ts';
import { openFileRegion, type RegionBacking, type RegionOpener } from '../../shm/system-shared-memory.ts';
import { rtError } from '../../errors/registry.ts';
import { loadCudaAddon, type CudaAddon } from './addon.ts';

/** A RegionOpener over the addon's mapShm. */
export function mappedRegionOpener(addon: CudaAddon): RegionOpener {
  return async ({ path, handle }, offset, byteSize): Promise<RegionBacking> => {
    // The object the manager opened and checked, mapped through its descriptor (never its name again: a link put
    // there since would be followed); the mapping outlives the descriptor.
    let buffer: ArrayBuffer;
    try {
      buffer = addon.mapShm(`/proc/self/fd/${handle.fd}`, offset, byteSize);
    } finally {
      await handle.close();
    }
    // Other requests and the client share this memory: it is never transferred to a worker (that would detach it).
    markMapped(buffer);
    const bytes = new Uint8Array(buffer);
    const check = (rel: number, size: number, what: string): void => {
      if (rel < 0 || size < 0 || rel + size > byteSize) {
        throw rtError('SHM_OUT_OF_RANGE', `${what} ${size} bytes at offset ${rel} of a region of ${byteSize} bytes (${path})`);
      }
    };
    return {
      async read(rel, size) {
        check(rel, size, 'reading');
        return bytes.subarray(rel, rel + size);
      },
      async write(rel, data) {
        check(rel, data.byteLength, 'writing');
        bytes.set(data, rel);
      },
      // The mapping is released when the last view of it is garbage-collected (a request may still hold one).
      async close() {},
    };
  };
}

/** The server's default opener: mapped where the CUDA addon loads, file handles elsewhere. Decided at first use. */
export const defaultRegionOpener: RegionOpener = async (file, offset, byteSize) => {
  const status = loadCudaAddon();
  return (status.available ? mappedRegionOpener(status.addon) : openFileRegion)(file, offset, byteSize);
};
