/**
 * `rtserve bench` against a real server: results are well-formed, request counts agree with the server's
 * statistics, the stability rule is applied as perf_analyzer defines it, and a server that errors is reported.
 * Windows end after a request count (not a time) so the runs are short; no assertion depends on a timing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { httpClientFactories } from '../../../src/bench/clients/http-client.ts';
import { RestControl } from '../../../src/bench/control.ts';
import { BenchError } from '../../../src/bench/errors.ts';
import { randomInputs } from '../../../src/bench/inputs.ts';
import { isStable } from '../../../src/bench/latency.ts';
import { measureLevel } from '../../../src/bench/measure.ts';
import { renderHtmlReport } from '../../../src/bench/report-html.ts';
import { runBench, type BenchOptions } from '../../../src/bench/runner.ts';
import type { BenchReport, LevelResult, MeasureOptions } from '../../../src/bench/types.ts';
import { runBenchCli } from '../../helpers/cli.ts';
import { startTestServer } from '../../helpers/server.ts';
import * as rtserve from '../../../src/experimental.ts';

const MEASURE: MeasureOptions = {
  window: { kind: 'count', requests: 40 },
  warmupMs: 0,
  stabilityPercent: 10,
  stabilityWindows: 3,
  maxTrials: 4,
  maxInflight: 64,
};

function checkLevel(l: LevelResult, maxTrials: number): void {
  const m = l.merged;
  assert.ok(l.windows.length >= 1 && l.windows.length <= maxTrials, `${l.protocol}: ${l.windows.length} windows`);
  assert.ok(m.succeeded > 0, `${l.protocol}: merged windows hold successes`);
  assert.equal(m.latency.count, m.succeeded, 'one latency sample per successful request');
  const lat = m.latency;
  assert.ok(
    lat.minUs > 0 && lat.minUs <= lat.p50Us && lat.p50Us <= lat.p90Us && lat.p90Us <= lat.p95Us && lat.p95Us <= lat.p99Us && lat.p99Us <= lat.maxUs,
    JSON.stringify(lat),
  );
  assert.ok(lat.avgUs >= lat.minUs && lat.avgUs <= lat.maxUs);
  assert.ok(m.inferencesPerSec > 0 && Number.isFinite(m.inferencesPerSec));
  assert.ok(Math.abs(m.inferencesPerSec - m.requestsPerSec * l.batch) < 1e-6 * m.inferencesPerSec, 'infer/s = req/s × batch');
  // The merged windows are the last stabilityWindows (or all when fewer were run).
  const n = Math.min(3, l.windows.length);
  assert.equal(
    m.succeeded,
    l.windows.slice(-n).reduce((s, w) => s + w.succeeded, 0),
  );
}

/** The stability rule as perf_analyzer states it, recomputed from the reported windows. */
function checkStabilityRule(l: LevelResult, opts: MeasureOptions): void {
  const stableAt = (k: number): boolean => isStable(l.windows.slice(0, k), opts.stabilityWindows, opts.stabilityPercent, opts.stabilityPercentile);
  if (l.stable) {
    const last = l.windows.slice(-3);
    for (const values of [last.map((w) => w.inferencesPerSec), last.map((w) => w.latency.avgUs)]) {
      assert.ok(Math.max(...values) / Math.min(...values) <= 1.1, `stable level's last three windows within 10%: ${values.join(', ')}`);
    }
    assert.equal(l.warnings.length, 0);
  } else {
    assert.ok(!stableAt(l.windows.length));
    assert.ok(l.warnings.length > 0, 'an unstable level says so');
    const stoppedForErrors = l.windows.at(-1)?.succeeded === 0;
    if (!stoppedForErrors) assert.equal(l.windows.length, opts.maxTrials, 'an unstable level runs every trial');
  }
  // It stops at the first stable window, never later.
  for (let k = 1; k < l.windows.length; k++) assert.ok(!stableAt(k), `windows 1..${k} were already stable but measuring went on`);
}

describe('rtserve bench against a real server', () => {
  let server: RunningServer;
  let report: BenchReport;

  before(async () => {
    server = await startTestServer({ allowClientShm: true });
    report = await runBench({
      url: server.httpUrl,
      model: 'simple',
      protocols: ['http-json', 'http-binary'],
      loads: [
        { kind: 'concurrency', concurrency: 1 },
        { kind: 'concurrency', concurrency: 4 },
      ],
      batches: [1, 2],
      input: { kind: 'random' },
      measure: MEASURE,
      command: 'test',
    });
  });
  after(async () => {
    await server.close();
  });

  test('results are well-formed: one level per protocol × batch × load, sane percentiles and server breakdowns', () => {
    assert.equal(report.tool, 'rtserve bench');
    assert.equal(report.model, 'simple');
    assert.equal(report.levels.length, 2 * 2 * 2);
    assert.deepEqual([...new Set(report.levels.map((l) => l.protocol))], ['http-json', 'http-binary']);
    for (const l of report.levels) {
      checkLevel(l, MEASURE.maxTrials);
      assert.deepEqual(l.errors, []);
      const s = l.merged.server;
      assert.ok(s !== undefined, 'server breakdown present');
      assert.ok(s.requests > 0 && s.executions > 0);
      assert.equal(s.inferences, s.requests * l.batch, "inference_count adds each request's batch");
      assert.ok(s.avgBatchSize >= l.batch, `the batcher's average batch (${s.avgBatchSize}) is at least the request batch ${l.batch}`);
      assert.ok(s.computeInferUs > 0 && s.requestUs >= s.computeInferUs);
      assert.ok(l.clientOverheadUs !== undefined && l.outsideCoreUs !== undefined);
    }
    // JSON round trip: the results file holds plain data.
    assert.deepEqual(JSON.parse(JSON.stringify(report)), report);
  });

  test('the experimental entry (rtserve/experimental) exports the benchmark library that produced these results', () => {
    assert.equal(rtserve.runBench, runBench);
    assert.equal(rtserve.renderHtmlReport, renderHtmlReport);
  });

  test('request counts agree with the server statistics', () => {
    const sent = Object.values(report.totals).reduce((s, t) => s + t.sent, 0);
    const ok = Object.values(report.totals).reduce((s, t) => s + t.succeeded, 0);
    const failed = Object.values(report.totals).reduce((s, t) => s + t.failed, 0);
    assert.equal(failed, 0);
    assert.equal(sent, ok + failed, 'every sent request was answered');
    assert.ok(report.serverTotals !== undefined);
    assert.equal(report.serverTotals.requests, ok, 'the server counted exactly the requests the bench saw succeed');
    assert.equal(report.serverTotals.failures, 0);
  });

  test('the stability rule is honoured: stable means the last three windows within 10%, else every trial ran', () => {
    for (const l of report.levels) checkStabilityRule(l, MEASURE);
  });

  test('gRPC (unary and stream) and WebSocket load clients measure the same way, and the server counts agree', async () => {
    assert.ok(server.grpcAddress !== undefined, 'the test server runs the gRPC front end');
    const r = await runBench({
      url: server.httpUrl,
      grpcUrl: server.grpcAddress,
      model: 'simple',
      protocols: ['grpc', 'grpc-stream', 'ws'],
      loads: [{ kind: 'concurrency', concurrency: 3 }],
      batches: [2],
      input: { kind: 'random' },
      measure: MEASURE,
    });
    assert.deepEqual(
      r.levels.map((l) => l.protocol),
      ['grpc', 'grpc-stream', 'ws'],
    );
    for (const l of r.levels) {
      checkLevel(l, MEASURE.maxTrials);
      checkStabilityRule(l, MEASURE);
      assert.deepEqual(l.errors, [], l.protocol);
      assert.equal(l.merged.server?.inferences, (l.merged.server?.requests ?? 0) * 2);
    }
    const ok = Object.values(r.totals).reduce((s, t) => s + t.succeeded, 0);
    assert.equal(
      Object.values(r.totals).reduce((s, t) => s + t.sent, 0),
      ok,
    );
    assert.equal(r.serverTotals?.requests, ok);
  });

  test('--shared-memory system: REST and gRPC clients measure through /dev/shm regions, counts agree, regions are gone afterwards', async () => {
    const r = await runBench({
      url: server.httpUrl,
      grpcUrl: server.grpcAddress ?? '',
      model: 'simple',
      protocols: ['http-json', 'http-binary', 'grpc', 'grpc-stream'],
      loads: [{ kind: 'concurrency', concurrency: 3 }],
      batches: [2],
      input: { kind: 'random' },
      measure: MEASURE,
      sharedMemory: 'system',
    });
    assert.equal(r.sharedMemory, 'system');
    assert.deepEqual(
      r.levels.map((l) => l.protocol),
      ['http-json', 'http-binary', 'grpc', 'grpc-stream'],
    );
    for (const l of r.levels) {
      checkLevel(l, MEASURE.maxTrials);
      assert.deepEqual(l.errors, [], l.protocol);
      assert.equal(l.merged.server?.inferences, (l.merged.server?.requests ?? 0) * 2);
    }
    // Each client's setup (a reference inference and the checked first request) is counted as the server counts it.
    const ok = Object.values(r.totals).reduce((s, t) => s + t.succeeded, 0);
    assert.equal(
      Object.values(r.totals).reduce((s, t) => s + t.sent, 0),
      ok,
    );
    assert.equal(r.serverTotals?.requests, ok);
    const regions = await fetch(`${server.httpUrl}/v2/systemsharedmemory/status`).then((res) => res.json() as Promise<unknown[]>);
    assert.deepEqual(regions, [], 'every region the clients registered is unregistered');
    const left = (await readdir('/dev/shm')).filter((f) => f.startsWith(`rtserve-bench-${process.pid}-`));
    assert.deepEqual(left, [], 'every object the clients created is removed');

    await assert.rejects(
      runBench({
        url: server.httpUrl,
        model: 'simple',
        protocols: ['ws'],
        loads: [{ kind: 'concurrency', concurrency: 1 }],
        batches: [1],
        input: { kind: 'random' },
        measure: MEASURE,
        sharedMemory: 'system',
      }),
      (err: unknown) =>
        err instanceof BenchError &&
        /protocol 'ws' cannot send tensors through shared memory; use http-json, http-binary, grpc, grpc-stream/.test(err.message),
    );
  });

  test('request-rate mode offers load at a rate and reports the same way', async () => {
    const control = new RestControl(server.httpUrl, 'simple');
    const info = await control.modelInfo();
    const [factory] = httpClientFactories().filter((f) => f.protocol === 'http-binary');
    assert.ok(factory !== undefined);
    const client = await factory.create({
      url: server.httpUrl,
      model: 'simple',
      inputSets: [randomInputs(info.inputs, { batch: 1, maxBatchSize: info.maxBatchSize })],
      concurrency: 16,
    });
    try {
      const before = await control.statistics();
      const outcome = await measureLevel(
        client,
        { batch: 1, mode: { kind: 'rate', requestsPerSec: 400, distribution: 'poisson' } },
        { ...MEASURE, window: { kind: 'count', requests: 20 } },
        { snapshot: () => control.statistics() },
      );
      const afterStats = await control.statistics();
      checkLevel(outcome.result, MEASURE.maxTrials);
      checkStabilityRule(outcome.result, MEASURE);
      assert.equal(outcome.sent, outcome.succeeded + outcome.failed + 0);
      assert.equal(afterStats.success.count - before.success.count, outcome.succeeded);
    } finally {
      await client.close();
    }
  });

  test('a server that errors is reported, not hidden: failures counted by message, successes kept apart', async () => {
    const control = new RestControl(server.httpUrl, 'simple');
    const info = await control.modelInfo();
    const good = randomInputs(info.inputs, { batch: 1, maxBatchSize: info.maxBatchSize });
    // INPUT1 with 15 elements where the model wants 16: the server refuses it with 400.
    const bad = good.map((t) => (t.name === 'INPUT1' ? { ...t, shape: [1, 15], data: new Int32Array(15) } : t));
    const [factory] = httpClientFactories().filter((f) => f.protocol === 'http-json');
    assert.ok(factory !== undefined);
    const client = await factory.create({ url: server.httpUrl, model: 'simple', inputSets: [good, bad], concurrency: 2 });
    try {
      const before = await control.statistics();
      const outcome = await measureLevel(client, { batch: 1, mode: { kind: 'concurrency', concurrency: 2 } }, MEASURE, {
        snapshot: () => control.statistics(),
      });
      const afterStats = await control.statistics();
      const r = outcome.result;
      assert.ok(outcome.failed > 0 && outcome.succeeded > 0);
      assert.equal(
        r.errors.reduce((s, e) => s + e.count, 0),
        outcome.failed,
        'every failure is in the error list',
      );
      assert.equal(r.errors.length, 1);
      assert.match(r.errors[0]?.message ?? '', /^HTTP 400: .*INPUT1/);
      assert.ok(
        r.windows.every((w) => w.failed > 0),
        'each window counts its failures',
      );
      // The server counts a request its validation refused as a failure of the model (Triton does the same).
      assert.equal(afterStats.fail.count - before.fail.count, outcome.failed);
      assert.equal(afterStats.success.count - before.success.count, outcome.succeeded);
    } finally {
      await client.close();
    }
  });

  test('refuses up front what cannot be measured: a batch over max_batch_size, an unknown model or protocol', async () => {
    const opts: BenchOptions = {
      url: server.httpUrl,
      model: 'simple',
      protocols: ['http-binary'],
      loads: [{ kind: 'concurrency', concurrency: 2 }],
      batches: [1],
      input: { kind: 'random' },
      measure: MEASURE,
    };
    // 9 rows where max_batch_size is 8.
    await assert.rejects(runBench({ ...opts, batches: [9] }), (err: unknown) => err instanceof BenchError && /max_batch_size 8/.test(err.message));
    await assert.rejects(runBench({ ...opts, model: 'no_such_model' }), (err: unknown) => err instanceof BenchError && /404/.test(err.message));
    await assert.rejects(
      runBench({ ...opts, protocols: ['carrier-pigeon'] }),
      (err: unknown) => err instanceof BenchError && /carrier-pigeon/.test(err.message),
    );
  });

  test('the HTML report has a latency-vs-throughput chart per batch size with a p50 and a p99 curve per protocol', () => {
    const html = renderHtmlReport(report);
    const svgs = html.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
    // Two batch sizes → two curve charts, plus the breakdown chart.
    assert.equal(svgs.length, 3);
    for (const svg of svgs.slice(0, 2)) {
      for (const name of ['http-json p50', 'http-json p99', 'http-binary p50', 'http-binary p99']) assert.ok(svg.includes(`>${name}</text>`), name);
      assert.equal((svg.match(/<path /g) ?? []).length, 4, 'one line per protocol and percentile');
    }
    assert.ok(!html.includes('<script'), 'no script: the report views without a server');
  });
});

describe('rtserve bench when the server goes away mid-run', () => {
  test('the run still completes: failures are reported, the server breakdown and the cross-check are left out with a warning', async () => {
    const doomed = await startTestServer();
    let closing: Promise<void> | undefined;
    const report = await runBench({
      url: doomed.httpUrl,
      model: 'simple',
      protocols: ['http-binary'],
      loads: [
        { kind: 'concurrency', concurrency: 2 },
        { kind: 'concurrency', concurrency: 1 },
      ],
      batches: [1],
      input: { kind: 'random' },
      // A stability percentage no run can meet keeps the first level going until the server is gone.
      measure: { ...MEASURE, window: { kind: 'count', requests: 20 }, stabilityPercent: 1e-9, maxTrials: 6 },
      onProgress: (_label, p) => {
        if (p.lastWindow === undefined || closing !== undefined) return;
        // Gone at once, not drained: its listener and every open connection close now, so nothing after this
        // window is answered (a graceful close keeps the port open while it drains, and statistics would still come).
        doomed.http.server.close();
        doomed.http.server.closeAllConnections();
        closing = doomed.close();
      },
    });
    await closing;
    assert.equal(report.levels.length, 2);
    const [first, second] = report.levels;
    assert.ok(first !== undefined && second !== undefined);
    assert.ok(first.windows[0]?.server !== undefined, 'the window before the shutdown has its server breakdown');
    assert.ok(first.errors.length > 0 && second.errors.length > 0, 'failed requests after the shutdown are reported');
    assert.equal(second.merged.succeeded, 0);
    assert.ok(
      second.warnings.some((w) => w.startsWith('every request')),
      second.warnings.join('; '),
    );
    assert.ok(
      second.warnings.some((w) => w.startsWith('server statistics unavailable')),
      second.warnings.join('; '),
    );
    assert.equal(report.serverTotals, undefined, 'no cross-check without the final statistics');
  });
});

describe('rtserve bench CLI', () => {
  let server: RunningServer;
  let dir: string;
  before(async () => {
    server = await startTestServer({ allowClientShm: true });
    dir = await mkdtemp(join(tmpdir(), 'rtserve-bench-'));
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const cli = runBenchCli;

  test('writes JSON, HTML and markdown, prints the table; the raw engine runs beside the server', async () => {
    const out = join(dir, 'r.json');
    const res = await cli([
      '-m',
      'simple',
      '-u',
      server.httpUrl,
      '--protocol',
      'http-binary',
      '--concurrency',
      '1,2',
      '-n',
      '30',
      '--warmup',
      '0',
      '--max-trials',
      '3',
      '--engine',
      '--engine-kinds',
      'inprocess',
      '-o',
      out,
      '--report',
      join(dir, 'r.html'),
      '--markdown',
      join(dir, 'r.md'),
    ]);
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /protocol\s+batch\s+load\s+infer\/s/);
    assert.ok(!res.stderr.includes('\r'), 'no progress line when stderr is not a terminal');
    const report = JSON.parse(await readFile(out, 'utf8')) as BenchReport;
    assert.deepEqual(
      report.levels.map((l) => l.protocol),
      ['http-binary', 'http-binary', 'engine-inprocess'],
    );
    assert.equal(report.levels[2]?.merged.server, undefined, 'the raw engine has no server breakdown');
    assert.ok((report.levels[2]?.merged.succeeded ?? 0) > 0);
    assert.match(await readFile(join(dir, 'r.md'), 'utf8'), /^\| protocol \| batch \|/);
    assert.match(await readFile(join(dir, 'r.html'), 'utf8'), /<svg/);
  });

  test('--shared-memory system over gRPC from the command line; an unknown mode is refused', async () => {
    const out = join(dir, 'shm.json');
    const res = await cli([
      '-m',
      'simple',
      '-u',
      server.httpUrl,
      '--grpc-url',
      server.grpcAddress ?? '',
      '--protocol',
      'grpc',
      '--shared-memory',
      'system',
      '-n',
      '20',
      '--warmup',
      '0',
      '--max-trials',
      '3',
      '-o',
      out,
    ]);
    assert.equal(res.status, 0, res.stderr);
    const report = JSON.parse(await readFile(out, 'utf8')) as BenchReport;
    assert.equal(report.sharedMemory, 'system');
    assert.ok((report.levels[0]?.merged.succeeded ?? 0) > 0);
    assert.deepEqual(report.levels[0]?.errors, []);
    const bad = await cli(['-m', 'simple', '-u', server.httpUrl, '--shared-memory', 'cuda', '-n', '5']);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /--shared-memory is none or system, got 'cuda'/);
  });

  test('exits 1 and names the failure when the server answers with errors', async () => {
    const input = join(dir, 'bad.json');
    await writeFile(input, JSON.stringify({ inputs: [{ name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: new Array(16).fill(1) }] }));
    const out = join(dir, 'bad.json.out');
    const res = await cli([
      '-m',
      'simple',
      '-u',
      server.httpUrl,
      '--protocol',
      'http-json',
      '-n',
      '10',
      '--warmup',
      '0',
      '--max-trials',
      '3',
      '--input',
      input,
      '-o',
      out,
    ]);
    assert.equal(res.status, 1, res.stderr);
    assert.match(res.stderr, /error: http-json b=1 c=1: \d+ failed requests: \d+ × HTTP 400: .*INPUT1/);
    const report = JSON.parse(await readFile(out, 'utf8')) as BenchReport;
    assert.ok((report.levels[0]?.errors[0]?.count ?? 0) > 0);
    assert.equal(report.levels[0]?.stable, false);
  });
});
