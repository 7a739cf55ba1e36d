/**
 * Request inputs for a benchmark, built once before measuring (perf_analyzer prepares its payloads up front, so the
 * measured path sends ready-made bytes). Random data of the right datatype and shape from the model metadata, or
 * data from a file.
 */
import { readFile } from 'node:fs/promises';
import { elementCount, type DataType, type TensorData } from '../tensor/datatype.ts';
import type { Tensor, TensorMetadata } from '../tensor/tensor.ts';
import { floatToBf16Bits, floatToHalfBits } from '../tensor/half.ts';
import { decodeInferRequestJson } from '../codec/kserve-json.ts';
import { jsonToTensorData } from '../codec/json-data-decode.ts';
import { BenchError } from './errors.ts';
import { mulberry32 } from '../util/random.ts';

/** A deterministic PRNG (mulberry32), so that two runs send the same bytes. */
export const seededRandom = mulberry32;

export interface ShapeOptions {
  /** Rows per request; only for models with a batch dimension (max_batch_size > 0). */
  readonly batch: number;
  readonly maxBatchSize: number;
  /** Per-input shapes without the batch dimension (perf_analyzer --shape), for inputs with dynamic dims. */
  readonly shapes?: ReadonlyMap<string, readonly number[]>;
}

/**
 * The request shape of one input: the metadata shape with the batch dimension (the first, for batching models) set
 * to `batch`, an override from `shapes` if given, and any other dynamic dimension (-1) set to 1.
 */
export function requestShape(meta: TensorMetadata, opts: ShapeOptions): number[] {
  const batched = opts.maxBatchSize > 0;
  const sample = batched ? meta.shape.slice(1) : [...meta.shape];
  const override = opts.shapes?.get(meta.name);
  if (override !== undefined) {
    if (override.length !== sample.length || override.some((d, i) => d < 0 || (sample[i] !== -1 && sample[i] !== d))) {
      throw new BenchError(
        `--shape ${meta.name}: ${JSON.stringify(override)} does not fit the model's ${JSON.stringify(sample)}${batched ? ' (batch dimension left out)' : ''}`,
      );
    }
  }
  const dims = (override ?? sample).map((d) => (d < 0 ? 1 : d));
  if (!batched) {
    if (opts.batch !== 1) throw new BenchError(`model takes no batch dimension (max_batch_size 0), so --batch must be 1, got ${opts.batch}`);
    return dims;
  }
  if (opts.batch > opts.maxBatchSize) throw new BenchError(`--batch ${opts.batch} exceeds the model's max_batch_size ${opts.maxBatchSize}`);
  return [opts.batch, ...dims];
}

/** Random data: floats in [0, 1), integers in [0, 100), booleans, 16-byte ASCII strings. */
export function randomData(datatype: DataType, count: number, rand: () => number): TensorData {
  switch (datatype) {
    case 'BYTES':
      return Array.from({ length: count }, () => Uint8Array.from({ length: 16 }, () => 97 + Math.floor(rand() * 26)));
    case 'BOOL':
      return Uint8Array.from({ length: count }, () => (rand() < 0.5 ? 0 : 1));
    case 'FP32':
      return Float32Array.from({ length: count }, rand);
    case 'FP64':
      return Float64Array.from({ length: count }, rand);
    case 'FP16':
      return Uint16Array.from({ length: count }, () => floatToHalfBits(rand()));
    case 'BF16':
      return Uint16Array.from({ length: count }, () => floatToBf16Bits(rand()));
    case 'INT64':
      return BigInt64Array.from({ length: count }, () => BigInt(Math.floor(rand() * 100)));
    case 'UINT64':
      return BigUint64Array.from({ length: count }, () => BigInt(Math.floor(rand() * 100)));
    case 'INT8':
      return Int8Array.from({ length: count }, () => Math.floor(rand() * 100));
    case 'UINT8':
      return Uint8Array.from({ length: count }, () => Math.floor(rand() * 100));
    case 'INT16':
      return Int16Array.from({ length: count }, () => Math.floor(rand() * 100));
    case 'UINT16':
      return Uint16Array.from({ length: count }, () => Math.floor(rand() * 100));
    case 'INT32':
      return Int32Array.from({ length: count }, () => Math.floor(rand() * 100));
    case 'UINT32':
      return Uint32Array.from({ length: count }, () => Math.floor(rand() * 100));
  }
}

/** One set of random inputs for every model input. */
export function randomInputs(inputs: readonly TensorMetadata[], opts: ShapeOptions, seed = 1): Tensor[] {
  const rand = seededRandom(seed);
  return inputs.map((meta) => {
    const shape = requestShape(meta, opts);
    return { name: meta.name, datatype: meta.datatype, shape, data: randomData(meta.datatype, elementCount(shape), rand) };
  });
}

/** Every element zero (or empty strings): the cheapest inputs, for transport-only measurements. */
export function zeroInputs(inputs: readonly TensorMetadata[], opts: ShapeOptions): Tensor[] {
  return randomInputs(inputs, opts).map((t) => ({
    ...t,
    data:
      t.datatype === 'BYTES'
        ? (t.data as Uint8Array[]).map(() => new Uint8Array(0))
        : new (t.data.constructor as new (n: number) => TensorData)(t.data.length),
  }));
}

function repeatRows(data: TensorData, rows: number): TensorData {
  if (rows === 1) return data;
  if (Array.isArray(data)) return Array.from({ length: rows }, () => data).flat();
  const out = new (data.constructor as new (n: number) => typeof data)(data.length * rows);
  for (let r = 0; r < rows; r++) (out as { set(a: ArrayLike<number | bigint>, o: number): void }).set(data, r * data.length);
  return out;
}

/**
 * Input sets from a JSON file, in one of two forms:
 *  - a KServe v2 $inference_request body (`{"inputs": [...]}`, docs/protocol.md §2.2): sent as written, one set;
 *  - perf_analyzer's --input-data form (`{"data": [{"<input>": [values] | {"content": [...], "shape": [...]}}]}`):
 *    each entry is one sample (shape without the batch dimension); requests cycle through the entries and a
 *    batch of N repeats the sample N times.
 */
export async function inputsFromFile(path: string, inputs: readonly TensorMetadata[], opts: ShapeOptions): Promise<Tensor[][]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (err) {
    throw new BenchError(`--input ${path}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const body = json as { inputs?: unknown; data?: unknown };
  try {
    if (Array.isArray(body.inputs)) return [decodeInferRequestJson(json).inputs];
    if (!Array.isArray(body.data) || body.data.length === 0) {
      throw new BenchError(`--input ${path}: expected a KServe request ({"inputs": [...]}) or perf_analyzer data ({"data": [{...}]})`);
    }
    const batched = opts.maxBatchSize > 0;
    return body.data.map((entry: unknown, i: number) => {
      if (typeof entry !== 'object' || entry === null) throw new BenchError(`--input ${path}: data[${i}] must be an object`);
      return inputs.map((meta) => {
        const raw = (entry as Record<string, unknown>)[meta.name];
        if (raw === undefined) throw new BenchError(`--input ${path}: data[${i}] has no value for input '${meta.name}'`);
        const explicit = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as { content?: unknown; shape?: unknown }) : undefined;
        const values = explicit === undefined ? raw : explicit.content;
        const full = requestShape(meta, {
          ...opts,
          ...(Array.isArray(explicit?.shape) ? { shapes: new Map([[meta.name, explicit.shape.map(Number)]]) } : {}),
        });
        const sampleShape = batched ? full.slice(1) : full;
        const sample = jsonToTensorData('input', meta.name, meta.datatype, sampleShape, elementCount(sampleShape), values);
        return { name: meta.name, datatype: meta.datatype, shape: full, data: repeatRows(sample, batched ? opts.batch : 1) };
      });
    });
  } catch (err) {
    if (err instanceof BenchError) throw err;
    throw new BenchError(`--input ${path}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}
