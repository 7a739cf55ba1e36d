/**
 * Which HTTP stack should `rtserve bench` drive REST with? HTTP/1.1 over node:net written and parsed by the load
 * generator (`net`, src/bench/clients/http1-pool.ts), node:http with a keep-alive Agent, or the global fetch (undici)?
 * Measures the three against the same server (a separate process) on the tiny `simple` model, where the
 * transport is nearly all of the cost: client-observed latency, throughput, and the load generator's own CPU time
 * per request (process.cpuUsage), which is the overhead a load generator must keep small.
 *
 *   node --import tsx bench/http-client-overhead.ts [--duration 2] [--save]
 *
 * `--save` writes bench/results/http-client-overhead.json.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultFactories, runBench } from '../src/bench/runner.ts';
import { machineInfo } from '../src/bench/machine.ts';
import { startServerProcess } from '../src/bench/server-process.ts';
import { formatUs } from '../src/bench/format.ts';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '2' }, save: { type: 'boolean', default: false } } });
const durationMs = Number(values.duration) * 1000;

const server = await startServerProcess();
const rows: {
  stack: string;
  protocol: string;
  concurrency: number;
  inferPerSec: number;
  p50Us: number;
  p99Us: number;
  clientCpuUsPerRequest: number;
  stable: boolean;
}[] = [];
try {
  for (const concurrency of [1, 8]) {
    for (const protocol of ['http-binary', 'http-json']) {
      for (const stack of ['net', 'node', 'fetch'] as const) {
        const cpu0 = process.cpuUsage();
        const report = await runBench(
          {
            url: server.httpUrl,
            model: 'simple',
            protocols: [protocol],
            loads: [{ kind: 'concurrency', concurrency }],
            batches: [1],
            input: { kind: 'random' },
            measure: {
              window: { kind: 'time', durationMs },
              warmupMs: 500,
              stabilityPercent: 10,
              stabilityWindows: 3,
              maxTrials: 6,
              maxInflight: 64,
            },
          },
          defaultFactories(stack),
        );
        const cpu = process.cpuUsage(cpu0);
        const sent = Object.values(report.totals).reduce((s, t) => s + t.sent, 0);
        const level = report.levels[0];
        if (level === undefined) throw new Error('no level measured');
        rows.push({
          stack,
          protocol,
          concurrency,
          inferPerSec: Math.round(level.merged.inferencesPerSec),
          p50Us: Math.round(level.merged.latency.p50Us),
          p99Us: Math.round(level.merged.latency.p99Us),
          // Includes the few statistics GETs per window, the same for every stack.
          clientCpuUsPerRequest: Math.round(((cpu.user + cpu.system) / sent) * 10) / 10,
          stable: level.stable,
        });
        const r = rows[rows.length - 1];
        if (r !== undefined)
          console.log(
            `${stack.padEnd(6)} ${protocol.padEnd(12)} c=${concurrency}  ${String(r.inferPerSec).padStart(6)} infer/s  p50 ${formatUs(r.p50Us).padStart(8)}  p99 ${formatUs(r.p99Us).padStart(8)}  client CPU ${r.clientCpuUsPerRequest} µs/request${r.stable ? '' : '  (unstable)'}`,
          );
      }
    }
  }
} finally {
  await server.stop();
}

if (values.save) {
  const out = join(import.meta.dirname, 'results', 'http-client-overhead.json');
  await mkdir(join(out, '..'), { recursive: true });
  await writeFile(
    out,
    `${JSON.stringify({ benchmark: 'http-client-overhead', date: new Date().toISOString(), machine: machineInfo(), server: server.commandLine, model: 'simple', rows }, null, 2)}\n`,
  );
  console.log(`wrote ${out}`);
}
