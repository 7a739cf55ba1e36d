/**
 * The drain ends when the work does on every front end (issue 37's abuse suite, "SIGTERM under clients that ignore
 * 503 and reconnect"): after SIGTERM, clients that ignore SERVER_DRAINING / UNAVAILABLE and open a new gRPC
 * channel, WebSocket session or SSE generate_stream request at once, over and over, do not keep the real
 * `rtserve serve` process up: it exits far inside its exit timeout, and every request of the well-behaved clients
 * on those front ends (admitted before the signal) is answered: gRPC calls OK or SERVER_DRAINING, WebSocket
 * results then close 1001, SSE streams 200 or 503. The REST case is drain-hammer.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type * as grpc from '@grpc/grpc-js';
import {
  drainLogLine,
  openSocket,
  postOnce,
  runWsClient,
  startGrpcLoad,
  startHammers,
  startRestLoad,
  startSlowCli,
  wsInferOnce,
} from '../../helpers/drain-load.ts';
import { inferenceClient, unary, type InferenceClient } from '../grpc/grpc-test-client.ts';
import { waitFor } from './helpers.ts';

const INPUTS = [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array<number>(64).fill(0.5) }];
const GRPC_REQUEST = {
  model_name: 'slow',
  inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], contents: { fp32_contents: new Array<number>(64).fill(0.5) } }],
};
const EXIT_TIMEOUT_SECS = 60;
/** Clients that keep reconnecting, per front end. */
const HAMMERS = 12;

/** One ModelInfer on a new channel: whether the server answered (OK, or its SERVER_DRAINING). */
async function grpcOnce(address: string): Promise<boolean> {
  const client = inferenceClient(address);
  try {
    await unary(client, 'ModelInfer', GRPC_REQUEST);
    return true;
  } catch (err) {
    return /SERVER_DRAINING|shutting down/.test((err as grpc.ServiceError).details);
  } finally {
    client.close();
  }
}

describe('SIGTERM with gRPC, WebSocket and SSE clients that keep reconnecting', () => {
  test('the process exits far inside its exit timeout; every admitted gRPC, WebSocket and SSE request answered', async () => {
    const { child, urls, exited, stderr, exitedAt, cleanup } = await startSlowCli(EXIT_TIMEOUT_SECS);
    const http = urls['http'] ?? '';
    const grpcAddress = urls['grpc'] ?? '';
    const wsUrl = `${http.replace(/^http/, 'ws')}/v2/ws`;
    const sseUrl = `${http}/v2/models/slow/generate_stream`;
    const grpcClients: InferenceClient[] = Array.from({ length: 4 }, () => inferenceClient(grpcAddress));
    try {
      // Well-behaved clients (they stop at SERVER_DRAINING) whose requests are admitted before the signal.
      const grpcLoad = startGrpcLoad(grpcClients.length, (i) =>
        unary(grpcClients[i] as InferenceClient, 'ModelInfer', GRPC_REQUEST).then(
          () => ({ code: 0, details: '' }),
          (err: grpc.ServiceError) => ({ code: err.code, details: err.details }),
        ),
      );
      const sockets = await Promise.all(Array.from({ length: 2 }, () => openSocket(wsUrl)));
      const ws = sockets.map((s) => runWsClient(s, 4, { model: 'slow', inputs: INPUTS }));
      const sse = startRestLoad(sseUrl, { inputs: INPUTS }, 4, 'keep-alive');
      await waitFor(
        'answers on the three front ends before the signal',
        () => (grpcLoad.tally.ok >= 20 && ws.every((c) => c.results >= 10) && sse.tally.ok >= 20 ? true : undefined),
        60_000,
      );
      const stopped = (): boolean => exitedAt() !== undefined;
      let wsIds = 0;
      const sseBody = Buffer.from(JSON.stringify({ inputs: INPUTS }));
      const hammers = [
        startHammers(HAMMERS, () => grpcOnce(grpcAddress), stopped),
        startHammers(HAMMERS, () => wsInferOnce(wsUrl, { type: 'infer', id: `h${wsIds++}`, model: 'slow', inputs: INPUTS }), stopped),
        startHammers(HAMMERS, () => postOnce(new URL(sseUrl), sseBody), stopped),
      ];
      grpcLoad.markSignal();
      sse.markSignal();
      const signalledAt = Date.now();
      child.kill('SIGTERM');
      assert.equal(await exited, 0, stderr());
      const tookMs = (exitedAt() ?? Date.now()) - signalledAt;
      await Promise.all(hammers.map((h) => h.done));
      await grpcLoad.done;
      await sse.done;
      const closes = await Promise.all(ws.map((c) => c.closed));
      const [g, w, s] = hammers.map((h) => h.counts);
      process.stdout.write(
        `# exited ${tookMs} ms after SIGTERM; reconnecting clients (attempts/unanswered) gRPC ${g?.sent}/${g?.failed}, WebSocket ${w?.sent}/${w?.failed}, SSE ${s?.sent}/${s?.failed}; admitted gRPC ${JSON.stringify(grpcLoad.tally)}, SSE ${JSON.stringify(sse.tally)}\n`,
      );
      // Generous: the drain is drainQuietMs (1 s) after the last admitted request; the exit timeout is 60 s.
      assert.ok(tookMs < (EXIT_TIMEOUT_SECS * 1000) / 2, `exited ${tookMs} ms after SIGTERM (exit timeout ${EXIT_TIMEOUT_SECS} s)`);
      for (const [name, c] of [
        ['gRPC', g],
        ['WebSocket', w],
        ['SSE', s],
      ] as const) {
        assert.ok((c?.sent ?? 0) > HAMMERS, `the ${name} clients kept reconnecting after the signal: ${JSON.stringify(c)}`);
      }

      const gt = grpcLoad.tally;
      assert.deepEqual(gt.lostErrors, [], JSON.stringify(gt));
      assert.equal(gt.sent, gt.ok + gt.draining, 'every gRPC call that reached the server was answered');
      for (const [i, c] of closes.entries()) {
        assert.equal(c.code, 1001, `socket ${i} closed with ${c.code}`);
        assert.deepEqual(c.unanswered, [], `socket ${i}: every request sent got a result or an error before the close`);
        assert.deepEqual(c.otherErrors, [], `socket ${i}: only SERVER_DRAINING errors`);
      }
      const st = sse.tally;
      assert.deepEqual(st.lostErrors, [], JSON.stringify(st));
      assert.equal(st.lost, 0, 'every SSE request of the well-behaved clients was answered');
      assert.equal(st.otherStatus, 0, JSON.stringify(st));
      assert.equal(st.sent, st.answered);
      assert.ok(drainLogLine(stderr()) !== undefined, `the drain's log line: ${stderr()}`);
    } finally {
      for (const c of grpcClients) c.close();
      await cleanup();
    }
  });
});
