/**
 * Typed tensors for the SDK: typed arrays in, typed arrays out. An input names its datatype or lets the SDK
 * infer it from the array (Float32Array → FP32, Int32Array → INT32, BigInt64Array → INT64, strings → BYTES,
 * booleans → BOOL, ...). FP16 and BF16 travel as raw 16-bit patterns in a Uint16Array and must be named.
 * No Node-only imports: runs in browsers.
 */
import { DATA_TYPES, elementCount, type DataType, type TensorData } from '../../../src/tensor/datatype.ts';
import type { InferResponse, Parameters } from '../../../src/api/types.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import { RtserveError } from './errors.ts';

export type TypedArray =
  | Float32Array
  | Float64Array
  | Int8Array
  | Int16Array
  | Int32Array
  | BigInt64Array
  | Uint8Array
  | Uint16Array
  | Uint32Array
  | BigUint64Array;

/** The array each datatype's data comes as (FP16 and BF16: their raw 16-bit patterns; BOOL: one byte each). */
export interface DataTypeArrays {
  BOOL: Uint8Array;
  UINT8: Uint8Array;
  UINT16: Uint16Array;
  UINT32: Uint32Array;
  UINT64: BigUint64Array;
  INT8: Int8Array;
  INT16: Int16Array;
  INT32: Int32Array;
  INT64: BigInt64Array;
  FP16: Uint16Array;
  FP32: Float32Array;
  FP64: Float64Array;
  BYTES: Uint8Array[];
  BF16: Uint16Array;
}

export interface TensorInput {
  readonly name: string;
  readonly shape: readonly number[];
  /** Inferred from `data` when left out (Uint16Array is UINT16: say FP16 or BF16 explicitly). */
  readonly datatype?: DataType;
  readonly data: TypedArray | readonly string[] | readonly Uint8Array[] | readonly boolean[];
}

/** Inputs as a list, or as a record name → input without its name. */
export type Inputs = readonly TensorInput[] | Readonly<Record<string, Omit<TensorInput, 'name'>>>;

const encoder = new TextEncoder();

function inferDatatype(data: TensorInput['data'], name: string): DataType {
  if (data instanceof Float32Array) return 'FP32';
  if (data instanceof Float64Array) return 'FP64';
  if (data instanceof Int8Array) return 'INT8';
  if (data instanceof Int16Array) return 'INT16';
  if (data instanceof Int32Array) return 'INT32';
  if (data instanceof BigInt64Array) return 'INT64';
  if (data instanceof Uint8Array) return 'UINT8';
  if (data instanceof Uint16Array) return 'UINT16';
  if (data instanceof Uint32Array) return 'UINT32';
  if (data instanceof BigUint64Array) return 'UINT64';
  if (Array.isArray(data)) {
    const first: unknown = data[0];
    if (typeof first === 'boolean') return 'BOOL';
    if (first === undefined || typeof first === 'string' || first instanceof Uint8Array) return 'BYTES';
  }
  throw new RtserveError(
    'BAD_DATA',
    `input '${name}': cannot infer a datatype from its data; pass a typed array, strings, Uint8Arrays or booleans, or set 'datatype'`,
  );
}

/** A wire Tensor from an SDK input (BYTES strings are UTF-8 encoded, booleans become 0/1 bytes). */
export function toTensor(input: TensorInput): Tensor {
  const datatype = input.datatype ?? inferDatatype(input.data, input.name);
  if (!(DATA_TYPES as readonly string[]).includes(datatype)) {
    throw new RtserveError('BAD_DATATYPE', `input '${input.name}': '${datatype}' is not a KServe v2 datatype (${DATA_TYPES.join(', ')})`);
  }
  let data: TensorData;
  const raw = input.data;
  if (datatype === 'BYTES') {
    if (!Array.isArray(raw)) throw new RtserveError('BAD_DATA', `input '${input.name}': BYTES data must be an array of strings or Uint8Arrays`);
    data = (raw as readonly (string | Uint8Array)[]).map((v) => (typeof v === 'string' ? encoder.encode(v) : v));
  } else if (datatype === 'BOOL' && Array.isArray(raw)) {
    data = Uint8Array.from(raw as readonly boolean[], (b) => (b ? 1 : 0));
  } else {
    if (Array.isArray(raw)) throw new RtserveError('BAD_DATA', `input '${input.name}': ${datatype} data must be a typed array`);
    data = raw as TypedArray;
  }
  const count = elementCount(input.shape);
  if (data.length !== count) {
    throw new RtserveError('BAD_DATA', `input '${input.name}': shape [${input.shape.join(',')}] needs ${count} elements, data has ${data.length}`);
  }
  return { name: input.name, datatype, shape: input.shape.slice(), data };
}

export function toTensors(inputs: Inputs): Tensor[] {
  if (Array.isArray(inputs)) return (inputs as readonly TensorInput[]).map(toTensor);
  return Object.entries(inputs as Readonly<Record<string, Omit<TensorInput, 'name'>>>).map(([name, t]) => toTensor({ ...t, name }));
}

const decoder = new TextDecoder();

/** An inference answer: outputs as typed arrays (BYTES as Uint8Array lists; `strings()` decodes them). */
export class InferResult {
  readonly modelName: string;
  readonly modelVersion: string;
  readonly id: string | undefined;
  readonly parameters: Parameters | undefined;
  readonly outputs: readonly Tensor[];

  constructor(response: InferResponse) {
    this.modelName = response.model_name;
    this.modelVersion = response.model_version;
    this.id = response.id;
    this.parameters = response.parameters;
    this.outputs = response.outputs;
  }

  /** The output tensor `name`; throws when the answer has none by that name. */
  output(name: string): Tensor {
    const t = this.outputs.find((o) => o.name === name);
    if (t === undefined)
      throw new RtserveError('UNKNOWN_OUTPUT', `the answer has no output '${name}' (outputs: ${this.outputs.map((o) => o.name).join(', ')})`);
    return t;
  }

  /**
   * The data of output `name`: a typed array for numeric outputs, a list of byte strings for BYTES. With its
   * datatype, typed as that datatype's array (`data('logits', 'FP32')` is a Float32Array), after checking that the
   * output has it (BAD_DATATYPE otherwise).
   */
  data(name: string): TensorData;
  data<D extends DataType>(name: string, datatype: D): DataTypeArrays[D];
  data(name: string, datatype?: DataType): TensorData {
    const t = this.output(name);
    if (datatype !== undefined && t.datatype !== datatype)
      throw new RtserveError('BAD_DATATYPE', `output '${name}' is ${t.datatype}, not ${datatype}`, { category: 'INVALID_ARGUMENT' });
    return t.data;
  }

  /** A BYTES output decoded as UTF-8 strings. */
  strings(name: string): string[] {
    const d = this.output(name).data;
    if (!Array.isArray(d)) throw new RtserveError('BAD_DATATYPE', `output '${name}' is ${this.output(name).datatype}, not BYTES`);
    return d.map((b) => decoder.decode(b));
  }
}
