import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type RunningServer } from '../../../src/app/rtserve-server.ts';
import { loadServerConfig } from '../../../src/config/load-server-config.ts';
import type { ServerConfigInput } from '../../../src/config/server-config.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import type { Engine, EngineLoadOptions, EngineSession } from '../../../src/engine/engine.ts';
import { createOrtEngine } from '../../../src/engine/ort/index.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { makeRepository, postJson, request } from '../../helpers/server.ts';
import { waitFor } from './helpers.ts';

/**
 * onnxruntime behind a gate: runs wait while the gate is closed (so a test can look at the server while a model
 * warms up) and can be told to fail (a device error during warmup). It records what each run was fed.
 */
class GatedEngine implements Engine {
  readonly name = 'gated-ort';
  private readonly inner = createOrtEngine();
  readonly runs: { shape: number[]; nonZero: boolean }[] = [];
  fail = false;
  private open: (() => void) | undefined;
  private gate: Promise<void> | undefined;

  close(): void {
    this.gate = new Promise((r) => (this.open = r));
  }

  release(): void {
    this.open?.();
    this.gate = undefined;
  }

  async load(modelPath: string, options: EngineLoadOptions): Promise<EngineSession> {
    const s = await this.inner.load(modelPath, options);
    return {
      describe: () => s.describe(),
      close: () => s.close(),
      run: async (feeds: readonly Tensor[], names: readonly string[], signal?: AbortSignal) => {
        const f = feeds[0];
        const data = f?.data;
        this.runs.push({
          shape: [...(f?.shape ?? [])],
          nonZero: data !== undefined && !Array.isArray(data) && Array.from(data as Float32Array).some((v) => v !== 0),
        });
        if (this.fail) throw new Error('device lost during warmup');
        if (this.gate !== undefined) await this.gate;
        return s.run(feeds, names, signal);
      },
    };
  }
}

const WARMED = {
  max_batch_size: 4,
  input: [{ name: 'input', data_type: 'TYPE_FP32', dims: [64] }],
  output: [{ name: 'logits', data_type: 'TYPE_FP32', dims: [10] }],
  instance_group: [{ count: 2, kind: 'KIND_CPU' }],
  model_warmup: [
    { name: 'random batch of 2', batch_size: 2, count: 3, inputs: { input: { data_type: 'TYPE_FP32', dims: [64], random_data: true } } },
  ],
};

async function start(engine: Engine, dir: string, overrides: Partial<ServerConfigInput> = {}): Promise<RunningServer> {
  const config = await loadServerConfig({
    flags: {
      host: '127.0.0.1',
      httpPort: 0,
      grpcPort: 0,
      metricsPort: 0,
      logLevel: 'silent',
      modelRepository: [dir],
      modelControlMode: 'explicit',
      // A warmup that fails on purpose must leave the server up (Triton's default would exit).
      exitOnError: false,
      ...overrides,
    },
  });
  return startServer({ config, logger: silentLogger(), engine });
}

const status = async (url: string): Promise<number> => (await request(url)).status;

describe('warmup (Triton model_warmup) before READY; readiness reflects it', () => {
  test('while warmup runs the model is LOADING and not ready, and (strict) neither is the server; then both are', async () => {
    const repo = await makeRepository({ w: { from: 'mlp', config: WARMED } });
    const engine = new GatedEngine();
    const server = await start(engine, repo.dir);
    try {
      assert.equal(await status(`${server.httpUrl}/v2/health/ready`), 200, 'nothing loaded yet: ready');
      engine.close();
      const load = postJson(`${server.httpUrl}/v2/repository/models/w/load`, {});
      await waitFor('warmup to start', () => (engine.runs.length > 0 ? true : undefined));
      const idx = (await postJson(`${server.httpUrl}/v2/repository/index`, {})).json() as { name: string; state: string }[];
      assert.equal(idx.find((e) => e.name === 'w')?.state, 'LOADING');
      assert.equal(await status(`${server.httpUrl}/v2/models/w/ready`), 400);
      assert.equal(await status(`${server.httpUrl}/v2/health/ready`), 400);
      assert.equal(await status(`${server.httpUrl}/readyz`), 503);
      assert.equal(
        (
          await postJson(`${server.httpUrl}/v2/models/w/infer`, {
            inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array<number>(64).fill(0) }],
          })
        ).status,
        503,
      );

      engine.release();
      assert.equal((await load).status, 200);
      assert.equal(await status(`${server.httpUrl}/v2/models/w/ready`), 200);
      assert.equal(await status(`${server.httpUrl}/v2/health/ready`), 200);
      // count 3 on each of the 2 instances, batch of 2, random data.
      assert.equal(engine.runs.length, 6);
      for (const r of engine.runs) {
        assert.deepEqual(r.shape, [2, 64]);
        assert.equal(r.nonZero, true);
      }
    } finally {
      engine.release();
      await server.close();
      await repo.cleanup();
    }
  });

  test('a warmup failure leaves the model UNAVAILABLE with the reason; strict readiness turns the server not ready', async () => {
    const repo = await makeRepository({ w: { from: 'mlp', config: WARMED } });
    for (const strictReadiness of [true, false]) {
      const engine = new GatedEngine();
      engine.fail = true;
      const server = await start(engine, repo.dir, { strictReadiness });
      try {
        const load = await postJson(`${server.httpUrl}/v2/repository/models/w/load`, {});
        assert.equal(load.status, 500);
        assert.match((load.json() as { error: string }).error, /device lost during warmup/);
        const idx = (await postJson(`${server.httpUrl}/v2/repository/index`, {})).json() as { name: string; state: string; reason: string }[];
        const w = idx.find((e) => e.name === 'w');
        assert.equal(w?.state, 'UNAVAILABLE');
        assert.match(w?.reason ?? '', /device lost during warmup/);
        assert.equal(await status(`${server.httpUrl}/v2/health/ready`), strictReadiness ? 400 : 200, `strictReadiness ${strictReadiness}`);
        assert.equal(await status(`${server.httpUrl}/v2/health/live`), 200);
      } finally {
        await server.close();
      }
    }
    await repo.cleanup();
  });
});
