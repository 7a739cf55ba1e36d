/**
 * Sums what bench/workers-scale.sh's load generators measured: per workers count and model, the requests per second
 * of every client process added up (their windows ran at the same time), the worst client's average latency, and
 * the speed-up over the first workers count. Writes workers-scale.json and workers-scale.md into the folder.
 *   node bench/workers-scale-summary.ts OUT_DIR
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Client {
  readonly machine: { readonly cpu: string; readonly cores: number };
  readonly command: string;
  readonly levels: readonly {
    readonly stable: boolean;
    readonly merged: { readonly requestsPerSec: number; readonly failed: number; readonly latency: { readonly avgUs: number } };
  }[];
}

const dir = process.argv[2] ?? '.';
const files = readdirSync(dir);
const rows: {
  workers: number;
  model: string;
  clients: number;
  requestsPerSec: number;
  failed: number;
  worstAvgLatencyUs: number;
  allStable: boolean;
  loadavg: string;
  ownerCpuS: number;
}[] = [];
let machine: Client['machine'] | undefined;
let command = '';
for (const meta of files.filter((f) => f.endsWith('-meta.json'))) {
  const m = JSON.parse(readFileSync(join(dir, meta), 'utf8')) as { workers: number; model: string; loadavg: string; ownerCpuS: number };
  const clients = files
    .filter((f) => f.startsWith(`w${m.workers}-${m.model}-`) && !f.endsWith('-meta.json') && f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Client);
  const levels = clients.flatMap((c) => c.levels.slice(0, 1));
  machine ??= clients[0]?.machine;
  command ||= clients[0]?.command ?? '';
  rows.push({
    workers: m.workers,
    model: m.model,
    clients: clients.length,
    requestsPerSec: Math.round(levels.reduce((s, l) => s + l.merged.requestsPerSec, 0)),
    failed: levels.reduce((s, l) => s + l.merged.failed, 0),
    worstAvgLatencyUs: Math.round(Math.max(0, ...levels.map((l) => l.merged.latency.avgUs))),
    allStable: levels.every((l) => l.stable),
    loadavg: m.loadavg,
    ownerCpuS: m.ownerCpuS,
  });
}
rows.sort((a, b) => a.model.localeCompare(b.model) || a.workers - b.workers);
const table = [
  '| model | workers | req/s (sum of clients) | × first | failed | worst client avg latency µs | stable | owner CPU s | load avg after |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map((r) => {
    const base = rows.find((x) => x.model === r.model)?.requestsPerSec ?? r.requestsPerSec;
    return `| ${r.model} | ${r.workers} | ${r.requestsPerSec} | ${(r.requestsPerSec / base).toFixed(2)} | ${r.failed} | ${r.worstAvgLatencyUs} | ${r.allStable} | ${r.ownerCpuS} | ${r.loadavg} |`;
  }),
];
writeFileSync(join(dir, 'workers-scale.json'), `${JSON.stringify({ machine, clientCommand: command, rows }, null, 2)}\n`);
writeFileSync(join(dir, 'workers-scale.md'), `${machine === undefined ? '' : `${machine.cpu}, ${machine.cores} cores\n\n`}${table.join('\n')}\n`);
process.stdout.write(`${table.join('\n')}\n`);
