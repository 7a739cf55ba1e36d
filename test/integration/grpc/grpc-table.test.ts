/**
 * The shared integration table (test/integration/cases.ts) over gRPC ModelInfer, with a grpc-js client generated
 * from rtserve's own .proto by @grpc/proto-loader: once with every input in raw_input_contents and once with typed
 * InferTensorContents. Every success case must also return the very same tensors over REST (binary data) and
 * gRPC: same names, datatypes, shapes and bytes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import type { Tensor } from '../../../src/core/types.ts';
import { decodeInferResponse, encodeInferRequest } from '../../../src/transport/codec/kserve-client-codec.ts';
import { startTestServer } from '../../helpers/server.ts';
import { INFER_CASES, TableError, plainValues, type InferCase, type TableClient, type TableRequest } from '../cases.ts';
import { grpcTableClient, inferenceClient, rawBytes, type InferenceClient } from './grpc-test-client.ts';

async function runCase(client: TableClient, c: InferCase): Promise<void> {
  const expect = c.expect;
  if ('error' in expect) {
    await assert.rejects(client(c.request), (err: unknown) => {
      assert.ok(err instanceof TableError, `expected a TableError, got ${String(err)}`);
      assert.equal(err.category, expect.error, err.message);
      for (const part of expect.messageIncludes) assert.ok(err.message.includes(part), `message ${JSON.stringify(err.message)} should mention ${part}`);
      return true;
    });
    return;
  }
  const res = await client(c.request);
  if (expect.id !== undefined) assert.equal(res.id, expect.id);
  assert.deepEqual(res.outputs.map((o) => o.name), expect.outputs.map((o) => o.name));
  for (const [i, want] of expect.outputs.entries()) {
    const got = res.outputs[i];
    assert.ok(got !== undefined);
    assert.equal(got.datatype, want.datatype, `${want.name} datatype`);
    assert.deepEqual([...got.shape], want.shape, `${want.name} shape`);
    assert.deepEqual(plainValues(got), want.data, `${want.name} data`);
  }
}

/** REST with binary tensor data for inputs and outputs (reference §2.3). */
async function restBinary(baseUrl: string, req: TableRequest): Promise<Tensor[]> {
  const outputs = (req.outputs ?? []).map((o) => ({ ...o, parameters: { ...o.parameters, binary_data: true } }));
  const enc = encodeInferRequest(req.inputs, {
    binary: true,
    parameters: { ...req.parameters, binary_data_output: true },
    ...(outputs.length > 0 && { outputs }),
  });
  const path = `/v2/models/${req.model}${req.version === undefined ? '' : `/versions/${req.version}`}/infer`;
  const res = await fetch(baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(enc.headerLength) },
    body: enc.body,
  });
  const body = new Uint8Array(await res.arrayBuffer());
  assert.equal(res.status, 200, new TextDecoder().decode(body));
  const hl = res.headers.get('inference-header-content-length');
  return [...decodeInferResponse(body, hl === null ? undefined : Number(hl)).outputs];
}

describe('gRPC: the shared integration table', () => {
  let server: RunningServer;
  let client: InferenceClient;
  before(async () => {
    server = await startTestServer();
    assert.ok(server.grpcAddress !== undefined);
    client = inferenceClient(server.grpcAddress);
  });
  after(async () => {
    client.close();
    await server.close();
  });

  for (const typed of [false, true]) {
    for (const c of INFER_CASES) {
      test(`${typed ? 'typed contents' : 'raw contents'}: ${c.name}`, async () => {
        await runCase(grpcTableClient(client, typed), c);
      });
    }
  }

  for (const c of INFER_CASES) {
    if ('error' in c.expect) continue;
    test(`REST binary and gRPC return identical tensors: ${c.name}`, async () => {
      const viaRest = await restBinary(server.httpUrl, c.request);
      const viaGrpc = (await grpcTableClient(client, false)(c.request)).outputs;
      assert.equal(viaGrpc.length, viaRest.length);
      for (const [i, r] of viaRest.entries()) {
        const g = viaGrpc[i]!;
        assert.equal(g.name, r.name);
        assert.equal(g.datatype, r.datatype, `${r.name} datatype`);
        assert.deepEqual([...g.shape], [...r.shape], `${r.name} shape`);
        assert.deepEqual(rawBytes(g), rawBytes(r), `${r.name} bytes`);
      }
    });
  }
});
