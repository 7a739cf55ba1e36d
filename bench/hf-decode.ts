/**
 * Hugging Face checkpoint benchmark on the CPU path: a Llama-style checkpoint with random weights is written by
 * code (test/helpers/hf-checkpoint.ts), then served in-process by rtserve (the repository builds the ONNX decoder
 * at load; onnxruntime CPU runs it; the generation service batches it).
 *
 *   node --import tsx bench/hf-decode.ts [--hidden 512] [--layers 8] [--heads 8] [--kv-heads 2] [--intermediate 1408]
 *                                        [--vocab 32000] [--dtype BF16] [--max-tokens 64] [--concurrency 1,8] [--out <file>]
 *
 * Measured: the first load (checkpoint -> ONNX decoder build + session + warmup), a second load (the built graph
 * reused from the cache), then for each concurrency C, C greedy generations of max-tokens tokens started together:
 * time to first token (p50 over the C) and aggregate decode tokens/s (completion tokens / wall time). Random
 * weights: the answers are noise, the work is the real work. Timings depend on what else runs on the machine; the
 * result records the load average before and after.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadServerConfig } from '../src/config/load-server-config.ts';
import { startServer } from '../src/app/rtserve-server.ts';
import { silentLogger } from '../src/observability/logger.ts';
import { machineInfo } from '../src/bench/machine.ts';
import { tinyModel, writeCheckpoint, type Dtype } from '../test/helpers/hf-checkpoint.ts';

const { values: a } = parseArgs({
  options: {
    hidden: { type: 'string', default: '512' },
    layers: { type: 'string', default: '8' },
    heads: { type: 'string', default: '8' },
    'kv-heads': { type: 'string', default: '2' },
    intermediate: { type: 'string', default: '1408' },
    vocab: { type: 'string', default: '32000' },
    dtype: { type: 'string', default: 'BF16' },
    'max-tokens': { type: 'string', default: '64' },
    concurrency: { type: 'string', default: '1,8' },
    out: { type: 'string' },
  },
});
const n = (k: keyof typeof a): number => Number(a[k]);
const H = n('hidden');
const L = n('layers');
const I = n('intermediate');
const V = n('vocab');
const KV = n('kv-heads');
const NH = n('heads');
const params = 2 * V * H + L * (2 * H * H + 2 * H * (H / NH) * KV + 3 * H * I + 2 * H) + H;
const MAX_TOKENS = n('max-tokens');

const root = await mkdtemp(join(tmpdir(), 'rtserve-bench-hf-'));
const repo = join(root, 'repo');
const loadBefore = loadavg();
console.error(`writing a Llama-style checkpoint: ${(params / 1e6).toFixed(1)}M parameters, ${a.dtype}`);
await writeCheckpoint(
  join(repo, 'llm', '1'),
  tinyModel('llama', { hidden: H, layers: L, heads: NH, kvHeads: KV, intermediate: I, vocabSize: V, maxPositions: 2048 }),
  { dtype: a.dtype as Dtype, shards: 2 },
);
await writeFile(join(repo, 'llm', 'config.json'), JSON.stringify({ engine: { intra_op_num_threads: 0 } }));

async function start() {
  const config = await loadServerConfig({
    flags: { host: '127.0.0.1', httpPort: 0, grpcPort: 0, metricsPort: 0, logLevel: 'silent', modelRepository: [repo], drainQuietMs: 0 },
  });
  const t0 = performance.now();
  const server = await startServer({ config, logger: silentLogger() });
  return { server, loadMs: performance.now() - t0 };
}

const first = await start();
await first.server.close();
const { server, loadMs: cachedLoadMs } = await start();
const runs: { concurrency: number; ttftP50Ms: number; tokensPerSecond: number; completionTokens: number; wallMs: number }[] = [];
try {
  for (const c of (a.concurrency as string).split(',').map(Number)) {
    const t0 = performance.now();
    const gens = Array.from({ length: c }, (_, i) =>
      server.generate.start({ model: 'llm', prompt: `The quick brown fox ${i} jumps over the lazy dog.`, maxTokens: MAX_TOKENS, temperature: 0 }),
    );
    const results = await Promise.all(gens.map((g) => g.result));
    const wallMs = performance.now() - t0;
    const tokens = results.reduce((s, r) => s + r.usage.completionTokens, 0);
    const ttft = results.map((r) => r.timeToFirstTokenMs).sort((x, y) => x - y);
    runs.push({
      concurrency: c,
      ttftP50Ms: ttft[Math.floor(ttft.length / 2)] as number,
      tokensPerSecond: tokens / (wallMs / 1000),
      completionTokens: tokens,
      wallMs,
    });
    console.error(`C=${c}: ${(tokens / (wallMs / 1000)).toFixed(1)} tokens/s, TTFT p50 ${ttft[Math.floor(ttft.length / 2)]?.toFixed(0)} ms`);
  }
} finally {
  await server.close();
  await rm(root, { recursive: true, force: true });
}
const result = {
  bench: 'hf-decode',
  command: `node --import tsx bench/hf-decode.ts ${process.argv.slice(2).join(' ')}`.trim(),
  date: new Date().toISOString(),
  machine: machineInfo(),
  loadAverage: { before: loadBefore, after: loadavg() },
  model: { family: 'llama', hidden: H, layers: L, heads: NH, kvHeads: KV, intermediate: I, vocab: V, dtype: a.dtype, parameters: params },
  firstLoadMs: first.loadMs,
  cachedLoadMs,
  maxTokens: MAX_TOKENS,
  runs,
};
const text = JSON.stringify(result, null, 2);
if (a.out !== undefined) await writeFile(a.out, `${text}\n`);
console.log(text);
