/**
 * The bundled charlm model end to end: held-out perplexity measured here (the number MODEL_CARD.md quotes), greedy
 * decoding through the server equal to a direct step-by-step onnxruntime run token for token, and continuous
 * batching giving each sequence the tokens it gets alone.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { BOS, CHARLM_DIR, DirectDecoder, decodeBytes, startCharlmServer, utf8 } from './charlm-helpers.ts';
import { postJson } from '../../helpers/server.ts';

const PROMPTS = [
  'def ',
  'import os\n',
  'class Foo:\n    def __init__(self',
  '# Copyright',
  'for i in range(',
  'return ',
  "if __name__ == '",
  '"""',
  'x',
  '    @property\n    def name(self):\n        ',
];

let direct: DirectDecoder;
let server: RunningServer;
let cleanup: () => Promise<void>;

before(async () => {
  direct = await DirectDecoder.open();
  ({ server, cleanup } = await startCharlmServer());
});
after(async () => {
  await cleanup();
  await direct.close();
});

describe('charlm', () => {
  test('held-out perplexity (Python 3.11 stdlib files never trained on)', async (t) => {
    const sample = readFileSync(join(CHARLM_DIR, 'heldout-sample.txt'));
    const tokens = [BOS, ...sample];
    const nll = await direct.meanNll(tokens);
    const ppl = Math.exp(nll);
    t.diagnostic(
      `held-out sample: ${sample.length} bytes, ${nll.toFixed(4)} nats/byte, perplexity ${ppl.toFixed(3)}, ${(nll / Math.LN2).toFixed(3)} bits/byte`,
    );
    // Measured 1.898 on every run (deterministic: a direct onnxruntime run on a fixed sample); the README claims
    // 1.9. The gate leaves 0.05 for another CPU's rounding. (A byte-uniform model has perplexity 257.)
    assert.ok(ppl < 1.95, `perplexity ${ppl}`);
  });

  test('greedy decoding through the server equals a direct step-by-step onnxruntime run, token for token', async () => {
    for (const prompt of PROMPTS.slice(0, 4)) {
      const expected = await direct.greedy([BOS, ...utf8(prompt)], 48);
      const viaService = await server.generate.start({ model: 'charlm', prompt, maxTokens: 48, temperature: 0 }).result;
      assert.deepEqual(viaService.tokens, expected, `tokens after ${JSON.stringify(prompt)}`);
      const res = await postJson(`${server.httpUrl}/v1/completions`, { model: 'charlm', prompt, max_tokens: 48, temperature: 0 });
      assert.equal(res.status, 200);
      const body = res.json() as { choices: { text: string }[]; usage: { prompt_tokens: number; completion_tokens: number } };
      assert.equal(body.choices[0]?.text, decodeBytes(expected), `HTTP text after ${JSON.stringify(prompt)}`);
      assert.equal(body.usage.completion_tokens, expected.length);
      assert.equal(body.usage.prompt_tokens, utf8(prompt).length + 1);
    }
  });

  test('continuous batching: concurrent sequences with different lengths each get the tokens they get alone', async () => {
    const lengths = PROMPTS.map((_, i) => 12 + ((i * 13) % 40));
    const expected = await Promise.all(PROMPTS.map((p, i) => direct.greedy([BOS, ...utf8(p)], lengths[i] as number)));
    const before = await metricsText(server);
    // Staggered arrivals: later requests join a batch that is already decoding.
    const gens = [];
    for (const [i, prompt] of PROMPTS.entries()) {
      gens.push(server.generate.start({ model: 'charlm', prompt, maxTokens: lengths[i] as number, temperature: 0 }));
      if (i % 3 === 2) await new Promise((r) => setTimeout(r, 5));
    }
    const results = await Promise.all(gens.map((g) => g.result));
    results.forEach((r, i) => assert.deepEqual(r.tokens, expected[i], `sequence ${i} (${JSON.stringify(PROMPTS[i])})`));
    // The decode steps did batch: some step ran more than one sequence.
    const after = await metricsText(server);
    const single = (t: string) => metricValue(t, 'rtserve_generate_step_batch_size_bucket{le="1",model="charlm",kind="decode"}');
    const all = (t: string) => metricValue(t, 'rtserve_generate_step_batch_size_count{model="charlm",kind="decode"}');
    assert.ok(all(after) - all(before) > single(after) - single(before), 'some decode steps held several sequences');
  });
});

async function metricsText(s: RunningServer): Promise<string> {
  return (await fetch(`${s.metricsUrl}/metrics`)).text();
}

function metricValue(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}
