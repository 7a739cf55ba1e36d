import { createHash } from 'node:crypto';
import type { TensorData } from '../tensor/datatype.ts';
import type { InferResponse, Parameters, RequestedOutput } from '../api/types.ts';
import type { Tensor } from '../tensor/tensor.ts';

/**
 * Triton's response cache (S:docs/user_guide/response_cache.md, docs/protocol.md §1.4): opt-in per model
 * (`response_cache { enable: true }`), keyed by a hash of the model name, version and inputs, holding only
 * successful responses, bounded by bytes (`--cache-size-bytes`) and evicting the least recently used entry.
 *
 * Two rules go beyond Triton's text, for correctness: the key also covers the requested outputs (and their
 * parameters, e.g. classification), since a response holds only what was asked for; and it covers the load
 * generation of the version, so a reloaded model (same version string, new weights) never answers from an
 * older load's entries (those age out of the LRU).
 */
export interface CachedResponse {
  readonly outputs: readonly Tensor[];
  readonly parameters?: Parameters;
}

export interface ResponseCacheStats {
  readonly bytes: number;
  readonly capacityBytes: number;
  readonly entries: number;
  readonly evictions: number;
}

interface Entry {
  readonly value: CachedResponse;
  readonly bytes: number;
}

/** Bookkeeping bytes charged per entry and per tensor on top of the data (key, objects, shapes). */
const ENTRY_OVERHEAD_BYTES = 128;
const TENSOR_OVERHEAD_BYTES = 64;

function dataBytes(d: TensorData): number {
  if (Array.isArray(d)) {
    let n = 0;
    for (const b of d) n += b.byteLength + 4;
    return n;
  }
  return d.byteLength;
}

function copyData(d: TensorData): TensorData {
  return Array.isArray(d) ? d.map((b) => b.slice()) : d.slice();
}

function copyTensor(t: Tensor): Tensor {
  return { name: t.name, datatype: t.datatype, shape: [...t.shape], data: copyData(t.data) };
}

export class ResponseCache {
  /** Map iteration order is insertion order: the first entry is the least recently used. */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private evictions = 0;

  constructor(readonly capacityBytes: number) {}

  /**
   * The cache key of a request: SHA-256 over the model, version, load generation, every input (name, datatype,
   * shape, bytes; in name order, so input order does not matter) and the requested outputs.
   */
  keyOf(model: string, version: string, generation: number, inputs: readonly Tensor[], outputs: readonly RequestedOutput[] | undefined): string {
    const h = createHash('sha256');
    const field = (s: string): void => {
      h.update(String(s.length));
      h.update(':');
      h.update(s);
    };
    field(model);
    field(version);
    field(String(generation));
    for (const t of [...inputs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      field(t.name);
      field(t.datatype);
      field(t.shape.join(','));
      if (Array.isArray(t.data)) {
        field(String(t.data.length));
        for (const b of t.data) {
          field(String(b.byteLength));
          h.update(b);
        }
      } else {
        field(String(t.data.byteLength));
        h.update(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
      }
    }
    if (outputs === undefined) {
      field('*');
    } else {
      for (const o of [...outputs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        field(o.name);
        field(o.parameters === undefined ? '' : JSON.stringify(Object.entries(o.parameters).sort()));
      }
    }
    return h.digest('base64');
  }

  /** A copy of the cached response (callers and encoders may keep or transfer it), refreshed as most recent. */
  get(key: string): CachedResponse | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    const outputs = e.value.outputs.map(copyTensor);
    return e.value.parameters === undefined ? { outputs } : { outputs, parameters: e.value.parameters };
  }

  /** Stores a copy of a successful response; one larger than the whole cache is not stored. */
  put(key: string, response: InferResponse): void {
    let bytes = ENTRY_OVERHEAD_BYTES + key.length;
    for (const t of response.outputs) bytes += TENSOR_OVERHEAD_BYTES + dataBytes(t.data);
    if (bytes > this.capacityBytes) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    while (this.bytes + bytes > this.capacityBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      const victim = this.entries.get(oldest.value);
      this.entries.delete(oldest.value);
      if (victim !== undefined) this.bytes -= victim.bytes;
      this.evictions += 1;
    }
    const outputs = response.outputs.map(copyTensor);
    const value: CachedResponse = response.parameters === undefined ? { outputs } : { outputs, parameters: response.parameters };
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
  }

  stats(): ResponseCacheStats {
    return { bytes: this.bytes, capacityBytes: this.capacityBytes, entries: this.entries.size, evictions: this.evictions };
  }
}
