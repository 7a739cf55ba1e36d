/**
 * The integration table shared by every front end (REST, gRPC, WebSocket): each case is an inference request
 * and what must come back — tensors, or an error of a given category whose message names what was wrong.
 * A transport test supplies a `TableClient` and runs `INFER_CASES` through it.
 */
import assert from 'node:assert/strict';
import type { ErrorCategory } from '../../src/errors/registry.ts';
import type { DataType, TensorData } from '../../src/tensor/datatype.ts';
import type { Parameters, RequestedOutput } from '../../src/api/types.ts';
import type { Tensor } from '../../src/tensor/tensor.ts';

export interface TableRequest {
  readonly model: string;
  readonly version?: string;
  readonly id?: string;
  readonly inputs: readonly Tensor[];
  readonly outputs?: readonly RequestedOutput[];
  readonly parameters?: Parameters;
}

export interface TableResult {
  readonly id?: string;
  readonly model_name: string;
  readonly outputs: readonly Tensor[];
}

export class TableError extends Error {
  constructor(
    readonly category: ErrorCategory,
    message: string,
  ) {
    super(message);
  }
}

/** Runs a request over one transport; throws TableError with the category the transport's status maps to. */
export type TableClient = (req: TableRequest) => Promise<TableResult>;

export interface InferCase {
  readonly name: string;
  readonly request: TableRequest;
  readonly expect:
    | {
        readonly outputs: readonly { name: string; datatype: DataType; shape: number[]; data: readonly (number | bigint | boolean | string)[] }[];
        readonly id?: string;
      }
    | { readonly error: ErrorCategory; readonly messageIncludes: readonly string[] };
}

const i32 = (n: number, f: (i: number) => number): Int32Array => Int32Array.from({ length: n }, (_, i) => f(i));
const t = (name: string, datatype: DataType, shape: number[], data: TensorData): Tensor => ({ name, datatype, shape, data });
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

const in0 = i32(16, (i) => i);
const in1 = i32(16, () => 1);
const simpleInputs = [t('INPUT0', 'INT32', [1, 16], in0), t('INPUT1', 'INT32', [1, 16], in1)];

export const INFER_CASES: readonly InferCase[] = [
  {
    name: 'simple: sum and difference, id echoed',
    request: { model: 'simple', id: 'req-1', inputs: simpleInputs },
    expect: {
      id: 'req-1',
      outputs: [
        { name: 'OUTPUT0', datatype: 'INT32', shape: [1, 16], data: [...in0].map((v) => v + 1) },
        { name: 'OUTPUT1', datatype: 'INT32', shape: [1, 16], data: [...in0].map((v) => v - 1) },
      ],
    },
  },
  {
    name: 'simple: requested-output filtering',
    request: { model: 'simple', inputs: simpleInputs, outputs: [{ name: 'OUTPUT1' }] },
    expect: { outputs: [{ name: 'OUTPUT1', datatype: 'INT32', shape: [1, 16], data: [...in0].map((v) => v - 1) }] },
  },
  {
    name: 'simple: explicit version',
    request: { model: 'simple', version: '1', inputs: simpleInputs, outputs: [{ name: 'OUTPUT0' }] },
    expect: { outputs: [{ name: 'OUTPUT0', datatype: 'INT32', shape: [1, 16], data: [...in0].map((v) => v + 1) }] },
  },
  {
    name: 'simple: batch of 3',
    request: {
      model: 'simple',
      inputs: [
        t(
          'INPUT0',
          'INT32',
          [3, 16],
          i32(48, (i) => i),
        ),
        t(
          'INPUT1',
          'INT32',
          [3, 16],
          i32(48, (i) => 2 * i),
        ),
      ],
      outputs: [{ name: 'OUTPUT0' }],
    },
    expect: { outputs: [{ name: 'OUTPUT0', datatype: 'INT32', shape: [3, 16], data: Array.from({ length: 48 }, (_, i) => 3 * i) }] },
  },
  {
    name: 'identity_all: every datatype onnxruntime-node serves',
    request: {
      model: 'identity_all',
      inputs: [
        t('IN_FP32', 'FP32', [2, 2], Float32Array.from([1.5, -2, 0, 3.25])),
        t('IN_INT64', 'INT64', [1, 3], BigInt64Array.from([-(2n ** 40n), 0n, 7n])),
        t('IN_BOOL', 'BOOL', [1, 2], Uint8Array.from([1, 0])),
        t('IN_BYTES', 'BYTES', [1, 3], [utf8('a'), utf8(''), utf8('héllo')]),
        t('IN_FP64', 'FP64', [1, 1], Float64Array.from([Math.PI])),
        t('IN_UINT8', 'UINT8', [1, 2], Uint8Array.from([0, 255])),
        t('IN_INT8', 'INT8', [1, 2], Int8Array.from([-128, 127])),
        t('IN_INT16', 'INT16', [1, 1], Int16Array.from([-300])),
        t('IN_FP16', 'FP16', [1, 2], Uint16Array.from([0x3c00, 0xc000])),
        t('IN_UINT16', 'UINT16', [1, 2], Uint16Array.from([0, 65535])),
        t('IN_UINT32', 'UINT32', [1, 1], Uint32Array.from([4294967295])),
        t('IN_UINT64', 'UINT64', [1, 2], BigUint64Array.from([0n, 2n ** 50n])),
        t('IN_INT32', 'INT32', [1, 2], Int32Array.from([-2147483648, 2147483647])),
      ],
      outputs: [
        { name: 'OUT_FP32' },
        { name: 'OUT_INT64' },
        { name: 'OUT_BOOL' },
        { name: 'OUT_BYTES' },
        { name: 'OUT_FP64' },
        { name: 'OUT_UINT8' },
        { name: 'OUT_INT8' },
        { name: 'OUT_INT16' },
        { name: 'OUT_FP16' },
        { name: 'OUT_UINT16' },
        { name: 'OUT_UINT32' },
        { name: 'OUT_UINT64' },
        { name: 'OUT_INT32' },
      ],
    },
    expect: {
      outputs: [
        { name: 'OUT_FP32', datatype: 'FP32', shape: [2, 2], data: [1.5, -2, 0, 3.25] },
        { name: 'OUT_INT64', datatype: 'INT64', shape: [1, 3], data: [-(2n ** 40n), 0n, 7n] },
        { name: 'OUT_BOOL', datatype: 'BOOL', shape: [1, 2], data: [true, false] },
        { name: 'OUT_BYTES', datatype: 'BYTES', shape: [1, 3], data: ['a', '', 'héllo'] },
        { name: 'OUT_FP64', datatype: 'FP64', shape: [1, 1], data: [Math.PI] },
        { name: 'OUT_UINT8', datatype: 'UINT8', shape: [1, 2], data: [0, 255] },
        { name: 'OUT_INT8', datatype: 'INT8', shape: [1, 2], data: [-128, 127] },
        { name: 'OUT_INT16', datatype: 'INT16', shape: [1, 1], data: [-300] },
        // FP16 compared as numbers: 0x3c00 = 1.0, 0xc000 = -2.0
        { name: 'OUT_FP16', datatype: 'FP16', shape: [1, 2], data: [1, -2] },
        { name: 'OUT_UINT16', datatype: 'UINT16', shape: [1, 2], data: [0, 65535] },
        { name: 'OUT_UINT32', datatype: 'UINT32', shape: [1, 1], data: [4294967295] },
        { name: 'OUT_UINT64', datatype: 'UINT64', shape: [1, 2], data: [0n, 2n ** 50n] },
        { name: 'OUT_INT32', datatype: 'INT32', shape: [1, 2], data: [-2147483648, 2147483647] },
      ],
    },
  },
  {
    name: 'unknown model',
    request: { model: 'no_such_model', inputs: simpleInputs },
    expect: { error: 'NOT_FOUND', messageIncludes: ['no_such_model'] },
  },
  {
    name: 'unknown version',
    request: { model: 'simple', version: '7', inputs: simpleInputs },
    expect: { error: 'NOT_FOUND', messageIncludes: ['simple', "'7'"] },
  },
  {
    name: 'wrong datatype names the input, expected and got',
    request: { model: 'simple', inputs: [t('INPUT0', 'FP32', [1, 16], new Float32Array(16)), simpleInputs[1] as Tensor] },
    expect: { error: 'INVALID_ARGUMENT', messageIncludes: ['INPUT0', 'INT32', 'FP32'] },
  },
  {
    name: 'wrong shape names the input and the dims',
    request: { model: 'simple', inputs: [t('INPUT0', 'INT32', [1, 15], new Int32Array(15)), t('INPUT1', 'INT32', [1, 15], new Int32Array(15))] },
    expect: { error: 'INVALID_ARGUMENT', messageIncludes: ['INPUT0', '16', '15'] },
  },
  {
    name: 'missing input is named',
    request: { model: 'simple', inputs: [simpleInputs[0] as Tensor] },
    expect: { error: 'INVALID_ARGUMENT', messageIncludes: ['INPUT1'] },
  },
  {
    name: 'extra input is named',
    request: { model: 'simple', inputs: [...simpleInputs, t('INPUT9', 'INT32', [1, 16], new Int32Array(16))] },
    expect: { error: 'INVALID_ARGUMENT', messageIncludes: ['INPUT9'] },
  },
  {
    name: 'batch over max_batch_size',
    request: { model: 'simple', inputs: [t('INPUT0', 'INT32', [9, 16], new Int32Array(144)), t('INPUT1', 'INT32', [9, 16], new Int32Array(144))] },
    expect: { error: 'INVALID_ARGUMENT', messageIncludes: ['9', '8'] },
  },
  {
    name: 'unknown requested output is named',
    request: { model: 'simple', inputs: simpleInputs, outputs: [{ name: 'OUTPUT7' }] },
    expect: { error: 'INVALID_ARGUMENT', messageIncludes: ['OUTPUT7'] },
  },
];

/** Plain JS values of a tensor for comparisons (FP16 decoded to numbers, BYTES to strings, BOOL to booleans). */
export function plainValues(tensor: Tensor): (number | bigint | boolean | string)[] {
  const d = tensor.data;
  if (Array.isArray(d)) return d.map((b) => new TextDecoder().decode(b));
  if (tensor.datatype === 'BOOL') return [...(d as Uint8Array)].map((v) => v !== 0);
  if (tensor.datatype === 'FP16') return [...(d as Uint16Array)].map(halfToNumber);
  return [...(d as Iterable<number | bigint>)];
}

function halfToNumber(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f === 0 ? s * Infinity : NaN;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

/** Runs one case through a transport's client and asserts what the case expects. */
export async function runTableCase(client: TableClient, c: InferCase): Promise<void> {
  const expect = c.expect;
  if ('error' in expect) {
    await assert.rejects(client(c.request), (err: unknown) => {
      assert.ok(err instanceof TableError, `expected a TableError, got ${String(err)}`);
      assert.equal(err.category, expect.error, err.message);
      for (const part of expect.messageIncludes)
        assert.ok(err.message.includes(part), `message ${JSON.stringify(err.message)} should mention ${part}`);
      return true;
    });
    return;
  }
  const res = await client(c.request);
  if (expect.id !== undefined) assert.equal(res.id, expect.id);
  assert.deepEqual(
    res.outputs.map((o) => o.name),
    expect.outputs.map((o) => o.name),
  );
  for (const [i, want] of expect.outputs.entries()) {
    const got = res.outputs[i];
    assert.ok(got !== undefined);
    assert.equal(got.datatype, want.datatype, `${want.name} datatype`);
    assert.deepEqual([...got.shape], want.shape, `${want.name} shape`);
    assert.deepEqual(plainValues(got), want.data, `${want.name} data`);
  }
}
