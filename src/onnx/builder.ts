/**
 * A small builder for ONNX graphs, used by models/generate.ts and by tests that need a model of a given shape.
 * It produces plain protobuf objects (IModelProto); `saveModel` from proto.ts turns them into bytes.
 */
import type { NumericData } from '../tensor/onnx-dtype.ts';
import { AttributeType, ElemType, onnx } from './proto.ts';
import type { IAttributeProto, IGraphProto, IModelProto, INodeProto, ITensorProto, IValueInfoProto } from './proto.ts';

/** A dimension: a fixed size, a symbolic name (`dim_param`, e.g. "batch"), or null for an unnamed unknown size. */
export type DimSpec = number | string | null;

/** The typed arrays an initializer's values may come in (the compiler's numeric data). */
export type InitializerData = NumericData;

/** Explicitly typed attributes, for values whose JS type is ambiguous (a float attribute that equals 1). */
export interface TypedAttribute {
  readonly attributeType: 'float' | 'floats' | 'tensor';
  readonly value: number | readonly number[] | ITensorProto;
}

/**
 * Attribute values. Numbers become INT when they are integers and FLOAT otherwise; number arrays become INTS when
 * every element is an integer. Use `floatAttr` / `floatsAttr` for float attributes with integral values.
 */
export type AttributeValue = number | string | readonly number[] | readonly string[] | TypedAttribute;

export function floatAttr(value: number): TypedAttribute {
  return { attributeType: 'float', value };
}
export function floatsAttr(value: readonly number[]): TypedAttribute {
  return { attributeType: 'floats', value };
}
export function tensorAttr(value: ITensorProto): TypedAttribute {
  return { attributeType: 'tensor', value };
}

const textEncoder = new TextEncoder();

function isTypedAttribute(v: AttributeValue): v is TypedAttribute {
  return typeof v === 'object' && !Array.isArray(v) && 'attributeType' in v;
}

export function attribute(name: string, value: AttributeValue): IAttributeProto {
  if (typeof value === 'number') {
    return Number.isInteger(value) ? { name, type: AttributeType.INT, i: value } : { name, type: AttributeType.FLOAT, f: value };
  }
  if (typeof value === 'string') return { name, type: AttributeType.STRING, s: textEncoder.encode(value) };
  if (isTypedAttribute(value)) {
    const v = value.value;
    if (value.attributeType === 'float' && typeof v === 'number') return { name, type: AttributeType.FLOAT, f: v };
    if (value.attributeType === 'floats' && Array.isArray(v)) return { name, type: AttributeType.FLOATS, floats: [...(v as number[])] };
    if (value.attributeType === 'tensor' && typeof v === 'object' && !Array.isArray(v)) {
      return { name, type: AttributeType.TENSOR, t: v as ITensorProto };
    }
    throw new TypeError(`attribute '${name}': value does not match its declared type ${value.attributeType}`);
  }
  const list: readonly (number | string)[] = value;
  if (list.every((x) => typeof x === 'string')) {
    return { name, type: AttributeType.STRINGS, strings: (list as readonly string[]).map((s) => textEncoder.encode(s)) };
  }
  const nums = list as readonly number[];
  return nums.every((x) => Number.isInteger(x))
    ? { name, type: AttributeType.INTS, ints: [...nums] }
    : { name, type: AttributeType.FLOATS, floats: [...nums] };
}

export function valueInfo(name: string, elemType: number, dims: readonly DimSpec[]): IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: {
          dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : typeof d === 'string' ? { dimParam: d } : {})),
        },
      },
    },
  };
}

function defaultElemType(data: InitializerData): number {
  if (data instanceof Float32Array) return ElemType.FLOAT;
  if (data instanceof Float64Array) return ElemType.DOUBLE;
  if (data instanceof Int8Array) return ElemType.INT8;
  if (data instanceof Uint8Array) return ElemType.UINT8;
  if (data instanceof Int16Array) return ElemType.INT16;
  // Uint16Array is ambiguous (UINT16, FLOAT16, BFLOAT16 bit patterns); UINT16 unless the caller says otherwise.
  if (data instanceof Uint16Array) return ElemType.UINT16;
  if (data instanceof Int32Array) return ElemType.INT32;
  if (data instanceof Uint32Array) return ElemType.UINT32;
  if (data instanceof BigInt64Array) return ElemType.INT64;
  return ElemType.UINT64;
}

/**
 * A tensor stored as `raw_data`: the little-endian bytes of the typed array (onnx.proto requires little-endian
 * raw_data; every platform Node supports is little-endian, which the check below makes explicit).
 */
export function tensorProto(name: string, data: InitializerData, dims: readonly number[], elemType?: number): ITensorProto {
  const count = dims.reduce((a, b) => a * b, 1);
  if (count !== data.length) {
    throw new RangeError(`tensor '${name}': dims [${dims.join(', ')}] hold ${count} elements, data has ${data.length}`);
  }
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('big-endian hosts are not supported');
  return {
    name,
    dims: [...dims],
    dataType: elemType ?? defaultElemType(data),
    rawData: new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)),
  };
}

export interface NodeOptions {
  /** Node name; defaults to `<OpType>_<n>` in creation order. */
  readonly name?: string;
  /** Operator domain; '' is the default ai.onnx domain. */
  readonly domain?: string;
}

export interface ModelOptions {
  /** Version of the default (ai.onnx) operator set. */
  readonly opsetVersion: number;
  /** ModelProto.ir_version; 8 is the newest the bundled onnx.proto (ONNX 1.10) describes. */
  readonly irVersion?: number;
  readonly producerName?: string;
  readonly producerVersion?: string;
  readonly docString?: string;
  /** Extra operator sets, e.g. `{ domain: 'com.microsoft', version: 1 }`. */
  readonly extraOpsets?: readonly { readonly domain: string; readonly version: number }[];
}

export class GraphBuilder {
  readonly #name: string;
  readonly #inputs: IValueInfoProto[] = [];
  readonly #outputs: IValueInfoProto[] = [];
  readonly #valueInfos: IValueInfoProto[] = [];
  readonly #initializers: ITensorProto[] = [];
  readonly #nodes: INodeProto[] = [];
  readonly #names = new Set<string>();
  readonly #counters = new Map<string, number>();

  constructor(name: string) {
    this.#name = name;
  }

  /** A value name not used yet in this graph: `prefix`, then `prefix_1`, `prefix_2`, ... */
  uniqueName(prefix: string): string {
    let n = this.#counters.get(prefix) ?? 0;
    let candidate = n === 0 ? prefix : `${prefix}_${n}`;
    while (this.#names.has(candidate)) {
      n += 1;
      candidate = `${prefix}_${n}`;
    }
    this.#counters.set(prefix, n + 1);
    this.#names.add(candidate);
    return candidate;
  }

  #claim(name: string): void {
    if (this.#names.has(name)) throw new Error(`graph '${this.#name}': the name '${name}' is already used`);
    this.#names.add(name);
  }

  input(name: string, elemType: number, dims: readonly DimSpec[]): string {
    this.#claim(name);
    this.#inputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  /** Declares a graph output; the value itself must be produced by a node (or be an input or initializer). */
  output(name: string, elemType: number, dims: readonly DimSpec[]): string {
    this.#outputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  /** Shape information for an intermediate value (optional in ONNX; helps tools that read partial shapes). */
  valueInfo(name: string, elemType: number, dims: readonly DimSpec[]): void {
    this.#valueInfos.push(valueInfo(name, elemType, dims));
  }

  /**
   * A constant tensor. Its name may also be declared as a graph input: the initializer is then that input's
   * default value (ONNX IR >= 4), and servers do not treat it as an input a client must send.
   */
  initializer(name: string, data: InitializerData, dims: readonly number[], elemType?: number): string {
    const isInput = this.#inputs.some((i) => i.name === name) && !this.#initializers.some((t) => t.name === name);
    if (!isInput) this.#claim(name);
    this.#initializers.push(tensorProto(name, data, dims, elemType));
    return name;
  }

  /**
   * A constant tensor whose bytes live in a file beside the model (onnx.proto's external data: `location` relative
   * to the model file, `offset` and `length` in bytes), for weights too large for one protobuf message (2 GiB).
   */
  externalInitializer(name: string, dims: readonly number[], elemType: number, location: string, offset: number, length: number): string {
    this.#claim(name);
    this.#initializers.push({
      name,
      dims: [...dims],
      dataType: elemType,
      dataLocation: onnx.TensorProto.DataLocation.EXTERNAL,
      externalData: [
        { key: 'location', value: location },
        { key: 'offset', value: String(offset) },
        { key: 'length', value: String(length) },
      ],
    });
    return name;
  }

  /** Adds a node with explicit output names and returns them. */
  node(
    opType: string,
    inputs: readonly string[],
    outputs: readonly string[],
    attributes: Readonly<Record<string, AttributeValue>> = {},
    options: NodeOptions = {},
  ): string[] {
    for (const out of outputs) if (out !== '' && !this.#names.has(out)) this.#names.add(out);
    const index = this.#nodes.length;
    const node: INodeProto = {
      name: options.name ?? `${opType}_${index}`,
      opType,
      input: [...inputs],
      output: [...outputs],
      attribute: Object.entries(attributes).map(([k, v]) => attribute(k, v)),
    };
    if (options.domain !== undefined && options.domain !== '') node.domain = options.domain;
    this.#nodes.push(node);
    return [...outputs];
  }

  /** Adds a single-output node whose output gets a fresh name derived from the op type; returns that name. */
  op(opType: string, inputs: readonly string[], attributes: Readonly<Record<string, AttributeValue>> = {}, options: NodeOptions = {}): string {
    const out = this.uniqueName(opType.toLowerCase());
    this.node(opType, inputs, [out], attributes, options);
    return out;
  }

  graph(): IGraphProto {
    return {
      name: this.#name,
      node: [...this.#nodes],
      initializer: [...this.#initializers],
      input: [...this.#inputs],
      output: [...this.#outputs],
      valueInfo: [...this.#valueInfos],
    };
  }

  toModel(options: ModelOptions): IModelProto {
    const model: IModelProto = {
      irVersion: options.irVersion ?? 8,
      opsetImport: [
        { domain: '', version: options.opsetVersion },
        ...(options.extraOpsets ?? []).map((o) => ({ domain: o.domain, version: o.version })),
      ],
      graph: this.graph(),
    };
    if (options.producerName !== undefined) model.producerName = options.producerName;
    if (options.producerVersion !== undefined) model.producerVersion = options.producerVersion;
    if (options.docString !== undefined) model.docString = options.docString;
    return model;
  }
}
