/**
 * The engine owner's CPU per malformed request with front-end workers (#33, docs/workers.md): a server with
 * `--workers N` gets `--requests` REST JSON requests to `simple` whose INPUT0 has the wrong shape, `--concurrency`
 * at a time on keep-alive connections; the owner's process CPU (/proc) over them, divided by their number. With the
 * workers refusing such requests from the mirrored configs (app/worker-validation.ts) only a small notice per request
 * (for the model's failure count) reaches the owner.
 *
 *   node --import tsx bench/owner-bad-requests.ts [--workers 2] [--requests 5000] [--concurrency 16]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Agent, request } from 'node:http';
import { processCpuUs } from '../src/bench/process-cpu.ts';
import { startServerProcess } from '../src/bench/server-process.ts';

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '2' },
    requests: { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '16' },
  },
});
const server = await startServerProcess({ args: ['--workers', values.workers] });
const body = JSON.stringify({
  inputs: [
    { name: 'INPUT0', datatype: 'INT32', shape: [1, 15], data: new Array<number>(15).fill(1) },
    { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: new Array<number>(16).fill(1) },
  ],
});
const agent = new Agent({ keepAlive: true, maxSockets: Number(values.concurrency) });
const url = new URL('/v2/models/simple/infer', server.httpUrl);
const one = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const r = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    r.on('error', reject);
    r.end(body);
  });
const run = async (n: number): Promise<void> => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Number(values.concurrency) }, async () => {
      while (next++ < n) if ((await one()) !== 400) throw new Error('expected 400');
    }),
  );
};
try {
  await run(1000); // warm-up
  const n = Number(values.requests);
  const c0 = processCpuUs(server.pid) ?? Number.NaN;
  const t0 = performance.now();
  await run(n);
  const t1 = performance.now();
  const c1 = processCpuUs(server.pid) ?? Number.NaN;
  console.log(
    `--workers ${values.workers}, ${n} malformed requests at c=${values.concurrency}: owner ${((c1 - c0) / n).toFixed(1)} µs CPU per request, ${Math.round(n / ((t1 - t0) / 1000))} req/s; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
} finally {
  agent.destroy();
  await server.stop();
}
