/**
 * A ModelStreamInfer client that sends requests and never reads the responses (issue 37's abuse suite, "a slow or
 * non-reading client"): the server bounds the response bytes it holds unsent for that stream (4 × the larger of
 * wsMaxBufferedBytes and grpcMaxMessageBytes), then cancels the stream's work and ends it with RESOURCE_EXHAUSTED
 * SLOW_CONSUMER behind what the client has not read, counted in rtserve_slow_clients_total{kind="grpc_closed"};
 * other clients keep being served. Before, the stream only stopped reading requests while its writes were backed
 * up: up to grpcMaxInflightPerStream (1024) responses per stream waited unsent, and the stream was never ended.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type * as grpc from '@grpc/grpc-js';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { startTestServer } from '../../helpers/server.ts';
import { parseSamples, scrape, valueOf, waitFor } from '../ops/helpers.ts';
import { inferenceClient, inferRequestObject, unary, type InferenceClient } from './grpc-test-client.ts';

/** Both settings at their minimum: the bound is 4 KiB, a request or an answer about 200 bytes. */
const MAX_BUFFERED = 1024;
/** Requests written before the counter is watched: far more than the client's flow-control window holds answers to. */
const REQUESTS = 6000;

function request(i: number): Record<string, unknown> {
  const data = Int32Array.from({ length: 16 }, (_, k) => i + k);
  return inferRequestObject(
    {
      model: 'simple',
      id: `r-${i}`,
      inputs: [
        { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data },
        { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data },
      ],
    },
    false,
  );
}

describe('a gRPC ModelStreamInfer client that never reads', () => {
  let server: RunningServer;
  let slow: InferenceClient;
  let other: InferenceClient;
  const closedByBound = async (): Promise<number> =>
    valueOf(parseSamples(await scrape(`${server.metricsUrl}/metrics`)), 'rtserve_slow_clients_total', { kind: 'grpc_closed' }) ?? 0;

  before(async () => {
    server = await startTestServer({ wsMaxBufferedBytes: MAX_BUFFERED, grpcMaxMessageBytes: MAX_BUFFERED });
    slow = inferenceClient(server.grpcAddress!);
    other = inferenceClient(server.grpcAddress!);
  });
  after(async () => {
    slow.close();
    other.close();
    await server.close();
  });

  test('is ended with RESOURCE_EXHAUSTED SLOW_CONSUMER once its unsent responses pass the bound, counted; others are served', async () => {
    const before = await closedByBound();
    const call = slow.ModelStreamInfer();
    // No 'data' listener: the client's stream stays paused, so grpc-js stops reading the HTTP/2 stream.
    const status = new Promise<grpc.StatusObject>((resolve) => call.on('status', resolve));
    call.on('error', () => {});
    for (let i = 0; i < REQUESTS; i++) call.write(request(i));
    await waitFor(
      'the server to end the stream of a client that reads nothing',
      async () => ((await closedByBound()) > before ? true : undefined),
      30_000,
    );
    assert.equal((await closedByBound()) - before, 1, 'the end is counted once');

    // Another client is served while the slow one still holds its unread answers.
    const answer = await unary<{ id: string }>(other, 'ModelInfer', request(1));
    assert.equal(answer.id, 'r-1');

    // The slow client reads at last: what was queued before the end, then the status.
    let read = 0;
    call.on('data', () => read++);
    const s = await status;
    process.stdout.write(`# requests written ${REQUESTS}, responses read before the status ${read}\n`);
    assert.equal(s.code, 8, `RESOURCE_EXHAUSTED, got ${s.code} ${s.details}`);
    assert.match(s.details, /too slowly/);
    assert.ok(read < REQUESTS, `the stream's work was cancelled: ${read} of ${REQUESTS} answered`);
  });
});
