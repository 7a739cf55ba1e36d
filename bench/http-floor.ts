/**
 * The floor under any Node HTTP inference server on this machine: a bare node:http server (its own process) that
 * reads a POST body and answers a few bytes, with no routing, codec, batching or worker, loaded by a node:http
 * keep-alive client here. Reports the server's CPU per request (/proc) and the client's average round trip.
 *
 *   node --import tsx bench/http-floor.ts [--concurrency 1,16] [--seconds 6] [--body-bytes 12288] [--reply-bytes 48]
 *
 * The default body is resnet_tiny's input (3x32x32 FP32) sent as REST binary; compare rtserve's numbers in
 * bench/results/foundation-*.md (server CPU per request, client-observed average at c = 1).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { processCpuUs } from '../src/bench/process-cpu.ts';

const { values } = parseArgs({
  options: {
    serve: { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '1,16' },
    seconds: { type: 'string', default: '6' },
    'body-bytes': { type: 'string', default: '12288' },
    'reply-bytes': { type: 'string', default: '48' },
  },
});

if (values.serve) {
  const reply = Buffer.alloc(Number(values['reply-bytes']), 1);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      Buffer.concat(chunks); // the body joined, as a server that decodes it must; nothing reads it here
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': reply.length });
      res.end(reply);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => console.log(`port ${(server.address() as AddressInfo).port}`));
} else {
  const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, '--serve', '--reply-bytes', values['reply-bytes']], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve) =>
    child.stdout.once('data', (d: Buffer) => resolve(Number(/port (\d+)/.exec(d.toString())?.[1]))),
  );
  const body = Buffer.alloc(Number(values['body-bytes']), 2);
  try {
    for (const c of values.concurrency.split(',').map(Number)) {
      const agent = new http.Agent({ keepAlive: true, maxSockets: c });
      const one = (): Promise<void> =>
        new Promise((resolve, reject) => {
          const req = http.request(
            {
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: '/v2/models/floor/infer',
              agent,
              headers: { 'content-type': 'application/octet-stream', 'content-length': body.length },
            },
            (res) => {
              res.resume();
              res.on('end', resolve);
            },
          );
          req.on('error', reject);
          req.end(body);
        });
      // One second of warm-up, then the measured span.
      for (const [ms, measured] of [
        [1000, false],
        [Number(values.seconds) * 1000, true],
      ] as const) {
        let done = 0;
        const cpu0 = processCpuUs(child.pid as number) ?? Number.NaN;
        const t0 = performance.now();
        const end = t0 + ms;
        await Promise.all(
          Array.from({ length: c }, async () => {
            while (performance.now() < end) {
              await one();
              done++;
            }
          }),
        );
        const elapsed = performance.now() - t0;
        const cpu = (processCpuUs(child.pid as number) ?? Number.NaN) - cpu0;
        if (measured)
          console.log(
            `c=${c}: ${done} requests, ${Math.round(done / (elapsed / 1000))} req/s, round trip avg ${((elapsed * 1000 * c) / done).toFixed(1)} µs, server CPU ${(cpu / done).toFixed(1)} µs per request`,
          );
      }
      agent.destroy();
    }
  } finally {
    child.kill();
  }
}
