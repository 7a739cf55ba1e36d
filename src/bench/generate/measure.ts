/**
 * One level of `rtserve bench --generate`: `concurrency` closed-loop clients, each sending its next prompt once it
 * has read the whole answer to the last one, first for the warm-up (discarded), then for the measured window.
 */
import { failureKey } from '../errors.ts';
import { LatencySamples, percentileOf, summarizeLatency } from '../latency.ts';
import type { ErrorCount } from '../types.ts';
import type { GenerateClient, GenerateLevelResult, GenerateProtocol, GenerateSettings, RateSummary, StreamRequest, StreamSample } from './types.ts';

export interface LevelPlan {
  readonly protocol: GenerateProtocol;
  readonly concurrency: number;
  readonly prompts: readonly string[];
  readonly outputTokens: number;
  readonly temperature?: number;
  readonly window: GenerateSettings['window'];
  readonly warmupMs: number;
}

interface Outcome {
  readonly samples: StreamSample[];
  readonly errors: Map<string, number>;
}

function requestFor(plan: LevelPlan, i: number): StreamRequest {
  return {
    prompt: plan.prompts[i % plan.prompts.length] as string,
    maxTokens: plan.outputTokens,
    seed: 1000 + i,
    ...(plan.temperature === undefined ? {} : { temperature: plan.temperature }),
  };
}

/** Every client streams one request after another while `more(i)` allows request number i. */
async function closedLoop(clients: readonly GenerateClient[], plan: LevelPlan, more: (i: number) => boolean): Promise<Outcome> {
  const outcome: Outcome = { samples: [], errors: new Map() };
  let issued = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (more(issued)) {
        const i = issued++;
        try {
          outcome.samples.push(await client.stream(requestFor(plan, i)));
        } catch (err) {
          const key = failureKey(err);
          outcome.errors.set(key, (outcome.errors.get(key) ?? 0) + 1);
        }
      }
    }),
  );
  return outcome;
}

export function summarizeRates(values: readonly number[]): RateSummary {
  const sorted = Float64Array.from(values).sort();
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    count: sorted.length,
    avg: sorted.length === 0 ? Number.NaN : sum / sorted.length,
    p50: percentileOf(sorted, 50),
    p90: percentileOf(sorted, 90),
    p99: percentileOf(sorted, 99),
  };
}

/** The level's result from its streams: TTFT, inter-token gaps and rates per stream, totals over the wall time. */
export function summarizeLevel(plan: LevelPlan, outcome: Outcome, wallMs: number): GenerateLevelResult {
  const ttft = new LatencySamples();
  const gaps = new LatencySamples();
  let completionTokens = 0;
  let promptTokens: number | undefined = 0;
  for (const s of outcome.samples) {
    const t = s.tokenTimesUs;
    if (t.length > 0) ttft.push(t[0] as number);
    for (let k = 1; k < t.length; k++) gaps.push((t[k] as number) - (t[k - 1] as number));
    completionTokens += s.completionTokens;
    promptTokens = s.promptTokens === undefined || promptTokens === undefined ? undefined : promptTokens + s.promptTokens;
  }
  const errors: ErrorCount[] = [...outcome.errors].map(([message, count]) => ({ message, count }));
  return {
    protocol: plan.protocol,
    concurrency: plan.concurrency,
    streams: outcome.samples.length,
    failed: errors.reduce((a, e) => a + e.count, 0),
    errors,
    wallMs,
    completionTokens,
    ...(promptTokens === undefined || outcome.samples.length === 0 ? {} : { promptTokens }),
    tokensPerSec: wallMs > 0 ? completionTokens / (wallMs / 1000) : Number.NaN,
    ttft: summarizeLatency(ttft),
    interToken: summarizeLatency(gaps),
    streamTokensPerSec: summarizeRates(outcome.samples.map((s) => s.completionTokens / (s.endUs / 1e6))),
  };
}

/** Opens `concurrency` clients, warms up, measures the window, closes the clients. */
export async function measureGenerateLevel(plan: LevelPlan, open: () => Promise<GenerateClient>): Promise<GenerateLevelResult> {
  const clients = await Promise.all(Array.from({ length: plan.concurrency }, () => open()));
  try {
    if (plan.warmupMs > 0) {
      const until = performance.now() + plan.warmupMs;
      await closedLoop(clients, plan, () => performance.now() < until);
    }
    const started = performance.now();
    const w = plan.window;
    const deadline = started + (w.kind === 'time' ? w.durationMs : 0);
    const streams = w.kind === 'count' ? w.streams * (w.perClient ? plan.concurrency : 1) : 0;
    const outcome = await closedLoop(clients, plan, (i) => (w.kind === 'count' ? i < streams : performance.now() < deadline));
    return summarizeLevel(plan, outcome, performance.now() - started);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}
