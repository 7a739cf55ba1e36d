/**
 * Reads weights from a Hugging Face checkpoint's safetensors files: one `model.safetensors`, or shards listed by
 * `model.safetensors.index.json` (`weight_map`: tensor name -> shard file). The format (safetensors' README):
 * 8 bytes little-endian header length N, N bytes of JSON `{name: {dtype, shape, data_offsets: [begin, end]}, ...}`
 * (offsets relative to the end of the header), then the data, little-endian, row-major. Only headers are read
 * when a checkpoint is opened; each tensor is read on demand at its offset, so a checkpoint larger than memory
 * never has to be held whole.
 */
import { open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { rtError } from '../errors/registry.ts';
import { bf16ArrayToFloat32, halfArrayToFloat32 } from '../tensor/half.ts';

export type SafetensorsDtype = 'F32' | 'F16' | 'BF16';
const BYTES: Readonly<Record<SafetensorsDtype, number>> = { F32: 4, F16: 2, BF16: 2 };

export interface TensorEntry {
  readonly name: string;
  readonly file: string;
  readonly dtype: SafetensorsDtype;
  readonly shape: readonly number[];
  /** Absolute byte offset in the file and byte length. */
  readonly offset: number;
  readonly length: number;
}

export const SINGLE_FILE = 'model.safetensors';
export const INDEX_FILE = 'model.safetensors.index.json';
/** The longest header accepted (safetensors itself caps it at 100 MB). */
const MAX_HEADER_BYTES = 100 * 1024 * 1024;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

async function readHeader(dir: string, file: string): Promise<TensorEntry[]> {
  const path = join(dir, file);
  const fh = await open(path, 'r').catch((err: unknown) => {
    throw rtError('MODEL_LOAD_FAILED', `cannot open ${file}: ${(err as Error).message}`);
  });
  try {
    const size = (await fh.stat()).size;
    const head = Buffer.alloc(8);
    if (size < 8 || (await fh.read(head, 0, 8, 0)).bytesRead !== 8)
      throw rtError('BAD_CONFIG', `${file}: not a safetensors file (shorter than 8 bytes)`);
    const n = Number(head.readBigUInt64LE(0));
    if (n > MAX_HEADER_BYTES || 8 + n > size) throw rtError('BAD_CONFIG', `${file}: not a safetensors file (header length ${n} exceeds the file)`);
    const json = Buffer.alloc(n);
    await fh.read(json, 0, n, 8);
    let header: Record<string, unknown>;
    try {
      header = JSON.parse(json.toString('utf8')) as Record<string, unknown>;
    } catch (err) {
      throw rtError('BAD_CONFIG', `${file}: the safetensors header is not JSON: ${(err as Error).message}`);
    }
    const out: TensorEntry[] = [];
    for (const [name, v] of Object.entries(header)) {
      if (name === '__metadata__') continue;
      const t = v as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
      const dtype = t.dtype;
      if (dtype !== 'F32' && dtype !== 'F16' && dtype !== 'BF16') {
        throw rtError('BAD_CONFIG', `${file}: tensor '${name}' has dtype ${JSON.stringify(dtype)}; supported: F32, F16, BF16`);
      }
      const shape = t.shape;
      const offsets = t.data_offsets;
      if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0) || !Array.isArray(offsets) || offsets.length !== 2) {
        throw rtError('BAD_CONFIG', `${file}: tensor '${name}' has a malformed header entry`);
      }
      const [begin, end] = offsets as [number, number];
      const count = (shape as number[]).reduce((a, b) => a * b, 1);
      if (end - begin !== count * BYTES[dtype] || 8 + n + end > size) {
        throw rtError(
          'BAD_CONFIG',
          `${file}: tensor '${name}' ([${shape.join(', ')}] ${dtype}) does not match its data offsets [${begin}, ${end}] or the file size`,
        );
      }
      out.push({ name, file, dtype, shape: shape as number[], offset: 8 + n + begin, length: end - begin });
    }
    return out;
  } finally {
    await fh.close();
  }
}

/** The tensors of a checkpoint directory, by name. */
export class SafetensorsCheckpoint {
  private constructor(
    readonly dir: string,
    readonly tensors: ReadonlyMap<string, TensorEntry>,
    readonly files: readonly string[],
  ) {}

  static async open(dir: string): Promise<SafetensorsCheckpoint> {
    const tensors = new Map<string, TensorEntry>();
    let files: string[];
    if (await exists(join(dir, INDEX_FILE))) {
      let index: { weight_map?: unknown };
      try {
        index = JSON.parse(await readFile(join(dir, INDEX_FILE), 'utf8')) as { weight_map?: unknown };
      } catch (err) {
        throw rtError('BAD_CONFIG', `${INDEX_FILE}: ${(err as Error).message}`);
      }
      const map = index.weight_map;
      if (map === null || typeof map !== 'object') throw rtError('BAD_CONFIG', `${INDEX_FILE}: 'weight_map' is missing`);
      const wanted = new Map<string, string>();
      for (const [name, file] of Object.entries(map as Record<string, unknown>)) {
        if (typeof file !== 'string' || file.includes('/') || file.includes('\\')) {
          throw rtError(
            'BAD_CONFIG',
            `${INDEX_FILE}: weight_map['${name}'] must name a file in the checkpoint directory, got ${JSON.stringify(file)}`,
          );
        }
        wanted.set(name, file);
      }
      files = [...new Set(wanted.values())].sort();
      for (const file of files) {
        if (!(await exists(join(dir, file)))) {
          const needs = [...wanted].filter(([, f]) => f === file).length;
          throw rtError('MODEL_LOAD_FAILED', `shard '${file}' named by ${INDEX_FILE} (${needs} tensors) is missing from the checkpoint directory`);
        }
        for (const t of await readHeader(dir, file)) if (wanted.get(t.name) === file) tensors.set(t.name, t);
      }
      for (const [name, file] of wanted) {
        if (!tensors.has(name)) throw rtError('BAD_CONFIG', `${INDEX_FILE}: tensor '${name}' is mapped to '${file}', which does not hold it`);
      }
    } else if (await exists(join(dir, SINGLE_FILE))) {
      files = [SINGLE_FILE];
      for (const t of await readHeader(dir, SINGLE_FILE)) tensors.set(t.name, t);
    } else {
      throw rtError('MODEL_LOAD_FAILED', `the checkpoint has neither ${SINGLE_FILE} nor ${INDEX_FILE}`);
    }
    return new SafetensorsCheckpoint(dir, tensors, files);
  }

  has(name: string): boolean {
    return this.tensors.has(name);
  }

  entry(name: string, shape?: readonly number[]): TensorEntry {
    const t = this.tensors.get(name);
    if (t === undefined) throw rtError('BAD_CONFIG', `the checkpoint has no tensor '${name}' (it has ${this.tensors.size} tensors)`);
    if (shape !== undefined && (shape.length !== t.shape.length || shape.some((d, i) => d !== t.shape[i]))) {
      throw rtError('BAD_CONFIG', `tensor '${name}' has shape [${t.shape.join(', ')}]; config.json implies [${shape.join(', ')}]`);
    }
    return t;
  }

  /**
   * A tensor's bytes as stored (little-endian F32, F16 or BF16 bits), for an engine that keeps half precision on
   * its device (the CUDA decoder of issue #21) instead of widening.
   */
  async readRaw(name: string, shape?: readonly number[]): Promise<{ readonly dtype: SafetensorsDtype; readonly bytes: Uint8Array }> {
    const t = this.entry(name, shape);
    return { dtype: t.dtype, bytes: await this.bytesOf(t) };
  }

  /** A tensor as float32 (F16 and BF16 widened exactly), checked against the shape config.json implies. */
  async read(name: string, shape?: readonly number[]): Promise<Float32Array> {
    const t = this.entry(name, shape);
    const bytes = await this.bytesOf(t);
    if (t.dtype === 'F32') return new Float32Array(bytes.buffer, 0, t.length / 4);
    const half = new Uint16Array(bytes.buffer, 0, t.length / 2);
    return t.dtype === 'F16' ? halfArrayToFloat32(half) : bf16ArrayToFloat32(half);
  }

  private async bytesOf(t: TensorEntry): Promise<Uint8Array> {
    const name = t.name;
    const bytes = new Uint8Array(t.length);
    const fh = await open(join(this.dir, t.file), 'r');
    try {
      let done = 0;
      while (done < t.length) {
        const { bytesRead } = await fh.read(bytes, done, t.length - done, t.offset + done);
        if (bytesRead === 0) throw rtError('MODEL_LOAD_FAILED', `${t.file}: unexpected end of file reading '${name}'`);
        done += bytesRead;
      }
    } finally {
      await fh.close();
    }
    return bytes;
  }
}
