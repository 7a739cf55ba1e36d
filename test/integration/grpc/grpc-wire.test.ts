/**
 * Wire compatibility from the field numbers alone (docs/protocol.md §2.5): requests are encoded with a generic protobuf
 * writer and hand-written tags, responses decoded with a generic reader — no generated code, neither rtserve's
 * nor proto-loader's. If a field number in rtserve's .proto or codec drifted from Triton's, this breaks.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { Reader, Writer } from 'protobufjs';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { startTestServer } from '../../helpers/server.ts';

const LEN = 2;
const VARINT = 0;
const tag = (field: number, wireType: number): number => (field << 3) | wireType;
const le = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** InferInputTensor{name=1, datatype=2, shape=3 (packed int64)[, contents=5]}. */
function inputTensor(name: string, datatype: string, shape: number[], contents?: Uint8Array): Uint8Array {
  const w = Writer.create().uint32(tag(1, LEN)).string(name).uint32(tag(2, LEN)).string(datatype);
  w.uint32(tag(3, LEN)).fork();
  for (const d of shape) w.int64(d);
  w.ldelim();
  if (contents !== undefined) w.uint32(tag(5, LEN)).bytes(contents);
  return w.finish();
}

/** map<string, InferParameter> entry {key=1, value=2{int64_param=2}}. */
function int64ParamEntry(key: string, value: number): Uint8Array {
  const param = Writer.create().uint32(tag(2, VARINT)).int64(value).finish();
  return Writer.create().uint32(tag(1, LEN)).string(key).uint32(tag(2, LEN)).bytes(param).finish();
}

interface DecodedOutput {
  name: string;
  datatype: string;
  shape: number[];
}

interface DecodedResponse {
  model_name: string;
  model_version: string;
  id: string;
  outputs: DecodedOutput[];
  raw: Uint8Array[];
}

/** ModelInferResponse{model_name=1, model_version=2, id=3, outputs=5, raw_output_contents=6}. */
function decodeResponse(bytes: Uint8Array): DecodedResponse {
  const r = Reader.create(bytes);
  const out: DecodedResponse = { model_name: '', model_version: '', id: '', outputs: [], raw: [] };
  while (r.pos < r.len) {
    const t = r.uint32();
    switch (t >>> 3) {
      case 1:
        out.model_name = r.string();
        break;
      case 2:
        out.model_version = r.string();
        break;
      case 3:
        out.id = r.string();
        break;
      case 5: {
        const sub = Reader.create(r.bytes());
        const o: DecodedOutput = { name: '', datatype: '', shape: [] };
        while (sub.pos < sub.len) {
          const st = sub.uint32();
          if (st >>> 3 === 1) o.name = sub.string();
          else if (st >>> 3 === 2) o.datatype = sub.string();
          else if (st >>> 3 === 3 && (st & 7) === LEN) {
            const end = sub.uint32() + sub.pos;
            while (sub.pos < end) o.shape.push(Number(sub.int64()));
          } else sub.skipType(st & 7);
        }
        out.outputs.push(o);
        break;
      }
      case 6:
        out.raw.push(r.bytes());
        break;
      default:
        r.skipType(t & 7);
    }
  }
  return out;
}

/** ModelStreamInferResponse{error_message=1, infer_response=2}. */
function decodeStreamResponse(bytes: Uint8Array): { error: string; response: DecodedResponse } {
  const r = Reader.create(bytes);
  let error = '';
  let response = decodeResponse(new Uint8Array(0));
  while (r.pos < r.len) {
    const t = r.uint32();
    if (t >>> 3 === 1) error = r.string();
    else if (t >>> 3 === 2) response = decodeResponse(r.bytes());
    else r.skipType(t & 7);
  }
  return { error, response };
}

const identity = (b: Buffer): Buffer => b;
const simpleIn0 = Int32Array.from({ length: 16 }, (_, i) => i * 3);
const simpleIn1 = Int32Array.from({ length: 16 }, (_, i) => i);

/** A `simple` request (field numbers only); `id` = 3, inputs = 5, outputs = 6, raw_input_contents = 7. */
function simpleRequest(id: string, requestOutput?: string): Uint8Array {
  const w = Writer.create().uint32(tag(1, LEN)).string('simple').uint32(tag(3, LEN)).string(id);
  w.uint32(tag(5, LEN)).bytes(inputTensor('INPUT0', 'INT32', [1, 16]));
  w.uint32(tag(5, LEN)).bytes(inputTensor('INPUT1', 'INT32', [1, 16]));
  if (requestOutput !== undefined) w.uint32(tag(6, LEN)).bytes(Writer.create().uint32(tag(1, LEN)).string(requestOutput).finish());
  w.uint32(tag(7, LEN)).bytes(le(simpleIn0));
  w.uint32(tag(7, LEN)).bytes(le(simpleIn1));
  return w.finish();
}

describe('gRPC wire compatibility from field numbers', () => {
  let server: RunningServer;
  let client: grpc.Client;
  before(async () => {
    server = await startTestServer();
    client = new grpc.Client(server.grpcAddress!, grpc.credentials.createInsecure());
  });
  after(async () => {
    client.close();
    await server.close();
  });

  const call = (bytes: Uint8Array): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      client.makeUnaryRequest('/inference.GRPCInferenceService/ModelInfer', identity, identity, Buffer.from(bytes), (err, res) =>
        err === null && res !== undefined ? resolve(res) : reject(err),
      );
    });

  test('ModelInfer with raw_input_contents: ids, output headers and raw_output_contents', async () => {
    const res = decodeResponse(await call(simpleRequest('wire-1')));
    assert.equal(res.model_name, 'simple');
    assert.equal(res.model_version, '1');
    assert.equal(res.id, 'wire-1');
    assert.deepEqual(res.outputs, [
      { name: 'OUTPUT0', datatype: 'INT32', shape: [1, 16] },
      { name: 'OUTPUT1', datatype: 'INT32', shape: [1, 16] },
    ]);
    assert.equal(res.raw.length, 2);
    const out0 = new Int32Array(new Uint8Array(res.raw[0]!).buffer);
    const out1 = new Int32Array(new Uint8Array(res.raw[1]!).buffer);
    assert.deepEqual(
      [...out0],
      [...simpleIn0].map((v, i) => v + simpleIn1[i]!),
    );
    assert.deepEqual(
      [...out1],
      [...simpleIn0].map((v, i) => v - simpleIn1[i]!),
    );
  });

  test('typed contents written unpacked (one tag per element), a requested output with a classification parameter', async () => {
    // mlp: input FP32 [-1, 64] → logits FP32 [-1, 10]. fp32_contents = field 6, written element by element (fixed32).
    const contents = Writer.create();
    for (let i = 0; i < 64; i++) contents.uint32(tag(6, 5)).float(i / 64);
    const requested = Writer.create().uint32(tag(1, LEN)).string('logits').uint32(tag(2, LEN)).bytes(int64ParamEntry('classification', 3)).finish();
    const req = Writer.create()
      .uint32(tag(1, LEN))
      .string('mlp')
      .uint32(tag(4, LEN))
      .bytes(int64ParamEntry('priority', 0))
      .uint32(tag(5, LEN))
      .bytes(inputTensor('input', 'FP32', [1, 64], contents.finish()))
      .uint32(tag(6, LEN))
      .bytes(requested)
      .finish();
    const res = decodeResponse(await call(req));
    assert.equal(res.model_name, 'mlp');
    assert.deepEqual(res.outputs, [{ name: 'logits', datatype: 'BYTES', shape: [1, 3] }]);
    // BYTES in raw contents: 4-byte little-endian length, then the bytes (docs/protocol.md §2.5).
    const raw = Buffer.from(res.raw[0]!);
    const entries: string[] = [];
    for (let p = 0; p < raw.length; ) {
      const n = raw.readUInt32LE(p);
      entries.push(raw.subarray(p + 4, p + 4 + n).toString());
      p += 4 + n;
    }
    assert.equal(entries.length, 3);
    for (const e of entries) assert.match(e, /^-?\d+\.\d{6}:\d$/);
  });

  test('errors come back as a gRPC status with the message', async () => {
    const req = Writer.create()
      .uint32(tag(1, LEN))
      .string('simple')
      .uint32(tag(5, LEN))
      .bytes(inputTensor('INPUT0', 'INT32', [1, 16]))
      .uint32(tag(7, LEN))
      .bytes(le(simpleIn0))
      .finish();
    await assert.rejects(call(req), (err: grpc.ServiceError) => {
      assert.equal(err.code, grpc.status.INVALID_ARGUMENT);
      assert.match(err.details, /INPUT1/);
      return true;
    });
  });

  test('ModelStreamInfer: a malformed message in the middle is answered with an error and the stream goes on', async () => {
    const stream = client.makeBidiStreamRequest('/inference.GRPCInferenceService/ModelStreamInfer', identity, identity);
    const answers: { error: string; response: DecodedResponse }[] = [];
    const ended = new Promise<void>((resolve, reject) => {
      stream.on('data', (b: Buffer) => answers.push(decodeStreamResponse(b)));
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    stream.write(Buffer.from(simpleRequest('s-1')));
    // Not a protobuf message: a length-delimited field whose length runs past the end.
    stream.write(Buffer.from([tag(1, LEN), 6, 0x73, 0x69, tag(3, LEN), 0x7f]));
    stream.write(Buffer.from(simpleRequest('s-3', 'OUTPUT1')));
    stream.end();
    await ended;
    assert.equal(answers.length, 3);
    const ok = answers.filter((a) => a.error === '');
    assert.deepEqual(ok.map((a) => a.response.id).sort(), ['s-1', 's-3']);
    assert.deepEqual(
      ok.find((a) => a.response.id === 's-3')?.response.outputs.map((o) => o.name),
      ['OUTPUT1'],
    );
    const bad = answers.find((a) => a.error !== '');
    assert.match(bad?.error ?? '', /ModelInferRequest message is malformed/);
  });
});
