/**
 * Property-based tests of Triton's binary tensor extension on the REST port (Inference-Header-Content-Length +
 * JSON header + raw tensor bytes): random header lengths, corrupted JSON headers, truncated or padded binary
 * sections, raw (header length 0) bodies. Same invariants as rest-json.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestServer } from '../helpers/server.ts';
import type { RunningServer } from '../../src/app/rtserve-server.ts';
import { encodeInferRequest } from '../../src/codec/kserve-client-codec.ts';
import { A, B, FUZZ_RUNS, assertClientError, assertNoLeaks, assertStillServes, post } from './helpers.ts';
import { fuzzParams } from '../helpers/fuzz.ts';

function validBinary(): { body: Uint8Array<ArrayBuffer>; headerLength: number } {
  const enc = encodeInferRequest(
    [
      { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: Int32Array.from(A) },
      { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: Int32Array.from(B) },
    ],
    { binary: true, parameters: { binary_data_output: true } },
  );
  assert.ok(enc.headerLength !== undefined);
  return { body: enc.body, headerLength: enc.headerLength };
}

describe('fuzz: REST binary tensor data', () => {
  let server: RunningServer;
  let url: string;
  before(async () => {
    server = await startTestServer();
    url = `${server.httpUrl}/v2/models/simple/infer`;
  });
  after(async () => {
    await server.close();
  });

  test('the valid binary request itself is answered', async () => {
    const v = validBinary();
    const o = await post(url, v.body, { 'inference-header-content-length': String(v.headerLength), 'content-type': 'application/octet-stream' });
    assert.equal(o.status, 200, new TextDecoder().decode(o.body));
  });

  test('random Inference-Header-Content-Length values', async (t) => {
    const v = validBinary();
    const header = fc.oneof(
      fc.integer({ min: 0, max: v.body.length + 10 }).map(String),
      fc.constantFrom('-1', '', ' ', '1e3', '0x10', '99999999999999999999999', String(2 ** 53 + 1), `${v.headerLength}abc`, '+5'),
      fc.string({ maxLength: 12 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
    );
    await fc.assert(
      fc.asyncProperty(header, async (h) => {
        const o = await post(url, v.body, { 'inference-header-content-length': h, 'content-type': 'application/octet-stream' });
        if (o.status !== 200) assertClientError(o, `Inference-Header-Content-Length '${h}'`);
        await assertStillServes(server);
      }),
      fuzzParams(t, { numRuns: FUZZ_RUNS }),
    );
    assertNoLeaks(server);
  });

  test('corrupted JSON headers and binary sections', async (t) => {
    const v = validBinary();
    const edit = fc.record({
      at: fc.nat(v.body.length - 1),
      op: fc.constantFrom('flip', 'cut', 'insert', 'append'),
      byte: fc.integer({ min: 0, max: 255 }),
      count: fc.integer({ min: 1, max: 70 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), fc.boolean(), async (edits, keepHeaderLength) => {
        let bytes = Uint8Array.from(v.body);
        for (const e of edits) {
          const at = Math.min(e.at, bytes.length);
          if (e.op === 'flip' && at < bytes.length) bytes[at] = e.byte;
          else if (e.op === 'cut') bytes = bytes.subarray(0, at);
          else if (e.op === 'insert')
            bytes = Uint8Array.from([...bytes.subarray(0, at), ...new Array<number>(e.count).fill(e.byte), ...bytes.subarray(at)]);
          else bytes = Uint8Array.from([...bytes, ...new Array<number>(e.count).fill(e.byte)]);
        }
        const h = keepHeaderLength ? v.headerLength : Math.min(bytes.length, v.headerLength + (edits[0]?.count ?? 0));
        const o = await post(url, bytes, { 'inference-header-content-length': String(h), 'content-type': 'application/octet-stream' });
        if (o.status !== 200) assertClientError(o, `edits ${JSON.stringify(edits)}`);
        await assertStillServes(server);
      }),
      fuzzParams(t, { numRuns: FUZZ_RUNS }),
    );
    assertNoLeaks(server);
  });

  test('raw binary bodies (header length 0) to one- and two-input models', async (t) => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), fc.constantFrom('simple', 'mlp', 'identity_all', 'resnet_tiny'), async (bytes, model) => {
        const o = await post(`${server.httpUrl}/v2/models/${model}/infer`, bytes, {
          'inference-header-content-length': '0',
          'content-type': 'application/octet-stream',
        });
        if (o.status !== 200) assertClientError(o, `raw ${bytes.length} bytes to ${model}`);
        await assertStillServes(server);
      }),
      fuzzParams(t, { numRuns: FUZZ_RUNS }),
    );
    assertNoLeaks(server);
  });
});
