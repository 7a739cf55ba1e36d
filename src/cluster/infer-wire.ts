/**
 * Inference requests and responses on the worker ↔ owner channel (docs/workers.md): the JSON head carries names,
 * datatypes, shapes, parameters and the edge's request context; each tensor's bytes are one binary part (the KServe
 * binary layout, codec/binary-data.ts), decoded on the other side as views, never as JSON numbers.
 */
import type { InferRequest, InferResponse, Parameters, RequestedOutput, SharedMemoryInput, SharedMemoryRef } from '../api/types.ts';
import { binaryToTensorData, tensorDataToBinary } from '../codec/binary-data.ts';
import type { TensorRole } from '../codec/tensor-data.ts';
import type { RequestContext } from '../observability/request-context.ts';
import type { TraceContext } from '../observability/trace-context.ts';
import { elementCount, type DataType } from '../tensor/datatype.ts';
import type { Tensor } from '../tensor/tensor.ts';
import { rtError } from '../errors/registry.ts';
import type { Payload } from './rpc-peer.ts';
import type { SlotRef } from './tensor-slots.ts';

interface WireTensor {
  readonly name: string;
  readonly datatype: DataType;
  readonly shape: readonly number[];
  /** Its bytes are in the worker's shared memory slots (tensor-slots.ts), not a binary part of the frame. */
  readonly slot?: SlotRef;
}

/** The context fields the core fills in (hrtime values as decimal strings: the clock is the host's monotonic one). */
const CONTEXT_TIMES = [
  'coreStartNs',
  'coreEndNs',
  'enqueuedNs',
  'dispatchNs',
  'batchStartNs',
  'computeStartNs',
  'computeEndNs',
] as const satisfies readonly (keyof RequestContext)[];
const CONTEXT_VALUES = [
  'model',
  'version',
  'batchSize',
  'cache',
  'validateUs',
  'schedulerUs',
  'batchRequests',
] as const satisfies readonly (keyof RequestContext)[];

interface WireRequest {
  readonly model: string;
  readonly version?: string;
  readonly id?: string;
  readonly inputs: readonly WireTensor[];
  readonly sharedMemoryInputs?: readonly SharedMemoryInput[];
  readonly outputs?: readonly RequestedOutput[];
  readonly parameters?: Parameters;
  readonly protocol?: string;
  readonly principal?: string;
  readonly frames?: InferRequest['frames'];
  readonly context?: { readonly requestId: string; readonly trace: TraceContext; readonly protocol: string; readonly receivedNs: string };
}

interface WireResponse {
  readonly model_name: string;
  readonly model_version: string;
  readonly id?: string;
  readonly parameters?: Parameters;
  readonly outputs: readonly WireTensor[];
  readonly sharedMemoryOutputs?: readonly (readonly [string, SharedMemoryRef])[];
  /** What the core filled into the request's context. */
  readonly context?: Record<string, string | number>;
}

function tensorsToWire(role: TensorRole, tensors: readonly Tensor[]): { heads: WireTensor[]; parts: Uint8Array[] } {
  const heads: WireTensor[] = [];
  const parts: Uint8Array[] = [];
  for (const t of tensors) {
    heads.push({ name: t.name, datatype: t.datatype, shape: t.shape });
    parts.push(tensorDataToBinary(role, t.name, t.datatype, t.data));
  }
  return { heads, parts };
}

function tensorsFromWire(role: TensorRole, heads: readonly WireTensor[], parts: readonly Uint8Array[]): Tensor[] {
  if (heads.length !== parts.length) throw rtError('INTERNAL', `worker channel: ${heads.length} ${role}s but ${parts.length} binary parts`);
  return heads.map((h, i) => ({
    name: h.name,
    datatype: h.datatype,
    shape: h.shape,
    data: binaryToTensorData(role, h.name, h.datatype, h.shape, elementCount(h.shape), parts[i] as Uint8Array),
  }));
}

/** Each input's bytes in the binary layout (views of numeric data, no copy). */
export function inputBinaries(r: InferRequest): Uint8Array[] {
  return r.inputs.map((t) => tensorDataToBinary('input', t.name, t.datatype, t.data));
}

/** `binaries` from inputBinaries; an input with a slot in `slots` travels as that slot's place instead of bytes. */
export function requestToWire(r: InferRequest, binaries?: readonly Uint8Array[], slots?: readonly (SlotRef | undefined)[]): Payload {
  const heads: WireTensor[] = [];
  const parts: Uint8Array[] = [];
  r.inputs.forEach((t, i) => {
    const slot = slots?.[i];
    heads.push({ name: t.name, datatype: t.datatype, shape: t.shape, ...(slot === undefined ? {} : { slot }) });
    if (slot === undefined) parts.push(binaries?.[i] ?? tensorDataToBinary('input', t.name, t.datatype, t.data));
  });
  const c = r.context;
  const value: WireRequest = {
    model: r.model,
    inputs: heads,
    ...(r.version === undefined ? {} : { version: r.version }),
    ...(r.id === undefined ? {} : { id: r.id }),
    ...(r.sharedMemoryInputs === undefined ? {} : { sharedMemoryInputs: r.sharedMemoryInputs }),
    ...(r.outputs === undefined ? {} : { outputs: r.outputs }),
    ...(r.parameters === undefined ? {} : { parameters: r.parameters }),
    ...(r.protocol === undefined ? {} : { protocol: r.protocol }),
    ...(r.principal === undefined ? {} : { principal: r.principal }),
    ...(r.frames === undefined ? {} : { frames: r.frames }),
    ...(c === undefined ? {} : { context: { requestId: c.requestId, trace: c.trace, protocol: c.protocol, receivedNs: String(c.receivedNs) } }),
  };
  return { value, parts };
}

/**
 * The request a worker sent, with `signal` (aborted when the worker cancels it or goes away). Inputs in slots are
 * read with `readSlot` (a view of the mapped slot, or its bytes read from the object).
 */
export async function requestFromWire(
  value: unknown,
  parts: readonly Uint8Array[],
  signal: AbortSignal,
  readSlot?: (ref: SlotRef) => Promise<Uint8Array>,
): Promise<InferRequest> {
  const w = value as WireRequest;
  const c = w.context;
  let inputs: Tensor[];
  if (readSlot === undefined || !w.inputs.some((t) => t.slot !== undefined)) inputs = tensorsFromWire('input', w.inputs, parts);
  else {
    let k = 0;
    const all = await Promise.all(w.inputs.map((t) => (t.slot === undefined ? (parts[k++] as Uint8Array) : readSlot(t.slot))));
    inputs = tensorsFromWire('input', w.inputs, all);
  }
  return {
    model: w.model,
    inputs,
    signal,
    ...(w.version === undefined ? {} : { version: w.version }),
    ...(w.id === undefined ? {} : { id: w.id }),
    ...(w.sharedMemoryInputs === undefined ? {} : { sharedMemoryInputs: w.sharedMemoryInputs }),
    ...(w.outputs === undefined ? {} : { outputs: w.outputs }),
    ...(w.parameters === undefined ? {} : { parameters: w.parameters }),
    ...(w.protocol === undefined ? {} : { protocol: w.protocol }),
    ...(w.principal === undefined ? {} : { principal: w.principal }),
    ...(w.frames === undefined ? {} : { frames: w.frames }),
    ...(c === undefined ? {} : { context: { requestId: c.requestId, trace: c.trace, protocol: c.protocol, receivedNs: BigInt(c.receivedNs) } }),
  };
}

export function responseToWire(r: InferResponse, context: RequestContext | undefined): Payload {
  const { heads, parts } = tensorsToWire('output', r.outputs);
  let ctx: Record<string, string | number> | undefined;
  if (context !== undefined) {
    ctx = {};
    for (const k of CONTEXT_TIMES) {
      const v = context[k];
      if (v !== undefined) ctx[k] = String(v);
    }
    for (const k of CONTEXT_VALUES) {
      const v = context[k];
      if (v !== undefined) ctx[k] = v;
    }
  }
  const value: WireResponse = {
    model_name: r.model_name,
    model_version: r.model_version,
    outputs: heads,
    ...(r.id === undefined ? {} : { id: r.id }),
    ...(r.parameters === undefined ? {} : { parameters: r.parameters }),
    ...(r.sharedMemoryOutputs === undefined ? {} : { sharedMemoryOutputs: [...r.sharedMemoryOutputs] }),
    ...(ctx === undefined ? {} : { context: ctx }),
  };
  return { value, parts };
}

/** The owner's response; what its core filled into the context is copied into the worker's `context`. */
export function responseFromWire(value: unknown, parts: readonly Uint8Array[], context: RequestContext | undefined): InferResponse {
  const w = value as WireResponse;
  if (context !== undefined && w.context !== undefined) {
    const target = context as unknown as Record<string, unknown>;
    for (const k of CONTEXT_TIMES) {
      const v = w.context[k];
      if (v !== undefined) target[k] = BigInt(v);
    }
    for (const k of CONTEXT_VALUES) {
      const v = w.context[k];
      if (v !== undefined) target[k] = v;
    }
  }
  return {
    model_name: w.model_name,
    model_version: w.model_version,
    outputs: tensorsFromWire('output', w.outputs, parts),
    ...(w.id === undefined ? {} : { id: w.id }),
    ...(w.parameters === undefined ? {} : { parameters: w.parameters }),
    ...(w.sharedMemoryOutputs === undefined ? {} : { sharedMemoryOutputs: new Map(w.sharedMemoryOutputs) }),
  };
}
