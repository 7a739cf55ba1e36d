/**
 * Inference through system shared memory regions (Triton's shared-memory extension, docs/protocol.md §2.2), for every
 * front end at once: one layer of the request pipeline every front end receives, so REST (JSON and binary),
 * gRPC ModelInfer and ModelStreamInfer, WebSocket and SSE share one implementation.
 *
 * For a request that references regions it
 *   1. takes a lease on every region it names (so an unregister meanwhile cannot close them under it),
 *   2. reads the shared-memory inputs (off the event loop, see shm/system-shared-memory.ts) into ordinary tensors, before
 *      the request reaches the core and its scheduler,
 *   3. runs the request, then writes each shared-memory output into its region before the response is encoded,
 *      and marks it in `InferResponse.sharedMemoryOutputs` so encoders send its name, datatype, shape and
 *      shared-memory parameters but no data,
 *   4. releases the leases, whatever happened.
 * Requests without shared-memory parameters pass straight through.
 */
import { elementCount } from '../tensor/datatype.ts';
import type { RegionLease, SharedMemoryManager } from '../shm/system-shared-memory.ts';
import type { InferRequest, InferResponse, RequestedOutput, SharedMemoryRef } from '../api/types.ts';
import type { Tensor } from '../tensor/tensor.ts';
import { RtError, rtError } from '../errors/registry.ts';
import { hasSharedMemoryParameters, SHM_BYTE_SIZE, SHM_OFFSET, SHM_REGION, sharedMemoryRefOf } from '../codec/shared-memory-params.ts';
import { formatShape, tensorLabel } from '../codec/tensor-data.ts';
import { binaryToTensorData, tensorDataToBinary } from '../codec/binary-data.ts';
import type { InferFn, PipelineLayer, StreamFn } from './layer.ts';

/** True when the request reads or writes any region. */
export function usesSharedMemory(request: InferRequest): boolean {
  if (request.sharedMemoryInputs !== undefined && request.sharedMemoryInputs.length > 0) return true;
  if (request.outputs === undefined) return false;
  for (const o of request.outputs) if (hasSharedMemoryParameters(o.parameters)) return true;
  return false;
}

interface OutputPlacement {
  readonly ref: SharedMemoryRef;
  readonly lease: RegionLease;
}

/** One request's regions: the resolved request, where its outputs go, and the leases to release. */
class Resolution {
  readonly outputs = new Map<string, OutputPlacement>();
  private readonly leases: RegionLease[] = [];
  request!: InferRequest;

  constructor(
    private readonly manager: SharedMemoryManager,
    /** The requesting principal: only its own regions are found. */
    private readonly owner: string | undefined,
  ) {}

  lease(what: string, ref: SharedMemoryRef): RegionLease {
    let lease: RegionLease;
    try {
      lease = this.manager.acquire(ref.region, this.owner);
    } catch (err) {
      throw err instanceof RtError ? rtError(err.code, `${what}: ${err.message}`) : err;
    }
    this.leases.push(lease);
    lease.checkRange(what, ref.offset, ref.byteSize);
    return lease;
  }

  release(): void {
    for (const l of this.leases) l.release();
    this.leases.length = 0;
  }

  /** Writes the shared-memory outputs of one response and marks them in it. */
  async writeOutputs(response: InferResponse): Promise<InferResponse> {
    if (this.outputs.size === 0) return response;
    const written = new Map<string, SharedMemoryRef>();
    const writes: Promise<void>[] = [];
    for (const o of response.outputs) {
      const placement = this.outputs.get(o.name);
      if (placement === undefined) continue;
      const bytes = tensorDataToBinary('output', o.name, o.datatype, o.data);
      const { ref, lease } = placement;
      if (bytes.byteLength > ref.byteSize) {
        throw rtError(
          'SHM_OUT_OF_RANGE',
          `${tensorLabel('output', o.name)}: shared memory size specified with the request (${SHM_BYTE_SIZE} ${ref.byteSize} in region '${ref.region}') should be at least ${bytes.byteLength} bytes to hold the results (shape ${formatShape(o.shape)} of ${o.datatype})`,
        );
      }
      writes.push(lease.write(ref.offset, bytes));
      written.set(o.name, { region: ref.region, offset: ref.offset, byteSize: bytes.byteLength });
    }
    await Promise.all(writes);
    return { ...response, sharedMemoryOutputs: written };
  }
}

/** Leases the regions of `request`, reads its shared-memory inputs and plans its outputs; releases on failure. */
async function resolve(manager: SharedMemoryManager | undefined, request: InferRequest): Promise<Resolution> {
  if (manager === undefined) {
    throw rtError(
      'UNSUPPORTED',
      'client shared memory is off on this server: start it with --allow-client-shm=true (server setting allowClientShm), or send the tensors in the request',
    );
  }
  const r = new Resolution(manager, request.principal);
  try {
    // Outputs first: a bad output parameter fails the request before any input is read.
    let outputs: RequestedOutput[] | undefined;
    if (request.outputs !== undefined) {
      outputs = request.outputs.map((o) => {
        const what = tensorLabel('output', o.name);
        const ref = sharedMemoryRefOf(what, o.parameters);
        if (ref === undefined) return o;
        if (o.parameters?.['classification'] !== undefined) {
          throw rtError(
            'BAD_PARAMETER',
            `${what}: classification cannot be written to shared memory; ask for it without the ${SHM_REGION} parameters`,
          );
        }
        if (r.outputs.has(o.name)) throw rtError('BAD_PARAMETER', `${what} is requested twice`);
        r.outputs.set(o.name, { ref, lease: r.lease(what, ref) });
        // The core sees an ordinary requested output (and the response cache keys it as one).
        const rest: Record<string, string | number | boolean> = { ...o.parameters };
        delete rest[SHM_REGION];
        delete rest[SHM_BYTE_SIZE];
        delete rest[SHM_OFFSET];
        return Object.keys(rest).length === 0 ? { name: o.name } : { name: o.name, parameters: rest };
      });
    }
    const shm = request.sharedMemoryInputs ?? [];
    const leases = shm.map((t) => r.lease(tensorLabel('input', t.name), t.sharedMemory));
    const read = await Promise.all(
      shm.map(async (t, i): Promise<Tensor> => {
        const { offset, byteSize } = t.sharedMemory;
        const bytes = await leases[i]!.read(offset, byteSize);
        if (bytes.byteLength !== byteSize) {
          throw rtError(
            'INTERNAL',
            `${tensorLabel('input', t.name)}: shared memory region '${t.sharedMemory.region}' returned ${bytes.byteLength} bytes for a read of ${byteSize}`,
          );
        }
        return {
          name: t.name,
          datatype: t.datatype,
          shape: t.shape,
          data: binaryToTensorData('input', t.name, t.datatype, t.shape, elementCount(t.shape), bytes),
        };
      }),
    );
    // Back into the order the client sent them in.
    const inputs: Tensor[] = [...request.inputs];
    const placed = shm.map((t, i) => ({ index: t.index, tensor: read[i]! })).sort((a, b) => a.index - b.index);
    for (const { index, tensor } of placed) inputs.splice(Math.min(index, inputs.length), 0, tensor);
    const { sharedMemoryInputs: _resolved, ...rest } = request;
    r.request = { ...rest, inputs, ...(outputs === undefined ? {} : { outputs }) };
    return r;
  } catch (err) {
    r.release();
    throw err;
  }
}

/**
 * Shared-memory requests resolved (see the file comment). With `manager` undefined (the extension turned off)
 * requests that name regions are refused with UNSUPPORTED.
 */
export class SharedMemoryLayer implements PipelineLayer {
  constructor(private readonly manager: SharedMemoryManager | undefined) {}

  infer(next: InferFn): InferFn {
    const manager = this.manager;
    return (request) => {
      // Not async itself: a request without regions goes straight on, with no extra promise on its path.
      if (!usesSharedMemory(request)) return next(request);
      return (async (): Promise<InferResponse> => {
        const r = await resolve(manager, request);
        try {
          return await r.writeOutputs(await next(r.request));
        } finally {
          r.release();
        }
      })();
    };
  }

  stream(next: StreamFn): StreamFn {
    const manager = this.manager;
    return (request) => {
      if (!usesSharedMemory(request)) return next(request);
      // Errors of a stream surface from its iterator (the InferenceApi contract).
      return (async function* shared(): AsyncGenerator<InferResponse> {
        const r = await resolve(manager, request);
        try {
          for await (const response of next(r.request)) yield await r.writeOutputs(response);
        } finally {
          r.release();
        }
      })();
    };
  }
}
