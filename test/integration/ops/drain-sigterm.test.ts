import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CLI_FROM_SOURCES, startCli } from '../../helpers/cli.ts';
import type * as grpc from '@grpc/grpc-js';
import { openSocket, runWsClient, startGrpcLoad, startRestLoad, type RestClientKind } from '../../helpers/drain-load.ts';
import { inferenceClient, unary, type InferenceClient } from '../grpc/grpc-test-client.ts';
import { makeRepository, slowMlpConfig } from '../../helpers/server.ts';
import { waitFor } from './helpers.ts';

const BODY = { inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array<number>(64).fill(0.5) }] };

/**
 * The real `rtserve serve` process under load, stopped with a real SIGTERM: every request that reached it is
 * answered (200 when admitted before the signal, else 503 SERVER_DRAINING with Retry-After and Connection: close),
 * none is reset, and the process exits 0.
 */
describe('SIGTERM under REST load loses nothing', () => {
  for (const kind of ['per-request', 'keep-alive'] as const satisfies readonly RestClientKind[]) {
    test(`${kind} clients: sent = answered, lost = 0`, async () => {
      // Partial batches wait 50 ms: there is always work in flight when the signal comes.
      const repo = await makeRepository({ slow: slowMlpConfig(50_000) });
      const { child, urls, exited, stderr } = await startCli(
        CLI_FROM_SOURCES,
        ['--model-repository', repo.dir, '--http-port', '0', '--grpc-port', '0', '--metrics-port', '0'],
        {
          env: { ...process.env, RTSERVE_LOG_LEVEL: 'warn' },
        },
      );
      try {
        const load = startRestLoad(`${urls['http'] ?? ''}/v2/models/slow/infer`, BODY, 24, kind);
        await waitFor('some answers before the signal', () => (load.tally.ok >= 100 ? true : undefined), 60_000);
        load.markSignal();
        child.kill('SIGTERM');
        await load.done;
        const t = load.tally;
        assert.equal(await exited, 0, stderr());
        assert.deepEqual(t.lostErrors, [], `lost: ${JSON.stringify(t)}`);
        assert.equal(t.lost, 0);
        assert.equal(t.sent, t.answered);
        assert.equal(t.otherStatus, 0, JSON.stringify(t));
        assert.equal(t.badDraining, 0, 'every 503 carried Retry-After and Connection: close');
        // Each client ends on SERVER_DRAINING (or, arriving after the listener closed, on a refused connection).
        assert.equal(t.draining + t.refused, 24, JSON.stringify(t));
        assert.ok(t.draining > 0, JSON.stringify(t));
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
        await repo.cleanup();
      }
    });
  }
});

describe('SIGTERM under gRPC and WebSocket load', () => {
  test('gRPC: in-flight calls finish after GOAWAY, none is lost; WebSocket: every request answered, then close 1001', async () => {
    const repo = await makeRepository({ slow: slowMlpConfig(50_000) });
    const { child, urls, exited, stderr } = await startCli(
      CLI_FROM_SOURCES,
      ['--model-repository', repo.dir, '--http-port', '0', '--grpc-port', '0', '--metrics-port', '0'],
      {
        env: { ...process.env, RTSERVE_LOG_LEVEL: 'warn' },
      },
    );
    const grpcClients = Array.from({ length: 8 }, () => inferenceClient(urls['grpc'] ?? ''));
    try {
      const request = {
        model_name: 'slow',
        inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], contents: { fp32_contents: new Array<number>(64).fill(0.5) } }],
      };
      const grpcLoad = startGrpcLoad(grpcClients.length, (i) =>
        unary(grpcClients[i] as InferenceClient, 'ModelInfer', request).then(
          () => ({ code: 0, details: '' }),
          (err: grpc.ServiceError) => ({ code: err.code, details: err.details }),
        ),
      );
      // WebSocket: 4 sockets, each keeping 4 requests in flight until the socket closes.
      const wsUrl = `${(urls['http'] ?? '').replace(/^http/, 'ws')}/v2/ws`;
      const sockets = await Promise.all(Array.from({ length: 4 }, () => openSocket(wsUrl)));
      const ws = sockets.map((s) => runWsClient(s, 4, { model: 'slow', inputs: BODY.inputs }));
      await waitFor('answers on both front ends', () => (grpcLoad.tally.ok >= 50 && ws.every((c) => c.results >= 10) ? true : undefined), 60_000);
      grpcLoad.markSignal();
      child.kill('SIGTERM');
      await grpcLoad.done;
      const closes = await Promise.all(ws.map((c) => c.closed));
      assert.equal(await exited, 0, stderr());

      const g = grpcLoad.tally;
      assert.deepEqual(g.lostErrors, [], JSON.stringify(g));
      assert.equal(g.sent, g.ok + g.draining);
      for (const [i, c] of closes.entries()) {
        assert.equal(c.code, 1001, `socket ${i} closed with ${c.code}`);
        assert.deepEqual(c.unanswered, [], `socket ${i}: every request sent got a result or an error before the close`);
        assert.deepEqual(c.otherErrors, [], `socket ${i}: only SERVER_DRAINING errors`);
      }
    } finally {
      for (const c of grpcClients) c.close();
      if (child.exitCode === null) child.kill('SIGKILL');
      await repo.cleanup();
    }
  });
});
