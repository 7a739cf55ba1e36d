/**
 * ONNX models compiled to CUDA plans at load (src/engine/cuda/compile-at-load.ts, docs/cuda-engine.md "Compiled at
 * load"), on any host: the cache key changes with every input it names and only those; which loads compile (Triton's
 * tensorrt accelerator in config.pbtxt, the server's cudaCompileOnnx, never a KIND_CPU model or a plan file); on a
 * host without the addon a model that asks is served on onnxruntime with the reason logged, through the real server
 * with the compiler `rtserve serve` wires in, and through the CLI flag. The GPU side is compile-at-load-gpu.test.ts.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { compileBatches } from '../../../../src/cli/cuda-compile.ts';
import { loadServerConfig } from '../../../../src/config/load-server-config.ts';
import { modelConfigSchema, type ModelConfig } from '../../../../src/config/model-config.ts';
import { loadCudaAddon } from '../../../../src/engine/cuda/addon.ts';
import { cudaPlanCacheKey, wantsCudaCompile, type PlanCacheKeyParts } from '../../../../src/engine/cuda/compile-at-load.ts';
import { writePlan } from '../../../../src/plan/format.ts';
import { parseConfigText } from '../../../../src/repository/load-config.ts';
import { engineLoadOptions } from '../../../../src/repository/instances.ts';
import { CLI_FROM_SOURCES, repositoryArgs, startCli } from '../../../helpers/cli.ts';
import { tinyConvNet } from '../../compiler/models.ts';
import { manifestFor } from '../../plan/plan-fixtures.ts';
import { SIMPLE_CONFIG, TENSORRT, compileFailures, inferSimple, serverWithLogs, simpleRepository } from './compile-at-load-helpers.ts';

function configOf(text: string): ModelConfig {
  return modelConfigSchema.parse(parseConfigText(text, 'pbtxt', 'config.pbtxt').value);
}

const device = {
  name: 'NVIDIA H200',
  cc: [9, 0],
  sms: 132,
  memoryBytes: 150e9,
  cudaRuntime: 13000,
  cudaDriver: 13000,
  cudnn: 91400,
  cublasLt: 130000,
};
const parts: PlanCacheKeyParts = { modelSha256: 'a'.repeat(64), device, maxBatchSize: 8, rtserveVersion: '0.1.0', addonAbi: '3' };

describe('CUDA plan cache key', () => {
  test('the same model, GPU and tools give the same key; any one of them changed gives another', () => {
    const key = cudaPlanCacheKey(parts);
    assert.match(key, /^[0-9a-f]{64}$/);
    assert.equal(cudaPlanCacheKey({ ...parts, device: { ...device } }), key);
    const changed: PlanCacheKeyParts[] = [
      { ...parts, modelSha256: 'b'.repeat(64) },
      { ...parts, device: { ...device, name: 'NVIDIA A100' } },
      { ...parts, device: { ...device, cc: [8, 0] } },
      { ...parts, device: { ...device, cudaRuntime: 13010 } },
      { ...parts, device: { ...device, cudnn: 91500 } },
      { ...parts, device: { ...device, cublasLt: 130100 } },
      { ...parts, maxBatchSize: 16 },
      { ...parts, rtserveVersion: '0.2.0' },
      { ...parts, addonAbi: '4' },
    ];
    assert.equal(new Set([key, ...changed.map(cudaPlanCacheKey)]).size, changed.length + 1);
  });

  test('a newer driver keeps the key (plans hold compiled kernels, which it runs); memory and SM count do not enter', () => {
    assert.equal(cudaPlanCacheKey({ ...parts, device: { ...device, cudaDriver: 13020, sms: 1, memoryBytes: 1 } }), cudaPlanCacheKey(parts));
  });
});

describe('which loads are compiled to a CUDA plan', () => {
  const onnx = tinyConvNet();
  const plan = writePlan(manifestFor(onnx), onnx);

  test("config.pbtxt's tensorrt GPU accelerator asks for it, with the model's max_batch_size; no accelerator does not", () => {
    const asks = engineLoadOptions(configOf(SIMPLE_CONFIG('simple_trt', TENSORRT)), [{ name: 'cpu' }]);
    assert.deepEqual(asks.cudaCompile, { requested: true, maxBatchSize: 8 });
    assert.deepEqual(
      asks.providers.map((p) => p.name),
      ['tensorrt', 'cpu'],
      'the configured engine it falls back to',
    );
    assert.ok(wantsCudaCompile(onnx, asks, { all: false }));
    const plain = engineLoadOptions(configOf(SIMPLE_CONFIG('simple')), [{ name: 'cpu' }]);
    assert.deepEqual(plain.cudaCompile, { requested: false, maxBatchSize: 8 });
    assert.equal(wantsCudaCompile(onnx, plain, { all: false }), false);
    assert.ok(wantsCudaCompile(onnx, plain, { all: true }), 'cudaCompileOnnx compiles every model');
  });

  test('never a model whose instances are all KIND_CPU, and never a plan file', () => {
    const cpu = engineLoadOptions(configOf(SIMPLE_CONFIG('simple_cpu', `${TENSORRT}\ninstance_group [ { kind: KIND_CPU } ]`)), [{ name: 'cpu' }]);
    assert.equal(cpu.cudaCompile, undefined);
    assert.equal(wantsCudaCompile(onnx, cpu, { all: true }), false);
    const asks = engineLoadOptions(configOf(SIMPLE_CONFIG('simple_trt', TENSORRT)), [{ name: 'cpu' }]);
    assert.equal(wantsCudaCompile(plan, asks, { all: true }), false);
  });

  test('the server setting is read from flags and RTSERVE_CUDA_COMPILE_ONNX; the plan cache from cudaPlanCache', async () => {
    assert.equal((await loadServerConfig({})).cudaCompileOnnx, false);
    assert.equal((await loadServerConfig({ flags: { cudaCompileOnnx: true } })).cudaCompileOnnx, true);
    const env = { RTSERVE_CUDA_COMPILE_ONNX: 'true', RTSERVE_CUDA_PLAN_CACHE: '/var/cache/rtserve' };
    const fromEnv = await loadServerConfig({ env });
    assert.deepEqual([fromEnv.cudaCompileOnnx, fromEnv.cudaPlanCache], [true, '/var/cache/rtserve']);
  });

  test('plans compiled at load get programs for 1, 2, 4, ... up to max_batch_size', () => {
    assert.deepEqual(compileBatches(8), [1, 2, 4, 8]);
    assert.deepEqual(compileBatches(12), [1, 2, 4, 8, 12]);
    assert.deepEqual(compileBatches(1), [1]);
    assert.equal(compileBatches(0), undefined, 'no batch dimension: the model keeps its static shape');
  });
});

const status = loadCudaAddon();

describe('compile at load on a host without the native engine', { skip: status.available ? 'the addon loads here' : false }, () => {
  let dir: string;
  before(async () => {
    dir = await simpleRepository({ simple: SIMPLE_CONFIG('simple'), simple_trt: SIMPLE_CONFIG('simple_trt', TENSORRT) });
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('a model asking for tensorrt is served on onnxruntime, and the log says why; one not asking is not compiled', async () => {
    const { server, logs } = await serverWithLogs({ modelRepository: [dir] });
    try {
      // One line per instance loaded (each tries, as each would load the cached plan on a GPU host).
      const failures = compileFailures(logs, 'simple_trt');
      assert.ok(failures.length >= 1, 'the fallback is logged');
      for (const f of failures) assert.match(String(f['reason']), /native CUDA engine is unavailable here: .*rtcuda\.node/);
      assert.equal(server.repository.get('simple_trt').provider, 'cpu', 'served on onnxruntime, the configured engine');
      assert.deepEqual(await inferSimple(server, 'simple_trt'), [...Array.from({ length: 16 }, (_, i) => i + 1)]);
      assert.deepEqual(compileFailures(logs, 'simple'), [], 'no accelerator, no cudaCompileOnnx: nothing to compile');
    } finally {
      await server.close();
    }
  });

  test('with cudaCompileOnnx every model is tried and falls back the same way', async () => {
    const { server, logs } = await serverWithLogs({ modelRepository: [dir], cudaCompileOnnx: true });
    try {
      assert.ok(compileFailures(logs, 'simple').length >= 1);
      assert.equal(server.repository.get('simple').provider, 'cpu');
      assert.equal((await inferSimple(server, 'simple')).length, 16);
    } finally {
      await server.close();
    }
  });
});

describe('rtserve serve --cuda-compile-onnx', { skip: status.available ? 'the addon loads here' : false }, () => {
  test('the flag reaches the engine: the CLI logs the fallback for a model that does not ask itself, and serves it', async () => {
    const dir = await simpleRepository({ simple: SIMPLE_CONFIG('simple') });
    const cli = await startCli(CLI_FROM_SOURCES, repositoryArgs(dir, '--cuda-compile-onnx', '--log-level', 'info'));
    try {
      const r = await fetch(`${cli.urls['http']}/v2/models/simple/ready`);
      assert.equal(r.status, 200);
      assert.match(cli.stderr(), /"msg":"CUDA compile at load failed; serving the model on the configured engine"/);
      assert.match(cli.stderr(), /"reason":"the native CUDA engine is unavailable here: /);
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
