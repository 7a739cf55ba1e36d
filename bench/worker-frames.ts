/**
 * A front-end worker's CPU per JPEG frame (#33, docs/workers.md): `--workers 2` in front of the stand-in frame engine
 * (test/helpers/frame-engine.ts: onnxruntime with the CPU reference decoder where the GPU would decode), the bundled
 * `shapes` detector, one JPEG scene per request over REST, either as one BYTES input of /v2/models/shapes/infer
 * (binary extension) or as the body of /v2/models/shapes/image. The load runs in a child process (keep-alive, `-c`
 * connections); the workers' CPU (/proc of each worker process) over `--requests` requests, less their idle CPU over
 * as long, per request. Run it with
 * `node --cpu-prof --cpu-prof-dir DIR --import tsx` to get each worker's profile (they inherit the flags).
 *
 *   node --import tsx bench/worker-frames.ts [--route infer|image] [--requests 2000] [--concurrency 8]
 */
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startServer } from '../src/app/rtserve-server.ts';
import { processCpuUs } from '../src/bench/process-cpu.ts';
import { loadServerConfig } from '../src/config/load-server-config.ts';
import { silentLogger } from '../src/observability/logger.ts';
import { frameDecodingEngine } from '../test/helpers/frame-engine.ts';
import { encodeScene, scene } from '../test/integration/image/image-helpers.ts';

const { values } = parseArgs({
  options: {
    route: { type: 'string', default: 'infer' },
    requests: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '8' },
    load: { type: 'string' },
  },
});

if (values.load !== undefined) {
  // The load generator's side: `requests` posts of one JPEG at `concurrency`, then reports back.
  const jpeg = await encodeScene(scene(21, 4), 'jpeg');
  const url = new URL(values.route === 'image' ? '/v2/models/shapes/image' : '/v2/models/shapes/infer', values.load);
  let body: Buffer;
  let headers: Record<string, string | number>;
  if (values.route === 'image') {
    body = Buffer.from(jpeg);
    headers = { 'content-type': 'image/jpeg' };
  } else {
    const head = Buffer.from(
      JSON.stringify({ inputs: [{ name: 'image', datatype: 'BYTES', shape: [1], parameters: { binary_data_size: jpeg.byteLength + 4 } }] }),
    );
    const length = Buffer.alloc(4);
    length.writeUInt32LE(jpeg.byteLength);
    body = Buffer.concat([head, length, jpeg]);
    headers = { 'content-type': 'application/octet-stream', 'inference-header-content-length': head.byteLength };
  }
  const agent = new Agent({ keepAlive: true, maxSockets: Number(values.concurrency) });
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const r = request(url, { method: 'POST', agent, headers }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      });
      r.on('error', reject);
      r.end(body);
    });
  const run = async (n: number): Promise<void> => {
    let next = 0;
    await Promise.all(
      Array.from({ length: Number(values.concurrency) }, async () => {
        while (next++ < n) await one();
      }),
    );
  };
  process.on('message', async (m: { n: number }) => {
    await run(m.n);
    process.send?.('done');
  });
  process.send?.('ready');
} else {
  const config = await loadServerConfig({
    flags: { host: '127.0.0.1', httpPort: 0, grpcPort: 0, metricsPort: 0, logLevel: 'silent', imageDecode: 'auto', workers: 2, drainQuietMs: 0 },
  });
  const server = await startServer({ config, logger: silentLogger(), engine: frameDecodingEngine({ frames: [], batches: [] }) });
  const child = fork(fileURLToPath(import.meta.url), ['--load', server.httpUrl, '--route', values.route, '--concurrency', values.concurrency], {
    execArgv: ['--import', 'tsx'],
  });
  const told = (): Promise<void> => new Promise((resolve) => child.once('message', () => resolve()));
  try {
    await told();
    const batch = async (n: number): Promise<void> => {
      const done = told();
      child.send({ n });
      await done;
    };
    await batch(300); // warm-up
    const pids = server.workerPids?.() ?? [];
    const cpu = (): number => pids.reduce((s, p) => s + (processCpuUs(p) ?? 0), 0);
    const n = Number(values.requests);
    const c0 = cpu();
    const t0 = performance.now();
    const from = process.hrtime.bigint() / 1000n;
    await batch(n);
    const to = process.hrtime.bigint() / 1000n;
    const t1 = performance.now();
    const c1 = cpu();
    // What the workers spend with no requests over as long (timers, metrics): taken off, since the frame engine is slow.
    await new Promise((resolve) => setTimeout(resolve, t1 - t0));
    const idle = cpu() - c1;
    console.log(
      `${values.route}: ${n} JPEG requests at c=${values.concurrency} through --workers 2: workers ${((c1 - c0 - idle) / n).toFixed(0)} µs CPU per request (both processes, less ${((idle / (t1 - t0)) * 1000).toFixed(0)} µs/s idle), ${Math.round(n / ((t1 - t0) / 1000))} req/s; load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}; measured span ${from}-${to} µs (monotonic clock, for a --cpu-prof profile's cut)`,
    );
  } finally {
    child.kill();
    await server.close();
  }
}
