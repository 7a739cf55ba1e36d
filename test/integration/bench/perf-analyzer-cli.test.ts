/**
 * `rtserve bench` driven with perf_analyzer's command line (src/bench/perf-analyzer.ts): the real CLI against a
 * real server in this process, its `-f` CSV read back with perf_analyzer's columns.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { runBenchCli } from '../../helpers/cli.ts';
import { startTestServer } from '../../helpers/server.ts';

const HEADER =
  'Inferences/Second,Client Send,Network+Server Send/Recv,Server Queue,Server Compute Input,Server Compute Infer,Server Compute Output,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency';

describe('rtserve bench with perf_analyzer flags', () => {
  let server: RunningServer;
  let dir: string;
  before(async () => {
    server = await startTestServer();
    dir = await mkdtemp(join(tmpdir(), 'rtserve-pa-'));
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const bench = runBenchCli;

  const rows = (csv: string): number[][] =>
    csv
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(',').map(Number));

  test('-i http -u host:port --concurrency-range, count windows, --input-data JSON, -f CSV with its columns', async () => {
    const data = join(dir, 'data.json');
    await writeFile(data, JSON.stringify({ data: [{ INPUT0: new Array(16).fill(1), INPUT1: { content: new Array(16).fill(2), shape: [16] } }] }));
    const csv = join(dir, 'http.csv');
    const url = server.httpUrl.replace(/^http:\/\//, '');
    const r = await bench([
      '-m',
      'simple',
      '-i',
      'http',
      '-u',
      url,
      '-b',
      '1',
      '--concurrency-range',
      '1:3:2',
      '--measurement-mode',
      'count_windows',
      '--measurement-request-count',
      '20',
      '--input-data',
      data,
      '--percentile=95',
      '-f',
      csv,
    ]);
    assert.equal(r.status, 0, r.stderr);
    const text = await readFile(csv, 'utf8');
    assert.equal(text.split('\n')[0], `Concurrency,${HEADER}`);
    const body = rows(text);
    assert.deepEqual(body.map((row) => row[0]).sort(), [1, 3]);
    for (const row of body) {
      assert.equal(row.length, 13);
      assert.ok(
        row.every((v) => Number.isFinite(v) && v >= 0),
        String(row),
      );
      assert.ok((row[1] ?? 0) > 0, 'throughput');
      assert.ok((row[6] ?? 0) > 0, 'server compute infer');
      assert.ok((row[9] ?? 0) <= (row[12] ?? 0), 'p50 <= p99');
    }
    assert.ok((body[0]?.[1] ?? 0) <= (body[1]?.[1] ?? 0), 'rows sorted by throughput');
  });

  test('-i grpc -u <grpc address> --request-rate-range: Request Rate rows over gRPC', async () => {
    const csv = join(dir, 'grpc.csv');
    const r = await bench([
      '-m',
      'simple',
      '-i',
      'grpc',
      '-u',
      server.grpcAddress ?? '',
      '--control-url',
      server.httpUrl,
      '--request-rate-range',
      '50',
      '--async',
      '--measurement-mode=count_windows',
      '--measurement-request-count=20',
      '-f',
      csv,
    ]);
    assert.equal(r.status, 0, r.stderr);
    const text = await readFile(csv, 'utf8');
    assert.equal(text.split('\n')[0], `Request Rate,${HEADER}`);
    assert.deepEqual(
      rows(text).map((row) => row[0]),
      [50],
    );
  });

  test('perf_analyzer flags that rtserve bench cannot honour are refused with a message', async () => {
    const r = await bench(['-m', 'simple', '-i', 'ws', '-u', 'localhost:1']);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /-i is http or grpc, got 'ws'/);
    const both = await bench(['-m', 'simple', '-u', server.httpUrl, '--concurrency-range', '1:2', '--concurrency', '4']);
    assert.match(both.stderr, /give --concurrency-range or --concurrency, not both/);
    // perf_analyzer's deprecated search and the flags rtserve bench does not implement: refused, saying what to give.
    for (const [args, message] of [
      [['-d'], /-d is perf_analyzer's deprecated dynamic concurrency search.*give --concurrency-range/],
      [['-c', '8'], /-c is perf_analyzer's deprecated maximum concurrency.*give --concurrency 1,8,64 or --concurrency-range/],
      [['-l', '50'], /--latency-threshold .* is not implemented/],
      [['--binary-search'], /--binary-search is not implemented/],
      [['-H', 'x:y'], /-H \(extra HTTP headers\) is not implemented/],
      [['--service-kind', 'torchserve'], /--service-kind torchserve is not supported/],
    ] as const) {
      const refused = await bench(['-m', 'simple', '-u', server.httpUrl, ...args]);
      assert.equal(refused.status, 2, args.join(' '));
      assert.match(refused.stderr, message, args.join(' '));
      assert.doesNotMatch(refused.stderr, /did you mean/i);
    }
  });

  test("-p, -r, -t and -z mean perf_analyzer's measurement interval (ms), max trials, concurrency and zero data", async () => {
    const out = join(dir, 'short.json');
    const r = await bench(['-m', 'simple', '-u', server.httpUrl, '-p', '300', '-r', '4', '-t', '2', '-z', '--warmup', '0', '-s', '1000', '-o', out]);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(await readFile(out, 'utf8')) as {
      measure: { window: { kind: string; durationMs?: number }; maxTrials: number };
      levels: { mode: { kind: string; concurrency?: number }; protocol: string }[];
    };
    assert.deepEqual(report.measure.window, { kind: 'time', durationMs: 300 });
    assert.equal(report.measure.maxTrials, 4);
    assert.deepEqual(
      report.levels.map((l) => l.mode),
      [{ kind: 'concurrency', concurrency: 2 }],
    );
    assert.equal(report.levels[0]?.protocol, 'http-binary', '-p is no longer the protocol');
  });
});
