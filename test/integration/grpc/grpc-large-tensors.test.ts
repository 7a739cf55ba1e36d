/**
 * Large tensors over gRPC, through a real server and grpc-js clients: a ~10 MB FP32 input and an FP64 and an INT16
 * input beside it come back bit for bit from an Identity model, in raw_input_contents at every alignment of the
 * message (the request id's length moves every raw entry by one byte), on ModelInfer and on ModelStreamInfer, and a
 * 602 KB FP32 input in typed fp32_contents. The server decodes unaligned raw entries by moving them inside the
 * message it received (codec/grpc/infer-wire.ts); these tests pin that no byte is lost or mixed up on the way.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import { buildModel, ElemType, makeModelDir } from '../../fixtures/onnx-builders.ts';
import { startTestServer } from '../../helpers/server.ts';
import {
  inferenceClient,
  inferRequestObject,
  streamAll,
  tensorsOf,
  unary,
  type InferenceClient,
  type ModelInferResponse,
} from './grpc-test-client.ts';

const MODEL = 'identity3';
const INPUTS = [
  ['a', 'FP32', ElemType.FLOAT],
  ['b', 'FP64', ElemType.DOUBLE],
  ['c', 'INT16', ElemType.INT16],
] as const;

async function identityRepository(): Promise<string> {
  const dir = await makeModelDir('rtserve-grpc-large-');
  await mkdir(join(dir, MODEL, '1'), { recursive: true });
  const model = buildModel({
    inputs: INPUTS.map(([n, , elemType]) => ({ name: n, elemType, shape: [`n_${n}`] })),
    outputs: INPUTS.map(([n, , elemType]) => ({ name: `y_${n}`, elemType, shape: [`n_${n}`] })),
    nodes: INPUTS.map(([n]) => ({ opType: 'Identity', inputs: [n], outputs: [`y_${n}`] })),
  });
  await writeFile(join(dir, MODEL, '1', 'model.onnx'), model);
  // No batching: each input's one dimension is its own length.
  const io = (prefix: string) => INPUTS.map(([n, dt]) => ({ name: `${prefix}${n}`, data_type: `TYPE_${dt}`, dims: [-1] }));
  await writeFile(join(dir, MODEL, 'config.json'), JSON.stringify({ name: MODEL, max_batch_size: 0, input: io(''), output: io('y_') }));
  return dir;
}

/** The three inputs: FP32 of `fp32Count` elements (10 MB by default), 3 FP64 and 1001 INT16, all distinct values. */
function inputs(fp32Count: number, seed: number): Tensor[] {
  return [
    { name: 'a', datatype: 'FP32', shape: [fp32Count], data: Float32Array.from({ length: fp32Count }, (_, i) => Math.sin(i + seed) * 1e4) },
    { name: 'b', datatype: 'FP64', shape: [3], data: Float64Array.from([Math.PI * seed, -1e300, 2 ** -1060]) },
    { name: 'c', datatype: 'INT16', shape: [1001], data: Int16Array.from({ length: 1001 }, (_, i) => ((i * 331 + seed) % 65536) - 32768) },
  ];
}

function assertEcho(sent: readonly Tensor[], res: ModelInferResponse, what: string): void {
  const got = new Map(tensorsOf(res).map((t) => [t.name, t]));
  for (const t of sent) {
    const y = got.get(`y_${t.name}`);
    assert.ok(y !== undefined, `${what}: output y_${t.name}`);
    assert.deepEqual(y.shape, t.shape, `${what}: y_${t.name} shape`);
    assert.deepEqual(y.data, t.data, `${what}: y_${t.name} values`);
  }
}

const TEN_MB = 2_621_440; // FP32 elements
const IMAGE = 3 * 224 * 224; // 602 KB of FP32

describe('large tensors over gRPC come back exactly', () => {
  let server: RunningServer;
  let client: InferenceClient;
  before(async () => {
    server = await startTestServer({ modelRepository: [await identityRepository()] });
    client = inferenceClient(server.grpcAddress as string, { 'grpc.max_receive_message_length': -1, 'grpc.max_send_message_length': -1 });
  });
  after(async () => {
    client.close();
    await server.close();
  });

  test('ModelInfer, raw_input_contents: a 10 MB FP32 input beside FP64 and INT16 ones, at four alignments', async () => {
    for (let shift = 0; shift < 4; shift++) {
      const sent = inputs(TEN_MB, shift);
      const req = inferRequestObject({ model: MODEL, id: 'x'.repeat(shift), inputs: sent }, false);
      assertEcho(sent, await unary<ModelInferResponse>(client, 'ModelInfer', req), `id length ${shift}`);
    }
  });

  test('ModelInfer, typed contents: a 602 KB FP32 input in fp32_contents', async () => {
    const sent = inputs(IMAGE, 7);
    const req = inferRequestObject({ model: MODEL, id: 'typed', inputs: sent }, true);
    assertEcho(sent, await unary<ModelInferResponse>(client, 'ModelInfer', req), 'typed');
  });

  test('ModelStreamInfer: 602 KB and 10 MB inputs at four alignments on one stream, each answered exactly', async () => {
    const sent = Array.from({ length: 8 }, (_, k) => inputs(k % 2 === 0 ? IMAGE : TEN_MB, 100 + k));
    const requests = sent.map((s, k) => inferRequestObject({ model: MODEL, id: `r${'x'.repeat(k % 4)}${k}`, inputs: s }, false));
    const answers = await streamAll(client, requests);
    assert.equal(answers.length, sent.length);
    for (const a of answers) {
      assert.equal(a.error_message, '', a.error_message);
      const res = a.infer_response;
      assert.ok(res !== null, 'a response');
      const k = Number(/(\d+)$/.exec(res.id)?.[1]);
      assertEcho(sent[k] as Tensor[], res, `stream request ${k}`);
    }
  });
});
