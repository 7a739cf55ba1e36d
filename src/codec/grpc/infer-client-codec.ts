/**
 * Client side of the gRPC inference messages (docs/protocol.md §2.5; proto/grpc_service.proto): encode a
 * ModelInferRequest with every input in raw_input_contents, decode a ModelInferResponse (raw_output_contents or
 * typed contents, so it also reads servers that answer with typed contents) and a ModelStreamInferResponse.
 *
 * Used by the benchmark and usable by any Node client that wants to skip the generic protobuf object layer:
 * pass these as the serialize / deserialize functions of a grpc-js call (`makeInferClient` in grpc-client.ts).
 */
import { allocate } from '../../tensor/datatype.ts';
import type { InferResponse, Parameters, RequestedOutput, SharedMemoryInput, SharedMemoryRef } from '../../api/types.ts';
import type { Tensor } from '../../tensor/tensor.ts';
import { sharedMemoryParameters, sharedMemoryRefOf } from '../shared-memory-params.ts';
import { rtError } from '../../errors/registry.ts';
import { WIRE_LEN, WireReader, WireWriter, lenFieldSize, utf8Length } from './proto-wire.ts';
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

export interface GrpcClientRequest {
  readonly model: string;
  readonly version?: string;
  readonly id?: string;
  readonly parameters?: Parameters;
  readonly inputs: readonly Tensor[];
  /** Inputs the client put in registered shared memory regions: sent after `inputs`, without raw contents. */
  readonly sharedMemoryInputs?: readonly Omit<SharedMemoryInput, 'index'>[];
  readonly outputs?: readonly RequestedOutput[];
}

/** ModelInferRequest bytes with every input's data in raw_input_contents (the fast path GS recommends). */
export function encodeModelInferRequest(req: GrpcClientRequest): Buffer {
  const modelLen = utf8Length(req.model);
  const version = req.version ?? '';
  const versionLen = utf8Length(version);
  const id = req.id ?? '';
  const idLen = utf8Length(id);
  const params = planParameters(req.parameters);
  let size = lenFieldSize(modelLen) + (versionLen > 0 ? lenFieldSize(versionLen) : 0) + (idLen > 0 ? lenFieldSize(idLen) : 0);
  size += parametersSize(params);
  const inputs = new Array<TensorPlan>(req.inputs.length);
  for (let i = 0; i < req.inputs.length; i++) {
    const t = req.inputs[i]!;
    const p = planTensor(t.name, t.datatype, t.shape, t.data, 'input');
    inputs[i] = p;
    size += lenFieldSize(p.msgLen) + lenFieldSize(p.rawLen);
  }
  const shmInputs = (req.sharedMemoryInputs ?? []).map((t) =>
    planSharedMemoryTensor(t.name, t.datatype, t.shape, sharedMemoryParameters(t.sharedMemory)),
  );
  for (const p of shmInputs) size += lenFieldSize(p.msgLen);
  const outputs = (req.outputs ?? []).map((o) => {
    const nameLen = utf8Length(o.name);
    const op = planParameters(o.parameters);
    const msgLen = lenFieldSize(nameLen) + parametersSize(op);
    size += lenFieldSize(msgLen);
    return { name: o.name, nameLen, op, msgLen };
  });

  const w = WireWriter.alloc(size);
  w.stringField(1, req.model, modelLen);
  if (versionLen > 0) w.stringField(2, version, versionLen);
  if (idLen > 0) w.stringField(3, id, idLen);
  writeParameters(w, 4, params);
  for (const p of inputs) writeTensorHeader(w, 5, p);
  for (const p of shmInputs) writeTensorHeader(w, 5, p);
  for (const o of outputs) {
    w.lenHeader(6, o.msgLen);
    w.stringField(1, o.name, o.nameLen);
    writeParameters(w, 2, o.op);
  }
  for (const p of inputs) writeRaw(w, 7, p);
  if (w.pos !== size) throw rtError('INTERNAL', `request encoder wrote ${w.pos} of ${size} bytes`);
  return w.buf;
}

/** Decodes a ModelInferResponse. Raw outputs are views over `bytes` (no copy when aligned). */
export function decodeModelInferResponse(bytes: Uint8Array): InferResponse {
  return readResponse(WireReader.of(bytes, 'ModelInferResponse'));
}

function readResponse(r: WireReader): InferResponse {
  let model = '';
  let version = '';
  let id = '';
  let parameters: Record<string, string | number | boolean> | undefined;
  const tensors: TensorMessage[] = [];
  const raw: Uint8Array[] = [];
  while (!r.done) {
    const tag = r.uint32();
    const wt = tag & 7;
    const field = tag >>> 3;
    if (field >= 1 && field <= 6 && wt !== WIRE_LEN) r.fail(`field ${field} has wire type ${wt}, expected 2 (length-delimited)`);
    switch (field) {
      case 1:
        model = r.string();
        break;
      case 2:
        version = r.string();
        break;
      case 3:
        id = r.string();
        break;
      case 4:
        readParameterEntry(r, (parameters ??= {}), 'response');
        break;
      case 5:
        tensors.push(readTensorMessage(r.sub(), 'output'));
        break;
      case 6:
        raw.push(r.bytes());
        break;
      default:
        r.skip(wt);
    }
  }
  if (raw.length > 0 && raw.length !== tensors.length) {
    throw rtError('BAD_DATA', `raw_output_contents has ${raw.length} entries but the response has ${tensors.length} outputs`);
  }
  let sharedMemoryOutputs: Map<string, SharedMemoryRef> | undefined;
  const outputs = tensors.map((t, i): Tensor => {
    const { datatype, shape, count } = checkTensorHeader(t, 'output', i);
    const ref = sharedMemoryRefOf(`output '${t.name}'`, t.parameters);
    if (ref !== undefined && (raw[i] === undefined || raw[i].byteLength === 0) && t.contents.length === 0) {
      // Written into a region by the server: the bytes are there, not here.
      (sharedMemoryOutputs ??= new Map()).set(t.name, ref);
      return { name: t.name, datatype, shape, data: allocate(datatype, 0) };
    }
    const data =
      raw.length > 0
        ? rawToTensorData('output', t.name, datatype, shape, count, raw[i]!, `raw_output_contents[${i}]`)
        : contentsToTensorData('output', t.name, datatype, shape, count, t.contents, 'ModelInferResponse');
    return { name: t.name, datatype, shape, data };
  });
  return {
    model_name: model,
    model_version: version,
    ...(id !== '' && { id }),
    ...(parameters !== undefined && { parameters }),
    outputs,
    ...(sharedMemoryOutputs !== undefined && { sharedMemoryOutputs }),
  };
}

export interface StreamInferResult {
  /** Empty when the request succeeded. */
  readonly error: string;
  /** The response; on error it carries only the ids the server echoed (model, version, request id). */
  readonly response: InferResponse;
}

/** Decodes a ModelStreamInferResponse{error_message=1, infer_response=2}. */
export function decodeModelStreamInferResponse(bytes: Uint8Array): StreamInferResult {
  const r = WireReader.of(bytes, 'ModelStreamInferResponse');
  let error = '';
  let response: InferResponse = { model_name: '', model_version: '', outputs: [] };
  while (!r.done) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if (field === 1 && (tag & 7) === WIRE_LEN) error = r.string();
    else if (field === 2 && (tag & 7) === WIRE_LEN) response = readResponse(r.sub('ModelInferResponse'));
    else r.skip(tag & 7);
  }
  return { error, response };
}
