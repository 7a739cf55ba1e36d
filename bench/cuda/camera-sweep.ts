/**
 * The camera-stream sweep (issue #30): for each stream count in `--levels`, `--processes` camera-streams.ts processes
 * (pinned to `--cpus` round-robin with taskset when given) share the cameras; their samples are merged and the level
 * passes when p99 frame → boxes <= `--p99-ms`, no frame failed, and dropped + skipped + lost frames are at most
 * `--max-loss` of those sent. Stops after the first failing level; reports the largest passing one.
 *
 *   node bench/cuda/camera-sweep.ts --levels 100,200,400 --processes 4 [--cpus 12,13,14,15] [--p99-ms 50]
 *        [--max-loss 0.01] --out FILE.json -- <camera-streams.ts arguments except --streams/--out>
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const sep = process.argv.indexOf('--');
const own = sep < 0 ? process.argv.slice(2) : process.argv.slice(2, sep);
const passThrough = sep < 0 ? [] : process.argv.slice(sep + 1);
const { values } = parseArgs({
  args: own,
  options: {
    levels: { type: 'string', default: '50,100,200' },
    processes: { type: 'string', default: '4' },
    cpus: { type: 'string' },
    'p99-ms': { type: 'string', default: '50' },
    'max-loss': { type: 'string', default: '0.01' },
    out: { type: 'string' },
  },
});
const processes = Number(values.processes);
const cpus = values.cpus?.split(',') ?? [];
const tmp = mkdtempSync(join(tmpdir(), 'camera-sweep-'));
const script = new URL('./camera-streams.ts', import.meta.url).pathname;

interface Part {
  protocol: string;
  streams: number;
  seconds: number;
  sent: number;
  answered: number;
  dropped: number;
  skipped: number;
  failed: number;
  lost: number;
  errors: string[];
  loadGeneratorCpuPercent: number;
  latenciesMs: number[];
}

function runPart(level: number, p: number): Promise<Part> {
  const streams = Math.floor(level / processes) + (p < level % processes ? 1 : 0);
  const out = join(tmp, `l${level}-p${p}.json`);
  const args = [...process.execArgv, script, ...passThrough, '--streams', String(streams), '--out', out];
  const cpu = cpus[p % Math.max(1, cpus.length)];
  const [cmd, argv] = cpu === undefined ? [process.execPath, args] : ['taskset', ['-c', cpu, process.execPath, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`camera-streams.ts exited ${code} at level ${level}`));
      resolve(JSON.parse(readFileSync(out, 'utf8')) as Part);
    });
  });
}

async function level(n: number): Promise<Record<string, unknown>> {
  const parts = await Promise.all(Array.from({ length: processes }, (_, p) => runPart(n, p)));
  const sum = (k: 'sent' | 'answered' | 'dropped' | 'skipped' | 'failed' | 'lost'): number => parts.reduce((a, x) => a + x[k], 0);
  const lat = parts.flatMap((x) => x.latenciesMs).sort((a, b) => a - b);
  const pct = (q: number): number => lat[Math.min(lat.length - 1, Math.floor((q / 100) * lat.length))] ?? Number.NaN;
  const seconds = Math.max(...parts.map((x) => x.seconds));
  const sent = sum('sent');
  const loss = sent === 0 ? 1 : (sum('dropped') + sum('skipped') + sum('lost')) / sent;
  const p99 = pct(99);
  const pass = lat.length > 0 && p99 <= Number(values['p99-ms']) && sum('failed') === 0 && loss <= Number(values['max-loss']);
  return {
    streams: n,
    protocol: parts[0]?.protocol,
    pass,
    sent,
    answered: sum('answered'),
    dropped: sum('dropped'),
    skipped: sum('skipped'),
    failed: sum('failed'),
    lost: sum('lost'),
    lossFraction: Math.round(loss * 10000) / 10000,
    answeredFps: Math.round(sum('answered') / seconds),
    latencyMs: { p50: pct(50), p90: pct(90), p99, max: lat.at(-1) },
    loadGeneratorCpuPercent: parts.map((x) => x.loadGeneratorCpuPercent),
    errors: parts.flatMap((x) => x.errors).slice(0, 3),
  };
}

const results: Record<string, unknown>[] = [];
for (const n of values.levels.split(',').map(Number)) {
  const r = await level(n);
  results.push(r);
  console.log(JSON.stringify(r));
  if (r.pass !== true) break;
}
const passing = results.filter((r) => r.pass === true);
const best = passing.at(-1);
const summary = {
  criterion: `p99 <= ${values['p99-ms']} ms, no failures, loss <= ${values['max-loss']}`,
  processes,
  best: best === undefined ? null : { streams: best.streams, latencyMs: best.latencyMs, answeredFps: best.answeredFps },
  levels: results,
};
console.log(`best: ${best === undefined ? 'none passed' : `${best.streams} streams, p99 ${(best.latencyMs as { p99: number }).p99} ms`}`);
if (values.out !== undefined) writeFileSync(values.out, JSON.stringify(summary, null, 1));
