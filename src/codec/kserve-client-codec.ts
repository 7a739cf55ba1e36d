/**
 * Client side of the KServe v2 REST codec (docs/protocol.md §2.2) with Triton's binary tensor data extension (reference
 * §2.3): encode an $inference_request, decode an $inference_response. Used by tests, the benchmark tool and the
 * TypeScript SDK, in Node and in browsers, so it imports nothing Node-only (TextEncoder/TextDecoder, DataView and
 * Uint8Array instead of Buffer).
 */
import { allocate } from '../tensor/datatype.ts';
import type { InferResponse, Parameters, RequestedOutput, SharedMemoryInput, SharedMemoryRef } from '../api/types.ts';
import type { Tensor } from '../tensor/tensor.ts';
import { rtError } from '../errors/registry.ts';
import { describeValue, utf8Encode } from './tensor-data.ts';
import { parseJsonBytes } from './json-body.ts';
import { sharedMemoryRefOf } from './shared-memory-params.ts';
import {
  BinarySection,
  checkParameters,
  concatBytes,
  encodeSharedMemoryWireTensor,
  encodeWireTensor,
  isPlainObject,
  padJsonHeader,
  readWireTensorHead,
  wireTensorData,
} from './wire-tensor.ts';

export interface EncodeRequestOptions {
  /** Send every input as binary data (needs the Inference-Header-Content-Length header) or as JSON `data`. */
  readonly binary: boolean;
  readonly id?: string;
  /** Request parameters, e.g. `{ binary_data_output: true }` to get every output back as binary data. */
  readonly parameters?: Parameters;
  /**
   * Outputs to return, with per-output parameters such as `binary_data`, `classification` or the shared-memory
   * parameters (`sharedMemoryParameters` in shared-memory-params.ts).
   */
  readonly outputs?: readonly RequestedOutput[];
  /** Inputs whose bytes the client put in registered shared memory regions; sent after `inputs`, without data. */
  readonly sharedMemoryInputs?: readonly Omit<SharedMemoryInput, 'index'>[];
}

export interface EncodedRequest {
  readonly body: Uint8Array<ArrayBuffer>;
  /** Send as Inference-Header-Content-Length; present only when the body has a binary section. */
  readonly headerLength?: number;
}

/** Encodes an $inference_request body. */
export function encodeInferRequest(inputs: readonly Tensor[], opts: EncodeRequestOptions): EncodedRequest {
  const chunks: Uint8Array[] = [];
  let text = '{';
  if (opts.id !== undefined) text += `"id":${JSON.stringify(opts.id)},`;
  if (opts.parameters !== undefined) text += `"parameters":${JSON.stringify(opts.parameters)},`;
  const tensors = inputs.map((t) => encodeWireTensor('input', t, opts.binary, chunks));
  for (const t of opts.sharedMemoryInputs ?? []) tensors.push(encodeSharedMemoryWireTensor(t, t.sharedMemory));
  text += `"inputs":[${tensors.join(',')}]`;
  if (opts.outputs !== undefined) {
    const outs = opts.outputs.map((o) =>
      o.parameters === undefined
        ? `{"name":${JSON.stringify(o.name)}}`
        : `{"name":${JSON.stringify(o.name)},"parameters":${JSON.stringify(o.parameters)}}`,
    );
    text += `,"outputs":[${outs.join(',')}]`;
  }
  text += '}';
  const json = utf8Encode(opts.binary ? padJsonHeader(text) : text);
  if (!opts.binary) return { body: json };
  return { body: concatBytes([json, ...chunks]), headerLength: json.byteLength };
}

/**
 * Decodes an $inference_response body. `headerLength` is the response's Inference-Header-Content-Length when it
 * has one; outputs with `parameters.binary_data_size` are views over `body` (no copy when aligned). Outputs the
 * server wrote into shared memory (shared-memory parameters, no data) come back with empty data and are listed in
 * `sharedMemoryOutputs`: their bytes are in the region.
 */
export function decodeInferResponse(body: Uint8Array, headerLength?: number): InferResponse {
  let jsonBytes = body;
  let binary: Uint8Array | undefined;
  if (headerLength !== undefined) {
    if (!Number.isSafeInteger(headerLength) || headerLength < 0 || headerLength > body.byteLength) {
      throw rtError(
        'BAD_BINARY_HEADER',
        `Inference-Header-Content-Length ${headerLength} does not fit the response body of ${body.byteLength} bytes`,
      );
    }
    jsonBytes = body.subarray(0, headerLength);
    binary = body.subarray(headerLength);
  }
  const json = parseJsonBytes(jsonBytes, 'the inference response');
  if (!isPlainObject(json)) throw rtError('BAD_JSON', `the inference response must be a JSON object, got ${describeValue(json)}`);
  if (typeof json['error'] === 'string' && json['outputs'] === undefined) {
    throw rtError('BAD_JSON', `the server answered with an error: ${json['error']}`);
  }
  const modelName = json['model_name'];
  if (typeof modelName !== 'string') throw rtError('BAD_JSON', `'model_name' must be a string, got ${describeValue(modelName)}`);
  const modelVersion = json['model_version'] ?? '';
  if (typeof modelVersion !== 'string') throw rtError('BAD_JSON', `'model_version' must be a string, got ${describeValue(modelVersion)}`);
  const id = json['id'];
  if (id !== undefined && typeof id !== 'string') throw rtError('BAD_JSON', `'id' must be a string, got ${describeValue(id)}`);
  const parameters = checkParameters('response parameters', json['parameters']);
  const rawOutputs = json['outputs'];
  if (!Array.isArray(rawOutputs)) throw rtError('BAD_JSON', `'outputs' must be an array of tensors, got ${describeValue(rawOutputs)}`);
  const section = new BinarySection(binary);
  let sharedMemoryOutputs: Map<string, SharedMemoryRef> | undefined;
  const outputs = rawOutputs.map((raw, i): Tensor => {
    const head = readWireTensorHead('output', i, raw);
    const ref =
      head.data === undefined && head.parameters?.['binary_data_size'] === undefined ? sharedMemoryRefOf(head.what, head.parameters) : undefined;
    if (ref === undefined) return wireTensorData('output', head, section);
    (sharedMemoryOutputs ??= new Map()).set(head.name, ref);
    return { name: head.name, datatype: head.datatype, shape: head.shape, data: allocate(head.datatype, 0) };
  });
  section.finish();
  return {
    model_name: modelName,
    model_version: modelVersion,
    ...(id !== undefined && { id }),
    ...(parameters !== undefined && { parameters }),
    outputs,
    ...(sharedMemoryOutputs !== undefined && { sharedMemoryOutputs }),
  };
}
