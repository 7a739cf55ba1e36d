/**
 * The GPU decoder's device run in a few lines (bench/cuda/llm-run.sh): greedy identity per checkpoint, decode tok/s at
 * each stream count beside transformers eager and static (compiled) from the same run, and the issue's targets.
 *
 *   node bench/cuda/llm-summary.ts OUT_DIR     (reads llm-bench.json, anchor-eager.json, anchor-static.json there)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Timing {
  readonly streams: number;
  readonly decodeTokPerS: number;
  readonly msPerStep: number;
  readonly prefillMs: number;
  readonly profileMsPerStep?: Record<string, number>;
}
interface BenchResult {
  readonly name: string;
  readonly correctness?: { readonly prompts: number; readonly identical: number; readonly firstMismatch: number[] };
  readonly timings?: Timing[];
  readonly error?: string;
}
interface AnchorRun {
  readonly mode: string;
  readonly streams: number;
  readonly decodeTokPerS?: number;
  readonly prefillS?: number;
  readonly error?: string;
}

function read<T>(path: string): T | undefined {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : undefined;
}

const dir = process.argv[2] ?? '.';
const bench = read<{ results: BenchResult[] }>(join(dir, 'llm-bench.json'))?.results ?? [];
const anchors = [
  ...(read<{ runs: AnchorRun[] }>(join(dir, 'anchor-eager.json'))?.runs ?? []),
  ...(read<{ runs: AnchorRun[] }>(join(dir, 'anchor-static.json'))?.runs ?? []),
];
const anchor = (mode: string, streams: number) => anchors.find((a) => a.mode === mode && a.streams === streams)?.decodeTokPerS;
const f = (v: number | undefined) => (v === undefined ? '-' : v.toFixed(0));
for (const r of bench) {
  if (r.error !== undefined) console.log(`${r.name}: ERROR ${r.error.split('\n')[0]}`);
  const c = r.correctness;
  if (c !== undefined) {
    const mism = c.firstMismatch.filter((m) => m >= 0);
    console.log(
      `${r.name}: greedy identical on ${c.identical}/${c.prompts} prompts${mism.length > 0 ? ` (first mismatches at ${mism.join(', ')})` : ''}`,
    );
  }
  for (const t of r.timings ?? []) {
    const stat = anchor('static', t.streams);
    const eager = anchor('eager', t.streams);
    const ratio = stat === undefined ? '-' : `${(t.decodeTokPerS / stat).toFixed(2)}x compiled`;
    console.log(
      `${r.name} ${t.streams} streams: rtserve ${f(t.decodeTokPerS)} tok/s (${t.msPerStep.toFixed(3)} ms/step, prefill ${t.prefillMs.toFixed(1)} ms); torch eager ${f(eager)}, static ${f(stat)}; ${ratio}`,
    );
    if (t.profileMsPerStep !== undefined) {
      const parts = Object.entries(t.profileMsPerStep).sort((a, b) => b[1] - a[1]);
      console.log(`  device ms per uncaptured step: ${parts.map(([k, v]) => `${k} ${v.toFixed(3)}`).join(', ')}`);
    }
  }
}
const one = bench.find((r) => r.name === 'llama-1b')?.timings?.find((t) => t.streams === 1);
const many = bench.find((r) => r.name === 'llama-1b')?.timings?.find((t) => t.streams === 64);
const stat64 = anchor('static', 64);
console.log(
  `targets (1B shape): 1 stream >= 1165 tok/s: ${one === undefined ? 'not measured' : one.decodeTokPerS >= 1165 ? 'met' : 'not met'}; ` +
    `64 streams >= 1.0x compiled: ${many === undefined || stat64 === undefined ? 'not measured' : many.decodeTokPerS >= stat64 ? 'met' : 'not met'}`,
);
