/**
 * rtserve's ModelInferRequest / ModelInferResponse codec against protobufjs reflection over the same .proto files
 * (an independent encoder and decoder): what protobufjs writes, rtserve reads; what rtserve writes, protobufjs reads.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { basename, join } from 'node:path';
import { Root, Writer, type Type } from 'protobufjs';
import type { Tensor } from '../../../../src/tensor/tensor.ts';
import { protoDir } from '../../../../src/transport/grpc/proto.ts';
import {
  decodeModelInferRequest,
  encodeModelInferResponse,
  encodeModelStreamInferError,
  encodeModelStreamInferResponse,
  type DecodedInferMessage,
  type GrpcInferRequest,
} from '../../../../src/codec/grpc/infer-codec.ts';
import { decodeModelInferResponse, decodeModelStreamInferResponse, encodeModelInferRequest } from '../../../../src/codec/grpc/infer-client-codec.ts';
import { shmInferParameters as shm } from '../../../helpers/shm.ts';
import { isExclusive, markExclusive } from '../../../../src/tensor/exclusive-buffers.ts';

const root = new Root();
root.resolvePath = (_origin, target) => join(protoDir(), basename(target));
root.loadSync('grpc_service.proto', { keepCase: true });
const RequestType: Type = root.lookupType('inference.ModelInferRequest');
const ResponseType: Type = root.lookupType('inference.ModelInferResponse');
const StreamResponseType: Type = root.lookupType('inference.ModelStreamInferResponse');

const le = (a: ArrayBufferView): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** `verify: false` for messages that give 64-bit values as decimal strings (fromObject takes them, verify does not). */
function encodeWithPbjs(msg: Record<string, unknown>, verify = true): Uint8Array {
  const err = verify ? RequestType.verify(msg) : null;
  assert.equal(err, null, `test message is valid: ${err ?? ''}`);
  return RequestType.encode(RequestType.fromObject(msg)).finish();
}

function ok(m: DecodedInferMessage): GrpcInferRequest {
  if (!m.ok) assert.fail(`expected a decoded request, got ${m.error.code}: ${m.error.message}`);
  return m.request;
}

function failed(m: DecodedInferMessage): { category: string; message: string; id: string; model: string } {
  if (m.ok) assert.fail('expected a decode error');
  return { category: m.error.category, message: m.error.message, id: m.id, model: m.model };
}

describe('decodeModelInferRequest reads what protobufjs writes', () => {
  test('ids, every parameter kind, requested outputs and raw inputs', () => {
    const bytes = encodeWithPbjs({
      model_name: 'simple',
      model_version: '1',
      id: 'req-7',
      parameters: {
        priority: { int64_param: 2 },
        flag: { bool_param: true },
        tag: { string_param: 'héllo' },
        ratio: { double_param: 0.25 },
        big: { uint64_param: 9007199254740991 },
        neg: { int64_param: -5 },
      },
      inputs: [
        { name: 'A', datatype: 'FP32', shape: [1, 3] },
        { name: 'B', datatype: 'UINT8', shape: [4] },
        { name: 'C', datatype: 'BYTES', shape: [2] },
      ],
      outputs: [{ name: 'OUT', parameters: { classification: { int64_param: 3 } } }],
      raw_input_contents: [
        le(Float32Array.of(1.5, -2, 3)),
        Uint8Array.of(0, 1, 254, 255),
        Buffer.concat([le(Uint32Array.of(2)), Buffer.from('ab'), le(Uint32Array.of(0))]),
      ],
    });
    const req = ok(decodeModelInferRequest(bytes));
    assert.equal(req.model, 'simple');
    assert.equal(req.version, '1');
    assert.equal(req.id, 'req-7');
    assert.deepEqual(req.parameters, { priority: 2, flag: true, tag: 'héllo', ratio: 0.25, big: 9007199254740991, neg: -5 });
    assert.deepEqual(req.outputs, [{ name: 'OUT', parameters: { classification: 3 } }]);
    const [a, b, c] = req.inputs as [Tensor, Tensor, Tensor];
    assert.deepEqual([a.name, a.datatype, a.shape], ['A', 'FP32', [1, 3]]);
    assert.ok(a.data instanceof Float32Array);
    assert.deepEqual([...a.data], [1.5, -2, 3]);
    assert.ok(b.data instanceof Uint8Array);
    assert.deepEqual([...b.data], [0, 1, 254, 255]);
    // A one-byte type never needs alignment: the tensor is a view over the received message, not a copy.
    assert.equal(b.data.buffer, bytes.buffer);
    assert.deepEqual(
      (c.data as Uint8Array[]).map((e) => Buffer.from(e).toString()),
      ['ab', ''],
    );
  });

  test('typed contents for every datatype that has a contents field', () => {
    const bytes = encodeWithPbjs(
      {
        model_name: 'm',
        inputs: [
          { name: 'b', datatype: 'BOOL', shape: [3], contents: { bool_contents: [true, false, true] } },
          { name: 'i8', datatype: 'INT8', shape: [2], contents: { int_contents: [-128, 127] } },
          { name: 'i16', datatype: 'INT16', shape: [2], contents: { int_contents: [-32768, 32767] } },
          { name: 'i32', datatype: 'INT32', shape: [2], contents: { int_contents: [-2147483648, 2147483647] } },
          { name: 'i64', datatype: 'INT64', shape: [3], contents: { int64_contents: ['-9223372036854775808', '-1', '9223372036854775807'] } },
          { name: 'u8', datatype: 'UINT8', shape: [2], contents: { uint_contents: [0, 255] } },
          { name: 'u16', datatype: 'UINT16', shape: [1], contents: { uint_contents: [65535] } },
          { name: 'u32', datatype: 'UINT32', shape: [1], contents: { uint_contents: [4294967295] } },
          { name: 'u64', datatype: 'UINT64', shape: [2], contents: { uint64_contents: ['18446744073709551615', '0'] } },
          { name: 'f32', datatype: 'FP32', shape: [2, 1], contents: { fp32_contents: [0.5, -1e30] } },
          { name: 'f64', datatype: 'FP64', shape: [1], contents: { fp64_contents: [Math.PI] } },
          { name: 's', datatype: 'BYTES', shape: [2], contents: { bytes_contents: [utf8('x'), utf8('名前')] } },
        ],
      },
      false,
    );
    const req = ok(decodeModelInferRequest(bytes));
    const by = new Map(req.inputs.map((t) => [t.name, t.data]));
    assert.deepEqual(by.get('b'), Uint8Array.of(1, 0, 1));
    assert.deepEqual(by.get('i8'), Int8Array.of(-128, 127));
    assert.deepEqual(by.get('i16'), Int16Array.of(-32768, 32767));
    assert.deepEqual(by.get('i32'), Int32Array.of(-2147483648, 2147483647));
    assert.deepEqual(by.get('i64'), BigInt64Array.of(-(2n ** 63n), -1n, 2n ** 63n - 1n));
    assert.deepEqual(by.get('u8'), Uint8Array.of(0, 255));
    assert.deepEqual(by.get('u16'), Uint16Array.of(65535));
    assert.deepEqual(by.get('u32'), Uint32Array.of(4294967295));
    assert.deepEqual(by.get('u64'), BigUint64Array.of(2n ** 64n - 1n, 0n));
    assert.deepEqual(by.get('f32'), Float32Array.of(0.5, -1e30));
    assert.deepEqual(by.get('f64'), Float64Array.of(Math.PI));
    assert.deepEqual(
      (by.get('s') as Uint8Array[]).map((e) => new TextDecoder().decode(e)),
      ['x', '名前'],
    );
  });

  test('unpacked repeated fields (one tag per element) are read like packed ones', () => {
    // Hand-written tags: InferInputTensor{name=1, datatype=2, shape=3 as two varints, contents=5{int_contents=2 ×2}}.
    const contents = Writer.create()
      .uint32((2 << 3) | 0)
      .int32(-7)
      .uint32((2 << 3) | 0)
      .int32(9)
      .finish();
    const input = Writer.create()
      .uint32((1 << 3) | 2)
      .string('x')
      .uint32((2 << 3) | 2)
      .string('INT32')
      .uint32((3 << 3) | 0)
      .int64(1)
      .uint32((3 << 3) | 0)
      .int64(2)
      .uint32((5 << 3) | 2)
      .bytes(contents)
      .finish();
    const bytes = Writer.create()
      .uint32((1 << 3) | 2)
      .string('m')
      .uint32((5 << 3) | 2)
      .bytes(input)
      .finish();
    const req = ok(decodeModelInferRequest(bytes));
    assert.deepEqual(req.inputs[0]?.shape, [1, 2]);
    assert.deepEqual(req.inputs[0]?.data, Int32Array.of(-7, 9));
  });

  test('unknown fields are skipped (forward compatibility)', () => {
    const bytes = Writer.create()
      .uint32((1 << 3) | 2)
      .string('m')
      .uint32((99 << 3) | 0)
      .uint64(123)
      .uint32((98 << 3) | 2)
      .bytes(Uint8Array.of(1, 2, 3))
      .uint32((97 << 3) | 5)
      .fixed32(1)
      .uint32((96 << 3) | 1)
      .fixed64(1)
      .finish();
    assert.equal(ok(decodeModelInferRequest(bytes)).model, 'm');
  });
});

describe('decodeModelInferRequest refuses bad requests with INVALID_ARGUMENT, never throwing', () => {
  const input = { name: 'X', datatype: 'INT32', shape: [2] };
  const cases: { name: string; msg: Record<string, unknown>; category?: string; includes: string[] }[] = [
    {
      name: 'raw and typed contents mixed in one request (GS: contents must not be set for any input)',
      msg: {
        model_name: 'm',
        inputs: [
          { ...input, contents: { int_contents: [1, 2] } },
          { name: 'Y', datatype: 'INT32', shape: [1] },
        ],
        raw_input_contents: [le(Int32Array.of(1, 2)), le(Int32Array.of(3))],
      },
      includes: ["input 'X'", 'raw_input_contents', 'one way'],
    },
    {
      name: 'FP16 in typed contents (there is no field for it)',
      msg: { model_name: 'm', inputs: [{ name: 'H', datatype: 'FP16', shape: [1], contents: { fp32_contents: [1] } }] },
      includes: ["input 'H'", 'FP16', 'raw_input_contents'],
    },
    {
      name: 'BF16 without raw contents',
      msg: { model_name: 'm', inputs: [{ name: 'H', datatype: 'BF16', shape: [2] }] },
      includes: ["input 'H'", 'raw_input_contents'],
    },
    {
      name: 'contents field that does not match the datatype',
      msg: { model_name: 'm', inputs: [{ ...input, contents: { fp32_contents: [1, 2] } }] },
      includes: ["input 'X'", 'int_contents', 'fp32_contents'],
    },
    {
      name: 'element count differs from the shape',
      msg: { model_name: 'm', inputs: [{ ...input, contents: { int_contents: [1, 2, 3] } }] },
      includes: ["input 'X'", '[2]', '2 elements', 'has 3'],
    },
    {
      name: 'INT8 value out of range in int_contents',
      msg: { model_name: 'm', inputs: [{ name: 'X', datatype: 'INT8', shape: [1], contents: { int_contents: [200] } }] },
      includes: ["input 'X'", '200', 'INT8'],
    },
    {
      name: 'raw_input_contents count differs from inputs',
      msg: { model_name: 'm', inputs: [input, { ...input, name: 'Y' }], raw_input_contents: [le(Int32Array.of(1, 2))] },
      includes: ['raw_input_contents has 1', '2 inputs'],
    },
    {
      name: 'raw bytes of the wrong length',
      msg: { model_name: 'm', inputs: [input], raw_input_contents: [le(Int32Array.of(1, 2, 3))] },
      includes: ["input 'X'", '8 bytes', 'raw_input_contents[0] has 12'],
    },
    {
      name: 'unknown datatype',
      msg: { model_name: 'm', inputs: [{ name: 'X', datatype: 'FLOAT', shape: [1] }] },
      includes: ["input 'X'", "'FLOAT'", 'FP32'],
    },
    {
      name: 'negative dimension',
      msg: { model_name: 'm', inputs: [{ name: 'X', datatype: 'INT32', shape: [-1], contents: { int_contents: [1] } }] },
      includes: ["input 'X'", '-1'],
    },
    {
      name: 'input without data',
      msg: { model_name: 'm', inputs: [input] },
      includes: ["input 'X'", 'no data'],
    },
    {
      name: 'empty model_name',
      msg: { inputs: [] },
      includes: ['model_name'],
    },
    {
      name: 'shared memory region without its byte size',
      msg: { model_name: 'm', inputs: [{ ...input, parameters: { shared_memory_region: { string_param: 'r' } } }] },
      includes: ["input 'X'", 'shared_memory_region and parameters.shared_memory_byte_size go together'],
    },
    {
      name: 'shared memory input with contents as well',
      msg: { model_name: 'm', inputs: [{ ...input, parameters: shm('r', 8), contents: { int_contents: [1, 2] } }] },
      includes: ["input 'X'", 'both contents and parameters.shared_memory_region'],
    },
    {
      name: 'shared memory byte size that does not fit the shape',
      msg: { model_name: 'm', inputs: [{ ...input, parameters: shm('r', 12) }] },
      includes: ["input 'X'", 'needs 8 bytes', 'shared_memory_byte_size is 12'],
    },
    {
      name: 'a raw entry for an input in shared memory',
      msg: {
        model_name: 'm',
        inputs: [
          { ...input, parameters: shm('r', 8) },
          { ...input, name: 'Y' },
        ],
        raw_input_contents: [new Uint8Array(8), new Uint8Array(8)],
      },
      includes: ['raw_input_contents has 2 entries', '1 inputs not in shared memory'],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const e = failed(decodeModelInferRequest(encodeWithPbjs(c.msg)));
      assert.equal(e.category, c.category ?? 'INVALID_ARGUMENT', e.message);
      for (const part of c.includes) assert.ok(e.message.includes(part), `${JSON.stringify(e.message)} should mention ${part}`);
    });
  }

  test('a truncated message is a malformed-message error that still carries the ids read before the cut', () => {
    const bytes = encodeWithPbjs({ model_name: 'simple', id: 'r-1', inputs: [input], raw_input_contents: [le(Int32Array.of(1, 2))] });
    const e = failed(decodeModelInferRequest(bytes.subarray(0, bytes.length - 3)));
    assert.equal(e.category, 'INVALID_ARGUMENT');
    assert.match(e.message, /ModelInferRequest message is malformed/);
    assert.equal(e.model, 'simple');
    assert.equal(e.id, 'r-1');
  });
});

describe('responses rtserve writes, protobufjs reads', () => {
  const response = {
    model_name: 'identity',
    model_version: '3',
    id: 'abc',
    parameters: { count: 3, name: 'x', flag: false, ratio: 0.5, neg: -2 },
    outputs: [
      { name: 'F', datatype: 'FP32' as const, shape: [2, 2], data: Float32Array.of(1, 2, 3, 4) },
      { name: 'S', datatype: 'BYTES' as const, shape: [2], data: [utf8('hi'), utf8('')] },
      { name: 'L', datatype: 'INT64' as const, shape: [1], data: BigInt64Array.of(-3n) },
      { name: 'E', datatype: 'INT32' as const, shape: [0, 4], data: new Int32Array(0) },
    ],
  };

  test('ModelInferResponse: ids, parameters, output headers and raw_output_contents', () => {
    const decoded = ResponseType.toObject(ResponseType.decode(encodeModelInferResponse(response)), {
      longs: String,
      bytes: Buffer,
      defaults: false,
    }) as {
      model_name: string;
      model_version: string;
      id: string;
      parameters: Record<string, Record<string, unknown>>;
      outputs: { name: string; datatype: string; shape: string[] }[];
      raw_output_contents: Buffer[];
    };
    assert.equal(decoded.model_name, 'identity');
    assert.equal(decoded.model_version, '3');
    assert.equal(decoded.id, 'abc');
    assert.deepEqual(decoded.parameters, {
      count: { int64_param: '3' },
      name: { string_param: 'x' },
      flag: { bool_param: false },
      ratio: { double_param: 0.5 },
      neg: { int64_param: '-2' },
    });
    assert.deepEqual(
      decoded.outputs.map((o) => [o.name, o.datatype, (o.shape ?? []).map(Number)]),
      [
        ['F', 'FP32', [2, 2]],
        ['S', 'BYTES', [2]],
        ['L', 'INT64', [1]],
        ['E', 'INT32', [0, 4]],
      ],
    );
    assert.equal(decoded.raw_output_contents.length, 4);
    assert.deepEqual(decoded.raw_output_contents[0], le(Float32Array.of(1, 2, 3, 4)));
    assert.deepEqual(decoded.raw_output_contents[1], Buffer.concat([le(Uint32Array.of(2)), Buffer.from('hi'), le(Uint32Array.of(0))]));
    assert.deepEqual(decoded.raw_output_contents[2], le(BigInt64Array.of(-3n)));
    assert.equal(decoded.raw_output_contents[3]?.length, 0);
  });

  test('ModelStreamInferResponse: a result, and an error that keeps the ids', () => {
    const ok = StreamResponseType.decode(encodeModelStreamInferResponse(response)) as unknown as {
      error_message: string;
      infer_response: { id: string; outputs: unknown[] };
    };
    assert.equal(ok.error_message, '');
    assert.equal(ok.infer_response.id, 'abc');
    assert.equal(ok.infer_response.outputs.length, 4);
    const bad = StreamResponseType.decode(
      encodeModelStreamInferError("input 'X': expected INT32, got FP32", { model: 'simple', version: '', id: 'r-9' }),
    ) as unknown as {
      error_message: string;
      infer_response: { model_name: string; id: string; outputs: unknown[] };
    };
    assert.equal(bad.error_message, "input 'X': expected INT32, got FP32");
    assert.equal(bad.infer_response.model_name, 'simple');
    assert.equal(bad.infer_response.id, 'r-9');
    assert.equal(bad.infer_response.outputs.length, 0);
  });
});

describe('the client codec and the server codec agree', () => {
  test('encodeModelInferRequest → decodeModelInferRequest, and protobufjs reads it too', () => {
    const inputs: Tensor[] = [
      { name: 'A', datatype: 'FP16', shape: [2], data: Uint16Array.of(0x3c00, 0xc000) },
      { name: 'B', datatype: 'BYTES', shape: [1, 2], data: [utf8('q'), utf8('rs')] },
      { name: 'C', datatype: 'UINT64', shape: [1], data: BigUint64Array.of(2n ** 64n - 1n) },
    ];
    const bytes = encodeModelInferRequest({
      model: 'm',
      version: '2',
      id: 'i',
      parameters: { priority: 1 },
      inputs,
      outputs: [{ name: 'O', parameters: { classification: 2 } }],
    });
    const req = ok(decodeModelInferRequest(bytes));
    assert.deepEqual(req.parameters, { priority: 1 });
    assert.deepEqual(req.outputs, [{ name: 'O', parameters: { classification: 2 } }]);
    assert.deepEqual(req.inputs[0]?.data, Uint16Array.of(0x3c00, 0xc000));
    assert.deepEqual(
      (req.inputs[1]?.data as Uint8Array[]).map((e) => Buffer.from(e).toString()),
      ['q', 'rs'],
    );
    assert.deepEqual(req.inputs[2]?.data, BigUint64Array.of(2n ** 64n - 1n));
    const viaPbjs = RequestType.toObject(RequestType.decode(bytes), { longs: String }) as {
      model_name: string;
      raw_input_contents: Uint8Array[];
      inputs: { shape: string[] }[];
    };
    assert.equal(viaPbjs.model_name, 'm');
    assert.equal(viaPbjs.raw_input_contents.length, 3);
    assert.deepEqual(viaPbjs.inputs[1]?.shape, ['1', '2']);
  });

  test('inputs in shared memory: no raw entry, raw_input_contents lines up with the other inputs (tritonclient layout)', () => {
    const bytes = encodeWithPbjs({
      model_name: 'simple',
      inputs: [
        { name: 'A', datatype: 'INT32', shape: [1, 2], parameters: shm('in', 8, 16) },
        { name: 'B', datatype: 'INT32', shape: [1, 2] },
      ],
      outputs: [{ name: 'O', parameters: shm('out', 8) }],
      raw_input_contents: [le(Int32Array.of(5, 6))],
    });
    const req = ok(decodeModelInferRequest(bytes));
    assert.deepEqual(req.sharedMemoryInputs, [
      { name: 'A', datatype: 'INT32', shape: [1, 2], sharedMemory: { region: 'in', offset: 16, byteSize: 8 }, index: 0 },
    ]);
    assert.deepEqual(
      req.inputs.map((t) => [t.name, [...(t.data as Int32Array)]]),
      [['B', [5, 6]]],
    );
    assert.deepEqual(req.outputs, [{ name: 'O', parameters: { shared_memory_region: 'out', shared_memory_byte_size: 8 } }]);
    // The client codec writes the same layout.
    const mine = ok(
      decodeModelInferRequest(
        encodeModelInferRequest({
          model: 'simple',
          inputs: [{ name: 'B', datatype: 'INT32', shape: [1, 2], data: Int32Array.of(5, 6) }],
          sharedMemoryInputs: [{ name: 'A', datatype: 'INT32', shape: [1, 2], sharedMemory: { region: 'in', offset: 16, byteSize: 8 } }],
        }),
      ),
    );
    assert.deepEqual(mine.sharedMemoryInputs?.[0]?.sharedMemory, { region: 'in', offset: 16, byteSize: 8 });
    assert.equal(mine.inputs.length, 1);
  });

  test('an output written to shared memory: its header carries the region, its raw entry is empty', () => {
    const resp = {
      model_name: 'm',
      model_version: '1',
      outputs: [
        { name: 'S', datatype: 'INT32' as const, shape: [2], data: Int32Array.of(1, 2) },
        { name: 'T', datatype: 'INT32' as const, shape: [2], data: Int32Array.of(3, 4) },
      ],
      sharedMemoryOutputs: new Map([['S', { region: 'out', offset: 4, byteSize: 8 }]]),
    };
    const bytes = encodeModelInferResponse(resp);
    const viaPbjs = ResponseType.toObject(ResponseType.decode(bytes), { longs: Number, bytes: Buffer, defaults: false }) as {
      outputs: { name: string; parameters?: Record<string, Record<string, unknown>> }[];
      raw_output_contents: Buffer[];
    };
    assert.deepEqual(viaPbjs.outputs[0]?.parameters, {
      shared_memory_region: { string_param: 'out' },
      shared_memory_byte_size: { int64_param: 8 },
      shared_memory_offset: { int64_param: 4 },
    });
    assert.equal(viaPbjs.outputs[1]?.parameters, undefined);
    assert.equal(viaPbjs.raw_output_contents.length, 2, 'one raw entry per output, as Triton sends');
    assert.equal(viaPbjs.raw_output_contents[0]?.length ?? 0, 0);
    assert.deepEqual(viaPbjs.raw_output_contents[1], le(Int32Array.of(3, 4)));
    const back = decodeModelInferResponse(bytes);
    assert.deepEqual(back.sharedMemoryOutputs, new Map([['S', { region: 'out', offset: 4, byteSize: 8 }]]));
    assert.equal(back.outputs[0]?.data.length, 0);
    assert.deepEqual(back.outputs[1]?.data, Int32Array.of(3, 4));
  });

  test('decodeModelInferResponse reads encodeModelInferResponse, and typed output contents from protobufjs', () => {
    const back = decodeModelInferResponse(
      encodeModelInferResponse({
        model_name: 'm',
        model_version: '1',
        id: 'z',
        outputs: [{ name: 'O', datatype: 'INT16', shape: [2], data: Int16Array.of(-1, 2) }],
      }),
    );
    assert.equal(back.id, 'z');
    assert.deepEqual(back.outputs[0]?.data, Int16Array.of(-1, 2));
    // Another server may answer with typed contents instead of raw ones.
    const typed = ResponseType.encode(
      ResponseType.fromObject({ model_name: 'm', outputs: [{ name: 'O', datatype: 'FP64', shape: [2], contents: { fp64_contents: [1, 2] } }] }),
    ).finish();
    assert.deepEqual(decodeModelInferResponse(typed).outputs[0]?.data, Float64Array.of(1, 2));
    const s = decodeModelStreamInferResponse(encodeModelStreamInferError('boom', { model: 'm', version: '1', id: 'q' }));
    assert.equal(s.error, 'boom');
    assert.equal(s.response.id, 'q');
  });
});

describe('raw_input_contents at any offset of the message buffer', () => {
  // Three inputs whose raw entries are unaligned for their element size wherever the message starts: a large FP32
  // (3-byte length), an FP64 of two elements (1-byte length: too little room to move up to 7 bytes) and an INT16.
  const fp32 = Float32Array.from({ length: 150_528 }, (_, i) => Math.sin(i) * 1e3);
  const fp64 = Float64Array.from([Math.PI, -1e300]);
  const int16 = Int16Array.from({ length: 1001 }, (_, i) => i * 33 - 16_000);
  const message = encodeWithPbjs({
    model_name: 'm',
    id: 'x',
    inputs: [
      { name: 'a', datatype: 'FP32', shape: [1, 3, 224, 224] },
      { name: 'b', datatype: 'FP64', shape: [2] },
      { name: 'c', datatype: 'INT16', shape: [1001] },
    ],
    raw_input_contents: [le(fp32), le(fp64), le(int16)],
  });

  /** The message behind `prefix` bytes of its own buffer, as grpc-js hands it over (a 5-byte frame prefix). */
  function framed(prefix: number): Uint8Array {
    const buf = new Uint8Array(prefix + message.byteLength);
    buf.set(message, prefix);
    return buf.subarray(prefix);
  }

  function checkValues(req: GrpcInferRequest): void {
    const [a, b, c] = req.inputs;
    assert.deepEqual(a?.data, fp32);
    assert.deepEqual(b?.data, fp64);
    assert.deepEqual(c?.data, int16);
  }

  for (let prefix = 0; prefix < 8; prefix++) {
    test(`the request's own buffer, message at offset ${prefix}: values exact, the large input still a view of the message`, () => {
      const bytes = framed(prefix);
      assert.ok(markExclusive(bytes, prefix));
      const req = ok(decodeModelInferRequest(bytes));
      checkValues(req);
      const a = req.inputs[0]?.data as Float32Array;
      assert.equal(a.buffer, bytes.buffer, 'FP32 input is not a copy');
      assert.ok(isExclusive(a.buffer));
    });

    test(`a buffer it does not own, message at offset ${prefix}: values exact, the message left as it was`, () => {
      const bytes = framed(prefix);
      const before = Buffer.from(bytes);
      const req = ok(decodeModelInferRequest(bytes));
      checkValues(req);
      assert.ok(Buffer.from(bytes).equals(before), 'the message bytes are unchanged');
    });
  }
});

describe('packed fp32_contents / fp64_contents at any offset of the message buffer', () => {
  const fp32 = Float32Array.from({ length: 150_528 }, (_, i) => Math.cos(i) * 1e3);
  const fp64 = Float64Array.from({ length: 40_000 }, (_, i) => Math.sqrt(i) * 1e-3);
  const message = encodeWithPbjs({
    model_name: 'm',
    inputs: [
      { name: 'a', datatype: 'FP32', shape: [150_528], contents: { fp32_contents: [...fp32] } },
      { name: 'b', datatype: 'FP64', shape: [40_000], contents: { fp64_contents: [...fp64] } },
    ],
  });

  for (let prefix = 0; prefix < 8; prefix++) {
    test(`message at offset ${prefix}: values exact, owned or not`, () => {
      for (const own of [true, false]) {
        const buf = new Uint8Array(prefix + message.byteLength);
        buf.set(message, prefix);
        const bytes = buf.subarray(prefix);
        if (own) assert.ok(markExclusive(bytes, prefix));
        const req = ok(decodeModelInferRequest(bytes));
        assert.deepEqual(req.inputs[0]?.data, fp32);
        assert.deepEqual(req.inputs[1]?.data, fp64);
        // FP32's packed run (3-byte length) always has room to move: in an owned buffer it stays a view.
        if (own) assert.equal((req.inputs[0]?.data as Float32Array).buffer, buf.buffer);
      }
    });
  }
});
