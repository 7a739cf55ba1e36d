/**
 * Sums what bench/cuda/frontend-run.sh's load generators measured: per workers count, protocol, images per request
 * and number of client processes, the images per second of every client process added up (their windows ran at the
 * same time), the worst client's average latency, the owner's and the clients' CPU seconds, and the load average.
 * Writes frontend.json and frontend.md into OUT_DIR.
 *   node bench/cuda/frontend-summary.ts WORK_DIR OUT_DIR
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Client {
  readonly machine: { readonly cpu: string; readonly cores: number };
  readonly levels: readonly {
    readonly stable: boolean;
    readonly merged: { readonly inferencesPerSec: number; readonly failed: number; readonly latency: { readonly avgUs: number } };
  }[];
}

interface Meta {
  readonly workers: number;
  readonly protocol: string;
  readonly batch: number;
  readonly clients: number;
  readonly loadavg: string;
  readonly serverCpuS: number;
  readonly clientCpuS: number;
}

const [work = '.', out = '.'] = process.argv.slice(2);
const files = readdirSync(work);
const rows = files
  .filter((f) => f.endsWith('-meta.json'))
  .map((f) => {
    const m = JSON.parse(readFileSync(join(work, f), 'utf8')) as Meta;
    const tag = f.slice(0, -'-meta.json'.length);
    const clients = files
      .filter((c) => c.startsWith(`${tag}-`) && c !== f && c.endsWith('.json'))
      .map((c) => JSON.parse(readFileSync(join(work, c), 'utf8')) as Client);
    const levels = clients.flatMap((c) => c.levels.slice(0, 1));
    return {
      ...m,
      reported: levels.length,
      imagesPerSec: Math.round(levels.reduce((s, l) => s + l.merged.inferencesPerSec, 0)),
      failed: levels.reduce((s, l) => s + l.merged.failed, 0),
      worstAvgLatencyMs: Math.max(0, ...levels.map((l) => l.merged.latency.avgUs / 1000)),
      allStable: levels.every((l) => l.stable),
      machine: clients[0]?.machine,
    };
  })
  .sort((a, b) => a.workers - b.workers || a.batch - b.batch || a.protocol.localeCompare(b.protocol) || a.clients - b.clients);
const md = [
  '| workers | protocol | images/request | client processes (reported) | img/s, summed | worst avg latency | owner CPU s | clients CPU s | failed | stable | load average |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map(
    (r) =>
      `| ${r.workers} | ${r.protocol} | ${r.batch} | ${r.clients} (${r.reported}) | ${r.imagesPerSec.toLocaleString('en-US')} | ${r.worstAvgLatencyMs.toFixed(1)} ms | ${r.serverCpuS.toFixed(1)} | ${r.clientCpuS.toFixed(1)} | ${r.failed} | ${r.allStable ? 'yes' : 'no'} | ${r.loadavg} |`,
  ),
];
writeFileSync(join(out, 'frontend.json'), `${JSON.stringify(rows, null, 2)}\n`);
writeFileSync(join(out, 'frontend.md'), `${rows[0]?.machine?.cpu ?? ''}\n\n${md.join('\n')}\n`);
console.log(md.join('\n'));
