/**
 * `rtserve bench --generate` (src/bench/generate/): the real CLI against a real server on port 0 serving the
 * bundled charlm, over every token stream it reads (SSE generate_stream, WebSocket, OpenAI completions and chat).
 * No timing is asserted: the counts (streams, tokens, prompt tokens, against the server's own counters) and the
 * shape of the three reports (JSON, CSV, markdown) and of the table on stdout.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { GENERATE_CSV_HEADER } from '../../../src/bench/generate/format.ts';
import type { GenerateReport } from '../../../src/bench/generate/types.ts';
import { runBenchCli } from '../../helpers/cli.ts';
import { startCharlmServer } from '../generate/charlm-helpers.ts';

const PROTOCOLS = ['sse', 'ws', 'openai-completions', 'openai-chat'];

describe('rtserve bench --generate against charlm', () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  let dir: string;
  before(async () => {
    ({ server, cleanup } = await startCharlmServer());
    dir = await mkdtemp(join(tmpdir(), 'rtserve-bench-gen-'));
  });
  after(async () => {
    await cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  const bench = runBenchCli;
  /** `rtserve bench --generate -m charlm -u <server>` and `args`. */
  const generate = (...args: string[]): ReturnType<typeof runBenchCli> => bench(['--generate', '-m', 'charlm', '-u', server.httpUrl, ...args]);

  /** The server's generated-token counter (rtserve_generate_tokens_total) for charlm. */
  const serverTokens = async (): Promise<number> => {
    const text = await (await fetch(`${server.metricsUrl}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith('rtserve_generate_tokens_total{model="charlm"}'));
    return line === undefined ? 0 : Number(line.split(' ').at(-1));
  };

  test('every protocol at two concurrencies: streams, tokens and prompt tokens counted; JSON, CSV, markdown and the table', async () => {
    const out = join(dir, 'report.json');
    const csv = join(dir, 'report.csv');
    const md = join(dir, 'report.md');
    const tokensBefore = await serverTokens();
    const r = await generate(
      '--protocol',
      PROTOCOLS.join(','),
      '--concurrency',
      '1,2',
      '--requests',
      '3',
      '--prompt-tokens',
      '16',
      '--output-tokens',
      '8',
      '--temperature',
      '0',
      '--warmup',
      '0',
      '-o',
      out,
      '-f',
      csv,
      '--markdown',
      md,
    );
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(await readFile(out, 'utf8')) as GenerateReport;
    assert.equal(report.mode, 'generate');
    assert.equal(report.model, 'charlm');
    assert.deepEqual(
      report.levels.map((l) => `${l.protocol} c=${l.concurrency}`),
      PROTOCOLS.flatMap((p) => [`${p} c=1`, `${p} c=2`]),
    );
    let tokens = 0;
    for (const l of report.levels) {
      const label = `${l.protocol} c=${l.concurrency}`;
      assert.equal(l.streams, 3, label);
      assert.equal(l.failed, 0, label);
      assert.ok(l.completionTokens > 0 && l.completionTokens <= 3 * 8, `${label}: ${l.completionTokens} tokens`);
      // charlm's tokenizer is its bytes, plus the BOS token: 16 ASCII characters are 17 prompt tokens.
      if (l.protocol !== 'openai-chat') assert.equal(l.promptTokens, 3 * 17, label);
      else assert.ok((l.promptTokens ?? 0) > 3 * 17, `${label}: the chat template adds to the prompt`);
      assert.equal(l.ttft.count, 3, label);
      assert.ok(l.interToken.count > 0 && l.interToken.count <= l.completionTokens - 3, `${label}: ${l.interToken.count} gaps`);
      assert.equal(l.streamTokensPerSec.count, 3, label);
      assert.ok(l.tokensPerSec > 0 && l.ttft.p50Us > 0 && l.ttft.p99Us >= l.ttft.p50Us, label);
      tokens += l.completionTokens;
    }
    assert.equal((await serverTokens()) - tokensBefore, tokens, "the report's tokens are the tokens the server generated");

    const rows = (await readFile(csv, 'utf8')).trim().split('\n');
    assert.equal(rows[0], GENERATE_CSV_HEADER.join(','));
    assert.deepEqual(
      rows.slice(1).map((row) => row.split(',').slice(0, 4).join(',')),
      report.levels.map((l) => `${l.protocol},${l.concurrency},3,0`),
    );
    assert.ok(rows.slice(1).every((row) => row.split(',').length === GENERATE_CSV_HEADER.length));

    const mdLines = (await readFile(md, 'utf8')).trim().split('\n');
    assert.equal(mdLines.length, 2 + report.levels.length);
    assert.match(mdLines[0] as string, /\| TTFT p50 \|.*\| ITL p99 \|/);
    const table = r.stdout.trim().split('\n');
    assert.equal(table.length, 2 + report.levels.length);
    assert.match(table[0] as string, /tok\/s total/);
  });

  test('--prompt-file: its prompts in turn (JSON lines and plain lines)', async () => {
    const file = join(dir, 'prompts.txt');
    await writeFile(file, `${JSON.stringify({ prompt: 'def f(x):\n' })}\nimport os\n\n`);
    const out = join(dir, 'file.json');
    const r = await generate('--prompt-file', file, '-n', '4', '--output-tokens', '4', '--warmup', '0', '-o', out);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(await readFile(out, 'utf8')) as GenerateReport;
    assert.deepEqual(report.settings.prompt, { kind: 'file', path: file, count: 2 });
    const [level] = report.levels;
    assert.equal(level?.protocol, 'openai-completions', 'the default protocol');
    assert.equal(level?.streams, 4);
    // Two of each: 'def f(x):\n' (10 bytes) and 'import os' (9), each with BOS.
    assert.equal(level?.promptTokens, 2 * 11 + 2 * 10);
  });

  test('failed streams are counted per level with what the server said, and the run exits non-zero', async () => {
    const out = join(dir, 'failed.json');
    // charlm's context is 512 tokens: a 600-character prompt fills it, which the server refuses (400).
    const r = await generate('--protocol', 'sse,openai-completions', '--prompt-tokens', '600', '-n', '2', '--warmup', '0', '-o', out);
    assert.equal(r.status, 1, r.stderr);
    const report = JSON.parse(await readFile(out, 'utf8')) as GenerateReport;
    for (const l of report.levels) {
      assert.equal(l.streams, 0, l.protocol);
      assert.equal(l.failed, 2, l.protocol);
      assert.match(l.errors[0]?.message ?? '', /^HTTP 400: /, l.protocol);
    }
    assert.match(r.stderr, /error: sse c=1: 2 failed streams/);
  });

  test('flags that do not apply are refused by name', async () => {
    const cases: [string[], RegExp][] = [
      [['--generate', '--request-rate', '5'], /--request-rate does not apply to --generate/],
      [['--generate', '-b', '2'], /--batch does not apply to --generate/],
      [['--generate', '--protocol', 'grpc'], /unknown protocol 'grpc'; the token streams are sse, ws, openai-completions, openai-chat/],
      [['--prompt-tokens', '5'], /--prompt-tokens applies with --generate/],
      [['--generate', '--prompt-tokens', '5', '--prompt-file', 'x'], /--prompt-tokens or --prompt-file, not both/],
    ];
    for (const [args, message] of cases) {
      const r = await bench(['-m', 'charlm', '-u', server.httpUrl, ...args]);
      assert.notEqual(r.status, 0, args.join(' '));
      assert.match(r.stderr, message, args.join(' '));
    }
  });
});
