/**
 * The onnxruntime-node side of a session: provider selection, metadata, tensor conversion and run. It runs
 * inside the engine worker (ort-worker.ts); `in-process.ts` reuses it on the calling thread for benchmarks.
 * This directory is the only place in rtserve that imports onnxruntime-node (docs/architecture.md, Layers).
 */
import { readFile } from 'node:fs/promises';
import ort from 'onnxruntime-node';
import type { DataType, NumericArray } from '../../tensor/datatype.ts';
import type { TensorMetadata } from '../../tensor/tensor.ts';
import { rtError, RtError } from '../../errors/registry.ts';
import type { EngineLoadOptions, ExecutionProviderName, ExecutionProviderSpec, SessionDescription } from '../engine.ts';
import { readGraphIO } from '../../onnx/graph-io.ts';
import type { ProviderAttempt, WorkerLoadRequest } from '../worker/protocol.ts';
import { LoadFailure, type LoadedModel } from '../worker/serve.ts';
import type { WireTensor } from '../worker/wire-tensor.ts';
import { PREFLIGHT_PROVIDERS, preflightProvider } from './provider-preflight.ts';
import { dataTypeOfOrt, ORT_TYPE_OF } from './ort-types.ts';
import { numericOrtTensor } from './ort-tensor.ts';
import { elemTypeName } from '../../tensor/onnx-dtype.ts';

type SessionOptions = ort.InferenceSession.SessionOptions;

function messageOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).trim();
}

/**
 * onnxruntime's enforce failures read "/onnxruntime_src/<file>.cc:136 <C++ signature> <condition> was false.
 * <what went wrong>"; users need the last part. Messages without that shape are returned unchanged.
 */
export function cleanOrtMessage(message: string): string {
  const located = /^\S+\.(?:cc|cpp|h):\d+ /.exec(message);
  if (located === null) return message;
  const rest = message.slice(located[0].length);
  const enforced = rest.indexOf(' was false. ');
  return enforced >= 0 ? rest.slice(enforced + ' was false. '.length) : rest;
}

/** Session options for one provider attempt: the spec's options pass through to onnxruntime unchanged. */
export function sessionOptionsFor(spec: ExecutionProviderSpec, options: EngineLoadOptions): SessionOptions {
  const provider: ort.InferenceSession.ExecutionProviderConfig =
    spec.options !== undefined && Object.keys(spec.options).length > 0 ? { ...spec.options, name: spec.name } : spec.name;
  const out: { -readonly [K in keyof SessionOptions]: SessionOptions[K] } = { executionProviders: [provider] };
  if (options.graphOptimizationLevel !== undefined) out.graphOptimizationLevel = options.graphOptimizationLevel;
  // 0 means "onnxruntime's default" (one intra-op thread per physical core); onnxruntime reads an absent value
  // the same way, so 0 is simply not passed.
  if (options.intraOpNumThreads !== undefined && options.intraOpNumThreads > 0) out.intraOpNumThreads = options.intraOpNumThreads;
  if (options.interOpNumThreads !== undefined && options.interOpNumThreads > 0) out.interOpNumThreads = options.interOpNumThreads;
  // `extra` entries become session config entries (AddConfigEntry), keys as given: 'session.intra_op.allow_spinning'.
  if (options.sessionConfig !== undefined && Object.keys(options.sessionConfig).length > 0) out.extra = { ...options.sessionConfig };
  return out;
}

/**
 * Run-time failures of the device or its execution provider, as onnxruntime words them: CUDA / cuDNN / cuBLAS
 * status failures (CUDA_CALL, CUDNN_CALL in the CUDA EP), TensorRT EP errors, WebGPU device loss and
 * validation-of-device errors (Dawn), DirectML device removal, and device memory exhaustion. Errors about the
 * inputs of a batch (wrong rank, a Reshape that cannot apply, ...) do not match: they are the request's.
 */
const DEVICE_FAILURE =
  /\b(?:CUDA (?:failure|error)|CUDNN_STATUS_\w+|CUBLAS_STATUS_\w+|cudaError\w*|TensorRT EP|TRT EP|WebGPU (?:device|error)|device (?:was )?lost|DXGI_ERROR_DEVICE_\w+|device removed|out of (?:device )?memory|Failed to allocate memory for requested buffer)/i;

export function isDeviceFailure(message: string): boolean {
  return DEVICE_FAILURE.test(message);
}

/**
 * onnxruntime's own messages for inputs whose shapes the graph cannot run together (dimensions that are dynamic
 * in the model, so request validation let them through): the request's fault, answered 400, not an engine failure.
 */
const INPUT_SHAPE_FAILURE =
  /Attempting to broadcast an axis by a dimension other than 1|operand cannot broadcast|Invalid rank for input|Got invalid dimensions for input|Incompatible dimensions for matrix multiplication|The input tensor cannot be reshaped to the requested shape|(?:input|tensor) shape mismatch/i;

export function isInputShapeFailure(message: string): boolean {
  return INPUT_SHAPE_FAILURE.test(message);
}

/** onnxruntime-node's JS layer rejects element types it has no tensor type for with only the type number. */
const UNSUPPORTED_TYPE = /^Unsupported data type: (\d+)/;

async function unsupportedTypeError(modelPath: string, modelLabel: string, elemType: number): Promise<RtError> {
  const typeName = elemTypeName(elemType);
  let where = 'an input or output';
  try {
    const io = readGraphIO(await readFile(modelPath));
    const named = [
      ...io.inputs.filter((v) => v.elemType === elemType).map((v) => `input '${v.name}'`),
      ...io.outputs.filter((v) => v.elemType === elemType).map((v) => `output '${v.name}'`),
    ];
    if (named.length > 0) where = named.join(', ');
  } catch {
    // The model loaded in onnxruntime, so this is unexpected; the generic wording still says what is wrong.
  }
  return rtError(
    'UNSUPPORTED',
    `model ${modelLabel}: ${where} ${where.includes(',') ? 'have' : 'has'} element type ${typeName}, which onnxruntime-node cannot exchange with ` +
      `JavaScript (it has no ${typeName} tensor type); cast it to float16 or float32 at the graph boundary`,
  );
}

function describeValues(values: readonly ort.InferenceSession.ValueMetadata[], kind: 'input' | 'output', modelLabel: string): TensorMetadata[] {
  return values.map((v) => {
    if (!v.isTensor) {
      throw rtError(
        'UNSUPPORTED',
        `model ${modelLabel}: ${kind} '${v.name}' is not a tensor (a sequence, map or optional); only tensors can be served`,
      );
    }
    const datatype = dataTypeOfOrt(v.type);
    if (datatype === undefined) {
      throw rtError('UNSUPPORTED', `model ${modelLabel}: ${kind} '${v.name}' has element type ${v.type}, which has no KServe v2 datatype`);
    }
    // Symbolic dims come back as their names ('batch'), unnamed dynamic ones as ''; KServe writes both as -1.
    return { name: v.name, datatype, shape: v.shape.map((d) => (typeof d === 'number' ? d : -1)) };
  });
}

/** UTF-8 decodes each packed element (KServe BYTES → onnxruntime 'string'). */
function decodeStrings(bytes: Uint8Array, ends: Uint32Array): string[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<string>(ends.length);
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    const end = ends[i] as number;
    out[i] = buf.toString('utf8', start, end);
    start = end;
  }
  return out;
}

/** UTF-8 encodes strings into one packed buffer (onnxruntime 'string' → KServe BYTES). */
function encodeStrings(strings: readonly string[]): { bytes: Uint8Array; ends: Uint32Array } {
  const ends = new Uint32Array(strings.length);
  let total = 0;
  for (let i = 0; i < strings.length; i++) {
    total += Buffer.byteLength(strings[i] as string, 'utf8');
    ends[i] = total;
  }
  // allocUnsafeSlow: a buffer of its own (not a slice of Node's pool), so it can be transferred as is.
  const buf = Buffer.allocUnsafeSlow(total);
  let at = 0;
  for (const s of strings) at += buf.write(s, at, 'utf8');
  return { bytes: new Uint8Array(buf.buffer, buf.byteOffset, total), ends };
}

function toOrtTensor(feed: WireTensor): ort.Tensor {
  const dims = feed.shape as number[];
  if (feed.datatype === 'BYTES') return new ort.Tensor('string', decodeStrings(feed.bytes, feed.ends), dims);
  if (feed.datatype === 'BF16') throw rtError('UNSUPPORTED', `input '${feed.name}': BF16 tensors are not supported by onnxruntime-node`);
  // The typed array classes line up with onnxruntime's (ort-types.ts), so data passes through without a copy.
  return numericOrtTensor(ORT_TYPE_OF[feed.datatype], feed.data as ort.Tensor.DataType, dims);
}

function fromOrtTensor(name: string, value: ort.OnnxValue, modelLabel: string): WireTensor {
  const tensor = value as ort.Tensor;
  const datatype = dataTypeOfOrt(tensor.type);
  if (datatype === undefined)
    throw rtError('ENGINE_FAILED', `model ${modelLabel}: output '${name}' came back as ${tensor.type}, which has no KServe datatype`);
  const shape = [...tensor.dims];
  if (datatype === 'BYTES') return { name, datatype, shape, ...encodeStrings(tensor.data as string[]) };
  let data = tensor.data as NumericArray;
  // Where a runtime has Float16Array, onnxruntime-common hands float16 back as one; rtserve carries the bits.
  if (datatype === 'FP16' && !(data instanceof Uint16Array)) data = new Uint16Array(data.buffer, data.byteOffset, data.byteLength / 2);
  return { name, datatype, shape, data };
}

export interface OrtLoadedModel extends LoadedModel {
  readonly session: ort.InferenceSession;
}

/** Which provider names this onnxruntime-node build knows (cuda/tensorrt need their separately installed libraries). */
export function listOrtBackends(): { name: string; bundled: boolean }[] {
  return ort.listSupportedBackends().map((b) => ({ name: b.name, bundled: b.bundled }));
}

/**
 * Loads a model with the first provider that works. onnxruntime does not fall back between providers (a
 * session asked for ['webgpu', 'cpu'] on a machine without a GPU fails outright), so each spec is tried on
 * its own, in the order given.
 */
export async function loadOrtModel(request: WorkerLoadRequest): Promise<OrtLoadedModel> {
  const { modelPath, modelLabel, options } = request;
  if (options.providers.length === 0) {
    throw rtError('BAD_CONFIG', `model ${modelLabel}: no execution providers configured`);
  }
  const attempts: ProviderAttempt[] = [];
  let session: ort.InferenceSession | undefined;
  let provider: ExecutionProviderName | undefined;
  for (const spec of options.providers) {
    if (PREFLIGHT_PROVIDERS.has(spec.name)) {
      const why = await preflightProvider(spec.name, modelPath, sessionOptionsFor(spec, options));
      if (why !== undefined) {
        attempts.push({ provider: spec.name, ok: false, error: why.split(modelPath).join(modelLabel) });
        continue;
      }
    }
    try {
      session = await ort.InferenceSession.create(modelPath, sessionOptionsFor(spec, options));
      provider = spec.name;
      attempts.push({ provider: spec.name, ok: true });
      break;
    } catch (err) {
      // onnxruntime quotes the model path ("Load model from /srv/... failed"); messages may reach clients.
      const message = messageOf(err).split(modelPath).join(modelLabel);
      const unsupported = UNSUPPORTED_TYPE.exec(message);
      // The model itself has a type this binding cannot carry; no other provider would do better.
      if (unsupported !== null) throw new LoadFailure(await unsupportedTypeError(modelPath, modelLabel, Number(unsupported[1])), attempts);
      attempts.push({ provider: spec.name, ok: false, error: cleanOrtMessage(message) });
    }
  }
  if (session === undefined || provider === undefined) {
    const reasons = attempts.map((a) => `${a.provider}: ${a.error ?? 'unknown error'}`).join('; ');
    // The CPU provider is always present, so a CPU failure means the model itself could not be loaded.
    const error = attempts.some((a) => a.provider === 'cpu')
      ? rtError('MODEL_LOAD_FAILED', `model ${modelLabel} failed to load (${reasons})`)
      : rtError('ENGINE_UNAVAILABLE', `no execution provider could load model ${modelLabel} (${reasons})`);
    throw new LoadFailure(error, attempts);
  }

  let description: SessionDescription;
  try {
    description = {
      inputs: describeValues(session.inputMetadata, 'input', modelLabel),
      outputs: describeValues(session.outputMetadata, 'output', modelLabel),
      provider,
    };
  } catch (err) {
    await session.release();
    throw new LoadFailure(err instanceof RtError ? err : rtError('MODEL_LOAD_FAILED', messageOf(err)), attempts);
  }
  return new OrtModel(session, modelLabel, description, attempts);
}

class OrtModel implements OrtLoadedModel {
  readonly session: ort.InferenceSession;
  readonly description: SessionDescription;
  readonly attempts: readonly ProviderAttempt[];
  readonly #modelLabel: string;
  readonly #inputTypes: ReadonlyMap<string, DataType>;
  readonly #outputNames: ReadonlySet<string>;

  constructor(session: ort.InferenceSession, modelLabel: string, description: SessionDescription, attempts: readonly ProviderAttempt[]) {
    this.session = session;
    this.#modelLabel = modelLabel;
    this.description = description;
    this.attempts = attempts;
    this.#inputTypes = new Map(description.inputs.map((i) => [i.name, i.datatype]));
    this.#outputNames = new Set(description.outputs.map((o) => o.name));
  }

  async run(feeds: readonly WireTensor[], outputNames: readonly string[]): Promise<WireTensor[]> {
    const label = this.#modelLabel;
    const ortFeeds: Record<string, ort.Tensor> = {};
    for (const feed of feeds) {
      const expected = this.#inputTypes.get(feed.name);
      if (expected === undefined) {
        throw rtError('UNEXPECTED_INPUT', `model ${label} has no input '${feed.name}' (inputs: ${[...this.#inputTypes.keys()].join(', ')})`);
      }
      if (Object.hasOwn(ortFeeds, feed.name)) throw rtError('UNEXPECTED_INPUT', `model ${label}: input '${feed.name}' given twice`);
      // onnxruntime's own type error does not say which input is wrong.
      if (feed.datatype !== expected) {
        throw rtError('BAD_DATATYPE', `model ${label}: input '${feed.name}' must be ${expected}, got ${feed.datatype}`);
      }
      try {
        ortFeeds[feed.name] = toOrtTensor(feed);
      } catch (err) {
        if (err instanceof RtError) throw err;
        throw rtError('BAD_DATA', `model ${label}: input '${feed.name}': ${messageOf(err)}`);
      }
    }
    for (const name of this.#inputTypes.keys()) {
      if (!Object.hasOwn(ortFeeds, name)) throw rtError('MISSING_INPUT', `model ${label}: input '${name}' is missing`);
    }
    // No names means every output, in the model's order.
    const fetches = outputNames.length > 0 ? outputNames : [...this.#outputNames];
    for (const name of fetches) {
      if (!this.#outputNames.has(name)) {
        throw rtError('UNKNOWN_OUTPUT', `model ${label} has no output '${name}' (outputs: ${[...this.#outputNames].join(', ')})`);
      }
    }

    let results: ort.InferenceSession.ReturnType;
    try {
      results = await this.session.run(ortFeeds, fetches);
    } catch (err) {
      const message = cleanOrtMessage(messageOf(err));
      // A device or provider failure is not this batch's fault: the engine chain fails over on this code.
      if (isInputShapeFailure(message)) {
        throw rtError(
          'BAD_SHAPE',
          `model ${label} cannot run inputs of these shapes (${feeds.map((f) => `'${f.name}' [${f.shape.join(',')}]`).join(', ')}): ${message}`,
          { cause: err },
        );
      }
      const code = isDeviceFailure(message) ? 'ENGINE_DEVICE_FAILED' : 'ENGINE_FAILED';
      throw rtError(code, `model ${label} failed: ${message}`, { cause: err });
    }
    return fetches.map((name) => {
      const value = results[name];
      if (value === undefined) throw rtError('ENGINE_FAILED', `model ${label} failed: output '${name}' was not produced`);
      return fromOrtTensor(name, value, label);
    });
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
