/**
 * Inference requests and responses on the worker ↔ owner channel (docs/workers.md): the JSON head carries every
 * field of the request or response as it is (names, datatypes, shapes, parameters...) and the edge's request context; each tensor's bytes are one binary part (the KServe
 * binary layout, codec/binary-data.ts), decoded on the other side as views, never as JSON numbers.
 */
import type { ImageRequest, ImageResult, TensorsResult } from '../api/image-types.ts';
import type { InferRequest, InferResponse, SharedMemoryRef } from '../api/types.ts';
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

/** The edge's context as it crosses: hrtime as a decimal string; the fields the core fills in come back in the answer. */
interface WireContext {
  readonly requestId: string;
  readonly trace: TraceContext;
  readonly protocol: string;
  readonly receivedNs: string;
}

/**
 * The fields of an InferRequest that do not cross as they are: the signal (the owner makes its own, aborted when the
 * worker cancels), and the inputs and context, which have wire forms of their own. Every other field crosses as it is
 * (JSON), so a field added to InferRequest reaches the owner's pipeline without a line here.
 */
type RequestOwnForms = 'signal' | 'inputs' | 'context';

type WireRequest = Omit<InferRequest, RequestOwnForms> & {
  readonly inputs: readonly WireTensor[];
  readonly context?: WireContext;
};

/** The same for an InferResponse: its outputs are binary parts, the shared-memory map is a list of entries. */
type ResponseOwnForms = 'outputs' | 'sharedMemoryOutputs';

type WireResponse = Omit<InferResponse, ResponseOwnForms> & {
  readonly outputs: readonly WireTensor[];
  readonly sharedMemoryOutputs?: readonly (readonly [string, SharedMemoryRef])[];
  /** What the core filled into the request's context. */
  readonly context?: Record<string, string | number>;
};

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
  const { signal: _own, inputs, context: c, ...fields } = r;
  const heads: WireTensor[] = [];
  const parts: Uint8Array[] = [];
  inputs.forEach((t, i) => {
    const slot = slots?.[i];
    heads.push({ name: t.name, datatype: t.datatype, shape: t.shape, ...(slot === undefined ? {} : { slot }) });
    if (slot === undefined) parts.push(binaries?.[i] ?? tensorDataToBinary('input', t.name, t.datatype, t.data));
  });
  const value: WireRequest = {
    ...fields,
    inputs: heads,
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
  const { inputs: heads, context: c, ...fields } = value as WireRequest;
  let inputs: Tensor[];
  if (readSlot === undefined || !heads.some((t) => t.slot !== undefined)) inputs = tensorsFromWire('input', heads, parts);
  else {
    let k = 0;
    const all = await Promise.all(heads.map((t) => (t.slot === undefined ? (parts[k++] as Uint8Array) : readSlot(t.slot))));
    inputs = tensorsFromWire('input', heads, all);
  }
  return {
    ...fields,
    inputs,
    signal,
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
  const { outputs: _own, sharedMemoryOutputs: shm, ...fields } = r;
  const value: WireResponse = {
    ...fields,
    outputs: heads,
    ...(shm === undefined ? {} : { sharedMemoryOutputs: [...shm] }),
    ...(ctx === undefined ? {} : { context: ctx }),
  };
  return { value, parts };
}

/** The owner's response; what its core filled into the context is copied into the worker's `context`. */
export function responseFromWire(value: unknown, parts: readonly Uint8Array[], context: RequestContext | undefined): InferResponse {
  const { outputs, sharedMemoryOutputs: shm, context: filled, ...fields } = value as WireResponse;
  if (context !== undefined && filled !== undefined) {
    const target = context as unknown as Record<string, unknown>;
    for (const k of CONTEXT_TIMES) {
      const v = filled[k];
      if (v !== undefined) target[k] = BigInt(v);
    }
    for (const k of CONTEXT_VALUES) {
      const v = filled[k];
      if (v !== undefined) target[k] = v;
    }
  }
  return {
    ...fields,
    outputs: tensorsFromWire('output', outputs, parts),
    ...(shm === undefined ? {} : { sharedMemoryOutputs: new Map(shm) }),
  };
}

/**
 * The image form (POST /v2/models/{m}/image, api/image-types.ts): the image's bytes are the one binary part, every
 * other field crosses as it is but the signal (the owner's own) and the context (the route sends none).
 */
type WireImageRequest = Omit<ImageRequest, 'bytes' | 'signal' | 'context'>;

export function imageRequestToWire(r: ImageRequest): Payload {
  const { bytes, signal: _signal, context: _context, ...fields } = r;
  const value: WireImageRequest = fields;
  return { value, parts: [bytes] };
}

export function imageRequestFromWire(value: unknown, parts: readonly Uint8Array[], signal: AbortSignal): ImageRequest {
  const bytes = parts[0];
  if (bytes === undefined || parts.length !== 1)
    throw rtError('INTERNAL', `worker channel: an image request carries 1 binary part, got ${parts.length}`);
  return { ...(value as WireImageRequest), bytes, signal };
}

/** A result of a model without postprocess carries its tensors as binary parts. */
type WireImageResult = Exclude<ImageResult, TensorsResult> | (Omit<TensorsResult, 'outputs'> & { readonly outputs: readonly WireTensor[] });

export function imageResultToWire(r: ImageResult): Payload {
  if (r.type !== 'tensors') return { value: r satisfies WireImageResult, parts: [] };
  const { heads, parts } = tensorsToWire('output', r.outputs);
  return { value: { ...r, outputs: heads } satisfies WireImageResult, parts };
}

export function imageResultFromWire(value: unknown, parts: readonly Uint8Array[]): ImageResult {
  const w = value as WireImageResult;
  return w.type === 'tensors' ? { ...w, outputs: tensorsFromWire('output', w.outputs, parts) } : w;
}
