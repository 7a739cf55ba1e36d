import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InferResponse } from '../../../src/api/types.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import { buildRawRequest, decodeInferRequestJson, encodeInferResponse, parseBinaryBody, responseOptionsFor } from '../../../src/codec/kserve-json.ts';
import type { DecodedInferRequest } from '../../../src/codec/kserve-json.ts';
import { decodeInferResponse, encodeInferRequest } from '../../../src/codec/kserve-client-codec.ts';
import { concatBytes } from '../../../src/codec/wire-tensor.ts';
import { markExclusive } from '../../../src/tensor/exclusive-buffers.ts';
import { assertRtError, assertTensorEqual, enc, sampleTensors } from './tensor-assert.ts';

/** Server-side decode of a whole body, as the HTTP front end does it. */
function serverDecode(body: Uint8Array, headerLength?: number): DecodedInferRequest {
  const parsed = parseBinaryBody(body, headerLength === undefined ? undefined : String(headerLength));
  assert.equal(parsed.kind, 'json');
  if (parsed.kind !== 'json') throw new Error('unreachable');
  return decodeInferRequestJson(parsed.json, { bytes: parsed.binary });
}

function decodeJson(json: unknown, binary?: Uint8Array): DecodedInferRequest {
  return binary === undefined ? decodeInferRequestJson(json) : decodeInferRequestJson(json, { bytes: binary });
}

/** A JSON header padded with spaces to `align` bytes followed by binary chunks. */
function binaryBody(header: unknown, chunks: Uint8Array[], align = 8): { body: Uint8Array; headerLength: number } {
  let text = JSON.stringify(header);
  while (text.length % align !== 0) text += ' ';
  const json = enc(text);
  return { body: concatBytes([json, ...chunks]), headerLength: json.byteLength };
}

const le32 = (...values: number[]): Uint8Array => new Uint8Array(new Float32Array(values).buffer);

describe('request round trip (client encode → server decode)', () => {
  for (const binary of [false, true]) {
    test(`every datatype ${binary ? 'as binary data' : 'as JSON data'}`, () => {
      const inputs = sampleTensors();
      const { body, headerLength } = encodeInferRequest(inputs, {
        binary,
        id: 'req-1',
        parameters: { priority: 2, binary_data_output: true },
        outputs: [{ name: 'out', parameters: { binary_data: true } }],
      });
      assert.equal(headerLength !== undefined, binary);
      const decoded = serverDecode(body, headerLength);
      assert.equal(decoded.id, 'req-1');
      assert.deepEqual(decoded.parameters, { priority: 2, binary_data_output: true });
      assert.deepEqual(decoded.outputs, [{ name: 'out', parameters: { binary_data: true } }]);
      assert.equal(decoded.inputs.length, inputs.length);
      inputs.forEach((t, i) => assertTensorEqual(decoded.inputs[i], t));
    });
  }
});

describe('response round trip (server encode → client decode)', () => {
  for (const binaryOutputs of ['none', 'all'] as const) {
    test(`every datatype with binaryOutputs '${binaryOutputs}'`, () => {
      const outputs = sampleTensors();
      const resp: InferResponse = { model_name: 'm', model_version: '3', id: 'abc', parameters: { sequence_end: true }, outputs };
      const enc1 = encodeInferResponse(resp, { binaryOutputs });
      assert.equal(enc1.headerLength, enc1.json.byteLength);
      assert.equal(enc1.binary.length, binaryOutputs === 'all' ? outputs.length : 0);
      const body = concatBytes([enc1.json, ...enc1.binary]);
      const decoded = decodeInferResponse(body, enc1.binary.length > 0 ? enc1.headerLength : undefined);
      assert.equal(decoded.model_name, 'm');
      assert.equal(decoded.model_version, '3');
      assert.equal(decoded.id, 'abc');
      assert.deepEqual(decoded.parameters, { sequence_end: true });
      outputs.forEach((t, i) => assertTensorEqual(decoded.outputs[i], t));
    });
  }
});

describe('decodeInferRequestJson: JSON data', () => {
  test('nested and flat data decode to the same tensor', () => {
    const flat = decodeJson({ inputs: [{ name: 'x', datatype: 'INT32', shape: [2, 3], data: [1, 2, 3, 4, 5, 6] }] });
    const nested = decodeJson({
      inputs: [
        {
          name: 'x',
          datatype: 'INT32',
          shape: [2, 3],
          data: [
            [1, 2, 3],
            [4, 5, 6],
          ],
        },
      ],
    });
    assert.deepEqual([...(flat.inputs[0]!.data as Int32Array)], [1, 2, 3, 4, 5, 6]);
    assertTensorEqual(nested.inputs[0], flat.inputs[0]!);
    const deep = decodeJson({
      inputs: [
        {
          name: 'x',
          datatype: 'FP32',
          shape: [1, 2, 2],
          data: [
            [
              [1, 2],
              [3, 4],
            ],
          ],
        },
      ],
    });
    assert.deepEqual([...(deep.inputs[0]!.data as Float32Array)], [1, 2, 3, 4]);
  });

  test('INT64/UINT64 accept JSON numbers and decimal strings as BigInt', () => {
    const r = decodeJson({
      inputs: [
        { name: 'a', datatype: 'INT64', shape: [3], data: [-5, '9223372036854775807', '-9223372036854775808'] },
        { name: 'b', datatype: 'UINT64', shape: [2], data: [9007199254740991, '18446744073709551615'] },
      ],
    });
    assert.deepEqual([...(r.inputs[0]!.data as BigInt64Array)], [-5n, 2n ** 63n - 1n, -(2n ** 63n)]);
    assert.deepEqual([...(r.inputs[1]!.data as BigUint64Array)], [9007199254740991n, 2n ** 64n - 1n]);
  });

  test('FP16/BF16 numbers become round-to-nearest-even bits', () => {
    const r = decodeJson({
      inputs: [
        { name: 'h', datatype: 'FP16', shape: [3], data: [1, 0.1, 1 + 2 ** -11] },
        { name: 'b', datatype: 'BF16', shape: [2], data: [1, Math.PI] },
      ],
    });
    assert.deepEqual([...(r.inputs[0]!.data as Uint16Array)], [0x3c00, 0x2e66, 0x3c00]);
    assert.deepEqual([...(r.inputs[1]!.data as Uint16Array)], [0x3f80, 0x4049]);
  });

  test('non-finite floats may be sent as strings', () => {
    const r = decodeJson({ inputs: [{ name: 'f', datatype: 'FP32', shape: [3], data: ['NaN', 'Infinity', '-Infinity'] }] });
    const d = r.inputs[0]!.data as Float32Array;
    assert.ok(Number.isNaN(d[0]));
    assert.equal(d[1], Infinity);
    assert.equal(d[2], -Infinity);
  });

  test('BYTES strings are UTF-8 encoded', () => {
    const r = decodeJson({ inputs: [{ name: 's', datatype: 'BYTES', shape: [2], data: ['é', ''] }] });
    const d = r.inputs[0]!.data as Uint8Array[];
    assert.deepEqual([...d[0]!], [0xc3, 0xa9]);
    assert.equal(d[1]!.byteLength, 0);
  });

  test('scalar shape [] takes one element; a zero dimension takes none', () => {
    const r = decodeJson({
      inputs: [
        { name: 's', datatype: 'FP64', shape: [], data: [7] },
        { name: 'z', datatype: 'FP64', shape: [0, 4], data: [] },
      ],
    });
    assert.deepEqual([...(r.inputs[0]!.data as Float64Array)], [7]);
    assert.equal(r.inputs[1]!.data.length, 0);
  });

  test('omitted fields stay undefined', () => {
    const r = decodeJson({ inputs: [] });
    assert.deepEqual(r, { inputs: [] });
    assert.ok(!('outputs' in r));
  });
});

describe('decodeInferRequestJson: errors name the tensor and the numbers', () => {
  const one = (input: Record<string, unknown>): unknown => ({ inputs: [{ name: 'x', ...input }] });

  test('unknown datatype', () => {
    assertRtError(
      () => decodeJson({ inputs: [{ name: 'INPUT0', datatype: 'FP33', shape: [1], data: [1] }] }),
      'BAD_DATATYPE',
      "input 'INPUT0': datatype 'FP33' is not a KServe v2 datatype",
      'FP32',
    );
    assertRtError(() => decodeJson(one({ datatype: 7, shape: [1], data: [1] })), 'BAD_DATATYPE', "input 'x': datatype number 7");
  });

  test('element count vs shape', () => {
    assertRtError(
      () => decodeJson(one({ datatype: 'FP32', shape: [2, 3], data: [1, 2, 3, 4, 5] })),
      'BAD_DATA',
      "input 'x': shape [2,3] needs 6 elements, data has 5",
    );
    assertRtError(
      () =>
        decodeJson(
          one({
            datatype: 'FP32',
            shape: [2, 3],
            data: [
              [1, 2, 3],
              [4, 5],
            ],
          }),
        ),
      'BAD_DATA',
      'needs 6 elements, data has 5',
    );
  });

  test('bad shapes', () => {
    assertRtError(() => decodeJson(one({ datatype: 'FP32', shape: [-1, 3], data: [] })), 'BAD_SHAPE', "input 'x': shape [-1,3] has dimension 0 = -1");
    assertRtError(
      () => decodeJson(one({ datatype: 'FP32', shape: [1.5], data: [] })),
      'BAD_SHAPE',
      "input 'x': shape dimension 0 must be an integer, got number 1.5",
    );
    assertRtError(() => decodeJson(one({ datatype: 'FP32', shape: '3', data: [] })), 'BAD_SHAPE', "input 'x': shape must be an array");
  });

  test('element types', () => {
    assertRtError(
      () => decodeJson(one({ datatype: 'FP32', shape: [2], data: [1, 'a'] })),
      'BAD_DATA',
      'input \'x\': element 1 must be a number for FP32, got string "a"',
    );
    assertRtError(
      () => decodeJson(one({ datatype: 'BOOL', shape: [2], data: [true, 1] })),
      'BAD_DATA',
      "input 'x': element 1 must be a boolean for BOOL, got number 1",
    );
    assertRtError(
      () => decodeJson(one({ datatype: 'BYTES', shape: [1], data: [5] })),
      'BAD_DATA',
      "input 'x': element 0 must be a string for BYTES, got number 5",
    );
    assertRtError(
      () => decodeJson(one({ datatype: 'INT32', shape: [2], data: [1, 1.5] })),
      'BAD_DATA',
      "input 'x': element 1 must be an integer for INT32, got number 1.5",
    );
    assertRtError(() => decodeJson(one({ datatype: 'FP16', shape: [1], data: [null] })), 'BAD_DATA', 'element 0 must be a number for FP16, got null');
    assertRtError(() => decodeJson(one({ datatype: 'FP32', shape: [1], data: 3 })), 'BAD_DATA', "input 'x': data must be an array, got number 3");
  });

  test('integer ranges', () => {
    assertRtError(
      () => decodeJson(one({ datatype: 'UINT8', shape: [2], data: [1, 300] })),
      'BAD_DATA',
      "input 'x': element 1 value 300 is out of range for UINT8 [0, 255]",
    );
    assertRtError(
      () => decodeJson(one({ datatype: 'INT8', shape: [1], data: [-129] })),
      'BAD_DATA',
      'value -129 is out of range for INT8 [-128, 127]',
    );
    assertRtError(() => decodeJson(one({ datatype: 'UINT32', shape: [1], data: [-1] })), 'BAD_DATA', 'out of range for UINT32');
    assertRtError(
      () => decodeJson(one({ datatype: 'INT64', shape: [1], data: ['9223372036854775808'] })),
      'BAD_DATA',
      'value 9223372036854775808 is out of range for INT64',
    );
    assertRtError(() => decodeJson(one({ datatype: 'UINT64', shape: [1], data: ['-1'] })), 'BAD_DATA', 'value -1 is out of range for UINT64');
    assertRtError(
      () => decodeJson(one({ datatype: 'INT64', shape: [1], data: [2 ** 60] })),
      'BAD_DATA',
      'element 0 value 1152921504606847000 is beyond ±2^53',
      'decimal strings',
    );
    assertRtError(
      () => decodeJson(one({ datatype: 'INT64', shape: [1], data: ['12a'] })),
      'BAD_DATA',
      'must be an integer or a decimal string for INT64',
    );
  });

  test('nesting deeper than the rank is refused', () => {
    assertRtError(
      () => decodeJson(one({ datatype: 'FP32', shape: [2], data: [[[1]], [2]] })),
      'BAD_DATA',
      "input 'x': data is nested deeper than shape [2] (rank 1) allows",
    );
  });

  test('request envelope', () => {
    assertRtError(() => decodeJson([1]), 'BAD_JSON', 'must be a JSON object, got an array');
    assertRtError(() => decodeJson({}), 'BAD_JSON', "'inputs' must be an array of tensors, got undefined");
    assertRtError(() => decodeJson({ id: 5, inputs: [] }), 'BAD_JSON', "'id' must be a string, got number 5");
    assertRtError(
      () => decodeJson({ inputs: [{ datatype: 'FP32', shape: [], data: [1] }] }),
      'BAD_JSON',
      "inputs[0]: 'name' must be a non-empty string",
    );
    assertRtError(
      () => decodeJson({ inputs: [], parameters: { a: { b: 1 } } }),
      'BAD_PARAMETER',
      "request parameters: parameter 'a' must be a string, number or boolean, got an object",
    );
    assertRtError(() => decodeJson({ inputs: [], outputs: {} }), 'BAD_JSON', "'outputs' must be an array");
    assertRtError(
      () => decodeJson({ inputs: [], outputs: [{ name: 'o', parameters: [] }] }),
      'BAD_PARAMETER',
      "output 'o': parameters must be an object",
    );
    assertRtError(
      () => decodeJson(one({ datatype: 'FP32', shape: [1] })),
      'BAD_DATA',
      "input 'x' has neither 'data' nor parameters.binary_data_size",
    );
  });
});

describe('shared-memory parameters (Triton shared-memory extension)', () => {
  const shmInput = (parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    name: 'x',
    datatype: 'FP32',
    shape: [2, 2],
    parameters,
    ...extra,
  });

  test('inputs with a region carry no data and keep their position; client encode → server decode', () => {
    const body = encodeInferRequest(sampleTensors().slice(0, 1), {
      binary: true,
      sharedMemoryInputs: [{ name: 'x', datatype: 'FP32', shape: [2, 2], sharedMemory: { region: 'r', offset: 32, byteSize: 16 } }],
      outputs: [{ name: 'y', parameters: { shared_memory_region: 'o', shared_memory_byte_size: 8 } }],
    });
    const d = serverDecode(body.body, body.headerLength);
    assert.equal(d.inputs.length, 1);
    assert.deepEqual(d.sharedMemoryInputs, [
      { name: 'x', datatype: 'FP32', shape: [2, 2], sharedMemory: { region: 'r', offset: 32, byteSize: 16 }, index: 1 },
    ]);
    assert.deepEqual(d.outputs, [{ name: 'y', parameters: { shared_memory_region: 'o', shared_memory_byte_size: 8 } }]);
    // Offset defaults to 0; BYTES needs at least the length prefixes.
    const bytes = decodeJson({
      inputs: [{ name: 's', datatype: 'BYTES', shape: [3], parameters: { shared_memory_region: 'r', shared_memory_byte_size: 12 } }],
    });
    assert.deepEqual(bytes.sharedMemoryInputs?.[0]?.sharedMemory, { region: 'r', offset: 0, byteSize: 12 });
  });

  test('errors name the tensor, the parameter and the numbers', () => {
    const one = (t: unknown) => ({ inputs: [t] });
    assertRtError(
      () => decodeJson(one(shmInput({ shared_memory_region: 'r' }))),
      'BAD_PARAMETER',
      "input 'x': parameters.shared_memory_region and parameters.shared_memory_byte_size go together",
    );
    assertRtError(
      () => decodeJson(one(shmInput({ shared_memory_byte_size: 16, shared_memory_offset: 4 }))),
      'BAD_PARAMETER',
      'got only shared_memory_byte_size and shared_memory_offset',
    );
    assertRtError(
      () => decodeJson(one(shmInput({ shared_memory_region: 7, shared_memory_byte_size: 16 }))),
      'BAD_PARAMETER',
      'must be the name of a registered region, got number 7',
    );
    assertRtError(
      () => decodeJson(one(shmInput({ shared_memory_region: 'r', shared_memory_byte_size: 16, shared_memory_offset: -1 }))),
      'BAD_PARAMETER',
      'shared_memory_offset must be a non-negative integer, got number -1',
    );
    assertRtError(
      () => decodeJson(one(shmInput({ shared_memory_region: 'r', shared_memory_byte_size: 12 }))),
      'BAD_DATA',
      "input 'x': shape [2,2] of FP32 needs 16 bytes, parameters.shared_memory_byte_size is 12",
    );
    assertRtError(
      () => decodeJson(one(shmInput({ shared_memory_region: 'r', shared_memory_byte_size: 16 }, { data: [1, 2, 3, 4] }))),
      'BAD_DATA',
      "input 'x' has both 'data' and parameters.shared_memory_region",
    );
    assertRtError(
      () => decodeJson(one(shmInput({ shared_memory_region: 'r', shared_memory_byte_size: 16, binary_data_size: 16 })), new Uint8Array(16)),
      'BAD_DATA',
      'both parameters.binary_data_size and parameters.shared_memory_region',
    );
    assertRtError(
      () =>
        decodeJson({ inputs: [{ name: 's', datatype: 'BYTES', shape: [3], parameters: { shared_memory_region: 'r', shared_memory_byte_size: 8 } }] }),
      'BAD_DATA',
      'needs at least 12 bytes',
    );
    assertRtError(
      () => decodeJson({ inputs: [], outputs: [{ name: 'o', parameters: { shared_memory_region: 'r' } }] }),
      'BAD_PARAMETER',
      "output 'o'",
    );
  });

  test('an output written to a region is encoded without data; the client codec reads it back as such', () => {
    const resp: InferResponse = {
      model_name: 'm',
      model_version: '1',
      outputs: [
        { name: 'a', datatype: 'INT32', shape: [2], data: new Int32Array([1, 2]) },
        { name: 'b', datatype: 'INT32', shape: [2], data: new Int32Array([3, 4]) },
      ],
      sharedMemoryOutputs: new Map([['a', { region: 'r', offset: 8, byteSize: 8 }]]),
    };
    for (const binaryOutputs of ['all', 'none'] as const) {
      const e = encodeInferResponse(resp, { binaryOutputs });
      const json = JSON.parse(new TextDecoder().decode(e.json)) as { outputs: unknown[] };
      assert.deepEqual(json.outputs[0], {
        name: 'a',
        datatype: 'INT32',
        shape: [2],
        parameters: { shared_memory_region: 'r', shared_memory_byte_size: 8, shared_memory_offset: 8 },
      });
      assert.equal(e.binary.length, binaryOutputs === 'all' ? 1 : 0, 'only b has data');
      const back = decodeInferResponse(concatBytes([e.json, ...e.binary]), e.binary.length > 0 ? e.headerLength : undefined);
      assert.deepEqual(back.sharedMemoryOutputs, new Map([['a', { region: 'r', offset: 8, byteSize: 8 }]]));
      assert.equal(back.outputs[0]?.data.length, 0);
      assertTensorEqual(back.outputs[1]!, resp.outputs[1]!);
    }
  });
});

describe('decodeInferRequestJson: binary data', () => {
  test('inputs take their bytes in order; mixed JSON and binary inputs', () => {
    const header = {
      inputs: [
        { name: 'a', datatype: 'FP32', shape: [2], parameters: { binary_data_size: 8 } },
        { name: 'j', datatype: 'INT32', shape: [1], data: [9] },
        { name: 'b', datatype: 'BOOL', shape: [3], parameters: { binary_data_size: 3 } },
      ],
    };
    const { body, headerLength } = binaryBody(header, [le32(1.5, -2), new Uint8Array([1, 0, 1])]);
    const r = serverDecode(body, headerLength);
    assert.deepEqual([...(r.inputs[0]!.data as Float32Array)], [1.5, -2]);
    assert.deepEqual([...(r.inputs[1]!.data as Int32Array)], [9]);
    assert.deepEqual([...(r.inputs[2]!.data as Uint8Array)], [1, 0, 1]);
  });

  test('numeric tensors are zero-copy views over the body when aligned', () => {
    const header = {
      inputs: [
        { name: 'd', datatype: 'FP64', shape: [2], parameters: { binary_data_size: 16 } },
        { name: 'f', datatype: 'FP32', shape: [3], parameters: { binary_data_size: 12 } },
        { name: 's', datatype: 'BYTES', shape: [1], parameters: { binary_data_size: 6 } },
      ],
    };
    const strBytes = new Uint8Array([2, 0, 0, 0, 0x68, 0x69]);
    const { body, headerLength } = binaryBody(header, [new Uint8Array(new Float64Array([1, 2]).buffer), le32(3, 4, 5), strBytes]);
    const r = serverDecode(body, headerLength);
    const d = r.inputs[0]!.data as Float64Array;
    const f = r.inputs[1]!.data as Float32Array;
    const s = r.inputs[2]!.data as Uint8Array[];
    assert.equal(d.buffer, body.buffer);
    assert.equal(d.byteOffset, headerLength);
    assert.equal(f.buffer, body.buffer);
    assert.equal(f.byteOffset, headerLength + 16);
    assert.equal(s[0]!.buffer, body.buffer);
    assert.deepEqual([...d], [1, 2]);
    assert.deepEqual([...f], [3, 4, 5]);
    assert.equal(new TextDecoder().decode(s[0]), 'hi');
    // Writing through the view changes the body: it really is the same memory.
    f[0] = 42;
    assert.equal(new DataView(body.buffer).getFloat32(headerLength + 16, true), 42);
  });

  test('misaligned binary data is copied and still correct', () => {
    const header = { inputs: [{ name: 'f', datatype: 'FP32', shape: [2], parameters: { binary_data_size: 8 } }] };
    const { body, headerLength } = binaryBody(header, [le32(6.5, 7.25)], 1);
    const shifted = new Uint8Array(body.byteLength + 1).subarray(1);
    shifted.set(body);
    const r = serverDecode(shifted, headerLength);
    assert.deepEqual([...(r.inputs[0]!.data as Float32Array)], [6.5, 7.25]);
  });

  test('BYTES with the 4-byte prefix: empty and non-ASCII elements', () => {
    const elems = ['', 'naïve ✓', '日本語', ''];
    const chunks: number[] = [];
    for (const e of elems) {
      const b = enc(e);
      chunks.push(b.byteLength & 0xff, (b.byteLength >> 8) & 0xff, 0, 0, ...b);
    }
    const header = { inputs: [{ name: 's', datatype: 'BYTES', shape: [2, 2], parameters: { binary_data_size: chunks.length } }] };
    const { body, headerLength } = binaryBody(header, [new Uint8Array(chunks)]);
    const r = serverDecode(body, headerLength);
    assert.deepEqual(
      (r.inputs[0]!.data as Uint8Array[]).map((b) => new TextDecoder().decode(b)),
      elems,
    );
  });

  test('left-over binary bytes → BAD_BINARY_HEADER with the numbers', () => {
    const header = { inputs: [{ name: 'a', datatype: 'FP32', shape: [2], parameters: { binary_data_size: 8 } }] };
    const { body, headerLength } = binaryBody(header, [le32(1, 2), new Uint8Array(4)]);
    assertRtError(() => serverDecode(body, headerLength), 'BAD_BINARY_HEADER', 'has 12 bytes', 'add up to 8', '4 bytes left over');
  });

  test('missing binary bytes → BAD_DATA with the numbers', () => {
    const header = {
      inputs: [
        { name: 'a', datatype: 'FP32', shape: [2], parameters: { binary_data_size: 8 } },
        { name: 'b', datatype: 'FP32', shape: [4], parameters: { binary_data_size: 16 } },
      ],
    };
    const { body, headerLength } = binaryBody(header, [le32(1, 2), le32(3)]);
    assertRtError(
      () => serverDecode(body, headerLength),
      'BAD_DATA',
      "input 'b': binary_data_size is 16 but only 4 bytes of binary data remain",
      'has 12 bytes and earlier tensors used 8',
    );
  });

  test('binary_data_size without a binary section', () => {
    assertRtError(
      () => decodeJson({ inputs: [{ name: 'a', datatype: 'FP32', shape: [1], parameters: { binary_data_size: 4 } }] }),
      'BAD_DATA',
      "input 'a': binary_data_size is 4 but only 0 bytes",
      'Inference-Header-Content-Length',
    );
  });

  test('binary_data_size that does not match the shape', () => {
    const header = { inputs: [{ name: 'a', datatype: 'FP32', shape: [2, 3], parameters: { binary_data_size: 20 } }] };
    const { body, headerLength } = binaryBody(header, [new Uint8Array(20)]);
    assertRtError(() => serverDecode(body, headerLength), 'BAD_DATA', "input 'a': shape [2,3] of FP32 needs 24 bytes, binary data has 20");
  });

  test('bad binary_data_size values and data given twice', () => {
    const bin = new Uint8Array(4);
    assertRtError(
      () => decodeJson({ inputs: [{ name: 'a', datatype: 'FP32', shape: [1], parameters: { binary_data_size: -4 } }] }, bin),
      'BAD_PARAMETER',
      "input 'a': parameters.binary_data_size must be a non-negative integer, got number -4",
    );
    assertRtError(
      () => decodeJson({ inputs: [{ name: 'a', datatype: 'FP32', shape: [1], parameters: { binary_data_size: '4' } }] }, bin),
      'BAD_PARAMETER',
      'got string "4"',
    );
    assertRtError(
      () => decodeJson({ inputs: [{ name: 'a', datatype: 'FP32', shape: [1], data: [1], parameters: { binary_data_size: 4 } }] }, bin),
      'BAD_DATA',
      "input 'a' has both 'data' and parameters.binary_data_size",
    );
  });

  test('malformed BYTES binary data', () => {
    const bytesInput = (size: number): unknown => ({
      inputs: [{ name: 's', datatype: 'BYTES', shape: [2], parameters: { binary_data_size: size } }],
    });
    // Second element claims 10 bytes but only 1 follows.
    const overrun = new Uint8Array([1, 0, 0, 0, 0x61, 10, 0, 0, 0, 0x62]);
    assertRtError(
      () => decodeJson(bytesInput(overrun.byteLength), overrun),
      'BAD_DATA',
      "input 's': BYTES element 1 at byte 5 declares length 10 but only 1 bytes remain",
    );
    // Only one element where the shape needs two.
    const short = new Uint8Array([1, 0, 0, 0, 0x61, 0, 0, 0]);
    assertRtError(
      () => decodeJson(bytesInput(short.byteLength), short),
      'BAD_DATA',
      "input 's': binary data ends at byte 8 after 1 BYTES elements; shape [2] needs 2",
    );
    // Extra bytes after the two elements.
    const extra = new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 9]);
    assertRtError(() => decodeJson(bytesInput(extra.byteLength), extra), 'BAD_DATA', "input 's': 1 bytes left over after the 2 BYTES elements");
    // A shape that needs more elements than the bytes could ever hold is refused before allocating.
    const huge = { inputs: [{ name: 's', datatype: 'BYTES', shape: [1e12], parameters: { binary_data_size: 8 } }] };
    assertRtError(() => decodeJson(huge, new Uint8Array(8)), 'BAD_DATA', "input 's': shape [1000000000000] needs 1000000000000 BYTES elements");
  });
});

describe('parseBinaryBody', () => {
  const body = enc('{"inputs":[]}');

  test('without the header the whole body is JSON', () => {
    const p = parseBinaryBody(body, undefined);
    assert.equal(p.kind, 'json');
    if (p.kind === 'json') {
      assert.deepEqual(p.json, { inputs: [] });
      assert.equal(p.binary.byteLength, 0);
    }
  });

  test('the header splits JSON and binary', () => {
    const full = concatBytes([body, new Uint8Array([1, 2, 3])]);
    const p = parseBinaryBody(full, ` ${body.byteLength} `);
    assert.equal(p.kind, 'json');
    if (p.kind === 'json') {
      assert.deepEqual([...p.binary], [1, 2, 3]);
      assert.equal(p.binary.buffer, full.buffer);
    }
  });

  test('unpadded JSON headers of every length: exact values; in a body of its own the tensors stay views of it', () => {
    const a = Float32Array.from({ length: 1000 }, (_, i) => i * 0.5 - 7);
    const b = Float64Array.from({ length: 9 }, (_, i) => i / 3);
    for (let pad = 0; pad < 8; pad++) {
      for (const exclusive of [true, false]) {
        const head = enc(
          `{"inputs":[{"name":"a","datatype":"FP32","shape":[1000],"parameters":{"binary_data_size":4000}},` +
            `{"name":"b","datatype":"FP64","shape":[9],"parameters":{"binary_data_size":72}}]${' '.repeat(pad)}}`,
        );
        const full = concatBytes([head, new Uint8Array(a.buffer), new Uint8Array(b.buffer)]);
        const before = full.slice();
        if (exclusive) markExclusive(full);
        const p = parseBinaryBody(full, String(head.byteLength));
        assert.equal(p.kind, 'json');
        if (p.kind !== 'json') continue;
        const decoded = decodeInferRequestJson(p.json, { bytes: p.binary });
        const [ta, tb] = decoded.inputs;
        assert.deepEqual([...(ta?.data as Float32Array)], [...a], `pad ${pad}: FP32 values`);
        assert.deepEqual([...(tb?.data as Float64Array)], [...b], `pad ${pad}: FP64 values`);
        const views = (ta?.data as Float32Array).buffer === full.buffer && (tb?.data as Float64Array).buffer === full.buffer;
        if (exclusive) assert.ok(views, `pad ${pad}: a body of its own keeps both tensors as views of it`);
        else assert.deepEqual(full, before, `pad ${pad}: a shared buffer is never written`);
      }
    }
  });

  test('header 0 marks a raw binary request', () => {
    const p = parseBinaryBody(new Uint8Array([1, 2, 3, 4]), '0');
    assert.equal(p.kind, 'raw');
    if (p.kind === 'raw') assert.equal(p.raw.byteLength, 4);
  });

  test('bad header values name the header, the value and the body length', () => {
    assertRtError(
      () => parseBinaryBody(body, 'abc'),
      'BAD_BINARY_HEADER',
      'Inference-Header-Content-Length',
      "got 'abc'",
      `body has ${body.byteLength} bytes`,
    );
    assertRtError(() => parseBinaryBody(body, '-5'), 'BAD_BINARY_HEADER', "got '-5'");
    assertRtError(() => parseBinaryBody(body, '1.5'), 'BAD_BINARY_HEADER', "got '1.5'");
    assertRtError(() => parseBinaryBody(body, ''), 'BAD_BINARY_HEADER', "got ''");
    assertRtError(() => parseBinaryBody(body, '100'), 'BAD_BINARY_HEADER', 'Inference-Header-Content-Length is 100 but the body has only 13 bytes');
    assertRtError(
      () => parseBinaryBody(body, '99999999999999999999999999'),
      'BAD_BINARY_HEADER',
      'is 99999999999999999999999999 but the body has only 13 bytes',
    );
  });

  test('JSON syntax errors → BAD_JSON with the position', () => {
    assertRtError(() => parseBinaryBody(enc('{"inputs": ]}'), undefined), 'BAD_JSON', 'position 11', 'line 1, column 12');
    assertRtError(() => parseBinaryBody(enc('{"a":1'), undefined), 'BAD_JSON', 'unexpected end of input at position 6');
    assertRtError(() => parseBinaryBody(enc('{\n  "a": 1,\n  "b": tru\n}'), undefined), 'BAD_JSON', 'line 3, column 8');
    assertRtError(() => parseBinaryBody(enc('[1,2,]'), undefined), 'BAD_JSON', 'position 5');
    assertRtError(() => parseBinaryBody(enc(''), undefined), 'BAD_JSON', 'position 0');
    // The JSON header is only the first N bytes: binary after it must not confuse the parser.
    const full = concatBytes([enc('{"x":'), enc('1}')]);
    assertRtError(() => parseBinaryBody(full, '5'), 'BAD_JSON', 'JSON header (first 5 bytes', 'position 5');
    assertRtError(() => parseBinaryBody(new Uint8Array([0x7b, 0xff, 0x7d]), undefined), 'BAD_JSON', 'not valid UTF-8');
  });
});

describe('buildRawRequest', () => {
  const fp32 = (shape: number[]) => ({ name: 'INPUT0', datatype: 'FP32' as const, shape });

  test('batching model: batch 1, variable dimension deduced from the byte count', () => {
    const bytes = new Uint8Array(new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]).buffer);
    const r = buildRawRequest({ name: 'm', maxBatchSize: 8, inputs: [fp32([-1, 4])] }, bytes);
    const t = r.inputs[0]!;
    assert.deepEqual(t.shape, [1, 2, 4]);
    assert.equal(t.datatype, 'FP32');
    assert.equal((t.data as Float32Array).buffer, bytes.buffer);
    assert.deepEqual([...(t.data as Float32Array)], [1, 2, 3, 4, 5, 6, 7, 8]);
    // All outputs come back binary.
    assert.deepEqual(responseOptionsFor(r).binaryOutputs, 'all');
  });

  test('fixed shape without batching', () => {
    const r = buildRawRequest({ name: 'm', maxBatchSize: 0, inputs: [fp32([4])] }, new Uint8Array(16));
    assert.deepEqual(r.inputs[0]!.shape, [4]);
    assertRtError(
      () => buildRawRequest({ name: 'm', maxBatchSize: 0, inputs: [fp32([4])] }, new Uint8Array(12)),
      'BAD_DATA',
      "input 'INPUT0': shape [4] of FP32 needs 16 bytes, binary data has 12",
    );
  });

  test('byte count that does not divide into the variable dimension', () => {
    assertRtError(
      () => buildRawRequest({ name: 'm', maxBatchSize: 0, inputs: [fp32([-1, 4])] }, new Uint8Array(20)),
      'BAD_DATA',
      "raw input 'INPUT0': 20 bytes is not a whole number",
      '16 bytes per step',
    );
  });

  test('BYTES input of shape [1]: the whole body is one element', () => {
    const body = enc('raw text ✓');
    const r = buildRawRequest({ name: 'm', maxBatchSize: 4, inputs: [{ name: 'TEXT', datatype: 'BYTES', shape: [1] }] }, body);
    assert.deepEqual(r.inputs[0]!.shape, [1, 1]);
    assert.equal(new TextDecoder().decode((r.inputs[0]!.data as Uint8Array[])[0]), 'raw text ✓');
    assertRtError(
      () => buildRawRequest({ name: 'm', maxBatchSize: 0, inputs: [{ name: 'TEXT', datatype: 'BYTES', shape: [-1] }] }, body),
      'BAD_SHAPE',
      "raw input 'TEXT'",
      'needs model shape [1]',
      'has [-1]',
    );
  });

  test('models that cannot take a raw request', () => {
    assertRtError(
      () =>
        buildRawRequest(
          { name: 'simple', maxBatchSize: 8, inputs: [fp32([16]), { name: 'INPUT1', datatype: 'INT32', shape: [16] }] },
          new Uint8Array(64),
        ),
      'BAD_REQUEST',
      "model 'simple' has 2 (INPUT0, INPUT1)",
      'exactly one input',
    );
    assertRtError(
      () => buildRawRequest({ name: 'm', maxBatchSize: 8, inputs: [fp32([-1, -1])] }, new Uint8Array(16)),
      'BAD_SHAPE',
      "raw input 'INPUT0' cannot be deduced",
      '[-1,-1,-1] has more than one variable dimension',
    );
  });
});

describe('encodeInferResponse', () => {
  const outputs: Tensor[] = [
    { name: 'f', datatype: 'FP32', shape: [2], data: new Float32Array([0.5, -1]) },
    { name: 'i64', datatype: 'INT64', shape: [3], data: new BigInt64Array([1n, 2n ** 53n + 1n, -(2n ** 60n)]) },
    { name: 'h', datatype: 'FP16', shape: [2], data: new Uint16Array([0x3c00, 0x3800]) },
    { name: 's', datatype: 'BYTES', shape: [2], data: [enc('a"b'), enc('ü')] },
    { name: 'b', datatype: 'BOOL', shape: [2], data: new Uint8Array([1, 0]) },
  ];
  const resp: InferResponse = { model_name: 'm', model_version: '1', outputs };
  const parse = (e: { json: Uint8Array }): { outputs: Array<Record<string, unknown>> } & Record<string, unknown> =>
    JSON.parse(new TextDecoder().decode(e.json)) as { outputs: Array<Record<string, unknown>> } & Record<string, unknown>;

  test('JSON outputs have flat data: big INT64 as strings, FP16 as numbers, BYTES as strings', () => {
    const e = encodeInferResponse(resp, { binaryOutputs: 'none' });
    assert.equal(e.binary.length, 0);
    const j = parse(e);
    assert.equal(j['model_name'], 'm');
    assert.equal(j['model_version'], '1');
    assert.ok(!('id' in j));
    assert.deepEqual(j.outputs[0], { name: 'f', datatype: 'FP32', shape: [2], data: [0.5, -1] });
    assert.deepEqual(j.outputs[1]!['data'], [1, '9007199254740993', '-1152921504606846976']);
    assert.deepEqual(j.outputs[2]!['data'], [1, 0.5]);
    assert.deepEqual(j.outputs[3]!['data'], ['a"b', 'ü']);
    assert.deepEqual(j.outputs[4]!['data'], [true, false]);
  });

  test('binary outputs carry binary_data_size and no data; chunks are in order and numeric chunks are views', () => {
    const e = encodeInferResponse(resp, { binaryOutputs: new Set(['i64', 's']) });
    const j = parse(e);
    assert.deepEqual(j.outputs[1], { name: 'i64', datatype: 'INT64', shape: [3], parameters: { binary_data_size: 24 } });
    assert.deepEqual(j.outputs[3], { name: 's', datatype: 'BYTES', shape: [2], parameters: { binary_data_size: 4 + 3 + 4 + 2 } });
    assert.ok('data' in j.outputs[0]!);
    assert.equal(e.binary.length, 2);
    assert.equal(e.binary[0]!.buffer, (outputs[1]!.data as BigInt64Array).buffer);
    assert.deepEqual([...e.binary[1]!], [3, 0, 0, 0, 0x61, 0x22, 0x62, 2, 0, 0, 0, 0xc3, 0xbc]);
    // The JSON header is padded so the binary section starts 8-byte aligned.
    assert.equal(e.headerLength % 8, 0);
    assert.equal(e.headerLength, e.json.byteLength);
  });

  test('invalid UTF-8 BYTES cannot go in JSON', () => {
    const bad: InferResponse = {
      model_name: 'm',
      model_version: '1',
      outputs: [{ name: 'raw', datatype: 'BYTES', shape: [1], data: [new Uint8Array([0xff])] }],
    };
    assertRtError(
      () => encodeInferResponse(bad, { binaryOutputs: 'none' }),
      'UNSUPPORTED',
      "output 'raw': BYTES element 0 is not valid UTF-8",
      'binary_data',
    );
    assert.equal(encodeInferResponse(bad, { binaryOutputs: 'all' }).binary.length, 1);
  });

  test('output data that does not match its shape is an internal error', () => {
    const bad: InferResponse = {
      model_name: 'm',
      model_version: '1',
      outputs: [{ name: 'o', datatype: 'FP32', shape: [3], data: new Float32Array(2) }],
    };
    assertRtError(() => encodeInferResponse(bad, { binaryOutputs: 'none' }), 'INTERNAL', "output 'o': shape [3] needs 3 elements, data has 2");
  });
});

describe('responseOptionsFor (docs/protocol.md §2.3 binary_data / binary_data_output)', () => {
  test('defaults to JSON', () => {
    assert.deepEqual(responseOptionsFor({}), { binaryOutputs: 'none' });
  });
  test('binary_data_output makes all outputs binary', () => {
    assert.equal(responseOptionsFor({ parameters: { binary_data_output: true } }).binaryOutputs, 'all');
  });
  test('per-output binary_data selects outputs and overrides binary_data_output', () => {
    const o1 = responseOptionsFor({ outputs: [{ name: 'a', parameters: { binary_data: true } }, { name: 'b' }] });
    assert.deepEqual([...(o1.binaryOutputs as Set<string>)], ['a']);
    const o2 = responseOptionsFor({
      parameters: { binary_data_output: true },
      outputs: [{ name: 'a', parameters: { binary_data: false } }, { name: 'b' }],
    });
    assert.deepEqual([...(o2.binaryOutputs as Set<string>)], ['b']);
  });
});
