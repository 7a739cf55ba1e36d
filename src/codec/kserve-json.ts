/**
 * Server side of the KServe v2 / Open Inference Protocol REST codec (docs/protocol.md §2.2 JSON shapes) with Triton's
 * binary tensor data extension (docs/protocol.md §2.3). Classification is a layer of the request pipeline
 * (src/pipeline/classification.ts), done before a response reaches any encoder.
 *
 *   parseBinaryBody        body + Inference-Header-Content-Length → JSON header + binary section (or a raw body)
 *   decodeInferRequestJson $inference_request JSON (+ binary section) → tensors (zero-copy views where aligned)
 *   buildRawRequest        a raw binary request (header length 0) → a decoded request for a one-input model
 *   responseOptionsFor     request parameters → which outputs go binary
 *   encodeInferResponse    InferResponse → JSON header bytes + binary chunks, kept separate for a gathered write
 *
 * Model-dependent checks (input names, datatypes and shapes against the model) live in core/validate.ts so that
 * every front end shares them; this file checks only the wire format. The module has no Node-only imports.
 */
import { BYTE_SIZE, elementCount } from '../tensor/datatype.ts';
import type { InferRequest, InferResponse, Parameters, RequestedOutput, SharedMemoryInput } from '../api/types.ts';
import type { Tensor, TensorMetadata } from '../tensor/tensor.ts';
import type { RequestContext } from '../observability/request-context.ts';
import { rtError } from '../errors/registry.ts';
import { describeValue, formatShape, utf8Encode } from './tensor-data.ts';
import { parseJsonBytes } from './json-body.ts';
import { alignInPlace, binaryToTensorData } from './binary-data.ts';
import { sharedMemoryInput, sharedMemoryRefOf } from './shared-memory-params.ts';
import {
  BinarySection,
  checkParameters,
  encodeSharedMemoryWireTensor,
  encodeWireTensor,
  isPlainObject,
  padJsonHeader,
  readWireTensorHead,
  wireTensorData,
} from './wire-tensor.ts';

/** A request decoded from the wire, before the transport adds model, version, signal and protocol. */
export interface DecodedInferRequest {
  readonly id?: string;
  readonly parameters?: Parameters;
  readonly inputs: Tensor[];
  /** Inputs whose bytes are in shared memory regions (read by pipeline/shared-memory.ts). */
  readonly sharedMemoryInputs?: SharedMemoryInput[];
  /** Undefined when the request names no outputs (all outputs are returned). */
  readonly outputs?: RequestedOutput[];
}

/**
 * The core's request for a decoded KServe request: the front end adds where it goes (model, version), how it is
 * cancelled and which protocol received it; `id` overrides the body's (the WebSocket protocol's own request id).
 */
export function toInferRequest(
  decoded: DecodedInferRequest,
  target: {
    readonly model: string;
    readonly version: string | undefined;
    readonly signal: AbortSignal;
    readonly protocol: string;
    readonly id?: string;
    readonly context?: RequestContext | undefined;
    /** The sending principal's id (shared-memory regions are its own). */
    readonly principal?: string | undefined;
  },
): InferRequest {
  const id = target.id ?? decoded.id;
  return {
    model: target.model,
    ...(target.version === undefined ? {} : { version: target.version }),
    ...(id === undefined ? {} : { id }),
    inputs: decoded.inputs,
    ...(decoded.sharedMemoryInputs === undefined ? {} : { sharedMemoryInputs: decoded.sharedMemoryInputs }),
    ...(decoded.outputs === undefined ? {} : { outputs: decoded.outputs }),
    ...(decoded.parameters === undefined ? {} : { parameters: decoded.parameters }),
    signal: target.signal,
    protocol: target.protocol,
    ...(target.context === undefined ? {} : { context: target.context }),
    ...(target.principal === undefined ? {} : { principal: target.principal }),
  };
}

/**
 * Decodes a parsed $inference_request. Inputs with `parameters.binary_data_size` take their bytes from
 * `binary.bytes` in order of appearance, and the binary section must be used up exactly. Inputs with the
 * shared-memory parameters (docs/protocol.md §2.2) carry no data and are returned in `sharedMemoryInputs`.
 */
export function decodeInferRequestJson(json: unknown, binary?: { readonly bytes: Uint8Array }): DecodedInferRequest {
  if (!isPlainObject(json)) throw rtError('BAD_JSON', `the inference request must be a JSON object, got ${describeValue(json)}`);
  const id = json['id'];
  if (id !== undefined && typeof id !== 'string') throw rtError('BAD_JSON', `'id' must be a string, got ${describeValue(id)}`);
  const parameters = checkParameters('request parameters', json['parameters']);

  const rawInputs = json['inputs'];
  if (!Array.isArray(rawInputs)) throw rtError('BAD_JSON', `'inputs' must be an array of tensors, got ${describeValue(rawInputs)}`);
  const section = new BinarySection(binary?.bytes);
  const inputs: Tensor[] = [];
  let sharedMemoryInputs: SharedMemoryInput[] | undefined;
  for (let i = 0; i < rawInputs.length; i++) {
    const head = readWireTensorHead('input', i, rawInputs[i]);
    const ref = sharedMemoryRefOf(head.what, head.parameters);
    if (ref === undefined) {
      inputs.push(wireTensorData('input', head, section));
      continue;
    }
    // Extension doc: "When these parameters are set for an input tensor the "data" field ... must not be set."
    if (head.data !== undefined || head.parameters?.['binary_data_size'] !== undefined) {
      const how = head.data !== undefined ? "'data'" : 'parameters.binary_data_size';
      throw rtError('BAD_DATA', `${head.what} has both ${how} and parameters.shared_memory_region; send the tensor one way`);
    }
    (sharedMemoryInputs ??= []).push(sharedMemoryInput(head.what, head.name, head.datatype, head.shape, head.count, ref, i));
  }
  section.finish();

  const rawOutputs = json['outputs'];
  let outputs: RequestedOutput[] | undefined;
  if (rawOutputs !== undefined) {
    if (!Array.isArray(rawOutputs)) throw rtError('BAD_JSON', `'outputs' must be an array, got ${describeValue(rawOutputs)}`);
    outputs = new Array<RequestedOutput>(rawOutputs.length);
    for (let i = 0; i < rawOutputs.length; i++) outputs[i] = decodeRequestedOutput(i, rawOutputs[i]);
  }

  return {
    ...(id !== undefined && { id }),
    ...(parameters !== undefined && { parameters }),
    inputs,
    ...(sharedMemoryInputs !== undefined && { sharedMemoryInputs }),
    ...(outputs !== undefined && { outputs }),
  };
}

function decodeRequestedOutput(index: number, raw: unknown): RequestedOutput {
  if (!isPlainObject(raw)) throw rtError('BAD_JSON', `outputs[${index}] must be an object, got ${describeValue(raw)}`);
  const name = raw['name'];
  if (typeof name !== 'string' || name.length === 0) {
    throw rtError('BAD_JSON', `outputs[${index}]: 'name' must be a non-empty string, got ${describeValue(name)}`);
  }
  const parameters = checkParameters(`output '${name}': parameters`, raw['parameters']);
  // Shared-memory parameters are checked here and acted on by pipeline/shared-memory.ts.
  sharedMemoryRefOf(`output '${name}'`, parameters);
  return parameters === undefined ? { name } : { name, parameters };
}

// ---------------------------------------------------------------------------------------------------------------
// Body framing

export type ParsedBody =
  /** A JSON header, and the binary section after it (empty when there is none). */
  | { readonly kind: 'json'; readonly json: unknown; readonly binary: Uint8Array }
  /** `Inference-Header-Content-Length: 0`: the whole body is one input's bytes (resolve with buildRawRequest). */
  | { readonly kind: 'raw'; readonly raw: Uint8Array };

const HEADER_NAME = 'Inference-Header-Content-Length';

/**
 * Splits a request body by the Inference-Header-Content-Length header (docs/protocol.md §2.3). Without the header the
 * whole body is JSON. The JSON header must be valid UTF-8 JSON; errors carry its position.
 */
export function parseBinaryBody(body: Uint8Array, headerLengthHeader: string | undefined): ParsedBody {
  if (headerLengthHeader === undefined) {
    return { kind: 'json', json: parseJsonBytes(body, 'the request body'), binary: body.subarray(body.byteLength) };
  }
  const text = headerLengthHeader.trim();
  if (!/^\d+$/.test(text)) {
    const shown = text.length > 32 ? `${text.slice(0, 32)}…` : text;
    throw rtError(
      'BAD_BINARY_HEADER',
      `${HEADER_NAME} must be a non-negative integer number of bytes, got '${shown}' (the body has ${body.byteLength} bytes)`,
    );
  }
  // Digits only, so Number() is exact up to 2^53 and larger values compare as larger than any body anyway.
  const headerLength = Number(text);
  if (headerLength > body.byteLength) {
    throw rtError('BAD_BINARY_HEADER', `${HEADER_NAME} is ${text} but the body has only ${body.byteLength} bytes`);
  }
  if (headerLength === 0) return { kind: 'raw', raw: body };
  const json = parseJsonBytes(body.subarray(0, headerLength), `the JSON header (first ${headerLength} bytes of the body)`);
  // Clients do not pad the JSON header (Triton's do not), so the tensors after it are unaligned three times in
  // four: in a body that is this request's alone they move back over the header's parsed tail instead of being
  // copied out one by one. 8 aligns every element size, and the tensors after the first keep their alignment
  // whenever the ones before them have sizes that are multiples of it (the usual FP32/FP16 images and batches).
  const binary = body.subarray(headerLength);
  return { kind: 'json', json, binary: alignInPlace(binary, headerLength, 8) ?? binary };
}

/** What buildRawRequest needs to know about the model; repository/model-metadata.ts `ModelIoMetadata` satisfies it. */
export interface RawRequestModel {
  readonly name: string;
  /** 0 = no batching; otherwise input dims below exclude the batch dimension. */
  readonly maxBatchSize: number;
  readonly inputs: readonly TensorMetadata[];
}

/**
 * Turns a raw binary request body into a decoded request (docs/protocol.md §2.3 "Raw binary request", following
 * Triton's InferenceRequest::Normalize): only for models with exactly one input whose shape has at most one
 * variable dimension, which is deduced from the byte count; a BYTES input must have shape [1] and the whole
 * body is its single element. A batching model gets batch 1. All outputs are returned as binary.
 */
export function buildRawRequest(meta: RawRequestModel, bytes: Uint8Array): DecodedInferRequest {
  if (meta.inputs.length !== 1) {
    const names = meta.inputs.map((t) => t.name).join(', ');
    throw rtError(
      'BAD_REQUEST',
      `a raw binary request (${HEADER_NAME}: 0) needs a model with exactly one input; model '${meta.name}' has ${meta.inputs.length}${names === '' ? '' : ` (${names})`}`,
    );
  }
  const input = meta.inputs[0]!;
  const { name, datatype } = input;
  const dims = input.shape;
  const dynamic: number[] = [];
  for (let i = 0; i < dims.length; i++) if (dims[i]! < 0) dynamic.push(i);
  const prefix = meta.maxBatchSize > 0 ? [1] : [];
  const shownDims = formatShape(meta.maxBatchSize > 0 ? [-1, ...dims] : dims);

  if (datatype === 'BYTES') {
    if (dynamic.length > 0 || elementCount(dims) !== 1) {
      throw rtError(
        'BAD_SHAPE',
        `raw input '${name}': a raw binary request to a BYTES input needs model shape [1], model '${meta.name}' has ${shownDims}`,
      );
    }
    // Triton prepends the 4-byte length itself: the body is the element's bytes, without a prefix.
    return { inputs: [{ name, datatype, shape: [...prefix, ...dims], data: [bytes] }], parameters: { binary_data_output: true } };
  }
  if (dynamic.length > 1) {
    throw rtError('BAD_SHAPE', `the shape of raw input '${name}' cannot be deduced: model shape ${shownDims} has more than one variable dimension`);
  }
  const shape = dims.slice();
  if (dynamic.length === 1) {
    let fixed = 1;
    for (const d of dims) if (d >= 0) fixed *= d;
    const rowBytes = fixed * BYTE_SIZE[datatype];
    if (rowBytes === 0 || bytes.byteLength % rowBytes !== 0) {
      throw rtError(
        'BAD_DATA',
        `raw input '${name}': ${bytes.byteLength} bytes is not a whole number of ${datatype} slices of model shape ${shownDims} (${rowBytes} bytes per step of the variable dimension)`,
      );
    }
    shape[dynamic[0]!] = bytes.byteLength / rowBytes;
  }
  const fullShape = [...prefix, ...shape];
  const data = binaryToTensorData('input', name, datatype, fullShape, elementCount(fullShape), bytes);
  return { inputs: [{ name, datatype, shape: fullShape, data }], parameters: { binary_data_output: true } };
}

// ---------------------------------------------------------------------------------------------------------------
// Response

export interface EncodeResponseOptions {
  /** Outputs to send as binary data (docs/protocol.md §2.3). */
  readonly binaryOutputs: ReadonlySet<string> | 'all' | 'none';
}

export interface EncodedResponse {
  /** The JSON header ($inference_response), UTF-8. */
  readonly json: Uint8Array;
  /** Binary output data in the order of `outputs`; numeric outputs are views over the engine's buffers. */
  readonly binary: Uint8Array[];
  /** Byte length of `json`: the Inference-Header-Content-Length to send when `binary` is not empty. */
  readonly headerLength: number;
}

/**
 * Response options from a request: `binary_data_output: true` makes every output binary, a requested output's
 * `binary_data` overrides it (docs/protocol.md §2.3). Classification (`classification: N`) is done before encoding,
 * by the request pipeline (src/pipeline/classification.ts).
 */
export function responseOptionsFor(req: {
  readonly parameters?: Parameters | undefined;
  readonly outputs?: readonly RequestedOutput[] | undefined;
}): EncodeResponseOptions {
  const binaryDefault = req.parameters?.['binary_data_output'] === true;
  let binaryOutputs: ReadonlySet<string> | 'all' | 'none' = binaryDefault ? 'all' : 'none';
  if (req.outputs !== undefined && req.outputs.length > 0) {
    const set = new Set<string>();
    for (const o of req.outputs) {
      const flag = o.parameters?.['binary_data'];
      if (typeof flag === 'boolean' ? flag : binaryDefault) set.add(o.name);
    }
    binaryOutputs = set;
  }
  return { binaryOutputs };
}

/**
 * Encodes an $inference_response. JSON outputs carry a flat `data` array; binary outputs carry
 * `parameters.binary_data_size` and their bytes follow the JSON in output order. The JSON and the chunks are
 * returned separately so the caller can write them without concatenating.
 */
export function encodeInferResponse(resp: InferResponse, opts: EncodeResponseOptions): EncodedResponse {
  let text = `{"model_name":${JSON.stringify(resp.model_name)},"model_version":${JSON.stringify(resp.model_version)}`;
  if (resp.id !== undefined) text += `,"id":${JSON.stringify(resp.id)}`;
  if (resp.parameters !== undefined) text += `,"parameters":${JSON.stringify(resp.parameters)}`;
  const binary: Uint8Array[] = [];
  const parts = new Array<string>(resp.outputs.length);
  const { binaryOutputs } = opts;
  for (let i = 0; i < resp.outputs.length; i++) {
    const output = resp.outputs[i]!;
    const shm = resp.sharedMemoryOutputs?.get(output.name);
    if (shm !== undefined) {
      // Written into a region: no data (S:docs/protocol/extension_shared_memory.md; see docs/shared-memory.md).
      parts[i] = encodeSharedMemoryWireTensor(output, shm);
      continue;
    }
    const asBinary = binaryOutputs === 'all' || (binaryOutputs !== 'none' && binaryOutputs.has(output.name));
    parts[i] = encodeWireTensor('output', output, asBinary, binary);
  }
  text += `,"outputs":[${parts.join(',')}]}`;
  const json = utf8Encode(binary.length > 0 ? padJsonHeader(text) : text);
  return { json, binary, headerLength: json.byteLength };
}
