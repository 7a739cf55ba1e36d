/**
 * ResNet-sized requests (16 × 3×224×224 FP32 = 9.6 MB) through a real server, over REST binary and gRPC raw
 * contents (issue #7): four concurrent requests with different bytes are joined by the dynamic batcher into one
 * batch of 64 (preferred_batch_size 64, a long queue delay), the pieces are moved to the engine worker and joined
 * there (engine/worker/wire-tensor.ts), and every request must get its own bytes back, exactly, from an Identity
 * model. Also checks the HTTP/2 window the gRPC server grants (transport/grpc/flow-control.ts).
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type ClientHttp2Session } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client, credentials, type ServiceError } from '@grpc/grpc-js';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import type { InferResponse } from '../../../src/api/types.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import { decodeInferResponse, encodeInferRequest } from '../../../src/codec/kserve-client-codec.ts';
import { decodeModelInferResponse, encodeModelInferRequest } from '../../../src/codec/grpc/infer-client-codec.ts';
import { buildModel, ElemType } from '../../fixtures/onnx-builders.ts';
import { request, startTestServer } from '../../helpers/server.ts';

const IMAGE = [3, 224, 224];
const ROWS = 16;
const REQUESTS = 4;
const WINDOW = 12 * 1024 * 1024;

function identityImageModel(): Uint8Array {
  return buildModel({
    inputs: [{ name: 'x', elemType: ElemType.FLOAT, shape: ['batch', ...IMAGE] }],
    outputs: [{ name: 'y', elemType: ElemType.FLOAT, shape: ['batch', ...IMAGE] }],
    nodes: [{ opType: 'Identity', inputs: ['x'], outputs: ['y'] }],
  });
}

/** Request k's input: every element differs from every other request's (k·2^24 + i fits FP32 exactly). */
function inputFor(k: number): Tensor {
  const data = new Float32Array(ROWS * IMAGE.reduce((a, b) => a * b, 1));
  for (let i = 0; i < data.length; i++) data[i] = (k * 4_000_000 + i) % 16_777_216;
  return { name: 'x', datatype: 'FP32', shape: [ROWS, ...IMAGE], data };
}

function assertEcho(response: InferResponse, input: Tensor, what: string): void {
  const y = response.outputs.find((o) => o.name === 'y');
  assert.ok(y !== undefined, `${what}: output y`);
  assert.deepEqual(y.shape, input.shape, `${what}: shape`);
  const got = y.data as Float32Array;
  const want = input.data as Float32Array;
  assert.equal(got.length, want.length, `${what}: element count`);
  // Buffer.compare over the bytes: one call instead of 2.4 M assertions.
  assert.equal(
    Buffer.compare(Buffer.from(got.buffer, got.byteOffset, got.byteLength), Buffer.from(want.buffer, want.byteOffset, want.byteLength)),
    0,
    `${what}: bytes differ`,
  );
}

interface Stats {
  model_stats: { inference_count: number; execution_count: number }[];
}

describe('large tensors (issue #7)', () => {
  let server: RunningServer;
  let dir: string;
  const inputs = Array.from({ length: REQUESTS }, (_, k) => inputFor(k));

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rtserve-large-'));
    await mkdir(join(dir, 'echo', '1'), { recursive: true });
    await writeFile(join(dir, 'echo', '1', 'model.onnx'), identityImageModel());
    await writeFile(
      join(dir, 'echo', 'config.json'),
      JSON.stringify({
        name: 'echo',
        max_batch_size: 64,
        // The batch goes when 64 rows (all four requests) are queued; the delay is only a backstop.
        dynamic_batching: { preferred_batch_size: [64], max_queue_delay_microseconds: 30_000_000 },
        instance_group: [{ count: 1, kind: 'KIND_CPU' }],
      }),
    );
    // echo16: a 16-row request fills a batch by itself and runs alone, with its tensor a view into its own body.
    await mkdir(join(dir, 'echo16', '1'), { recursive: true });
    await writeFile(join(dir, 'echo16', '1', 'model.onnx'), identityImageModel());
    await writeFile(join(dir, 'echo16', 'config.json'), JSON.stringify({ name: 'echo16', max_batch_size: ROWS, dynamic_batching: {} }));
    server = await startTestServer({ modelRepository: [dir], grpcFlowControlWindowBytes: WINDOW });
  });
  after(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const stats = async (): Promise<{ inference_count: number; execution_count: number }> => {
    const s = (await request(`${server.httpUrl}/v2/models/echo/stats`)).json() as Stats;
    const m = s.model_stats[0];
    assert.ok(m !== undefined);
    return m;
  };

  it('REST binary: four 9.6 MB requests batched into one run, each answered with its own bytes', async () => {
    const s0 = await stats();
    const responses = await Promise.all(
      inputs.map(async (input) => {
        const enc = encodeInferRequest([input], { binary: true, parameters: { binary_data_output: true } });
        const res = await request(`${server.httpUrl}/v2/models/echo/infer`, {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(enc.headerLength) },
          body: enc.body as Uint8Array<ArrayBuffer>,
        });
        assert.equal(res.status, 200, new TextDecoder().decode(res.body.subarray(0, 300)));
        return decodeInferResponse(res.body, Number(res.headers.get('inference-header-content-length')));
      }),
    );
    responses.forEach((r, k) => assertEcho(r, inputs[k]!, `REST request ${k}`));
    const s1 = await stats();
    assert.equal(s1.inference_count - s0.inference_count, REQUESTS * ROWS);
    assert.equal(s1.execution_count - s0.execution_count, 1, 'the four requests ran as one batch');
  });

  it('REST binary: a request alone moves its body to the engine with the tensor at its offset, and gets its bytes back', async () => {
    const input = inputs[1]!;
    const enc = encodeInferRequest([input], { binary: true, parameters: { binary_data_output: true } });
    // A padded JSON header keeps the tensor aligned, so it is a view at this offset (no copy) into the body.
    assert.equal(enc.headerLength! % 4, 0);
    const res = await request(`${server.httpUrl}/v2/models/echo16/infer`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(enc.headerLength) },
      body: enc.body as Uint8Array<ArrayBuffer>,
    });
    assert.equal(res.status, 200, new TextDecoder().decode(res.body.subarray(0, 300)));
    assertEcho(decodeInferResponse(res.body, Number(res.headers.get('inference-header-content-length'))), input, 'REST echo16');
  });

  it('gRPC raw contents: four 9.6 MB requests batched into one run, each answered with its own bytes', async () => {
    const client = new Client(server.grpcAddress!, credentials.createInsecure(), {
      'grpc.max_receive_message_length': -1,
      'grpc.max_send_message_length': -1,
    });
    try {
      const s0 = await stats();
      const responses = await Promise.all(
        inputs.map(
          (input) =>
            new Promise<InferResponse>((resolve, reject) => {
              client.makeUnaryRequest(
                '/inference.GRPCInferenceService/ModelInfer',
                (b: Buffer) => b,
                (b: Buffer) => decodeModelInferResponse(b),
                encodeModelInferRequest({ model: 'echo', inputs: [input] }),
                (err: ServiceError | null, res?: InferResponse) => (err === null && res !== undefined ? resolve(res) : reject(err)),
              );
            }),
        ),
      );
      responses.forEach((r, k) => assertEcho(r, inputs[k]!, `gRPC request ${k}`));
      const s1 = await stats();
      assert.equal(s1.inference_count - s0.inference_count, REQUESTS * ROWS);
      assert.equal(s1.execution_count - s0.execution_count, 1, 'the four requests ran as one batch');
    } finally {
      client.close();
    }
  });

  it('the gRPC server grants grpcFlowControlWindowBytes to each call and to the connection', async () => {
    const session: ClientHttp2Session = connect(`http://${server.grpcAddress!}`);
    try {
      // The server's first SETTINGS frame is sent at connection time with HTTP/2's defaults; the window follows
      // in a second SETTINGS frame and a connection WINDOW_UPDATE. A ping's answer comes after both.
      await new Promise<void>((resolve, reject) => {
        session.once('error', reject);
        session.once('connect', () => session.ping((err) => (err === null ? resolve() : reject(err))));
      });
      assert.equal(session.remoteSettings.initialWindowSize, WINDOW, 'SETTINGS_INITIAL_WINDOW_SIZE for every stream');
      assert.equal(session.state.remoteWindowSize, WINDOW, 'the connection window');
    } finally {
      session.close();
    }
  });
});
