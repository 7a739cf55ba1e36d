/**
 * grpcMaxConnectionAgeMs (grpc.max_connection_age_ms, docs/scaling.md): the server sends GOAWAY to a connection
 * past its age, so the client's channel leaves READY and reconnects for its next call (through a load balancer,
 * possibly to another replica); calls keep working. Off by default: the connection stays.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { startTestServer } from '../../helpers/server.ts';
import { inferenceClient, unary } from './grpc-test-client.ts';

/** Resolves with the channel's next state other than `from`. */
function nextState(client: grpc.Client, from: grpc.connectivityState): Promise<grpc.connectivityState> {
  return new Promise((resolve, reject) => {
    client.getChannel().watchConnectivityState(from, Date.now() + 30_000, (err) => {
      if (err) reject(err);
      else resolve(client.getChannel().getConnectivityState(false));
    });
  });
}

describe('gRPC max connection age', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ grpcMaxConnectionAgeMs: 300, grpcMaxConnectionAgeGraceMs: 1000 });
  });
  after(async () => server.close());

  it('a connection past its age is closed with GOAWAY; the next call reconnects and succeeds', async () => {
    const client = inferenceClient(server.grpcAddress as string);
    try {
      assert.deepEqual(await unary(client, 'ServerReady', {}), { ready: true });
      assert.equal(client.getChannel().getConnectivityState(false), grpc.connectivityState.READY);
      // GOAWAY at the age: the channel leaves READY on its own (no call made meanwhile).
      const left = await nextState(client, grpc.connectivityState.READY);
      assert.notEqual(left, grpc.connectivityState.READY);
      assert.deepEqual(await unary(client, 'ServerReady', {}), { ready: true }, 'the next call reconnects');
    } finally {
      client.close();
    }
  });
});
