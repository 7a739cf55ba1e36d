/**
 * The shared-memory tensor parameters of Triton's shared-memory extension (docs/protocol.md §2.2; S:docs/protocol/
 * extension_shared_memory.md): on an input or a requested output, `shared_memory_region` (string, a registered
 * region) and `shared_memory_byte_size` (int64) go together, `shared_memory_offset` (int64, default 0) is
 * optional. Shared by the REST and gRPC codecs, server and client side; no Node-only imports.
 */
import { BYTE_SIZE } from '../tensor/datatype.ts';
import type { DataType } from '../tensor/datatype.ts';
import type { Parameters, SharedMemoryInput, SharedMemoryRef } from '../api/types.ts';
import { rtError } from '../errors/registry.ts';
import { describeValue, formatShape } from './tensor-data.ts';

export const SHM_REGION = 'shared_memory_region';
export const SHM_OFFSET = 'shared_memory_offset';
export const SHM_BYTE_SIZE = 'shared_memory_byte_size';

/** True when `parameters` names any of the three shared-memory parameters. */
export function hasSharedMemoryParameters(parameters: Parameters | undefined): boolean {
  return parameters !== undefined && (SHM_REGION in parameters || SHM_BYTE_SIZE in parameters || SHM_OFFSET in parameters);
}

function nonNegativeInteger(what: string, key: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw rtError('BAD_PARAMETER', `${what}: parameters.${key} must be a non-negative integer, got ${describeValue(value)}`);
  }
  return value;
}

/**
 * The region reference in a tensor's parameters, or undefined when it has none. `what` names the tensor
 * ("input 'INPUT0'"). Errors are BAD_PARAMETER naming the parameter.
 */
export function sharedMemoryRefOf(what: string, parameters: Parameters | undefined): SharedMemoryRef | undefined {
  if (!hasSharedMemoryParameters(parameters)) return undefined;
  const p = parameters as Parameters;
  const region = p[SHM_REGION];
  const size = p[SHM_BYTE_SIZE];
  if (region === undefined || size === undefined) {
    const given = [SHM_REGION, SHM_BYTE_SIZE, SHM_OFFSET].filter((k) => k in p).join(' and ');
    throw rtError(
      'BAD_PARAMETER',
      `${what}: parameters.${SHM_REGION} and parameters.${SHM_BYTE_SIZE} go together (${SHM_OFFSET} is optional), got only ${given}`,
    );
  }
  if (typeof region !== 'string' || region.length === 0) {
    throw rtError('BAD_PARAMETER', `${what}: parameters.${SHM_REGION} must be the name of a registered region, got ${describeValue(region)}`);
  }
  const byteSize = nonNegativeInteger(what, SHM_BYTE_SIZE, size);
  const offset = p[SHM_OFFSET] === undefined ? 0 : nonNegativeInteger(what, SHM_OFFSET, p[SHM_OFFSET]);
  return { region, offset, byteSize };
}

/** The parameters that describe `ref` on the wire (the offset only when it is not 0, as tritonclient sends it). */
export function sharedMemoryParameters(ref: SharedMemoryRef): Parameters {
  return ref.offset === 0
    ? { [SHM_REGION]: ref.region, [SHM_BYTE_SIZE]: ref.byteSize }
    : { [SHM_REGION]: ref.region, [SHM_BYTE_SIZE]: ref.byteSize, [SHM_OFFSET]: ref.offset };
}

/**
 * An input that takes its bytes from a region. The byte size must be what the shape and datatype need (BYTES: at
 * least the 4-byte length prefixes; the exact size is checked when the elements are read).
 */
export function sharedMemoryInput(
  what: string,
  name: string,
  datatype: DataType,
  shape: readonly number[],
  count: number,
  ref: SharedMemoryRef,
  index: number,
): SharedMemoryInput {
  if (datatype === 'BYTES') {
    if (ref.byteSize < 4 * count) {
      throw rtError(
        'BAD_DATA',
        `${what}: shape ${formatShape(shape)} of BYTES needs at least ${4 * count} bytes (a 4-byte length per element), parameters.${SHM_BYTE_SIZE} is ${ref.byteSize}`,
      );
    }
  } else {
    const expected = count * BYTE_SIZE[datatype];
    if (ref.byteSize !== expected) {
      throw rtError(
        'BAD_DATA',
        `${what}: shape ${formatShape(shape)} of ${datatype} needs ${expected} bytes, parameters.${SHM_BYTE_SIZE} is ${ref.byteSize}`,
      );
    }
  }
  return { name, datatype, shape, sharedMemory: ref, index };
}
