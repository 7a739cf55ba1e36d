/**
 * Validates a decoded request against the model, for every front end (REST, gRPC, WebSocket) alike.
 *
 * The checks follow Triton's InferenceRequest::Normalize (S:core src/infer_request.cc) with clearer messages:
 * every input the model needs is present and none is unknown or repeated; datatypes match; shapes match the
 * config dims (without the batch dimension when max_batch_size > 0, -1 = any size; docs/protocol.md §1.2); batching
 * inputs agree on the batch size and it is ≤ max_batch_size; data holds as many elements as the shape says;
 * requested outputs exist (docs/protocol.md §2.2: no outputs = all outputs); reserved parameters `priority` and
 * `timeout` (S:docs/protocol/extension_parameters.md) are non-negative integers, as are per-output
 * `classification` counts, and `binary_data` / `binary_data_output` flags are booleans (docs/protocol.md §2.3).
 */
import { TYPED_ARRAY_OF, elementCount } from '../tensor/datatype.ts';
import type { InferRequest, Parameters } from '../api/types.ts';
import type { TensorMetadata } from '../tensor/tensor.ts';
import type { ValidatedRequest } from '../scheduler/scheduler.ts';
import type { ModelIoMetadata } from '../repository/model-metadata.ts';
import { rtError } from '../errors/registry.ts';

interface ModelIndex {
  readonly inputs: ReadonlyMap<string, TensorMetadata>;
  readonly outputs: ReadonlySet<string>;
  readonly outputNames: readonly string[];
  readonly inputList: string;
  readonly outputList: string;
}

/** Lookups built once per metadata object: metadata is long-lived (one per loaded model version). */
const indexCache = new WeakMap<ModelIoMetadata, ModelIndex>();

function formatShape(shape: readonly number[]): string {
  return `[${shape.join(',')}]`;
}

function indexOf(meta: ModelIoMetadata): ModelIndex {
  let index = indexCache.get(meta);
  if (index === undefined) {
    const batchPrefix = meta.maxBatchSize > 0 ? [-1] : [];
    index = {
      inputs: new Map(meta.inputs.map((t) => [t.name, t])),
      outputs: new Set(meta.outputs.map((t) => t.name)),
      outputNames: Object.freeze(meta.outputs.map((t) => t.name)),
      inputList: meta.inputs
        .map(
          (t) =>
            `'${t.name}' (${t.datatype} ${formatShape([...batchPrefix, ...t.shape])}${meta.optionalInputs?.has(t.name) === true ? ', optional' : ''})`,
        )
        .join(', '),
      outputList: meta.outputs.map((t) => `'${t.name}'`).join(', '),
    };
    indexCache.set(meta, index);
  }
  return index;
}

function checkNonNegativeInteger(what: string, value: string | number | boolean | undefined): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    const got = typeof value === 'string' ? `string ${JSON.stringify(value.slice(0, 32))}` : `${typeof value} ${String(value)}`;
    throw rtError('BAD_PARAMETER', `${what} must be a non-negative integer, got ${got}`);
  }
}

function checkBoolean(what: string, value: string | number | boolean | undefined): void {
  if (value !== undefined && typeof value !== 'boolean') {
    throw rtError('BAD_PARAMETER', `${what} must be a boolean, got ${typeof value} ${JSON.stringify(value)}`);
  }
}

function checkRequestParameters(parameters: Parameters | undefined): void {
  if (parameters === undefined) return;
  checkNonNegativeInteger("parameter 'priority'", parameters['priority']);
  checkNonNegativeInteger("parameter 'timeout'", parameters['timeout']);
  checkBoolean("parameter 'binary_data_output'", parameters['binary_data_output']);
}

/**
 * Checks `req` against the model and returns what the scheduler needs. Throws an RtError naming the tensor and
 * what was expected vs what came.
 */
export function validateRequest(req: InferRequest, meta: ModelIoMetadata, arrivalNs: bigint): ValidatedRequest {
  const index = indexOf(meta);
  const model = `model '${meta.name}'`;
  checkRequestParameters(req.parameters);

  // Names first: unknown, repeated, then missing inputs.
  const seen = new Set<string>();
  for (const input of req.inputs) {
    if (!index.inputs.has(input.name)) {
      throw rtError('UNEXPECTED_INPUT', `${model} has no input '${input.name}'; its inputs are ${index.inputList || '(none)'}`);
    }
    if (seen.has(input.name)) throw rtError('UNEXPECTED_INPUT', `input '${input.name}' appears more than once in the request`);
    seen.add(input.name);
  }
  if (seen.size < meta.inputs.length) {
    const missing = meta.inputs.filter((t) => !seen.has(t.name) && meta.optionalInputs?.has(t.name) !== true).map((t) => `'${t.name}'`);
    if (missing.length > 0) {
      throw rtError(
        'MISSING_INPUT',
        `${model} needs input${missing.length > 1 ? 's' : ''} ${missing.join(', ')} that the request does not have; expected inputs: ${index.inputList}`,
      );
    }
  }

  const batching = meta.maxBatchSize > 0;
  if (req.frames !== undefined) return validateFrames(req, meta, arrivalNs, index);
  let batchSize = batching ? -1 : 1;
  let batchFrom = '';
  for (const input of req.inputs) {
    const config = index.inputs.get(input.name)!;
    const what = `input '${input.name}'`;
    if (input.datatype !== config.datatype) {
      throw rtError('BAD_DATATYPE', `${what}: expected ${config.datatype}, got ${input.datatype}`);
    }

    const shape = input.shape;
    const expected = batching ? [-1, ...config.shape] : config.shape;
    for (let i = 0; i < shape.length; i++) {
      const d = shape[i]!;
      if (!Number.isSafeInteger(d) || d < 0) {
        throw rtError(
          'BAD_SHAPE',
          `${what}: expected shape ${formatShape(expected)}, got ${formatShape(shape)}; dimension ${i} must be a non-negative integer`,
        );
      }
    }
    if (shape.length !== expected.length) {
      throw rtError(
        'BAD_SHAPE',
        `${what}: expected shape ${formatShape(expected)} (rank ${expected.length}), got ${formatShape(shape)} (rank ${shape.length})`,
      );
    }
    for (let i = batching ? 1 : 0; i < shape.length; i++) {
      const want = expected[i]!;
      if (want >= 0 && shape[i] !== want) {
        throw rtError(
          'BAD_SHAPE',
          `${what}: expected shape ${formatShape(expected)}, got ${formatShape(shape)} (dimension ${i} is ${shape[i]}, expected ${want})`,
        );
      }
    }
    if (batching) {
      const b = shape[0]!;
      if (b < 1) throw rtError('BAD_SHAPE', `${what}: batch dimension of shape ${formatShape(shape)} must be at least 1`);
      if (batchSize < 0) {
        batchSize = b;
        batchFrom = input.name;
      } else if (b !== batchSize) {
        throw rtError(
          'BAD_SHAPE',
          `${what}: batch size ${b} (shape ${formatShape(shape)}) does not match batch size ${batchSize} of input '${batchFrom}'`,
        );
      }
    }

    const count = elementCount(shape);
    const data = input.data;
    if (config.datatype === 'BYTES') {
      if (!Array.isArray(data)) throw rtError('BAD_DATA', `${what}: BYTES data must be an array of byte strings`);
      for (let i = 0; i < data.length; i++) {
        if (!(data[i] instanceof Uint8Array)) throw rtError('BAD_DATA', `${what}: BYTES element ${i} is not a byte string`);
      }
    } else if (!(data instanceof TYPED_ARRAY_OF[config.datatype])) {
      const got = Array.isArray(data) ? 'an array' : (data as object).constructor.name;
      throw rtError('BAD_DATA', `${what}: ${config.datatype} data must be a ${TYPED_ARRAY_OF[config.datatype].name}, got ${got}`);
    }
    if (data.length !== count) {
      throw rtError('BAD_DATA', `${what}: shape ${formatShape(shape)} needs ${count} elements, data has ${data.length}`);
    }
  }
  if (batching) {
    // A model whose inputs are all optional and absent has no batch dimension to read: treat it as batch 1.
    if (batchSize < 0) batchSize = 1;
    if (batchSize > meta.maxBatchSize) {
      throw rtError('BATCH_TOO_LARGE', `${model}: batch size ${batchSize} (input '${batchFrom}') exceeds max_batch_size ${meta.maxBatchSize}`);
    }
  }

  return { request: req, batchSize, outputNames: outputNamesOf(req, index, model), arrivalNs };
}

/**
 * A request of encoded frames (tensor/frames.ts, made by the image layer): the model's instances decode them into
 * its image input on their device; the only input is that one, as BYTES, one frame per row, each with its placement.
 */
function validateFrames(req: InferRequest, meta: ModelIoMetadata, arrivalNs: bigint, index: ModelIndex): ValidatedRequest {
  const model = `model '${meta.name}'`;
  const frames = req.frames ?? [];
  const input = req.inputs[0];
  if (meta.frameInput === undefined || req.inputs.length !== 1 || input?.name !== meta.frameInput) {
    throw rtError('BAD_REQUEST', `${model} does not take encoded frames on its engine`);
  }
  const n = frames.length;
  if (input.datatype !== 'BYTES' || input.shape.length !== 1 || input.shape[0] !== n || !Array.isArray(input.data) || input.data.length !== n) {
    throw rtError('BAD_DATA', `input '${input.name}': ${n} encoded frames need a BYTES tensor of shape [${n}]`);
  }
  if (!input.data.every((b) => b instanceof Uint8Array)) throw rtError('BAD_DATA', `input '${input.name}': every frame must be a byte string`);
  if (n < 1 || n > Math.max(1, meta.maxBatchSize)) {
    throw rtError('BATCH_TOO_LARGE', `${model}: ${n} frames in one request, the model takes 1 to ${Math.max(1, meta.maxBatchSize)}`);
  }
  return { request: req, batchSize: n, outputNames: outputNamesOf(req, index, model), arrivalNs };
}

/** The outputs a request asks for (all the model's outputs when it names none), checked. */
function outputNamesOf(req: InferRequest, index: ModelIndex, model: string): readonly string[] {
  let outputNames = index.outputNames;
  if (req.outputs !== undefined && req.outputs.length > 0) {
    const names: string[] = [];
    const requested = new Set<string>();
    for (const out of req.outputs) {
      if (!index.outputs.has(out.name)) {
        throw rtError('UNKNOWN_OUTPUT', `${model} has no output '${out.name}'; its outputs are ${index.outputList || '(none)'}`);
      }
      if (requested.has(out.name)) throw rtError('BAD_REQUEST', `output '${out.name}' is requested more than once`);
      requested.add(out.name);
      names.push(out.name);
      checkBoolean(`output '${out.name}': parameter 'binary_data'`, out.parameters?.['binary_data']);
      checkNonNegativeInteger(`output '${out.name}': parameter 'classification'`, out.parameters?.['classification']);
    }
    outputNames = names;
  }
  return outputNames;
}
