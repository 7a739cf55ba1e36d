/**
 * Server side of the gRPC inference messages (docs/protocol.md §2.5; proto/grpc_service.proto):
 *
 *   decodeModelInferRequest        ModelInferRequest bytes → a transport-neutral request, tensors as views
 *   encodeModelInferResponse       InferResponse → ModelInferResponse bytes, outputs in raw_output_contents
 *   encodeModelStreamInferResponse InferResponse → ModelStreamInferResponse bytes
 *   encodeModelStreamInferError    an error → ModelStreamInferResponse{error_message, infer_response{ids}}
 *
 * Decoding never throws: grpc-js would turn a throwing deserializer into INTERNAL and, on a stream, end the whole
 * stream. A bad message instead decodes to `{ ok: false, error }` carrying whatever ids were read, so the unary
 * handler answers INVALID_ARGUMENT and the stream handler answers that one request and keeps the stream open.
 *
 * Outputs always go in raw_output_contents, as Triton does for ModelInfer (tritonclient reads them from there).
 */
import type { InferResponse, Parameters, RequestedOutput, SharedMemoryInput } from '../../api/types.ts';
import type { Tensor } from '../../tensor/tensor.ts';
import { sharedMemoryInput, sharedMemoryParameters, sharedMemoryRefOf } from '../shared-memory-params.ts';
import { type RtError, rtError, toRtError } from '../../errors/registry.ts';
import { utf8Length, lenFieldSize, varintSize, WIRE_LEN, WireReader, WireWriter } from './proto-wire.ts';
import {
  checkTensorHeader,
  contentsToTensorData,
  planSharedMemoryTensor,
  planTensor,
  rawToTensorData,
  readTensorMessage,
  writeRaw,
  writeTensorHeader,
} from './infer-wire.ts';
import { parametersSize, planParameters, readParameterEntry, writeParameters } from './infer-parameters.ts';
import type { TensorMessage, TensorPlan } from './infer-wire.ts';

/** A ModelInferRequest decoded from the wire, before the transport adds the signal and protocol. */
export interface GrpcInferRequest {
  readonly model: string;
  readonly version?: string;
  readonly id?: string;
  readonly parameters?: Parameters;
  readonly inputs: Tensor[];
  /** Inputs whose bytes are in shared memory regions (read by pipeline/shared-memory.ts). */
  readonly sharedMemoryInputs?: SharedMemoryInput[];
  /** Undefined when the request names no outputs (every output is returned). */
  readonly outputs?: RequestedOutput[];
}

export type DecodedInferMessage =
  | { readonly ok: true; readonly request: GrpcInferRequest }
  /** What could be read of the ids before the error, so that a stream error response can carry them. */
  | { readonly ok: false; readonly error: RtError; readonly model: string; readonly version: string; readonly id: string };

const WHAT = 'ModelInferRequest';

interface Ids {
  model: string;
  version: string;
  id: string;
}

/** Decodes a ModelInferRequest; never throws (see the file comment). */
export function decodeModelInferRequest(bytes: Uint8Array): DecodedInferMessage {
  const ids: Ids = { model: '', version: '', id: '' };
  try {
    return { ok: true, request: parseRequest(bytes, ids) };
  } catch (err) {
    return { ok: false, error: toRtError(err), ...ids };
  }
}

function parseRequest(bytes: Uint8Array, ids: Ids): GrpcInferRequest {
  const r = WireReader.of(bytes, WHAT);
  const tensors: TensorMessage[] = [];
  const raw: Uint8Array[] = [];
  let parameters: Record<string, string | number | boolean> | undefined;
  let outputs: RequestedOutput[] | undefined;
  while (!r.done) {
    const tag = r.uint32();
    const wt = tag & 7;
    const field = tag >>> 3;
    if (field >= 1 && field <= 7 && wt !== WIRE_LEN) r.fail(`field ${field} has wire type ${wt}, expected 2 (length-delimited)`);
    switch (field) {
      case 1:
        ids.model = r.string();
        break;
      case 2:
        ids.version = r.string();
        break;
      case 3:
        ids.id = r.string();
        break;
      case 4:
        readParameterEntry(r, (parameters ??= {}), 'request');
        break;
      case 5:
        tensors.push(readTensorMessage(r.sub(), 'input'));
        break;
      case 6:
        (outputs ??= []).push(readRequestedOutput(r.sub(), outputs.length));
        break;
      case 7:
        raw.push(r.bytes());
        break;
      default:
        r.skip(wt);
    }
  }
  if (ids.model === '') throw rtError('BAD_REQUEST', 'model_name is empty; name the model to run');

  // Inputs in shared memory carry neither contents nor a raw_input_contents entry: raw_input_contents lines up
  // with the other inputs, in order (as tritonclient sends it and Triton reads it).
  const refs = tensors.map((t) => sharedMemoryRefOf(`input '${t.name}'`, t.parameters));
  let inline = 0;
  for (const ref of refs) if (ref === undefined) inline++;
  const useRaw = raw.length > 0;
  if (useRaw && raw.length !== inline) {
    const shm = tensors.length - inline;
    throw rtError(
      'BAD_DATA',
      `raw_input_contents has ${raw.length} entries but the request has ${inline} inputs${shm > 0 ? ` not in shared memory (and ${shm} in shared memory, which take none)` : ''}; raw_input_contents[i] must hold the bytes of the i-th such input`,
    );
  }
  const inputs: Tensor[] = [];
  let sharedMemoryInputs: SharedMemoryInput[] | undefined;
  let rawIndex = 0;
  for (let i = 0; i < tensors.length; i++) {
    const t = tensors[i]!;
    const { datatype, shape, count } = checkTensorHeader(t, 'input', i);
    const ref = refs[i];
    if (ref !== undefined) {
      const what = `input '${t.name}'`;
      // Extension doc: "When these parameters are set for an input tensor the "contents" field ... must not be set."
      if (t.contents.length > 0) throw rtError('BAD_DATA', `${what} has both contents and parameters.shared_memory_region; send the tensor one way`);
      (sharedMemoryInputs ??= []).push(sharedMemoryInput(what, t.name, datatype, shape, count, ref, i));
      continue;
    }
    let data;
    if (useRaw) {
      // GS: "If this field is specified then InferInputTensor::contents must not be specified for any input tensor."
      if (t.contents.length > 0) {
        throw rtError(
          'BAD_DATA',
          `input '${t.name}' has typed contents but the request also sends raw_input_contents; a request sends every input one way (all in contents or all in raw_input_contents)`,
        );
      }
      const bytes = raw[rawIndex]!;
      // Field 7's tag is one byte, its length at least varintSize bytes: what an unaligned entry may move over.
      data = rawToTensorData('input', t.name, datatype, shape, count, bytes, `raw_input_contents[${rawIndex}]`, 1 + varintSize(bytes.byteLength));
      rawIndex++;
    } else if (t.contents.length > 0) {
      data = contentsToTensorData('input', t.name, datatype, shape, count, t.contents, WHAT);
    } else if (count === 0) {
      data = contentsToTensorData('input', t.name, datatype, shape, 0, [], WHAT);
    } else {
      throw rtError(
        'BAD_DATA',
        `input '${t.name}' has no data: shape [${shape.join(',')}] needs ${count} elements; send them in contents or raw_input_contents`,
      );
    }
    inputs.push({ name: t.name, datatype, shape, data });
  }
  return {
    model: ids.model,
    ...(ids.version !== '' && { version: ids.version }),
    ...(ids.id !== '' && { id: ids.id }),
    ...(parameters !== undefined && { parameters }),
    inputs,
    ...(sharedMemoryInputs !== undefined && { sharedMemoryInputs }),
    ...(outputs !== undefined && outputs.length > 0 && { outputs }),
  };
}

function readRequestedOutput(r: WireReader, index: number): RequestedOutput {
  let name = '';
  let parameters: Record<string, string | number | boolean> | undefined;
  while (!r.done) {
    const tag = r.uint32();
    const wt = tag & 7;
    const field = tag >>> 3;
    if (field === 1 && wt === WIRE_LEN) name = r.string();
    else if (field === 2 && wt === WIRE_LEN) readParameterEntry(r, (parameters ??= {}), `output '${name}':`);
    else r.skip(wt);
  }
  if (name === '') throw rtError('BAD_REQUEST', `outputs[${index}]: 'name' must be a non-empty string`);
  // Shared-memory parameters are checked here and acted on by pipeline/shared-memory.ts.
  sharedMemoryRefOf(`output '${name}'`, parameters);
  return parameters === undefined ? { name } : { name, parameters };
}

// ---------------------------------------------------------------------------------------------------------------
// Responses

interface ResponsePlan {
  readonly size: number;
  readonly modelLen: number;
  readonly versionLen: number;
  readonly idLen: number;
  readonly params: ReturnType<typeof planParameters>;
  readonly outputs: TensorPlan[];
}

function planResponse(resp: InferResponse): ResponsePlan {
  const modelLen = utf8Length(resp.model_name);
  const versionLen = utf8Length(resp.model_version);
  const id = resp.id ?? '';
  const idLen = utf8Length(id);
  const params = planParameters(resp.parameters);
  let size = (modelLen > 0 ? lenFieldSize(modelLen) : 0) + (versionLen > 0 ? lenFieldSize(versionLen) : 0) + (idLen > 0 ? lenFieldSize(idLen) : 0);
  size += parametersSize(params);
  const outputs = new Array<TensorPlan>(resp.outputs.length);
  for (let i = 0; i < resp.outputs.length; i++) {
    const o = resp.outputs[i]!;
    const shm = resp.sharedMemoryOutputs?.get(o.name);
    // Written into a region: the header carries the region parameters and the raw entry is empty.
    const p =
      shm === undefined
        ? planTensor(o.name, o.datatype, o.shape, o.data, 'output')
        : planSharedMemoryTensor(o.name, o.datatype, o.shape, sharedMemoryParameters(shm));
    outputs[i] = p;
    size += lenFieldSize(p.msgLen) + lenFieldSize(p.rawLen);
  }
  return { size, modelLen, versionLen, idLen, params, outputs };
}

function writeResponse(w: WireWriter, resp: InferResponse, plan: ResponsePlan): void {
  if (plan.modelLen > 0) w.stringField(1, resp.model_name, plan.modelLen);
  if (plan.versionLen > 0) w.stringField(2, resp.model_version, plan.versionLen);
  if (plan.idLen > 0) w.stringField(3, resp.id ?? '', plan.idLen);
  writeParameters(w, 4, plan.params);
  for (const p of plan.outputs) writeTensorHeader(w, 5, p);
  for (const p of plan.outputs) writeRaw(w, 6, p);
}

/** ModelInferResponse bytes; outputs are copied once, into this buffer. */
export function encodeModelInferResponse(resp: InferResponse): Buffer {
  const plan = planResponse(resp);
  const w = WireWriter.alloc(plan.size);
  writeResponse(w, resp, plan);
  return checkFilled(w);
}

/** ModelStreamInferResponse{infer_response} bytes. */
export function encodeModelStreamInferResponse(resp: InferResponse): Buffer {
  const plan = planResponse(resp);
  const w = WireWriter.alloc(lenFieldSize(plan.size));
  w.lenHeader(2, plan.size);
  writeResponse(w, resp, plan);
  return checkFilled(w);
}

/**
 * ModelStreamInferResponse{error_message, infer_response{model_name, model_version, id}}: the ids let a client
 * that pipelines many requests match the error to its request.
 */
export function encodeModelStreamInferError(message: string, ids: { readonly model: string; readonly version: string; readonly id: string }): Buffer {
  const resp: InferResponse = { model_name: ids.model, model_version: ids.version, id: ids.id, outputs: [] };
  const plan = planResponse(resp);
  const msgLen = utf8Length(message);
  const w = WireWriter.alloc((msgLen > 0 ? lenFieldSize(msgLen) : 0) + lenFieldSize(plan.size));
  if (msgLen > 0) w.stringField(1, message, msgLen);
  w.lenHeader(2, plan.size);
  writeResponse(w, resp, plan);
  return checkFilled(w);
}

function checkFilled(w: WireWriter): Buffer {
  if (w.pos !== w.buf.length) throw rtError('INTERNAL', `response encoder wrote ${w.pos} of ${w.buf.length} bytes`);
  return w.buf;
}
