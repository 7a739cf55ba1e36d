import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { DataType, NumericArray } from '../../../src/tensor/datatype.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import { decodeInferResponse, encodeInferRequest } from '../../../src/codec/kserve-client-codec.ts';
import { decodeInferRequestJson, encodeInferResponse, parseBinaryBody } from '../../../src/codec/kserve-json.ts';
import { halfBitsToFloat, bf16BitsToFloat } from '../../../src/tensor/half.ts';
import { concatBytes } from '../../../src/codec/wire-tensor.ts';
import { assertDataEqual, assertRtError, enc } from './tensor-assert.ts';
import { fuzzParams } from '../../helpers/fuzz.ts';

/** Client encode → server decode → server encode (same tensors as outputs) → client decode. */
function fullRoundTrip(t: Tensor, binary: boolean): Tensor {
  const req = encodeInferRequest([t], { binary });
  const parsed = parseBinaryBody(req.body, req.headerLength === undefined ? undefined : String(req.headerLength));
  if (parsed.kind !== 'json') throw new Error('expected a JSON body');
  const decoded = decodeInferRequestJson(parsed.json, { bytes: parsed.binary });
  const resp = encodeInferResponse({ model_name: 'm', model_version: '1', outputs: decoded.inputs }, { binaryOutputs: binary ? 'all' : 'none' });
  const back = decodeInferResponse(concatBytes([resp.json, ...resp.binary]), binary ? resp.headerLength : undefined);
  return back.outputs[0]!;
}

type NumericCase = { dt: Exclude<DataType, 'BYTES'>; arb: fc.Arbitrary<NumericArray> };

const f32 = fc.float().map((v) => v);
const numericCases: NumericCase[] = [
  { dt: 'BOOL', arb: fc.array(fc.boolean()).map((a) => Uint8Array.from(a, (b) => (b ? 1 : 0))) },
  { dt: 'UINT8', arb: fc.array(fc.integer({ min: 0, max: 255 })).map((a) => Uint8Array.from(a)) },
  { dt: 'INT8', arb: fc.array(fc.integer({ min: -128, max: 127 })).map((a) => Int8Array.from(a)) },
  { dt: 'UINT16', arb: fc.array(fc.integer({ min: 0, max: 65535 })).map((a) => Uint16Array.from(a)) },
  { dt: 'INT16', arb: fc.array(fc.integer({ min: -32768, max: 32767 })).map((a) => Int16Array.from(a)) },
  { dt: 'UINT32', arb: fc.array(fc.integer({ min: 0, max: 4294967295 })).map((a) => Uint32Array.from(a)) },
  { dt: 'INT32', arb: fc.array(fc.integer()).map((a) => Int32Array.from(a)) },
  { dt: 'UINT64', arb: fc.array(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })).map((a) => BigUint64Array.from(a)) },
  { dt: 'INT64', arb: fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })).map((a) => BigInt64Array.from(a)) },
  { dt: 'FP32', arb: fc.array(f32).map((a) => Float32Array.from(a)) },
  { dt: 'FP64', arb: fc.array(fc.double()).map((a) => Float64Array.from(a)) },
  { dt: 'FP16', arb: fc.array(fc.integer({ min: 0, max: 0xffff })).map((a) => Uint16Array.from(a)) },
  { dt: 'BF16', arb: fc.array(fc.integer({ min: 0, max: 0xffff })).map((a) => Uint16Array.from(a)) },
];

/** FP16/BF16 compare by value: NaN payloads collapse to one quiet NaN through JSON, and that is fine. */
function comparable(dt: DataType, data: NumericArray): NumericArray {
  if (dt === 'FP16') return Float64Array.from(data as Uint16Array, halfBitsToFloat);
  if (dt === 'BF16') return Float64Array.from(data as Uint16Array, bf16BitsToFloat);
  return data;
}

describe('property: numeric tensors survive the full round trip', () => {
  for (const { dt, arb } of numericCases) {
    for (const binary of [false, true]) {
      test(`${dt} via ${binary ? 'binary' : 'JSON'}`, (t) => {
        fc.assert(
          fc.property(arb, (data) => {
            const t: Tensor = { name: 'x', datatype: dt, shape: [data.length], data };
            const back = fullRoundTrip(t, binary);
            assert.equal(back.datatype, dt);
            assert.deepEqual(back.shape, [data.length]);
            if (binary)
              assertDataEqual(back.data, data); // bit-exact, NaN payloads included
            else assertDataEqual(comparable(dt, back.data as NumericArray), comparable(dt, data));
          }),
          fuzzParams(t, { numRuns: 60 }),
        );
      });
    }
  }
});

describe('property: BYTES tensors survive the full round trip', () => {
  test('strings via JSON and binary, arbitrary bytes via binary', (t) => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' })), (strings) => {
        const data = strings.map((s) => enc(s));
        const t: Tensor = { name: 's', datatype: 'BYTES', shape: [data.length], data };
        assertDataEqual(fullRoundTrip(t, false).data, data);
        assertDataEqual(fullRoundTrip(t, true).data, data);
      }),
      fuzzParams(t, { numRuns: 100 }),
    );
    fc.assert(
      fc.property(fc.array(fc.uint8Array()), (data) => {
        const t: Tensor = { name: 's', datatype: 'BYTES', shape: [data.length], data };
        assertDataEqual(fullRoundTrip(t, true).data, data);
      }),
      fuzzParams(t, { numRuns: 100 }),
    );
  });
});

describe('encodeInferRequest', () => {
  const x: Tensor = { name: 'x', datatype: 'FP32', shape: [2], data: new Float32Array([1, 2]) };

  test('JSON body is the KServe $inference_request', () => {
    const { body, headerLength } = encodeInferRequest([x], {
      binary: false,
      id: 'r1',
      parameters: { binary_data_output: true },
      outputs: [{ name: 'y', parameters: { classification: 3 } }, { name: 'z' }],
    });
    assert.equal(headerLength, undefined);
    assert.deepEqual(JSON.parse(new TextDecoder().decode(body)), {
      id: 'r1',
      parameters: { binary_data_output: true },
      inputs: [{ name: 'x', datatype: 'FP32', shape: [2], data: [1, 2] }],
      outputs: [{ name: 'y', parameters: { classification: 3 } }, { name: 'z' }],
    });
  });

  test('binary body: padded JSON header with binary_data_size, then the bytes', () => {
    const { body, headerLength } = encodeInferRequest([x], { binary: true });
    assert.ok(headerLength !== undefined);
    assert.equal(headerLength % 8, 0);
    const header = JSON.parse(new TextDecoder().decode(body.subarray(0, headerLength))) as unknown;
    assert.deepEqual(header, { inputs: [{ name: 'x', datatype: 'FP32', shape: [2], parameters: { binary_data_size: 8 } }] });
    assert.deepEqual([...new Float32Array(body.slice(headerLength).buffer)], [1, 2]);
  });

  test('the server sees zero-copy views when the body buffer is aligned', () => {
    const { body, headerLength } = encodeInferRequest([x], { binary: true });
    const parsed = parseBinaryBody(body, String(headerLength));
    if (parsed.kind !== 'json') throw new Error('expected JSON');
    const t = decodeInferRequestJson(parsed.json, { bytes: parsed.binary }).inputs[0]!;
    assert.equal((t.data as Float32Array).buffer, body.buffer);
  });
});

describe('decodeInferResponse', () => {
  test('binary outputs are views over the body', () => {
    const resp = encodeInferResponse(
      { model_name: 'm', model_version: '1', outputs: [{ name: 'y', datatype: 'FP64', shape: [1, 2], data: new Float64Array([3, 4]) }] },
      { binaryOutputs: 'all' },
    );
    const body = concatBytes([resp.json, ...resp.binary]);
    const out = decodeInferResponse(body, resp.headerLength).outputs[0]!;
    assert.equal((out.data as Float64Array).buffer, body.buffer);
    assert.deepEqual([...(out.data as Float64Array)], [3, 4]);
  });

  test('model_version may be absent; the error body of a failed request is reported', () => {
    const r = decodeInferResponse(enc('{"model_name":"m","outputs":[]}'));
    assert.equal(r.model_version, '');
    assertRtError(() => decodeInferResponse(enc('{"error":"model not ready"}')), 'BAD_JSON', 'model not ready');
  });

  test('header length and binary section are checked', () => {
    const json = enc('{"model_name":"m","outputs":[{"name":"y","datatype":"INT32","shape":[1],"parameters":{"binary_data_size":4}}]}');
    assertRtError(
      () => decodeInferResponse(json, json.byteLength + 1),
      'BAD_BINARY_HEADER',
      `does not fit the response body of ${json.byteLength} bytes`,
    );
    assertRtError(() => decodeInferResponse(json, json.byteLength), 'BAD_DATA', "output 'y': binary_data_size is 4 but only 0 bytes");
    assertRtError(() => decodeInferResponse(concatBytes([json, new Uint8Array(6)]), json.byteLength), 'BAD_BINARY_HEADER', '2 bytes left over');
    assertRtError(
      () => decodeInferResponse(enc('{"model_name":"m","outputs":[{"name":"y","datatype":"INT32","shape":[2],"data":[1]}]}')),
      'BAD_DATA',
      "output 'y': shape [2] needs 2 elements, data has 1",
    );
  });
});

describe('browser safety', () => {
  test('the client codec and what it imports use no Node-only modules or Buffer', () => {
    const files = ['codec/kserve-client-codec.ts', 'codec/wire-tensor.ts', 'codec/tensor-data.ts', 'tensor/half.ts'];
    for (const f of files) {
      const text = readFileSync(new URL(`../../../src/${f}`, import.meta.url), 'utf8');
      // Code only: comments may mention Buffer to say it is not used.
      const src = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      assert.doesNotMatch(src, /from ['"]node:/, `${f} imports a node: module`);
      assert.doesNotMatch(src, /\bBuffer\b/, `${f} uses Buffer`);
      assert.doesNotMatch(src, /\bprocess\./, `${f} uses process`);
    }
  });
});
