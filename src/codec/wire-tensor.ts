/**
 * One KServe v2 tensor on the wire, in either direction: `{"name", "datatype", "shape", "parameters"?, "data"?}`
 * (docs/protocol.md §2.2 $request_input / $response_output) whose data is either the JSON `data` array or, with Triton's
 * binary tensor data extension (docs/protocol.md §2.3), `parameters.binary_data_size` bytes taken from the binary section
 * that follows the JSON, in the order the tensors appear.
 *
 * Shared by the server codec (request inputs in, response outputs out) and the client codec (the reverse).
 * No Node-only imports.
 */
import { DATA_TYPES, elementCount, isDataType, type DataType } from '../tensor/datatype.ts';
import type { Parameters, SharedMemoryRef } from '../api/types.ts';
import type { Tensor } from '../tensor/tensor.ts';
import { sharedMemoryParameters } from './shared-memory-params.ts';
import { rtError } from '../errors/registry.ts';
import { describeValue, formatShape, parseShape, tensorLabel, utf8Encode } from './tensor-data.ts';
import { binaryToTensorData, tensorDataToBinary } from './binary-data.ts';
import { tensorDataToJson } from './json-data-encode.ts';
import { jsonToTensorData } from './json-data-decode.ts';
import type { TensorRole } from './tensor-data.ts';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks a KServe `$parameters` object (docs/protocol.md §2.2: values are strings, numbers or booleans). Returns the
 * same object (JSON.parse made it fresh, so there is nothing to copy).
 */
export function checkParameters(what: string, raw: unknown): Parameters | undefined {
  if (raw === undefined) return undefined;
  if (!isPlainObject(raw)) throw rtError('BAD_PARAMETER', `${what} must be an object, got ${describeValue(raw)}`);
  for (const key in raw) {
    if (!Object.hasOwn(raw, key)) continue;
    const v = raw[key];
    const t = typeof v;
    if (t !== 'string' && t !== 'number' && t !== 'boolean') {
      throw rtError('BAD_PARAMETER', `${what}: parameter '${key}' must be a string, number or boolean, got ${describeValue(v)}`);
    }
  }
  return raw as Parameters;
}

/** The binary section after the JSON header, consumed front to back by tensors with `binary_data_size`. */
export class BinarySection {
  readonly bytes: Uint8Array;
  /** False when the message had no binary section at all (no Inference-Header-Content-Length). */
  readonly present: boolean;
  private offset = 0;

  constructor(bytes: Uint8Array | undefined) {
    this.bytes = bytes ?? new Uint8Array(0);
    this.present = bytes !== undefined && bytes.byteLength > 0;
  }

  get consumed(): number {
    return this.offset;
  }

  take(what: string, size: number): Uint8Array {
    const remaining = this.bytes.byteLength - this.offset;
    if (size > remaining) {
      const hint = this.present
        ? `the binary section has ${this.bytes.byteLength} bytes and earlier tensors used ${this.offset}`
        : 'the message has no binary section; was Inference-Header-Content-Length sent?';
      throw rtError('BAD_DATA', `${what}: binary_data_size is ${size} but only ${remaining} bytes of binary data remain (${hint})`);
    }
    const out = this.bytes.subarray(this.offset, this.offset + size);
    this.offset += size;
    return out;
  }

  /** The section must be consumed exactly (docs/protocol.md §2.3): left-over bytes mean the header length is wrong. */
  finish(): void {
    const left = this.bytes.byteLength - this.offset;
    if (left !== 0) {
      throw rtError(
        'BAD_BINARY_HEADER',
        `the binary section has ${this.bytes.byteLength} bytes but the tensors' binary_data_size add up to ${this.offset}: ${left} bytes left over (check Inference-Header-Content-Length)`,
      );
    }
  }
}

/** A wire tensor's name, datatype, shape and parameters, checked; its data not yet decoded. */
export interface WireTensorHead {
  readonly name: string;
  /** "input 'x'" / "output 'y'", for messages. */
  readonly what: string;
  readonly datatype: DataType;
  readonly shape: number[];
  readonly count: number;
  readonly parameters: Parameters | undefined;
  /** The JSON `data` member, unchecked (undefined when absent). */
  readonly data: unknown;
}

/** Checks the `index`-th element of `inputs` or `outputs` up to its data (see wireTensorData). */
export function readWireTensorHead(role: TensorRole, index: number, raw: unknown): WireTensorHead {
  const listName = role === 'input' ? 'inputs' : 'outputs';
  if (!isPlainObject(raw)) throw rtError('BAD_JSON', `${listName}[${index}] must be an object, got ${describeValue(raw)}`);
  const name = raw['name'];
  if (typeof name !== 'string' || name.length === 0) {
    throw rtError('BAD_JSON', `${listName}[${index}]: 'name' must be a non-empty string, got ${describeValue(name)}`);
  }
  const what = tensorLabel(role, name);
  const datatype = raw['datatype'];
  if (!isDataType(datatype)) {
    const got = typeof datatype === 'string' ? `'${datatype.length > 32 ? `${datatype.slice(0, 32)}…` : datatype}'` : describeValue(datatype);
    throw rtError('BAD_DATATYPE', `${what}: datatype ${got} is not a KServe v2 datatype (expected one of ${DATA_TYPES.join(', ')})`);
  }
  const { shape, count } = parseShape(role, name, raw['shape']);
  const parameters = checkParameters(`${what}: parameters`, raw['parameters']);
  return { name, what, datatype, shape, count, parameters, data: raw['data'] };
}

/**
 * The tensor's data: `parameters.binary_data_size` bytes taken from `section`, or the JSON `data`. A tensor in
 * shared memory has neither; its caller handles it before (see kserve-json.ts).
 */
export function wireTensorData(role: TensorRole, head: WireTensorHead, section: BinarySection): Tensor {
  const { name, what, datatype, shape, count, parameters, data } = head;
  const size = parameters?.['binary_data_size'];
  if (size !== undefined) {
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
      throw rtError('BAD_PARAMETER', `${what}: parameters.binary_data_size must be a non-negative integer, got ${describeValue(size)}`);
    }
    if (data !== undefined) {
      throw rtError('BAD_DATA', `${what} has both 'data' and parameters.binary_data_size; send the tensor one way`);
    }
    const bytes = section.take(what, size);
    return { name, datatype, shape, data: binaryToTensorData(role, name, datatype, shape, count, bytes) };
  }
  if (data === undefined) {
    throw rtError('BAD_DATA', `${what} has neither 'data' nor parameters.binary_data_size (shape ${formatShape(shape)} needs ${count} elements)`);
  }
  return { name, datatype, shape, data: jsonToTensorData(role, name, datatype, shape, count, data) };
}

/**
 * Decodes `raw` (the `index`-th element of `inputs` or `outputs`) into a Tensor, taking binary data from
 * `section` when the tensor has `parameters.binary_data_size`.
 */
export function decodeWireTensor(role: TensorRole, index: number, raw: unknown, section: BinarySection): Tensor {
  return wireTensorData(role, readWireTensorHead(role, index, raw), section);
}

/**
 * The JSON text of one tensor. With `binary`, the data goes to `chunks` and the JSON carries
 * `parameters.binary_data_size` and no `data` (docs/protocol.md §2.3); otherwise the JSON carries a flat `data` array.
 */
export function encodeWireTensor(role: TensorRole, tensor: Tensor, binary: boolean, chunks: Uint8Array[]): string {
  const { name, datatype, shape, data } = tensor;
  const count = elementCount(shape);
  if (data.length !== count) {
    throw rtError('INTERNAL', `${tensorLabel(role, name)}: shape ${formatShape(shape)} needs ${count} elements, data has ${data.length}`);
  }
  const head = `{"name":${JSON.stringify(name)},"datatype":"${datatype}","shape":${formatShape(shape)}`;
  if (binary) {
    const bytes = tensorDataToBinary(role, name, datatype, data);
    chunks.push(bytes);
    return `${head},"parameters":{"binary_data_size":${bytes.byteLength}}}`;
  }
  return `${head},"data":${tensorDataToJson(role, name, datatype, data)}}`;
}

/**
 * The JSON text of a tensor whose bytes are in a shared memory region (docs/protocol.md §2.2; Triton's shared-memory
 * extension): name, datatype, shape and the region parameters, no data.
 */
export function encodeSharedMemoryWireTensor(
  tensor: { readonly name: string; readonly datatype: DataType; readonly shape: readonly number[] },
  ref: SharedMemoryRef,
): string {
  return `{"name":${JSON.stringify(tensor.name)},"datatype":"${tensor.datatype}","shape":${formatShape(tensor.shape)},"parameters":${JSON.stringify(sharedMemoryParameters(ref))}}`;
}

/** Joins the JSON header and binary chunks into one buffer (for clients that need a single body). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  let size = 0;
  for (const p of parts) size += p.byteLength;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.byteLength;
  }
  return out;
}

/**
 * Pads a JSON header with trailing spaces (insignificant in JSON, RFC 8259 §2) to a multiple of 8 bytes, so that
 * the binary section after it starts 8-byte aligned and the receiver can view the first tensors in place.
 */
export function padJsonHeader(text: string): string {
  // The text is ASCII except inside strings; measure UTF-8 length only when needed.
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      length = utf8Encode(text).byteLength;
      break;
    }
  }
  const pad = (8 - (length % 8)) % 8;
  return pad === 0 ? text : text + ' '.repeat(pad);
}
