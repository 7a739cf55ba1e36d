import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { postJson, startTestServer } from '../../helpers/server.ts';
import { familiesOf, needTool, scrape } from './helpers.ts';
import { Registry } from 'prom-client';
import { registerGpuMetrics } from '../../../src/observability/gpu-metrics.ts';
import { registerGenerateMetrics } from '../../../src/generate/metrics.ts';

const DASHBOARD = fileURLToPath(new URL('../../../deploy/grafana/rtserve-dashboard.json', import.meta.url));

interface Target {
  readonly expr: string;
}
interface Panel {
  readonly title?: string;
  readonly type: string;
  readonly targets?: readonly Target[];
  readonly panels?: readonly Panel[];
}
interface Dashboard {
  readonly panels: readonly Panel[];
  readonly templating: { readonly list: readonly { readonly name: string; readonly definition?: string }[] };
}

const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
  'le',
  'inf',
  'nan',
]);

/** Metric names a PromQL expression reads: identifiers that are not functions, keywords, labels or variables. */
export function metricNamesOf(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""') // string literals
    .replace(/\{[^}]*\}/g, '') // label matchers
    .replace(/\[[^\]]*\]/g, '') // range selectors
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '') // grouping label lists
    .replace(/\$\{?\w+\}?/g, ''); // Grafana variables
  const names: string[] = [];
  for (const m of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const word = m[0];
    const next = stripped.slice((m.index ?? 0) + word.length).trimStart();
    if (next.startsWith('(') || PROMQL_WORDS.has(word.toLowerCase())) continue;
    names.push(word);
  }
  return names;
}

/** The series names an exposition offers queries: each family, and a histogram's or summary's own series. */
function seriesNamesOf(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [name, type] of familiesOf(exposition)) {
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
  }
  return names;
}

function allPanels(panels: readonly Panel[]): Panel[] {
  return panels.flatMap((p) => [p, ...allPanels(p.panels ?? [])]);
}

describe('Grafana dashboard (deploy/grafana/rtserve-dashboard.json)', () => {
  let server: RunningServer;
  let dashboard: Dashboard;
  let exprs: string[];
  let exposed: Set<string>;

  before(async () => {
    dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as Dashboard;
    exprs = allPanels(dashboard.panels).flatMap((p) => (p.targets ?? []).map((t) => t.expr));
    server = await startTestServer();
    // One request so that every labelled family has a series.
    const body = { inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array<number>(64).fill(0) }] };
    assert.equal((await postJson(`${server.httpUrl}/v2/models/mlp/infer`, body)).status, 200);
    exposed = seriesNamesOf(await scrape(`${server.metricsUrl ?? ''}/metrics`));
    // The GPU families exist only where NVML loads: their names come from the same registration, fed one device.
    const gpu = new Registry();
    registerGpuMetrics(
      gpu,
      () => [
        {
          index: 0,
          name: 'GPU',
          uuid: 'GPU-0',
          utilization: 0,
          memoryUsed: 0,
          memoryTotal: 1,
          powerMilliwatts: 0,
          powerLimitMilliwatts: 0,
          energyMillijoules: 0,
        },
      ],
      () => [{ model: 'm', version: '1', instance: 0, arenaBytes: 0, weightBytes: 0, workspaceBytes: 0 }],
    );
    for (const [name] of familiesOf(await gpu.metrics())) exposed.add(name);
  });
  after(async () => {
    await server?.close();
  });

  test('the name extractor finds metrics and skips functions, labels and variables', () => {
    assert.deepEqual(
      metricNamesOf('histogram_quantile(0.99, sum by (le, model) (rate(a_bucket{model=~"$model"}[$__rate_interval]))) / on(model) b_total'),
      ['a_bucket', 'b_total'],
    );
  });

  test('every query names a metric that rtserve exposes', () => {
    assert.ok(exprs.length >= 10, `only ${exprs.length} queries`);
    const variableQueries = dashboard.templating.list.flatMap((v) =>
      v.definition === undefined ? [] : [v.definition.replace(/^label_values\(([^,)]+).*$/, '$1')],
    );
    const missing: string[] = [];
    for (const expr of [...exprs, ...variableQueries]) {
      const names = metricNamesOf(expr);
      assert.ok(names.length > 0, `no metric in: ${expr}`);
      for (const n of names) if (!exposed.has(n)) missing.push(`${n} (in ${expr})`);
    }
    assert.deepEqual(missing, []);
  });

  test('it covers request rate, latency percentiles, queue depth, batch sizes and errors', () => {
    const all = exprs.join('\n');
    assert.match(all, /rate\(nv_inference_request_success/);
    assert.match(all, /histogram_quantile\(0\.99, [^\n]*rtserve_inference_request_duration_seconds_bucket/);
    assert.match(all, /nv_inference_pending_request_count/);
    assert.match(all, /rtserve_inference_batch_size_bucket/);
    assert.match(all, /nv_inference_request_failure/);
  });

  test('an instance variable scopes every query; GPU panels read the NVML metrics and the CUDA engine memory', () => {
    assert.ok(dashboard.templating.list.some((v) => v.name === 'instance'));
    const unscoped = exprs.filter((e) => !e.includes('instance=~"$instance"'));
    assert.deepEqual(unscoped, []);
    const all = exprs.join('\n');
    for (const m of [
      'nv_gpu_utilization',
      'nv_gpu_memory_used_bytes',
      'nv_gpu_memory_total_bytes',
      'nv_gpu_power_usage',
      'nv_energy_consumption',
      'rtserve_engine_device_memory_bytes',
    ])
      assert.ok(all.includes(m), m);
  });

  test('a Generation row: TTFT, inter-token latency, tokens/s and the queue, from metrics the generate registry registers', async () => {
    const at = dashboard.panels.findIndex((p) => p.type === 'row' && p.title === 'Generation');
    assert.ok(at >= 0, 'a row titled Generation');
    const after = dashboard.panels.slice(at + 1);
    const end = after.findIndex((p) => p.type === 'row');
    const row = end < 0 ? after : after.slice(0, end);
    assert.deepEqual(
      row.map((p) => p.title),
      ['Time to first token', 'Inter-token latency', 'Tokens per second', 'Generation queue and running sequences'],
    );
    const registry = new Registry();
    registerGenerateMetrics(registry);
    const registered = seriesNamesOf(await registry.metrics());
    const used = row.flatMap((p) => (p.targets ?? []).flatMap((t) => metricNamesOf(t.expr)));
    assert.deepEqual(
      used.filter((n) => !registered.has(n)),
      [],
      'metrics the generate registry does not register',
    );
    for (const m of [
      'rtserve_generate_time_to_first_token_seconds_bucket',
      'rtserve_generate_inter_token_latency_seconds_bucket',
      'rtserve_generate_tokens_total',
      'rtserve_generate_sequences_queued',
    ])
      assert.ok(used.includes(m), m);
  });

  test('every query is valid PromQL (promtool check rules)', { skip: needTool('promtool', 'prometheus') }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rtserve-dash-'));
    try {
      // Grafana's variables replaced by values Prometheus would see.
      const rules = exprs.map((e, i) => ({
        record: `dashboard:query_${i}`,
        expr: e.replaceAll('$__rate_interval', '1m').replaceAll('$model', '.*').replaceAll('$instance', '.*'),
      }));
      await writeFile(join(dir, 'rules.json'), JSON.stringify({ groups: [{ name: 'dashboard', rules }] }));
      const r = spawnSync('promtool', ['check', 'rules', join(dir, 'rules.json')], { encoding: 'utf8' });
      assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
      assert.match(r.stdout, new RegExp(`${rules.length} rules found`));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
