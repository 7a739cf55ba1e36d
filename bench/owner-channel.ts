/**
 * The engine owner's channel work per request, without an engine (#18, docs/workers.md): a child process plays
 * the owner (OwnerHub's infer path: the frame read, requestFromWire, the core's watch and unwatch of the request's
 * signal, responseToWire, the frame write) and answers at once; this process plays a front-end worker
 * (requestToWire, the call, responseFromWire) with `--concurrency` calls in flight. Reports each side's CPU per
 * request (process.cpuUsage, user + system) over the measured span: what the served path's owner spends on the
 * channel, apart from the core, the batcher and the engine.
 *
 *   node --import tsx bench/owner-channel.ts [--requests 60000] [--concurrency 16] [--shape simple|mlp] [--rounds 3]
 */
import { fork } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { FrameChannel } from '../src/cluster/frame-channel.ts';
import { RpcPeer } from '../src/cluster/rpc-peer.ts';
import { requestFromWire, requestToWire, responseFromWire, responseToWire } from '../src/cluster/infer-wire.ts';
import { rtError } from '../src/errors/registry.ts';
import { unwatchAbort, watchAbort, shareAbortSignal } from '../src/util/abort-watch.ts';
import { ownCpuUs } from '../src/bench/process-cpu.ts';
import type { InferRequest, InferResponse } from '../src/api/types.ts';
import type { RequestContext } from '../src/observability/request-context.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '60000' },
    concurrency: { type: 'string', default: '16' },
    shape: { type: 'string', default: 'simple' },
    rounds: { type: 'string', default: '3' },
    owner: { type: 'string' },
  },
});

if (values.owner !== undefined) {
  // The owner's side: answer every infer call at once, with the context fields the core fills in.
  const server = createServer((socket) => {
    const peer = new RpcPeer(
      new FrameChannel(socket),
      async (method, args, ctx) => {
        if (method === 'cpu') return { value: ownCpuUs() };
        const request = await requestFromWire(args.value, args.parts, ctx.signal);
        const waiter = { onAbort: () => undefined };
        watchAbort(ctx.signal, waiter);
        const c = request.context as RequestContext;
        const now = process.hrtime.bigint();
        Object.assign(c, { model: request.model, version: '1', batchSize: 4, validateUs: 3, schedulerUs: 40, batchRequests: 4 });
        Object.assign(c, {
          coreStartNs: now,
          coreEndNs: now,
          enqueuedNs: now,
          dispatchNs: now,
          batchStartNs: now,
          computeStartNs: now,
          computeEndNs: now,
        });
        unwatchAbort(ctx.signal, waiter);
        const response: InferResponse = {
          model_name: request.model,
          model_version: '1',
          outputs: request.inputs.map((t, i) => ({ ...t, name: `OUTPUT${i}` })),
        };
        return responseToWire(response, request.context);
      },
      () => rtError('CANCELLED', 'the front-end worker went away'),
      new Set(['infer']),
    );
    peer.onClose = () => server.close();
  });
  server.listen(values.owner, () => process.send?.('ready'));
  // Asked to stop: exit normally, so that a --cpu-prof profile of this side is written.
  process.on('message', () => process.exit(0));
} else {
  const dir = await mkdtemp(join(tmpdir(), 'rtserve-owner-channel-'));
  const path = join(dir, 's.sock');
  const child = fork(fileURLToPath(import.meta.url), ['--owner', path], { execArgv: process.execArgv });
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  const socket = connect(path);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const peer = new RpcPeer(
    new FrameChannel(socket),
    async () => ({ value: null }),
    () => rtError('ENGINE_OWNER_GONE', 'gone'),
  );
  const mlp = values.shape === 'mlp';
  const inputs = mlp
    ? [{ name: 'INPUT0', datatype: 'FP32' as const, shape: [1, 64], data: new Float32Array(64).fill(0.5) }]
    : [
        { name: 'INPUT0', datatype: 'INT32' as const, shape: [1, 16], data: new Int32Array(16).fill(3) },
        { name: 'INPUT1', datatype: 'INT32' as const, shape: [1, 16], data: new Int32Array(16).fill(4) },
      ];
  const model = mlp ? 'mlp' : 'simple';
  const concurrency = Number(values.concurrency);
  // One signal per "connection", shared by its sequential requests, as REST's are.
  const signals = Array.from({ length: concurrency }, () => {
    const s = new AbortController().signal;
    shareAbortSignal(s);
    return s;
  });
  const one = async (k: number): Promise<void> => {
    const context: RequestContext = {
      requestId: `req-${k}`,
      trace: {
        traceId: '0af7651916cd43dd8448eb211c80319c',
        spanId: 'b7ad6b7169203331',
        flags: '01',
        sampled: false,
      } as unknown as RequestContext['trace'],
      protocol: 'http',
      receivedNs: process.hrtime.bigint(),
    };
    const request: InferRequest = { model, inputs, context, signal: signals[k] as AbortSignal, protocol: 'http' };
    const answer = await peer.call('infer', requestToWire(request), { signal: request.signal as AbortSignal });
    responseFromWire(answer.value, answer.parts, context);
  };
  const run = async (n: number): Promise<void> => {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async (_, k) => {
        while (next++ < n) await one(k);
      }),
    );
  };
  const ownerCpu = async (): Promise<number> => Number((await peer.call('cpu', { value: null })).value);
  const n = Number(values.requests);
  await run(Math.min(n, 10_000)); // warm-up
  const results: { owner: number; worker: number; rate: number }[] = [];
  for (let r = 0; r < Number(values.rounds); r++) {
    const o0 = await ownerCpu();
    const w0 = ownCpuUs();
    const t0 = performance.now();
    await run(n);
    const t1 = performance.now();
    const w1 = ownCpuUs();
    const o1 = await ownerCpu();
    results.push({ owner: (o1 - o0) / n, worker: (w1 - w0) / n, rate: n / ((t1 - t0) / 1000) });
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  console.log(
    `${values.shape} c=${concurrency} n=${n}×${results.length}: owner ${median(results.map((x) => x.owner)).toFixed(1)} µs CPU/request (rounds ${results.map((x) => x.owner.toFixed(1)).join(', ')}), worker side ${median(results.map((x) => x.worker)).toFixed(1)} µs, ${Math.round(median(results.map((x) => x.rate)))} calls/s; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  socket.destroy();
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.send('exit');
  });
  await rm(dir, { recursive: true, force: true });
}
