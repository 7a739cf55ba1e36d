import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { makeRepository, postJson, startTestServer, slowMlpConfig } from '../../helpers/server.ts';
import { familiesOf, freePort, needTool, parseSamples, scrape, valueOf, waitFor } from './helpers.ts';

const MLP_BODY = { inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array<number>(64).fill(0.5) }] };
const SUCCESSES = 5;

describe('metrics: Triton families, histograms, front-end counters', () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  let text: string;

  before(async () => {
    const repo = await makeRepository({
      mlp: { from: 'mlp' },
      // A queue of one that holds its request for 2 s: the second request is refused with QUEUE_FULL.
      mlp_q1: slowMlpConfig(2_000_000, 1),
    });
    cleanup = repo.cleanup;
    server = await startTestServer({ modelRepository: [repo.dir] });
    for (let i = 0; i < SUCCESSES; i++) assert.equal((await postJson(`${server.httpUrl}/v2/models/mlp/infer`, MLP_BODY)).status, 200);
    // Missing input: a failure of reason OTHER.
    assert.equal((await postJson(`${server.httpUrl}/v2/models/mlp/infer`, { inputs: [] })).status, 400);
    const first = postJson(`${server.httpUrl}/v2/models/mlp_q1/infer`, MLP_BODY);
    await waitFor('mlp_q1 request queued', async () => {
      const s = parseSamples(await scrape(`${server.metricsUrl ?? ''}/metrics`));
      return valueOf(s, 'nv_inference_pending_request_count', { model: 'mlp_q1' }) === 1 ? true : undefined;
    });
    assert.equal((await postJson(`${server.httpUrl}/v2/models/mlp_q1/infer`, MLP_BODY)).status, 429);
    assert.equal((await first).status, 200);
    // The small API other front ends call.
    server.metrics.wsConnections.inc();
    server.metrics.wsConnections.inc();
    server.metrics.wsConnections.dec();
    server.metrics.wsDroppedFrames.inc({ reason: 'backpressure' });
    server.metrics.rateLimited.inc({ protocol: 'http' });
    text = await scrape(`${server.metricsUrl ?? ''}/metrics`);
  });
  after(async () => {
    await server?.close();
    await cleanup?.();
  });

  test('Triton families exist with their types and {model, version} labels', () => {
    const families = familiesOf(text);
    const expected: Record<string, string> = {
      nv_inference_request_success: 'counter',
      nv_inference_request_failure: 'counter',
      nv_inference_count: 'counter',
      nv_inference_exec_count: 'counter',
      nv_inference_pending_request_count: 'gauge',
      nv_inference_request_duration_us: 'counter',
      nv_inference_queue_duration_us: 'counter',
      nv_inference_compute_input_duration_us: 'counter',
      nv_inference_compute_infer_duration_us: 'counter',
      nv_inference_compute_output_duration_us: 'counter',
      nv_inference_first_response_histogram_ms: 'histogram',
      nv_cache_num_hits_per_model: 'counter',
      nv_cache_num_misses_per_model: 'counter',
      nv_cpu_utilization: 'gauge',
      nv_cpu_memory_total_bytes: 'gauge',
      nv_cpu_memory_used_bytes: 'gauge',
      rtserve_inference_request_duration_seconds: 'histogram',
      rtserve_inference_queue_duration_seconds: 'histogram',
      rtserve_inference_compute_duration_seconds: 'histogram',
      rtserve_inference_batch_size: 'histogram',
      rtserve_inference_requests_total: 'counter',
      rtserve_http_requests_total: 'counter',
      rtserve_queue_full_rejections_total: 'counter',
      rtserve_rate_limited_total: 'counter',
      rtserve_ws_connections: 'gauge',
      rtserve_ws_dropped_frames_total: 'counter',
      rtserve_model_instances: 'gauge',
      rtserve_model_ready: 'gauge',
    };
    for (const [name, type] of Object.entries(expected)) assert.equal(families.get(name), type, `family ${name}`);
    const s = parseSamples(text);
    for (const name of ['nv_inference_request_success', 'nv_inference_count', 'nv_inference_exec_count', 'nv_inference_request_duration_us']) {
      assert.ok(
        s.some((x) => x.name === name && x.labels['model'] === 'mlp' && x.labels['version'] === '1'),
        `${name}{model="mlp",version="1"}`,
      );
    }
  });

  test('counter values match what was sent: successes, failures by Triton reason, per-protocol counts', () => {
    const s = parseSamples(text);
    const mlp = { model: 'mlp', version: '1' };
    assert.equal(valueOf(s, 'nv_inference_request_success', mlp), SUCCESSES);
    assert.equal(valueOf(s, 'nv_inference_count', mlp), SUCCESSES);
    assert.equal(valueOf(s, 'nv_inference_request_failure', { ...mlp, reason: 'OTHER' }), 1);
    // Every reason has a series from the load on (at 0 until it happens), as in Triton.
    assert.equal(valueOf(s, 'nv_inference_request_failure', { ...mlp, reason: 'BACKEND' }), 0);
    assert.equal(valueOf(s, 'rtserve_queue_full_rejections_total', mlp), 0);
    assert.equal(valueOf(s, 'nv_inference_request_failure', { model: 'mlp_q1', version: '1', reason: 'REJECTED' }), 1);
    assert.equal(valueOf(s, 'rtserve_queue_full_rejections_total', { model: 'mlp_q1' }), 1);
    assert.equal(valueOf(s, 'rtserve_inference_requests_total', { protocol: 'http', outcome: 'success' }), SUCCESSES + 1);
    assert.equal(valueOf(s, 'rtserve_inference_requests_total', { protocol: 'http', outcome: 'failure' }), 2);
    assert.equal(valueOf(s, 'rtserve_http_requests_total', { route: '/v2/models/:model/infer', code: '200' }), SUCCESSES + 1);
    assert.equal(valueOf(s, 'rtserve_http_requests_total', { route: '/v2/models/:model/infer', code: '429' }), 1);
    assert.equal(valueOf(s, 'rtserve_ws_connections'), 1);
    assert.equal(valueOf(s, 'rtserve_ws_dropped_frames_total', { reason: 'backpressure' }), 1);
    assert.equal(valueOf(s, 'rtserve_rate_limited_total', { protocol: 'http' }), 1);
  });

  test('histograms: one observation per successful request; batch-size sum equals inferences', () => {
    const s = parseSamples(text);
    const mlp = { model: 'mlp', version: '1' };
    assert.equal(valueOf(s, 'rtserve_inference_request_duration_seconds_count', mlp), SUCCESSES);
    assert.equal(valueOf(s, 'rtserve_inference_queue_duration_seconds_count', mlp), SUCCESSES);
    assert.equal(valueOf(s, 'nv_inference_first_response_histogram_ms_count', mlp), SUCCESSES);
    assert.equal(valueOf(s, 'rtserve_inference_request_duration_seconds_bucket', { ...mlp, le: '+Inf' }), SUCCESSES);
    const execs = valueOf(s, 'nv_inference_exec_count', mlp);
    assert.equal(valueOf(s, 'rtserve_inference_compute_duration_seconds_count', mlp), execs);
    assert.equal(valueOf(s, 'rtserve_inference_batch_size_count', mlp), execs);
    assert.equal(valueOf(s, 'rtserve_inference_batch_size_sum', mlp), valueOf(s, 'nv_inference_count', mlp));
    // Cumulative buckets never decrease.
    const buckets = s
      .filter((x) => x.name === 'rtserve_inference_request_duration_seconds_bucket' && x.labels['model'] === 'mlp')
      .map((x) => x.value);
    assert.deepEqual(
      buckets,
      [...buckets].sort((a, b) => a - b),
    );
  });

  test('engine gauges: instances by provider, readiness per model', () => {
    const s = parseSamples(text);
    assert.equal(valueOf(s, 'rtserve_model_instances', { model: 'mlp', version: '1', provider: 'cpu' }), 1);
    assert.equal(valueOf(s, 'rtserve_model_ready', { model: 'mlp' }), 1);
    assert.equal(valueOf(s, 'rtserve_model_busy_instances', { model: 'mlp', version: '1' }), 0);
  });

  test('promtool check metrics parses the exposition; lint findings are only the Triton-compatible names', {
    skip: needTool('promtool', 'prometheus'),
  }, () => {
    const r = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    const out = `${r.stdout}${r.stderr}`;
    // 0 = clean, 3 = lint findings only; anything else (1) is a parse error.
    assert.ok(r.status === 0 || r.status === 3, `promtool exit ${String(r.status)}: ${out}`);
    assert.doesNotMatch(out, /error/i);
    const findings = out.split('\n').filter((l) => l.trim() !== '');
    // Triton's names (no _total, _us units) are kept on purpose so Triton dashboards work; prom-client's default
    // Node.js gauges end in _total. Every name rtserve chose itself must be lint-clean.
    const ours = findings.filter((l) => !/^nv_/.test(l) && !/^rtserve_nodejs_active_\w+_total /.test(l));
    assert.deepEqual(ours, []);
  });

  test('histograms can be switched off', async () => {
    const quiet = await startTestServer({ metricsHistograms: false });
    try {
      await postJson(`${quiet.httpUrl}/v2/models/mlp/infer`, MLP_BODY);
      const families = familiesOf(await scrape(`${quiet.metricsUrl ?? ''}/metrics`));
      assert.equal(families.get('rtserve_inference_request_duration_seconds'), undefined);
      assert.equal(families.get('nv_inference_request_success'), 'counter');
    } finally {
      await quiet.close();
    }
  });
});

describe('a real Prometheus server scrapes rtserve', { skip: needTool('prometheus', 'prometheus') }, () => {
  test('Prometheus scrapes /metrics and a query returns the request count', async () => {
    const server = await startTestServer();
    const dir = await mkdtemp(join(tmpdir(), 'rtserve-prom-'));
    const promPort = await freePort();
    const metricsUrl = new URL(server.metricsUrl ?? '');
    await writeFile(
      join(dir, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        'scrape_configs:',
        '  - job_name: rtserve',
        `    static_configs: [{ targets: ['127.0.0.1:${metricsUrl.port}'] }]`,
        '',
      ].join('\n'),
    );
    const prom = spawn(
      'prometheus',
      [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${promPort}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let promLog = '';
    prom.stderr.on('data', (c: Buffer) => (promLog = (promLog + c.toString()).slice(-4000)));
    try {
      for (let i = 0; i < 3; i++) assert.equal((await postJson(`${server.httpUrl}/v2/models/mlp/infer`, MLP_BODY)).status, 200);
      const query = encodeURIComponent('nv_inference_request_success{model="mlp",version="1"}');
      const value = await waitFor(
        `Prometheus to scrape rtserve (log tail: ${promLog})`,
        async () => {
          try {
            const r = (await (await fetch(`http://127.0.0.1:${promPort}/api/v1/query?query=${query}`)).json()) as {
              data?: { result?: { metric: Record<string, string>; value: [number, string] }[] };
            };
            const v = r.data?.result?.[0]?.value[1];
            return v === '3' ? v : undefined;
          } catch {
            return undefined; // not listening yet
          }
        },
        30_000,
        250,
      );
      assert.equal(value, '3');
      // The scrape target is healthy: Prometheus parsed the exposition.
      const up = (await (await fetch(`http://127.0.0.1:${promPort}/api/v1/query?query=up`)).json()) as {
        data: { result: { value: [number, string] }[] };
      };
      assert.equal(up.data.result[0]?.value[1], '1');
    } finally {
      const exited = new Promise((r) => prom.once('exit', r));
      prom.kill('SIGTERM');
      await exited;
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
