/**
 * The shared integration table (test/integration/cases.ts) over gRPC ModelInfer, with a grpc-js client generated
 * from rtserve's own .proto by @grpc/proto-loader: once with every input in raw_input_contents and once with typed
 * InferTensorContents. Every success case must also return the very same tensors over REST (binary data) and
 * gRPC: same names, datatypes, shapes and bytes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { startTestServer } from '../../helpers/server.ts';
import { INFER_CASES, runTableCase } from '../cases.ts';
import { restClient } from '../http/rest-table-client.ts';
import { grpcTableClient, inferenceClient, rawBytes, type InferenceClient } from './grpc-test-client.ts';

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
        await runTableCase(grpcTableClient(client, typed), c);
      });
    }
  }

  for (const c of INFER_CASES) {
    if ('error' in c.expect) continue;
    test(`REST binary and gRPC return identical tensors: ${c.name}`, async () => {
      const viaRest = (await restClient(server.httpUrl, true)(c.request)).outputs;
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
