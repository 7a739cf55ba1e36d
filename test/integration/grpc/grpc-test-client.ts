/**
 * Helpers for the gRPC integration tests: a grpc-js client generated at run time from rtserve's own .proto with
 * @grpc/proto-loader (the generic protobuf codec, not rtserve's hand-written one), a TableClient over it for the
 * shared integration table, and small test utilities (a gated engine that holds batches until released, and a
 * reader for the pending-request gauge).
 */
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { BYTE_SIZE } from '../../../src/tensor/datatype.ts';
import type { DataType, TensorData } from '../../../src/tensor/datatype.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import type { Engine, EngineSession } from '../../../src/engine/engine.ts';
import { createOrtEngine } from '../../../src/engine/ort/index.ts';
import type { ErrorCategory } from '../../../src/errors/registry.ts';
import { inferenceProtoPath, protoDir } from '../../../src/transport/grpc/proto.ts';
import { TableError, type TableClient, type TableRequest, type TableResult } from '../cases.ts';

export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [protoDir()],
};

/** grpc status code → registry category (the inverse of CATEGORY_MAPPING's grpc column). */
export const CATEGORY_OF_CODE: Readonly<Record<number, ErrorCategory>> = {
  1: 'CANCELLED',
  3: 'INVALID_ARGUMENT',
  4: 'DEADLINE_EXCEEDED',
  5: 'NOT_FOUND',
  6: 'ALREADY_EXISTS',
  7: 'PERMISSION_DENIED',
  8: 'RESOURCE_EXHAUSTED',
  9: 'FAILED_PRECONDITION',
  12: 'UNIMPLEMENTED',
  13: 'INTERNAL',
  14: 'UNAVAILABLE',
  16: 'UNAUTHENTICATED',
};

type Callback = (err: grpc.ServiceError | null, res: unknown) => void;
type UnaryMethod = (req: unknown, metadata: grpc.Metadata, options: grpc.CallOptions, cb: Callback) => grpc.ClientUnaryCall;

export interface InferenceClient extends grpc.Client {
  ModelStreamInfer(metadata?: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<unknown, ModelStreamInferResponse>;
}

export function inferenceClient(address: string, options: grpc.ChannelOptions = {}): InferenceClient {
  const def = protoLoader.loadSync(inferenceProtoPath(), LOADER_OPTIONS);
  const pkg = grpc.loadPackageDefinition(def) as unknown as { inference: { GRPCInferenceService: grpc.ServiceClientConstructor } };
  return new pkg.inference.GRPCInferenceService(address, grpc.credentials.createInsecure(), options) as unknown as InferenceClient;
}

/** Calls a unary RPC; resolves with the response object or rejects with the grpc ServiceError. */
export function unary<T = Record<string, unknown>>(
  client: grpc.Client,
  method: string,
  req: unknown,
  options: grpc.CallOptions = {},
  metadata = new grpc.Metadata(),
): Promise<T> {
  return new Promise((resolve, reject) => {
    const fn = (client as unknown as Record<string, UnaryMethod>)[method];
    if (fn === undefined) throw new Error(`no method ${method}`);
    fn.call(client, req, metadata, options, (err, res) => (err === null ? resolve(res as T) : reject(err)));
  });
}

/**
 * One grpc.reflection.v1 ServerReflectionInfo stream (a client generated from @grpc/reflection's own proto): sends
 * `requests`, half-closes, resolves with every answer, or rejects with the stream's status.
 */
export async function reflect(
  address: string,
  requests: readonly Record<string, unknown>[],
  metadata = new grpc.Metadata(),
): Promise<Record<string, unknown>[]> {
  const require = createRequire(import.meta.url);
  const reflectionRoot = join(dirname(require.resolve('@grpc/reflection/package.json')), 'build', 'proto');
  const def = protoLoader.loadSync('grpc/reflection/v1/reflection.proto', {
    keepCase: true,
    defaults: true,
    oneofs: true,
    includeDirs: [reflectionRoot],
  });
  const pkg = grpc.loadPackageDefinition(def) as unknown as { grpc: { reflection: { v1: { ServerReflection: grpc.ServiceClientConstructor } } } };
  const rc = new pkg.grpc.reflection.v1.ServerReflection(address, grpc.credentials.createInsecure());
  try {
    const call = (
      rc as unknown as { ServerReflectionInfo(md: grpc.Metadata): grpc.ClientDuplexStream<unknown, Record<string, unknown>> }
    ).ServerReflectionInfo(metadata);
    const answers: Record<string, unknown>[] = [];
    const done = new Promise<void>((resolve, reject) => {
      call.on('data', (r: Record<string, unknown>) => answers.push(r));
      call.on('end', resolve);
      call.on('error', reject);
    });
    for (const r of requests) call.write(r);
    call.end();
    await done;
    return answers;
  } finally {
    rc.close();
  }
}

/** Asserts that `p` rejects with the gRPC status `code` and details that mention every part. */
export function rejectsWith(p: Promise<unknown>, code: grpc.status, ...includes: string[]): Promise<void> {
  return assert.rejects(p, (err: grpc.ServiceError) => {
    assert.equal(err.code, code, `${grpc.status[err.code]}: ${err.details}`);
    for (const part of includes) assert.ok(err.details.includes(part), `${JSON.stringify(err.details)} should mention ${part}`);
    return true;
  });
}

/** Writes every request on one ModelStreamInfer stream, ends it, and resolves with every answer. */
export function streamAll(
  client: InferenceClient,
  requests: readonly unknown[],
  metadata = new grpc.Metadata(),
): Promise<ModelStreamInferResponse[]> {
  const stream = client.ModelStreamInfer(metadata);
  const answers: ModelStreamInferResponse[] = [];
  const done = new Promise<ModelStreamInferResponse[]>((resolve, reject) => {
    stream.on('data', (r: ModelStreamInferResponse) => answers.push(r));
    stream.on('end', () => resolve(answers));
    stream.on('error', reject);
  });
  for (const r of requests) stream.write(r);
  stream.end();
  return done;
}

export interface ProtoTensor {
  name: string;
  datatype: string;
  shape: string[];
}

export interface ModelInferResponse {
  model_name: string;
  model_version: string;
  id: string;
  outputs: ProtoTensor[];
  raw_output_contents: Buffer[];
}

export interface ModelStreamInferResponse {
  error_message: string;
  infer_response: ModelInferResponse | null;
}

/** Little-endian bytes of tensor data, written here (not with rtserve's codec): BYTES get 4-byte length prefixes. */
export function rawBytes(t: Tensor): Buffer {
  if (Array.isArray(t.data)) {
    return Buffer.concat(
      t.data.flatMap((e) => {
        const len = Buffer.alloc(4);
        len.writeUInt32LE(e.byteLength);
        return [len, Buffer.from(e)];
      }),
    );
  }
  const d = t.data as ArrayBufferView;
  return Buffer.from(d.buffer, d.byteOffset, d.byteLength);
}

/** Tensor data from raw little-endian bytes (copied to an aligned buffer; BYTES split at their length prefixes). */
export function fromRaw(datatype: DataType, raw: Buffer): TensorData {
  if (datatype === 'BYTES') {
    const out: Uint8Array[] = [];
    for (let p = 0; p < raw.length; ) {
      const len = raw.readUInt32LE(p);
      out.push(new Uint8Array(raw.subarray(p + 4, p + 4 + len)));
      p += 4 + len;
    }
    return out;
  }
  const copy = new Uint8Array(raw).buffer;
  const n = raw.length / BYTE_SIZE[datatype];
  switch (datatype) {
    case 'BOOL':
    case 'UINT8':
      return new Uint8Array(copy, 0, n);
    case 'INT8':
      return new Int8Array(copy, 0, n);
    case 'INT16':
      return new Int16Array(copy, 0, n);
    case 'UINT16':
    case 'FP16':
    case 'BF16':
      return new Uint16Array(copy, 0, n);
    case 'INT32':
      return new Int32Array(copy, 0, n);
    case 'UINT32':
      return new Uint32Array(copy, 0, n);
    case 'INT64':
      return new BigInt64Array(copy, 0, n);
    case 'UINT64':
      return new BigUint64Array(copy, 0, n);
    case 'FP32':
      return new Float32Array(copy, 0, n);
    case 'FP64':
      return new Float64Array(copy, 0, n);
  }
}

/** The typed `contents` object of a tensor as proto-loader takes it (64-bit values as decimal strings). */
export function typedContents(t: Tensor): Record<string, unknown[]> {
  const d = t.data;
  switch (t.datatype) {
    case 'BOOL':
      return { bool_contents: [...(d as Uint8Array)].map((v) => v !== 0) };
    case 'INT8':
    case 'INT16':
    case 'INT32':
      return { int_contents: [...(d as Int32Array)] };
    case 'UINT8':
    case 'UINT16':
    case 'UINT32':
      return { uint_contents: [...(d as Uint32Array)] };
    case 'INT64':
      return { int64_contents: [...(d as BigInt64Array)].map(String) };
    case 'UINT64':
      return { uint64_contents: [...(d as BigUint64Array)].map(String) };
    case 'FP32':
      return { fp32_contents: [...(d as Float32Array)] };
    case 'FP64':
      return { fp64_contents: [...(d as Float64Array)] };
    case 'BYTES':
      return { bytes_contents: (d as Uint8Array[]).map((e) => Buffer.from(e)) };
    default:
      throw new Error(`${t.datatype} has no typed contents field`);
  }
}

/**
 * A ModelInferRequest object for proto-loader. `typed` puts data in InferTensorContents; FP16/BF16 have no
 * contents field and raw and typed cannot be mixed (GS), so a request with such an input goes all raw.
 */
export function inferRequestObject(req: TableRequest, typed: boolean): Record<string, unknown> {
  const useTyped = typed && req.inputs.every((t) => t.datatype !== 'FP16' && t.datatype !== 'BF16');
  const parameters: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(req.parameters ?? {})) parameters[k] = paramObject(v);
  return {
    model_name: req.model,
    model_version: req.version ?? '',
    id: req.id ?? '',
    parameters,
    inputs: req.inputs.map((t) => ({ name: t.name, datatype: t.datatype, shape: t.shape, ...(useTyped && { contents: typedContents(t) }) })),
    outputs: (req.outputs ?? []).map((o) => ({
      name: o.name,
      parameters: Object.fromEntries(Object.entries(o.parameters ?? {}).map(([k, v]) => [k, paramObject(v)])),
    })),
    raw_input_contents: useTyped ? [] : req.inputs.map(rawBytes),
  };
}

function paramObject(v: string | number | boolean): Record<string, unknown> {
  if (typeof v === 'boolean') return { bool_param: v };
  if (typeof v === 'string') return { string_param: v };
  return Number.isInteger(v) ? { int64_param: v } : { double_param: v };
}

export function tensorsOf(res: ModelInferResponse): Tensor[] {
  return res.outputs.map((o, i) => ({
    name: o.name,
    datatype: o.datatype as DataType,
    shape: o.shape.map(Number),
    data: fromRaw(o.datatype as DataType, res.raw_output_contents[i] ?? Buffer.alloc(0)),
  }));
}

/** The shared integration table over gRPC ModelInfer. */
export function grpcTableClient(client: grpc.Client, typed: boolean): TableClient {
  return async (req): Promise<TableResult> => {
    let res: ModelInferResponse;
    try {
      res = await unary<ModelInferResponse>(client, 'ModelInfer', inferRequestObject(req, typed));
    } catch (err) {
      const e = err as grpc.ServiceError;
      throw new TableError(CATEGORY_OF_CODE[e.code] ?? 'INTERNAL', e.details);
    }
    return { model_name: res.model_name, outputs: tensorsOf(res), ...(res.id === '' ? {} : { id: res.id }) };
  };
}

/** An engine whose runs wait while the gate is shut: lets a test hold a batch on the only instance. */
export class Gate {
  private shut = false;
  private waiters: (() => void)[] = [];
  private startWaiters: { n: number; resolve: () => void }[] = [];
  started = 0;

  close(): void {
    this.shut = true;
  }

  open(): void {
    this.shut = false;
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Resolves once `n` runs have started in total. */
  untilStarted(n: number): Promise<void> {
    if (this.started >= n) return Promise.resolve();
    return new Promise((resolve) => this.startWaiters.push({ n, resolve }));
  }

  async pass(): Promise<void> {
    this.started++;
    for (const w of this.startWaiters.filter((x) => this.started >= x.n)) w.resolve();
    this.startWaiters = this.startWaiters.filter((x) => this.started < x.n);
    if (this.shut) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
}

export function gatedEngine(gate: Gate): Engine {
  const inner = createOrtEngine();
  return {
    name: 'gated-ort',
    async load(path, options): Promise<EngineSession> {
      const s = await inner.load(path, options);
      return {
        describe: () => s.describe(),
        run: async (feeds, names, signal) => {
          await gate.pass();
          return s.run(feeds, names, signal);
        },
        close: () => s.close(),
      };
    },
  };
}

export { pendingCount, until } from '../../helpers/until.ts';
