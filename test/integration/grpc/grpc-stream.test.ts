/**
 * ModelStreamInfer (docs/protocol.md §2.5): many requests pipelined on one stream are each answered exactly once with
 * their id; a bad request in the middle gets an error response (error_message, with its id) and the stream carries
 * on; closing our side ends the stream with OK once everything is answered.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { startTestServer } from '../../helpers/server.ts';
import {
  inferenceClient,
  inferRequestObject,
  streamAll,
  tensorsOf,
  type InferenceClient,
  type ModelStreamInferResponse,
} from './grpc-test-client.ts';

const N = 1000;
const BAD = 500;

function request(i: number, typed: boolean): Record<string, unknown> {
  const in0 = Int32Array.from({ length: 16 }, (_, k) => i + k);
  const in1 = Int32Array.from({ length: 16 }, () => 1);
  // Request BAD sends INPUT0 with 15 elements: the model wants [-1, 16].
  const shape = i === BAD ? [1, 15] : [1, 16];
  return inferRequestObject(
    {
      model: 'simple',
      id: `r-${i}`,
      inputs: [
        { name: 'INPUT0', datatype: 'INT32', shape, data: i === BAD ? in0.subarray(0, 15) : in0 },
        { name: 'INPUT1', datatype: 'INT32', shape, data: i === BAD ? in1.subarray(0, 15) : in1 },
      ],
    },
    typed,
  );
}

describe('gRPC ModelStreamInfer', () => {
  let server: RunningServer;
  let client: InferenceClient;
  before(async () => {
    server = await startTestServer();
    client = inferenceClient(server.grpcAddress!);
  });
  after(async () => {
    client.close();
    await server.close();
  });

  for (const typed of [false, true]) {
    test(`${N} requests pipelined on one stream (${typed ? 'typed' : 'raw'} contents), one invalid in the middle`, async () => {
      // Everything is written before any answer is read: the server must keep up without losing any.
      const responses = await streamAll(
        client,
        Array.from({ length: N }, (_, i) => request(i, typed)),
      );

      assert.equal(responses.length, N, 'every request is answered once');
      const seen = new Set<string>();
      for (const r of responses) {
        const id = r.infer_response?.id ?? '';
        assert.ok(!seen.has(id), `id ${id} answered twice`);
        seen.add(id);
        const i = Number(id.slice(2));
        if (i === BAD) {
          assert.match(r.error_message, /INPUT0/);
          assert.match(r.error_message, /16/);
          assert.equal(r.infer_response?.model_name, 'simple');
          continue;
        }
        assert.equal(r.error_message, '', `request ${id}: ${r.error_message}`);
        const [out0, out1] = tensorsOf(r.infer_response!);
        // OUTPUT0 = INPUT0 + INPUT1, OUTPUT1 = INPUT0 - INPUT1 for this request's own data.
        assert.deepEqual(
          [...(out0!.data as Int32Array)],
          Array.from({ length: 16 }, (_, k) => i + k + 1),
          `OUTPUT0 of ${id}`,
        );
        assert.deepEqual(
          [...(out1!.data as Int32Array)],
          Array.from({ length: 16 }, (_, k) => i + k - 1),
          `OUTPUT1 of ${id}`,
        );
      }
      assert.equal(seen.size, N);
      for (let i = 0; i < N; i++) assert.ok(seen.has(`r-${i}`), `r-${i} answered`);
    });
  }

  test('a stream with a small in-flight limit still answers everything (the server pauses reading, not failing)', async () => {
    const small = await startTestServer({ grpcMaxInflightPerStream: 4 });
    const c = inferenceClient(small.grpcAddress!);
    try {
      const stream = c.ModelStreamInfer();
      const ids: string[] = [];
      const ended = new Promise<void>((resolve, reject) => {
        stream.on('data', (r: ModelStreamInferResponse) => {
          assert.equal(r.error_message, '');
          ids.push(r.infer_response?.id ?? '');
        });
        stream.on('end', resolve);
        stream.on('error', reject);
      });
      for (let i = 0; i < 200; i++) if (i !== BAD) stream.write(request(i, false));
      stream.end();
      await ended;
      assert.equal(ids.length, 200);
      assert.equal(new Set(ids).size, 200);
    } finally {
      c.close();
      await small.close();
    }
  });
});
