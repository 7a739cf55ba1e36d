/**
 * Production-hardening figures (issue #17), each against the real `rtserve serve` in its own process:
 *
 *   node --import tsx bench/hardening.ts [--part ws-idle,sigterm] [--sessions 10000] [--clients 32]
 *
 * ws-idle: opens `--sessions` WebSocket sessions that then stay idle (idle timeout off, heartbeat on), reports the
 *   server's resident memory before and after (VmRSS from /proc) and per session, then times one fresh inference over
 *   REST and one over a new WebSocket while they are all open. Needs a file descriptor limit above the session count
 *   in both processes: run under `ulimit -n 20000`.
 * sigterm: per front end (REST with a new connection per request, REST keep-alive, gRPC, WebSocket), `--clients`
 *   clients send back to back to a model whose partial batches wait 50 ms, a real SIGTERM comes after 200 answers,
 *   and every request is classified: answered (200, or 503 / UNAVAILABLE SERVER_DRAINING), refused (no connection:
 *   nothing reached the server) or lost (written, never answered). Lost must be 0.
 * Prints one JSON object; bench/results/hardening-<date>.md holds a run with its command.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';
import type * as grpc from '@grpc/grpc-js';
import { machineInfo } from '../src/bench/machine.ts';
import { CLI_FROM_SOURCES, startCli } from '../test/helpers/cli.ts';
import { startGrpcLoad, startRestLoad } from '../test/helpers/drain-load.ts';
import { makeRepository, slowMlpConfig } from '../test/helpers/server.ts';
import { inferenceClient, unary, type InferenceClient } from '../test/integration/grpc/grpc-test-client.ts';

const { values } = parseArgs({
  options: {
    part: { type: 'string', default: 'ws-idle,sigterm' },
    sessions: { type: 'string', default: '10000' },
    clients: { type: 'string', default: '32' },
  },
});
const parts = new Set((values.part ?? '').split(','));
const PORTS = ['--http-port', '0', '--grpc-port', '0', '--metrics-port', '0'];
const MLP_INPUTS = [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array<number>(64).fill(0.5) }];

function rssKiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? NaN);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function openWs(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function wsInfer(ws: WebSocket, id: string): Promise<string> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer): void => {
      const ev = JSON.parse(data.toString('utf8')) as { type: string; id?: string };
      if (ev.id !== id) return;
      ws.off('message', onMessage);
      resolve(ev.type);
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ type: 'infer', id, model: 'mlp', inputs: MLP_INPUTS }));
  });
}

async function wsIdle(sessions: number): Promise<Record<string, unknown>> {
  const cli = await startCli(
    CLI_FROM_SOURCES,
    [...PORTS, '--model-repository', 'models', '--model-control-mode', 'explicit', '--load-model', 'mlp'],
    {
      env: { ...process.env, RTSERVE_LOG_LEVEL: 'warn', RTSERVE_WS_IDLE_TIMEOUT_MS: '0' },
    },
  );
  const http = cli.urls['http'] ?? '';
  const wsUrl = `${http.replace(/^http/, 'ws')}/v2/ws`;
  try {
    // Warm the paths, then let the heap settle before the baseline.
    const warm = await openWs(wsUrl);
    await wsInfer(warm, 'warm');
    warm.close();
    await sleep(2000);
    const rssBefore = rssKiB(cli.child.pid ?? -1);
    const sockets: WebSocket[] = [];
    const t0 = performance.now();
    const BATCH = 200;
    for (let i = 0; i < sessions; i += BATCH) {
      const n = Math.min(BATCH, sessions - i);
      sockets.push(...(await Promise.all(Array.from({ length: n }, () => openWs(wsUrl)))));
    }
    const openSecs = (performance.now() - t0) / 1000;
    await sleep(5000);
    const rssAfter = rssKiB(cli.child.pid ?? -1);
    const open = sockets.filter((s) => s.readyState === s.OPEN).length;
    // A fresh inference while every session is open: REST, and a new WebSocket session.
    const r0 = performance.now();
    const rest = await fetch(`${http}/v2/models/mlp/infer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ inputs: MLP_INPUTS }),
    });
    await rest.arrayBuffer();
    const restMs = performance.now() - r0;
    const w0 = performance.now();
    const fresh = await openWs(wsUrl);
    const wsType = await wsInfer(fresh, 'fresh');
    const wsMs = performance.now() - w0;
    fresh.close();
    // And one on an idle session that has been open the whole time.
    const o0 = performance.now();
    const oldType = await wsInfer(sockets[Math.floor(sockets.length / 2)] as WebSocket, 'old');
    const oldMs = performance.now() - o0;
    const stillOpen = sockets.filter((s) => s.readyState === s.OPEN).length;
    for (const s of sockets) s.terminate();
    return {
      sessions,
      openSecs: Number(openSecs.toFixed(1)),
      openAfterSettle: open,
      stillOpenAfterInference: stillOpen,
      serverRssBeforeMiB: Number((rssBefore / 1024).toFixed(1)),
      serverRssAfterMiB: Number((rssAfter / 1024).toFixed(1)),
      serverKiBPerSession: Number(((rssAfter - rssBefore) / sessions).toFixed(2)),
      freshRest: { status: rest.status, ms: Number(restMs.toFixed(1)) },
      freshWs: { event: wsType, msIncludingConnect: Number(wsMs.toFixed(1)) },
      idleSessionInfer: { event: oldType, ms: Number(oldMs.toFixed(1)) },
    };
  } finally {
    cli.child.kill('SIGKILL');
  }
}

async function sigtermRun(kind: 'rest-per-request' | 'rest-keep-alive' | 'grpc' | 'ws', clients: number): Promise<Record<string, unknown>> {
  const repo = await makeRepository({ slow: slowMlpConfig(50_000) });
  const cli = await startCli(CLI_FROM_SOURCES, [...PORTS, '--model-repository', repo.dir], { env: { ...process.env, RTSERVE_LOG_LEVEL: 'warn' } });
  const http = cli.urls['http'] ?? '';
  const t0 = performance.now();
  try {
    const waitAnswers = async (count: () => number): Promise<void> => {
      while (count() < 200) await sleep(10);
    };
    if (kind === 'rest-per-request' || kind === 'rest-keep-alive') {
      const load = startRestLoad(
        `${http}/v2/models/slow/infer`,
        { inputs: MLP_INPUTS },
        clients,
        kind === 'rest-per-request' ? 'per-request' : 'keep-alive',
      );
      await waitAnswers(() => load.tally.ok);
      load.markSignal();
      cli.child.kill('SIGTERM');
      await load.done;
      const { lostErrors, ...t } = load.tally;
      return {
        kind,
        clients,
        ...t,
        lostErrors: lostErrors.slice(0, 5),
        exitCode: await cli.exited,
        secs: Number(((performance.now() - t0) / 1000).toFixed(1)),
      };
    }
    if (kind === 'grpc') {
      const channels = Array.from({ length: clients }, () => inferenceClient(cli.urls['grpc'] ?? ''));
      const request = {
        model_name: 'slow',
        inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], contents: { fp32_contents: MLP_INPUTS[0]?.data } }],
      };
      const load = startGrpcLoad(clients, (i) =>
        unary(channels[i] as InferenceClient, 'ModelInfer', request).then(
          () => ({ code: 0, details: '' }),
          (err: grpc.ServiceError) => ({ code: err.code, details: err.details }),
        ),
      );
      await waitAnswers(() => load.tally.ok);
      load.markSignal();
      cli.child.kill('SIGTERM');
      await load.done;
      for (const c of channels) c.close();
      const { lostErrors, ...t } = load.tally;
      return {
        kind,
        clients,
        ...t,
        lostErrors: lostErrors.slice(0, 5),
        exitCode: await cli.exited,
        secs: Number(((performance.now() - t0) / 1000).toFixed(1)),
      };
    }
    // WebSocket: each socket keeps 4 requests in flight; after SIGTERM, count requests without a result or error
    // event when the socket closes, and the close codes.
    const wsUrl = `${http.replace(/^http/, 'ws')}/v2/ws`;
    const sockets = await Promise.all(Array.from({ length: clients }, () => openWs(wsUrl)));
    let sent = 0;
    let results = 0;
    let draining = 0;
    let otherErrors = 0;
    let resultsAfterSignal = 0;
    let signalled = false;
    const closes = sockets.map(
      (ws, s) =>
        new Promise<{ code: number; unanswered: number }>((resolve) => {
          const pending = new Set<string>();
          let next = 0;
          let open = true;
          const send = (): void => {
            if (!open) return;
            const id = `s${s}r${next++}`;
            pending.add(id);
            sent++;
            ws.send(JSON.stringify({ type: 'infer', id, model: 'slow', inputs: MLP_INPUTS }));
          };
          ws.on('message', (data: Buffer) => {
            const ev = JSON.parse(data.toString('utf8')) as { type: string; id?: string; error?: { code: string } };
            if (ev.id === undefined || !pending.delete(ev.id)) return;
            if (ev.type === 'result') {
              results++;
              if (signalled) resultsAfterSignal++;
              send();
            } else if (ev.error?.code === 'SERVER_DRAINING') draining++;
            else otherErrors++;
          });
          ws.once('close', (code) => {
            open = false;
            resolve({ code, unanswered: pending.size });
          });
          for (let i = 0; i < 4; i++) send();
        }),
    );
    await waitAnswers(() => results);
    signalled = true;
    cli.child.kill('SIGTERM');
    const closed = await Promise.all(closes);
    const codes: Record<string, number> = {};
    for (const c of closed) codes[c.code] = (codes[c.code] ?? 0) + 1;
    const lost = closed.reduce((n, c) => n + c.unanswered, 0);
    return {
      kind,
      clients,
      sent,
      answered: results + draining + otherErrors,
      ok: results,
      draining,
      otherErrors,
      lost,
      resultsAfterSignal,
      closeCodes: codes,
      exitCode: await cli.exited,
      secs: Number(((performance.now() - t0) / 1000).toFixed(1)),
    };
  } finally {
    if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
    await repo.cleanup();
  }
}

const out: Record<string, unknown> = {
  command: `node --import tsx bench/hardening.ts ${process.argv.slice(2).join(' ')}`.trim(),
  machine: machineInfo(),
  date: new Date().toISOString(),
};
if (parts.has('ws-idle')) out['wsIdle'] = await wsIdle(Number(values.sessions));
if (parts.has('sigterm')) {
  const runs = [];
  for (const kind of ['rest-per-request', 'rest-keep-alive', 'grpc', 'ws'] as const) runs.push(await sigtermRun(kind, Number(values.clients)));
  out['sigterm'] = runs;
}
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
process.exit(0);
