import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { WorkerSession } from '../../../src/engine/worker/worker-session.ts';
import type { EngineChainView } from '../../../src/engine/engine-chain.ts';
import { buildModel, ElemType } from '../../fixtures/onnx-builders.ts';
import { makeRepository, postJson, startTestServer, type FetchResult } from '../../helpers/server.ts';
import { parseSamples, scrape, valueOf, waitFor, type Sample } from './helpers.ts';

/**
 * Run-time engine failover (docs/operations.md, "Degradation across engines") against a real server. This
 * machine has one usable provider, so the run-time chains are cpu → cpu (two links, positions 0 and 1); the
 * primary's engine fails for real: its onnxruntime worker thread is terminated, as a crash would end it. The
 * load-time case uses a webgpu link that cannot load on any host, GPU or not: it carries a provider option that
 * onnxruntime refuses (UNLOADABLE_WEBGPU), so the test holds on a GPU machine too.
 */

/** A webgpu provider that fails to load everywhere: onnxruntime-node validates WebGPU options and refuses this one. */
const UNLOADABLE_WEBGPU = { name: 'webgpu', options: { notAnOption: 'x' } };

const MLP_IO = {
  max_batch_size: 64,
  input: [{ name: 'input', data_type: 'TYPE_FP32', dims: [64] }],
  output: [{ name: 'logits', data_type: 'TYPE_FP32', dims: [10] }],
  dynamic_batching: { max_queue_delay_microseconds: 2000 },
};
/** Probes only when the test asks (chain.probeNow()): what the chain does in between is then the test's to see. */
const MANUAL_PROBE = { probe_interval_ms: 3_600_000, max_probe_interval_ms: 3_600_000 };
const FAST_PROBE = { probe_interval_ms: 50, max_probe_interval_ms: 400 };
const CPU_CHAIN = [{ name: 'cpu', options: {} }, 'cpu'];

function mlpConfig(providers: unknown[], failover: object): object {
  return { ...MLP_IO, engine: { providers, failover } };
}

const INPUT = Array.from({ length: 64 }, (_, i) => Math.sin(i) * 0.5);

describe('engine failover: run-time failover along the provider chain, circuit breaker, recovery', () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  let reference: number[];

  before(async () => {
    const repo = await makeRepository({
      // A partial batch waits 10 minutes: batches go only when full (64 rows), so the test decides when the engine
      // runs (its requests are certainly queued, and the worker idle, when the test ends it), however slow the machine.
      mlp_manual: {
        from: 'mlp',
        config: {
          ...mlpConfig(CPU_CHAIN, { ...MANUAL_PROBE, failure_threshold: 1 }),
          dynamic_batching: { max_queue_delay_microseconds: 600_000_000 },
        },
      },
      mlp_auto: { from: 'mlp', config: mlpConfig(CPU_CHAIN, FAST_PROBE) },
      mlp_single: { from: 'mlp', config: mlpConfig(['cpu'], MANUAL_PROBE) },
      mlp_gpu: { from: 'mlp', config: mlpConfig([UNLOADABLE_WEBGPU, 'cpu'], { probe_interval_ms: 100, max_probe_interval_ms: 400 }) },
      mlp_off: { from: 'mlp', config: mlpConfig(CPU_CHAIN, { enabled: false }) },
      mlp_strict: { from: 'mlp', config: mlpConfig(CPU_CHAIN, { ...MANUAL_PROBE, failure_threshold: 1 }) },
    });
    cleanup = repo.cleanup;
    // y = a + b with both widths dynamic: widths that differ pass validation and onnxruntime refuses the batch.
    const addDyn = buildModel({
      inputs: [
        { name: 'a', elemType: ElemType.FLOAT, shape: ['batch', 'wa'] },
        { name: 'b', elemType: ElemType.FLOAT, shape: ['batch', 'wb'] },
      ],
      outputs: [{ name: 'y', elemType: ElemType.FLOAT, shape: ['batch', 'wy'] }],
      nodes: [{ opType: 'Add', inputs: ['a', 'b'], outputs: ['y'] }],
    });
    await mkdir(join(repo.dir, 'add_dyn', '1'), { recursive: true });
    await writeFile(join(repo.dir, 'add_dyn', '1', 'model.onnx'), addDyn);
    await writeFile(
      join(repo.dir, 'add_dyn', 'config.json'),
      JSON.stringify({ name: 'add_dyn', max_batch_size: 8, engine: { providers: CPU_CHAIN, failover: { ...MANUAL_PROBE, failure_threshold: 1 } } }),
    );
    server = await startTestServer({ modelRepository: [repo.dir] });
    const r = await infer('mlp_single');
    assert.equal(r.status, 200, new TextDecoder().decode(r.body));
    reference = logitsOf(r);
  });

  after(async () => {
    await server?.close();
    await cleanup?.();
  });

  function infer(model: string, input: unknown = { name: 'input', shape: [1, 64], datatype: 'FP32', data: INPUT }): Promise<FetchResult> {
    return postJson(`${server.httpUrl}/v2/models/${model}/infer`, { inputs: [input] });
  }

  function logitsOf(r: FetchResult): number[] {
    const body = r.json() as { outputs: { name: string; data: number[] }[] };
    const out = body.outputs.find((o) => o.name === 'logits');
    assert.ok(out !== undefined, 'no logits in the response');
    return out.data;
  }

  function assertCorrect(r: FetchResult, what: string): void {
    assert.equal(r.status, 200, `${what}: ${new TextDecoder().decode(r.body)}`);
    const got = logitsOf(r);
    assert.equal(got.length, reference.length);
    got.forEach((v, i) => assert.ok(Math.abs(v - (reference[i] ?? NaN)) < 1e-4, `${what}: logits[${i}] ${v} vs ${reference[i]}`));
  }

  /** One full batch of mlp_manual (64 requests: the only size that goes at once), every answer checked. */
  async function fullBatch(what: string, queued: readonly Promise<FetchResult>[] = []): Promise<void> {
    const rest = Array.from({ length: 64 - queued.length }, () => infer('mlp_manual'));
    (await Promise.all([...queued, ...rest])).forEach((r, i) => assertCorrect(r, `${what} (request ${i})`));
  }

  function chainOf(model: string): EngineChainView {
    const chain = server.repository.get(model).engineChain;
    assert.ok(chain !== undefined, `${model} has no engine chain`);
    return chain;
  }

  function primaryWorker(model: string): WorkerSession {
    const s = chainOf(model).activeSessions()[0];
    assert.ok(s instanceof WorkerSession, 'the active session is an onnxruntime worker session');
    return s;
  }

  async function metrics(): Promise<Sample[]> {
    return parseSamples(await scrape(`${server.metricsUrl ?? ''}/metrics`));
  }

  test('a primary whose worker dies mid-serving: in-flight and later requests are answered on the fallback; metrics say so; the probe brings the primary back', async () => {
    const chain = chainOf('mlp_manual');
    assert.deepEqual(chain.active, { provider: 'cpu', position: 0 });
    assert.equal(chain.state, 'closed');
    let m = await metrics();
    assert.equal(valueOf(m, 'rtserve_model_active_provider', { model: 'mlp_manual', position: '0' }), 1);
    assert.equal(valueOf(m, 'rtserve_model_active_provider', { model: 'mlp_manual', position: '1' }), 0);
    assert.equal(valueOf(m, 'rtserve_model_engine_breaker_state', { model: 'mlp_manual' }), 0);

    const primary = primaryWorker('mlp_manual');
    // Requests in flight when the engine dies: queued (their partial batch waits) while the worker is ended.
    // The worker is ended idle: ending a worker thread inside onnxruntime's run can abort the whole process
    // (node-addon-api's Napi::Error escaping into std::terminate), which a crash of the engine would not do to
    // the server's process and a test must not do to the test runner's.
    const inFlight = Array.from({ length: 24 }, () => infer('mlp_manual'));
    await waitFor(
      '24 requests queued',
      async () => {
        const s = await metrics();
        return valueOf(s, 'nv_inference_pending_request_count', { model: 'mlp_manual' }) === 24 ? true : undefined;
      },
      20_000,
      20,
    );
    assert.equal(primary.inFlight, 0);
    await primary.terminate();
    // 40 more fill the batch: it goes, finds the primary dead and runs on the fallback.
    await fullBatch('in flight when the primary died', inFlight);
    assert.equal(primary.isAlive(), false);

    assert.deepEqual(chain.active, { provider: 'cpu', position: 1 });
    assert.equal(chain.state, 'open');
    await fullBatch('after the failover');
    m = await metrics();
    assert.equal(
      valueOf(m, 'rtserve_model_failovers_total', { model: 'mlp_manual', version: '1', from: 'cpu', to: 'cpu', reason: 'worker_died' }),
      1,
    );
    assert.equal(valueOf(m, 'rtserve_model_active_provider', { model: 'mlp_manual', position: '0' }), 0);
    assert.equal(valueOf(m, 'rtserve_model_active_provider', { model: 'mlp_manual', position: '1' }), 1);
    assert.equal(valueOf(m, 'rtserve_model_engine_breaker_state', { model: 'mlp_manual' }), 1);
    const fallback = primaryWorker('mlp_manual');
    assert.notEqual(fallback, primary);

    // Half-open: the probe reloads the primary and runs the warmup inference on it; it passes, traffic returns.
    await chain.probeNow();
    assert.deepEqual(chain.active, { provider: 'cpu', position: 0 });
    assert.equal(chain.state, 'closed');
    const back = primaryWorker('mlp_manual');
    assert.ok(back !== primary && back !== fallback && back.isAlive(), 'a freshly loaded primary serves');
    await fullBatch('after the recovery');
    m = await metrics();
    assert.equal(valueOf(m, 'rtserve_model_failover_probes_total', { model: 'mlp_manual', position: '0', result: 'passed' }), 1);
    assert.equal(valueOf(m, 'rtserve_model_failover_recoveries_total', { model: 'mlp_manual', from: 'cpu', to: 'cpu' }), 1);
    assert.equal(valueOf(m, 'rtserve_model_active_provider', { model: 'mlp_manual', position: '0' }), 1);
    assert.equal(valueOf(m, 'rtserve_model_engine_breaker_state', { model: 'mlp_manual' }), 0);
    // The fallback's session was released once traffic left it.
    await waitFor('the fallback session to close', () => (fallback.isAlive() ? undefined : true));
  });

  test('the scheduled probe brings a dead primary back by itself', async () => {
    const chain = chainOf('mlp_auto');
    const primary = primaryWorker('mlp_auto');
    await primary.terminate();
    // The next request finds the dead session and is served on the fallback.
    assertCorrect(await infer('mlp_auto'), 'request after the primary died');
    await waitFor('the probe to restore the primary', async () => {
      const m = await metrics();
      return valueOf(m, 'rtserve_model_failover_recoveries_total', { model: 'mlp_auto' }) === 1 ? true : undefined;
    });
    assert.deepEqual(chain.active, { provider: 'cpu', position: 0 });
    assert.equal(chain.state, 'closed');
    const m = await metrics();
    assert.equal(valueOf(m, 'rtserve_model_failovers_total', { model: 'mlp_auto', reason: 'worker_died' }), 1);
    assertCorrect(await infer('mlp_auto'), 'request after the recovery');
  });

  test('a one-provider chain whose worker dies answers 503 ENGINE_RECOVERING with Retry-After until the probe reloads it', async () => {
    const chain = chainOf('mlp_single');
    await primaryWorker('mlp_single').terminate();
    const r = await infer('mlp_single');
    assert.equal(r.status, 503, new TextDecoder().decode(r.body));
    assert.match(new TextDecoder().decode(r.body), /every provider of its chain \[cpu\] failed.*engine worker exited/);
    assert.ok(Number(r.headers.get('retry-after')) >= 1);
    assert.equal(chain.active, undefined);
    const m = await metrics();
    assert.equal(valueOf(m, 'rtserve_model_failovers_total', { model: 'mlp_single', from: 'cpu', to: 'none', reason: 'worker_died' }), 1);
    assert.equal(valueOf(m, 'rtserve_model_active_provider', { model: 'mlp_single', position: '0' }), 0);
    await chain.probeNow();
    assert.deepEqual(chain.active, { provider: 'cpu', position: 0 });
    assertCorrect(await infer('mlp_single'), 'request after the reload');
  });

  test('bad input never trips the breaker, even with failure_threshold 1', async () => {
    const strict = chainOf('mlp_strict');
    const wrongType = await infer('mlp_strict', { name: 'input', shape: [1, 64], datatype: 'INT32', data: INPUT.map(() => 1) });
    assert.equal(wrongType.status, 400);
    assert.match(new TextDecoder().decode(wrongType.body), /input/);
    const wrongShape = await infer('mlp_strict', { name: 'input', shape: [1, 63], datatype: 'FP32', data: INPUT.slice(1) });
    assert.equal(wrongShape.status, 400);
    // Past validation (both widths are dynamic): onnxruntime itself refuses to add [1,3] and [1,4]. That error is
    // the request's, not the device's: it is answered as before and the chain stays where it is.
    const dyn = chainOf('add_dyn');
    const refused = await postJson(`${server.httpUrl}/v2/models/add_dyn/infer`, {
      inputs: [
        { name: 'a', shape: [1, 3], datatype: 'FP32', data: [1, 2, 3] },
        { name: 'b', shape: [1, 4], datatype: 'FP32', data: [1, 2, 3, 4] },
      ],
    });
    assert.equal(refused.status, 400);
    assert.match(new TextDecoder().decode(refused.body), /add_dyn.*'a' \[1,3\].*'b' \[1,4\]/);
    for (const [name, chain] of [
      ['mlp_strict', strict],
      ['add_dyn', dyn],
    ] as const) {
      assert.deepEqual(chain.active, { provider: 'cpu', position: 0 }, name);
      assert.equal(chain.state, 'closed', name);
    }
    assertCorrect(await infer('mlp_strict'), 'mlp_strict after the bad inputs');
    const ok = await postJson(`${server.httpUrl}/v2/models/add_dyn/infer`, {
      inputs: [
        { name: 'a', shape: [1, 2], datatype: 'FP32', data: [1, 2] },
        { name: 'b', shape: [1, 2], datatype: 'FP32', data: [10, 20] },
      ],
    });
    assert.equal(ok.status, 200);
    assert.deepEqual((ok.json() as { outputs: { data: number[] }[] }).outputs[0]?.data, [11, 22]);
    const m = await metrics();
    assert.equal(
      m.filter((s) => s.name === 'rtserve_model_failovers_total' && (s.labels['model'] === 'mlp_strict' || s.labels['model'] === 'add_dyn')).length,
      0,
    );
  });

  test('with failover off the first provider that loads serves and a dead worker stays dead (ENGINE_FAILED)', async () => {
    const v = server.repository.get('mlp_off');
    assert.equal(v.engineChain, undefined);
    const s = v.sessions[0];
    assert.ok(s instanceof WorkerSession);
    assertCorrect(await infer('mlp_off'), 'request before');
    await s.terminate();
    const r = await infer('mlp_off');
    assert.equal(r.status, 500);
    assert.match(new TextDecoder().decode(r.body), /ENGINE_FAILED|engine worker exited/);
  });

  test('a provider that cannot load (webgpu with a refused option) fails over to cpu at load; metrics show it; its probes fail and count', async () => {
    const chain = chainOf('mlp_gpu');
    assert.deepEqual(chain.active, { provider: 'cpu', position: 1 });
    assert.notEqual(chain.state, 'closed');
    assertCorrect(await infer('mlp_gpu'), 'request on the cpu fallback');
    const m = await waitFor('a failed webgpu probe', async () => {
      const s = await metrics();
      return (valueOf(s, 'rtserve_model_failover_probes_total', { model: 'mlp_gpu', provider: 'webgpu', result: 'failed' }) ?? 0) >= 1
        ? s
        : undefined;
    });
    assert.equal(valueOf(m, 'rtserve_model_failovers_total', { model: 'mlp_gpu', from: 'webgpu', to: 'cpu', reason: 'load_failed' }), 1);
    assert.equal(valueOf(m, 'rtserve_model_active_provider', { model: 'mlp_gpu', provider: 'webgpu', position: '0' }), 0);
    assert.equal(valueOf(m, 'rtserve_model_active_provider', { model: 'mlp_gpu', provider: 'cpu', position: '1' }), 1);
    assert.equal(valueOf(m, 'rtserve_model_instances', { model: 'mlp_gpu', provider: 'cpu' }), 1);
    assert.equal(valueOf(m, 'rtserve_model_failover_recoveries_total', { model: 'mlp_gpu' }), undefined);
    // The repository index says why the version is degraded.
    const index = await postJson(`${server.httpUrl}/v2/repository/index`, {});
    const entry = (index.json() as { name: string; state: string; reason: string }[]).find((e) => e.name === 'mlp_gpu');
    assert.equal(entry?.state, 'READY');
    assert.match(entry?.reason ?? '', /^engine failover: serving on cpu \(position 1 of \[webgpu, cpu\]\); last failure: .*webgpu.*notAnOption/);
    const healthy = (index.json() as { name: string; reason: string }[]).find((e) => e.name === 'mlp_strict');
    assert.equal(healthy?.reason, '');
  });
});
