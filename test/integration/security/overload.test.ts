/**
 * Overload: a flood far beyond capacity keeps memory bounded and is refused fast beyond the queue bound
 * (docs/architecture.md, Contracts: bounded queues, overload answered at once with RESOURCE_EXHAUSTED, never by growing memory).
 * The model holds partial batches for a long max_queue_delay and its max_batch_size is larger than the queue, so
 * every admitted request stays queued while the flood arrives. gRPC carries the flood: HTTP/2 multiplexes the
 * 12,000 calls over one connection, where HTTP/1.1 would need 12,000 sockets.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { makeRepository, startTestServer } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { encodeModelInferRequest } from '../../../src/codec/grpc/infer-client-codec.ts';

const QUEUE_BOUND = 10_000;
const FLOOD = 12_000;
const INFER = '/inference.GRPCInferenceService/ModelInfer';
/** Generous: 10,000 queued requests of 256 bytes each, their HTTP/2 streams, and the client's side of them. */
const MAX_RSS_GROWTH_BYTES = 1024 * 1024 * 1024;

describe('overload: 12,000 requests against a queue bound of 10,000', () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  before(async () => {
    const repo = await makeRepository({
      mlp_slow: {
        from: 'mlp',
        config: {
          max_batch_size: 16384,
          input: [{ name: 'input', data_type: 'TYPE_FP32', dims: [64] }],
          output: [{ name: 'logits', data_type: 'TYPE_FP32', dims: [10] }],
          dynamic_batching: { max_queue_delay_microseconds: 30_000_000, default_queue_policy: { max_queue_size: QUEUE_BOUND } },
        },
      },
    });
    cleanup = repo.cleanup;
    // A short exit timeout: closing the server answers the held requests (SERVER_DRAINING) instead of waiting 30 s.
    server = await startTestServer({ modelRepository: [repo.dir], exitTimeoutSecs: 1 });
  });
  after(async () => {
    await server.close();
    await cleanup();
  });

  test('the queue holds 10,000, the rest are refused with RESOURCE_EXHAUSTED before any is served, memory stays bounded, all queued are answered', async () => {
    assert.ok(server.grpcAddress !== undefined);
    const client = new grpc.Client(server.grpcAddress, grpc.credentials.createInsecure());
    const body = encodeModelInferRequest({
      model: 'mlp_slow',
      inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], data: new Float32Array(64).fill(0.5) }],
    });
    const call = (deadlineMs: number) =>
      new Promise<{ code: number; details: string }>((resolve) => {
        client.makeUnaryRequest<Buffer, Buffer>(
          INFER,
          (b) => b,
          (b) => b,
          body,
          new grpc.Metadata(),
          { deadline: Date.now() + deadlineMs },
          (err) => resolve(err === null ? { code: 0, details: '' } : { code: err.code, details: err.details }),
        );
      });
    try {
      global.gc?.();
      const rssBefore = process.memoryUsage().rss;
      let served = 0;
      let refusedAfterServed = 0;
      let refused = 0;
      const outcomes = Array.from({ length: FLOOD }, () =>
        call(120_000).then((o) => {
          if (o.code === 0) served++;
          else if (o.code === grpc.status.RESOURCE_EXHAUSTED) {
            refused++;
            if (served > 0) refusedAfterServed++;
          }
          return o;
        }),
      );
      // Wait until every request is either queued or refused (no timing: poll the server's own count).
      for (let i = 0; refused + server.core.inFlightCount < FLOOD; i++) {
        assert.ok(i < 1200, `flood not settled: ${refused} refused, ${server.core.inFlightCount} in flight`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const rssPeak = process.memoryUsage().rss;
      assert.equal(server.core.inFlightCount, QUEUE_BOUND, 'exactly the queue bound is held');
      assert.equal(refused, FLOOD - QUEUE_BOUND);
      assert.equal(served, 0, 'nothing was served yet: the refusals did not wait for the queue');
      const growth = rssPeak - rssBefore;
      console.log(
        `# RSS ${Math.round(rssBefore / 2 ** 20)} MiB -> ${Math.round(rssPeak / 2 ** 20)} MiB with ${QUEUE_BOUND} queued (${Math.round(growth / QUEUE_BOUND)} bytes per queued request, client included)`,
      );
      assert.ok(growth < MAX_RSS_GROWTH_BYTES, `RSS grew by ${Math.round(growth / 2 ** 20)} MiB`);

      // Every queued request still gets an answer when the server closes (none hangs).
      const closing = server.close();
      const all = await Promise.all(outcomes);
      await closing;
      assert.match(all.find((o) => o.code === grpc.status.RESOURCE_EXHAUSTED)?.details ?? '', /max_queue_size/);
      assert.equal(refusedAfterServed, 0);
      const codes = new Map<number, number>();
      for (const o of all) codes.set(o.code, (codes.get(o.code) ?? 0) + 1);
      assert.equal(codes.get(grpc.status.RESOURCE_EXHAUSTED), FLOOD - QUEUE_BOUND);
      // Served, or ended by the shutdown (SERVER_DRAINING, or CANCELLED when the gRPC port is cut at the exit timeout).
      const ended = (codes.get(0) ?? 0) + (codes.get(grpc.status.UNAVAILABLE) ?? 0) + (codes.get(grpc.status.CANCELLED) ?? 0);
      assert.equal(ended, QUEUE_BOUND, `every queued request got an answer: ${JSON.stringify([...codes])}`);
    } finally {
      client.close();
    }
  });
});
