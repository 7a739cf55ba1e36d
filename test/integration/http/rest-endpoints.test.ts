import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postJson, request, startTestServer } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';

describe('REST endpoints (KServe v2 + Triton extensions)', () => {
  let server: RunningServer;
  let base: string;
  before(async () => {
    server = await startTestServer();
    base = server.httpUrl;
  });
  after(async () => {
    await server.close();
  });

  test('health: live and ready answer 200 with an empty body, probe aliases answer ok', async () => {
    for (const path of ['/v2/health/live', '/v2/health/ready']) {
      const r = await request(base + path);
      assert.equal(r.status, 200, path);
      assert.equal(r.body.byteLength, 0, path);
    }
    for (const path of ['/healthz', '/readyz']) {
      const r = await request(base + path);
      assert.equal(r.status, 200, path);
    }
  });

  test('server metadata names rtserve, its version and only implemented extensions', async () => {
    const r = await request(`${base}/v2`);
    assert.equal(r.status, 200);
    const m = r.json() as { name: string; version: string; extensions: string[] };
    assert.equal(m.name, 'rtserve');
    assert.match(m.version, /^\d+\.\d+\.\d+/);
    assert.ok(m.extensions.includes('binary_tensor_data'));
    assert.ok(m.extensions.includes('statistics'));
  });

  test('model metadata with and without a version; batching models report -1 batch dims', async () => {
    for (const path of ['/v2/models/simple', '/v2/models/simple/versions/1']) {
      const r = await request(base + path);
      assert.equal(r.status, 200, path);
      assert.deepEqual(r.json(), {
        name: 'simple',
        versions: ['1'],
        platform: 'onnxruntime_onnx',
        inputs: [
          { name: 'INPUT0', datatype: 'INT32', shape: [-1, 16] },
          { name: 'INPUT1', datatype: 'INT32', shape: [-1, 16] },
        ],
        outputs: [
          { name: 'OUTPUT0', datatype: 'INT32', shape: [-1, 16] },
          { name: 'OUTPUT1', datatype: 'INT32', shape: [-1, 16] },
        ],
      });
    }
  });

  test('auto-completed config: resnet_tiny has no config file and gets batching from its graph', async () => {
    const r = await request(`${base}/v2/models/resnet_tiny/config`);
    assert.equal(r.status, 200);
    const c = r.json() as { max_batch_size: number; input: { name: string; data_type: string; dims: number[] }[]; dynamic_batching?: unknown };
    assert.equal(c.max_batch_size, 4);
    assert.deepEqual(c.input, [{ name: 'input', data_type: 'TYPE_FP32', dims: [3, 32, 32] }]);
    assert.ok(c.dynamic_batching !== undefined);
  });

  test('encoder: a dynamic sequence length; each request gets logits and hidden states of its own length', async () => {
    const meta = (await request(`${base}/v2/models/encoder`)).json() as { inputs: unknown[]; outputs: unknown[] };
    assert.deepEqual(meta.inputs, [{ name: 'input', datatype: 'FP32', shape: [-1, -1, 128] }]);
    assert.deepEqual(meta.outputs, [
      { name: 'logits', datatype: 'FP32', shape: [-1, 10] },
      { name: 'hidden', datatype: 'FP32', shape: [-1, -1, 128] },
    ]);
    for (const seq of [3, 17]) {
      const data = Array.from({ length: seq * 128 }, (_, i) => Math.sin(i * 0.37));
      const r = await postJson(`${base}/v2/models/encoder/infer`, { inputs: [{ name: 'input', shape: [1, seq, 128], datatype: 'FP32', data }] });
      assert.equal(r.status, 200, JSON.stringify(r.json()));
      const outs = (r.json() as { outputs: { name: string; shape: number[]; data: number[] }[] }).outputs;
      assert.deepEqual(outs.find((o) => o.name === 'logits')?.shape, [1, 10]);
      assert.deepEqual(outs.find((o) => o.name === 'hidden')?.shape, [1, seq, 128]);
      assert.ok(outs.every((o) => o.data.every((v) => Number.isFinite(v))));
    }
    const bad = await postJson(`${base}/v2/models/encoder/infer`, {
      inputs: [{ name: 'input', shape: [1, 4, 64], datatype: 'FP32', data: new Array(256).fill(0) }],
    });
    assert.equal(bad.status, 400);
    assert.match((bad.json() as { error: string }).error, /input/);
  });

  test('model ready, unknown model and unknown version', async () => {
    const ready = await request(`${base}/v2/models/mlp/ready`);
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.json(), { name: 'mlp', ready: true });
    const unknown = await request(`${base}/v2/models/nope/ready`);
    assert.equal(unknown.status, 404);
    assert.match((unknown.json() as { error: string }).error, /nope/);
    const badVersion = await request(`${base}/v2/models/mlp/versions/3`);
    assert.equal(badVersion.status, 404);
    assert.match((badVersion.json() as { error: string }).error, /'3'/);
  });

  test('repository index lists every model as READY', async () => {
    const r = await postJson(`${base}/v2/repository/index`, {});
    assert.equal(r.status, 200);
    const idx = r.json() as { name: string; version: string; state: string }[];
    const names = idx.map((m) => m.name);
    for (const m of ['encoder', 'identity_all', 'mlp', 'resnet_tiny', 'simple']) assert.ok(names.includes(m), `${m} in ${names.join(', ')}`);
    assert.deepEqual(names, [...names].sort(), 'sorted by name');
    assert.ok(
      idx.every((m) => m.state === 'READY' && m.version === '1'),
      JSON.stringify(idx),
    );
  });

  test('load/unload answer UNIMPLEMENTED with a clear message in model-control-mode none', async () => {
    const r = await postJson(`${base}/v2/repository/models/mlp/load`, {});
    assert.equal(r.status, 501);
    assert.match((r.json() as { error: string }).error, /model-control-mode/);
  });

  test('statistics: counts add up and batching is observable under concurrent load', async () => {
    const before = (await request(`${base}/v2/models/mlp/stats`)).json() as { model_stats: { inference_count: number; execution_count: number }[] };
    const b0 = before.model_stats[0];
    assert.ok(b0 !== undefined);
    const n = 64;
    const body = { inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array(64).fill(0.5) }] };
    const results = await Promise.all(Array.from({ length: n }, () => postJson(`${base}/v2/models/mlp/infer`, body)));
    assert.ok(results.every((r) => r.status === 200));
    const stats = (await request(`${base}/v2/models/mlp/stats`)).json() as {
      model_stats: {
        name: string;
        version: string;
        inference_count: number;
        execution_count: number;
        inference_stats: { success: { count: number; ns: number }; queue: { count: number } };
        batch_stats: { batch_size: number }[];
      }[];
    };
    const s = stats.model_stats[0];
    assert.ok(s !== undefined);
    assert.equal(s.name, 'mlp');
    assert.equal(s.version, '1');
    assert.equal(s.inference_count - b0.inference_count, n);
    const execs = s.execution_count - b0.execution_count;
    assert.ok(execs < n, `batching should merge concurrent requests: ${execs} executions for ${n} requests`);
    assert.ok(s.batch_stats.some((b) => b.batch_size > 1));
    assert.ok(s.inference_stats.success.ns > 0);
    const all = (await request(`${base}/v2/models/stats`)).json() as { model_stats: { name: string }[] };
    const idx = (await postJson(`${base}/v2/repository/index`, { ready: true })).json() as { name: string }[];
    assert.deepEqual(all.model_stats.map((m) => m.name).sort(), idx.map((m) => m.name).sort(), 'one entry per ready model');
  });

  test('OpenAPI 3.1 document describes the infer route; /docs serves an offline page and its assets', async () => {
    const r = await request(`${base}/openapi.json`);
    assert.equal(r.status, 200);
    const doc = r.json() as { openapi: string; paths: Record<string, { post?: { requestBody?: unknown } }> };
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.paths['/v2/models/{model}/infer']?.post?.requestBody !== undefined);
    const page = await request(`${base}/docs`);
    assert.equal(page.status, 200);
    const html = new TextDecoder().decode(page.body);
    assert.match(html, /swagger-ui-bundle\.js/);
    assert.doesNotMatch(html, /https?:\/\/(?!127)/, 'no CDN: the page works offline');
    const js = await request(`${base}/docs/swagger-ui-bundle.js`);
    assert.equal(js.status, 200);
    assert.ok(js.body.byteLength > 100_000);
  });

  test('GET /metrics on the HTTP port and on the metrics port expose nv_inference_* families', async () => {
    for (const url of [`${base}/metrics`, `${server.metricsUrl ?? ''}/metrics`]) {
      const r = await request(url);
      assert.equal(r.status, 200, url);
      const text = new TextDecoder().decode(r.body);
      assert.match(text, /nv_inference_count\{model="mlp",version="1"\} \d+/);
      assert.match(text, /# TYPE nv_inference_exec_count counter/);
    }
  });

  test('unknown route answers 404 with a JSON error', async () => {
    const r = await request(`${base}/v2/nothing/here`);
    assert.equal(r.status, 404);
    assert.match((r.json() as { error: string }).error, /no route/);
  });
});
