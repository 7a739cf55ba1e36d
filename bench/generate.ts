/**
 * Generation benchmark: charlm served by `rtserve serve` (a separate process), streamed to clients over the
 * OpenAI-compatible SSE route.
 *
 *   node --import tsx bench/generate.ts [--concurrency 1,8,32] [--max-tokens 128] [--rounds 2] [--out <file>]
 *
 * For each concurrency C, C client streams run back to back for `rounds` requests each (closed loop). Measured at
 * the client: time to first token (request sent → first text chunk), inter-token latency (gap between successive
 * text chunks of one stream; chunks that arrive in one network read count as a 0 gap) and aggregate tokens/s
 * (completion tokens reported in each stream's usage chunk / wall time). Then the same C = 32 workload with
 * continuous batching off (generateMaxSequences 1: every request waits for the one before it) — the
 * "one at a time" baseline — and the speed-up. Sampling is temperature 0.8 with a seed per request, so runs
 * generate the same tokens; max_tokens is fixed so every request does the same work unless it samples EOS.
 *
 * Targets (issue #11): TTFT p50 < 100 ms at 8 streams; aggregate tokens/s at 32 streams >= 4x one-at-a-time.
 * Results go to bench/results/generate-<date>.json. Timings depend on the machine and on whatever else runs on
 * it; the file records the load average before and after.
 */
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { machineInfo } from '../src/bench/machine.ts';
import { startServerProcess } from '../src/bench/server-process.ts';

const { values: args } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '1,8,32' },
    'max-tokens': { type: 'string', default: '128' },
    rounds: { type: 'string', default: '2' },
    out: { type: 'string' },
    /** Overrides charlm's engine.intra_op_num_threads (its config says 1; 0 = onnxruntime's default, one per core). */
    'intra-op-threads': { type: 'string' },
  },
});
const CONCURRENCY = (args.concurrency as string).split(',').map(Number);
const MAX_TOKENS = Number(args['max-tokens']);
const ROUNDS = Number(args.rounds);
const INTRA_OP_THREADS = args['intra-op-threads'] === undefined ? undefined : Number(args['intra-op-threads']);
const CHARLM = fileURLToPath(new URL('../models/charlm', import.meta.url));
const PROMPTS = [
  'def ',
  'import os\n',
  'class Parser:\n    def __init__(self',
  '# Copyright',
  'for i in range(',
  'return ',
  'if __name__ == ',
  '"""',
  'with open(',
  'try:\n    ',
];

interface StreamResult {
  ttftMs: number;
  gapsMs: number[];
  tokens: number;
}

async function oneStream(url: string, prompt: string, seed: number): Promise<StreamResult> {
  const sent = performance.now();
  const res = await fetch(`${url}/v1/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'charlm',
      prompt,
      max_tokens: MAX_TOKENS,
      temperature: 0.8,
      top_p: 0.95,
      seed,
      stream: true,
      stream_options: { include_usage: true },
    }),
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buf = '';
  let ttftMs = -1;
  let last = 0;
  const gapsMs: number[] = [];
  let tokens = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const now = performance.now();
    buf += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buf.indexOf('\n\n')) >= 0) {
      const data = buf.slice(6, end);
      buf = buf.slice(end + 2);
      if (data === '[DONE]') continue;
      const chunk = JSON.parse(data) as { choices: { text: string }[]; usage?: { completion_tokens: number } | null };
      if (chunk.usage) tokens = chunk.usage.completion_tokens;
      if ((chunk.choices[0]?.text ?? '') === '') continue;
      if (ttftMs < 0) ttftMs = now - sent;
      else gapsMs.push(now - last);
      last = now;
    }
  }
  return { ttftMs, gapsMs, tokens };
}

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s[Math.min(s.length - 1, Math.floor((p / 100) * (s.length - 1) + 0.5))] as number;
}
const round = (x: number, d = 1): number => Math.round(x * 10 ** d) / 10 ** d;

/** Sum and count of the server's generation histograms (rtserve_generate_*), to report server-side means. */
async function serverSide(metricsUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(metricsUrl)).text();
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^(rtserve_generate_(?:time_to_first_token|inter_token_latency|step_duration)_seconds_(?:sum|count))\{([^}]*)\} (\S+)$/.exec(line);
    if (m === null) continue;
    const kind = /kind="(\w+)"/.exec(m[2] as string)?.[1];
    const [, base, part] = /^(.*)_(sum|count)$/.exec(m[1] as string) as RegExpExecArray;
    out[`${base}${kind === undefined ? '' : `:${kind}`}_${part}`] = Number(m[3]);
  }
  return out;
}

function serverMeans(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const mean = (name: string): number => {
    const n = (after[`${name}_count`] ?? 0) - (before[`${name}_count`] ?? 0);
    return n === 0 ? Number.NaN : round((((after[`${name}_sum`] ?? 0) - (before[`${name}_sum`] ?? 0)) / n) * 1000, 2);
  };
  return {
    ttftMeanMs: mean('rtserve_generate_time_to_first_token_seconds'),
    interTokenMeanMs: mean('rtserve_generate_inter_token_latency_seconds'),
    decodeStepMeanMs: mean('rtserve_generate_step_duration_seconds:decode'),
    prefillStepMeanMs: mean('rtserve_generate_step_duration_seconds:prefill'),
  };
}

interface RunSummary {
  concurrency: number;
  requests: number;
  completionTokens: number;
  wallS: number;
  tokensPerS: number;
  ttftMs: { p50: number; p99: number; mean: number };
  interTokenMs: { p50: number; p99: number; mean: number };
  /** Means from the server's own histograms over the run (no network or client in them). */
  server?: Record<string, number>;
}

async function run(url: string, concurrency: number, rounds: number): Promise<RunSummary> {
  const results: StreamResult[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (let r = 0; r < rounds; r++) {
        const i = w * rounds + r;
        results.push(await oneStream(url, PROMPTS[i % PROMPTS.length] as string, 1000 + i));
      }
    }),
  );
  const wallS = (performance.now() - started) / 1000;
  const tokens = results.reduce((a, r) => a + r.tokens, 0);
  const ttft = results.map((r) => r.ttftMs);
  const gaps = results.flatMap((r) => r.gapsMs);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return {
    concurrency,
    requests: results.length,
    completionTokens: tokens,
    wallS: round(wallS, 2),
    tokensPerS: round(tokens / wallS),
    ttftMs: { p50: round(pct(ttft, 50)), p99: round(pct(ttft, 99)), mean: round(mean(ttft)) },
    interTokenMs: { p50: round(pct(gaps, 50), 2), p99: round(pct(gaps, 99), 2), mean: round(mean(gaps), 2) },
  };
}

/**
 * The server runs as its own process (`rtserve serve`, as deployed), so the load generator's event loop does not
 * share a thread with the server's; `env` sets config keys (RTSERVE_*).
 */
async function withServer<T>(env: Record<string, string>, fn: (httpUrl: string, metricsUrl: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'rtserve-bench-gen-'));
  await cp(join(CHARLM, '1'), join(dir, 'charlm', '1'), { recursive: true });
  const modelConfig = JSON.parse(readFileSync(join(CHARLM, 'config.json'), 'utf8')) as Record<string, unknown>;
  if (INTRA_OP_THREADS !== undefined) modelConfig['engine'] = { intra_op_num_threads: INTRA_OP_THREADS };
  await writeFile(join(dir, 'charlm', 'config.json'), JSON.stringify(modelConfig));
  const server = await startServerProcess({ args: ['--model-repository', dir], env: { ...process.env, ...env } });
  try {
    const { httpUrl, metricsUrl } = server;
    if (metricsUrl === undefined) throw new Error('rtserve serve reported no metrics address');
    // Warm-up: the first runs pay for lazy initialization.
    await run(httpUrl, 4, 1);
    return await fn(httpUrl, metricsUrl);
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

const loadBefore = loadavg();
const runs: RunSummary[] = [];
await withServer({}, async (url, metricsUrl) => {
  for (const c of CONCURRENCY) {
    const before = await serverSide(metricsUrl);
    const r = await run(url, c, c === 1 ? ROUNDS * 4 : ROUNDS);
    r.server = serverMeans(before, await serverSide(metricsUrl));
    runs.push(r);
    console.log(
      `continuous batching, ${c} streams: ${r.tokensPerS} tokens/s, TTFT p50 ${r.ttftMs.p50} ms p99 ${r.ttftMs.p99} ms, inter-token p50 ${r.interTokenMs.p50} ms p99 ${r.interTokenMs.p99} ms; server: ${JSON.stringify(r.server)}`,
    );
  }
});
const widest = Math.max(...CONCURRENCY);
const serial = await withServer({ RTSERVE_GENERATE_MAX_SEQUENCES: '1', RTSERVE_GENERATE_MAX_QUEUE: '1024' }, async (url, metricsUrl) => {
  const before = await serverSide(metricsUrl);
  const r = await run(url, widest, ROUNDS);
  return { ...r, server: serverMeans(before, await serverSide(metricsUrl)) };
});
console.log(
  `one at a time (generateMaxSequences 1), ${widest} clients: ${serial.tokensPerS} tokens/s, TTFT p50 ${serial.ttftMs.p50} ms p99 ${serial.ttftMs.p99} ms`,
);
const at8 = runs.find((r) => r.concurrency === 8);
const atWidest = runs.find((r) => r.concurrency === widest) as RunSummary;
const speedup = round(atWidest.tokensPerS / serial.tokensPerS, 2);
console.log(`speed-up at ${widest} streams: ${speedup}x`);

const date = new Date().toISOString().slice(0, 10);
const out = (args.out as string | undefined) ?? fileURLToPath(new URL(`./results/generate-${date}.json`, import.meta.url));
await mkdir(join(out, '..'), { recursive: true });
await writeFile(
  out,
  `${JSON.stringify(
    {
      benchmark: 'generate',
      date: new Date().toISOString(),
      machine: machineInfo(),
      loadAvgBefore: loadBefore.map((x) => round(x, 2)),
      loadAvgAfter: loadavg().map((x) => round(x, 2)),
      model: 'charlm (models/charlm, 2.96 M parameters, FP32, onnxruntime-node CPU)',
      intraOpThreads:
        INTRA_OP_THREADS === undefined
          ? 'from models/charlm/config.json (1)'
          : INTRA_OP_THREADS === 0
            ? 'onnxruntime default (one per core)'
            : INTRA_OP_THREADS,
      workload: {
        route: 'POST /v1/completions stream:true',
        maxTokens: MAX_TOKENS,
        temperature: 0.8,
        topP: 0.95,
        prompts: PROMPTS.length,
        roundsPerStream: ROUNDS,
      },
      continuousBatching: runs,
      oneAtATime: { ...serial, how: `generateMaxSequences 1 (no batching), ${widest} clients queued` },
      targets: {
        ttftP50At8StreamsMs: { value: at8?.ttftMs.p50, target: '< 100', met: at8 !== undefined && at8.ttftMs.p50 < 100 },
        tokensPerSecondSpeedupAt32: { value: speedup, streams: widest, target: '>= 4', met: speedup >= 4 },
      },
    },
    null,
    2,
  )}\n`,
);
console.log(`results: ${out}`);
