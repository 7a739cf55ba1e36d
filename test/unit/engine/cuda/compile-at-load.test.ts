/**
 * ONNX models compiled to CUDA plans at load (src/engine/cuda/compile-at-load.ts, docs/cuda-engine.md "Compiled at
 * load"). Everywhere: the cache key changes with every input it names and only those; which loads compile (Triton's
 * tensorrt accelerator in config.pbtxt, the server's cudaCompileOnnx, never a KIND_CPU model or a plan file); on a
 * host without the addon a model that asks is served on onnxruntime with the reason logged, through the real server
 * and the compiler `rtserve serve` wires in. On the GPU (skipped elsewhere, as the other GPU suites): a model is
 * compiled once, cached under its key, served on the native engine close to onnxruntime FP32, and a second server
 * loads the cached plan; a model the compiler cannot take is served on onnxruntime with the reason.
 */
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { startServer, type RunningServer } from '../../../../src/app/rtserve-server.ts';
import { compileCudaPlan, compileBatches } from '../../../../src/cli/cuda-compile.ts';
import { loadServerConfig } from '../../../../src/config/load-server-config.ts';
import { modelConfigSchema, type ModelConfig } from '../../../../src/config/model-config.ts';
import { loadCudaAddon } from '../../../../src/engine/cuda/addon.ts';
import { cudaPlanCacheKey, wantsCudaCompile, type PlanCacheKeyParts } from '../../../../src/engine/cuda/compile-at-load.ts';
import type { ServerConfigInput } from '../../../../src/config/server-config.ts';
import { parseConfigText } from '../../../../src/repository/load-config.ts';
import { engineLoadOptions } from '../../../../src/repository/instances.ts';
import { RTSERVE_VERSION } from '../../../../src/util/version.ts';
import { bundledModelRepository } from '../../../../src/util/package-root.ts';
import { CLI_FROM_SOURCES, repositoryArgs, startCli } from '../../../helpers/cli.ts';
import { writePlan } from '../../../../src/plan/format.ts';
import { manifestFor } from '../../plan/plan-fixtures.ts';
import { randn, rng, runBytes } from '../../compiler/helpers.ts';
import { tinyConvNet } from '../../compiler/models.ts';

const SIMPLE_CONFIG = (name: string, extra = ''): string =>
  `name: "${name}"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "INPUT0" data_type: TYPE_INT32 dims: [ 16 ] }, { name: "INPUT1" data_type: TYPE_INT32 dims: [ 16 ] } ]
output [ { name: "OUTPUT0" data_type: TYPE_INT32 dims: [ 16 ] }, { name: "OUTPUT1" data_type: TYPE_INT32 dims: [ 16 ] } ]
${extra}
`;
const TENSORRT = 'optimization { execution_accelerators { gpu_execution_accelerator : [ { name : "tensorrt" } ] } }';

function configOf(text: string): ModelConfig {
  return modelConfigSchema.parse(parseConfigText(text, 'pbtxt', 'config.pbtxt').value);
}

/** A server on free ports whose log lines are kept; `cudaCompiler` is the one `rtserve serve` passes. */
async function serverWithLogs(flags: Partial<ServerConfigInput>): Promise<{ server: RunningServer; logs: Record<string, unknown>[] }> {
  const logs: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  const config = await loadServerConfig({
    flags: { host: '127.0.0.1', httpPort: 0, grpcPort: 0, metricsPort: 0, exitTimeoutSecs: 10, drainQuietMs: 0, workers: 1, ...flags },
  });
  return { server: await startServer({ config, logger, cudaCompiler: compileCudaPlan }), logs };
}

/** A repository holding the bundled `simple` model under each name, with that name's config.pbtxt. */
async function simpleRepository(configs: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rtserve-compile-'));
  for (const [name, text] of Object.entries(configs)) {
    await cp(join(bundledModelRepository(), 'simple', '1'), join(dir, name, '1'), { recursive: true });
    await writeFile(join(dir, name, 'config.pbtxt'), text);
  }
  return dir;
}

async function inferSimple(server: RunningServer, model: string): Promise<number[]> {
  const row = Array.from({ length: 16 }, (_, i) => i);
  const body = {
    inputs: [
      { name: 'INPUT0', shape: [1, 16], datatype: 'INT32', data: row },
      { name: 'INPUT1', shape: [1, 16], datatype: 'INT32', data: row.map(() => 1) },
    ],
    outputs: [{ name: 'OUTPUT0' }],
  };
  const r = await fetch(`${server.httpUrl}/v2/models/${model}/infer`, { method: 'POST', body: JSON.stringify(body) });
  assert.equal(r.status, 200, await r.clone().text());
  return ((await r.json()) as { outputs: { data: number[] }[] }).outputs[0]?.data ?? [];
}

const compileFailures = (logs: readonly Record<string, unknown>[], model: string) =>
  logs.filter(
    (l) => l['msg'] === 'CUDA compile at load failed; serving the model on the configured engine' && String(l['modelPath']).includes(`/${model}/`),
  );

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

const gpuSkip = status.available ? false : `needs the native CUDA engine and a GPU: ${status.reason}`;

describe('compile at load on the GPU', { skip: gpuSkip }, () => {
  let dir: string;
  let cache: string;
  const model = tinyConvNet();
  const CONV_CONFIG = `name: "conv"
max_batch_size: 8
input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, 8, 8 ] } ]
output [ { name: "logits" data_type: TYPE_FP32 dims: [ 5 ] }, { name: "probs" data_type: TYPE_FP32 dims: [ 5 ] } ]
${TENSORRT}
`;
  before(async () => {
    dir = await simpleRepository({ simple_trt: SIMPLE_CONFIG('simple_trt', TENSORRT) });
    await mkdir(join(dir, 'conv', '1'), { recursive: true });
    await writeFile(join(dir, 'conv', '1', 'model.onnx'), model);
    await writeFile(join(dir, 'conv', 'config.pbtxt'), CONV_CONFIG);
    cache = await mkdtemp(join(tmpdir(), 'rtserve-plan-cache-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(cache, { recursive: true, force: true });
  });

  async function inferConv(server: RunningServer, n: number): Promise<void> {
    const data = randn(rng(70 + n), n * 3 * 8 * 8);
    const body = { inputs: [{ name: 'x', shape: [n, 3, 8, 8], datatype: 'FP32', data: [...data] }], outputs: [{ name: 'logits' }] };
    const r = await fetch(`${server.httpUrl}/v2/models/conv/infer`, { method: 'POST', body: JSON.stringify(body) });
    assert.equal(r.status, 200, await r.clone().text());
    const got = ((await r.json()) as { outputs: { data: number[] }[] }).outputs[0]?.data ?? [];
    const ref = (await runBytes(model, { x: { elemType: 1, dims: [n, 3, 8, 8], data } }))['logits']?.data as Float32Array;
    let err = 0;
    let mag = 0;
    ref.forEach((e, i) => {
      err = Math.max(err, Math.abs((got[i] ?? Number.NaN) - e));
      mag = Math.max(mag, Math.abs(e));
    });
    assert.equal(got.length, n * 5);
    assert.ok(err <= 1e-2 * Math.max(mag, 1e-3), `batch ${n}: max abs error ${err}, max |ref| ${mag}`);
  }

  test('compiled once under its cache key, served on the native engine; a second server loads the cached plan', async () => {
    if (!status.available) return;
    const first = await serverWithLogs({ modelRepository: [dir], cudaPlanCache: cache });
    const compiled = (logs: readonly Record<string, unknown>[]) =>
      logs.filter((l) => l['msg'] === 'ONNX model compiled to a CUDA plan at load' && String(l['modelPath']).includes('/conv/'));
    try {
      assert.deepEqual(
        compiled(first.logs).map((l) => l['fromCache']),
        [false],
        JSON.stringify(first.logs.filter((l) => l['level'] !== 'info')),
      );
      assert.equal(first.server.repository.get('conv').provider, 'cuda');
      for (const n of [1, 3, 8]) await inferConv(first.server, n);
    } finally {
      await first.server.close();
    }
    const { createHash } = await import('node:crypto');
    const key = cudaPlanCacheKey({
      modelSha256: createHash('sha256').update(model).digest('hex'),
      device: status.devices[0] ?? status.device,
      maxBatchSize: 8,
      rtserveVersion: RTSERVE_VERSION,
      addonAbi: status.addon.abiVersion,
    });
    assert.deepEqual(await readdir(cache), [`${key}.plan`], 'one plan, named by the model, GPU and tool versions');
    const second = await serverWithLogs({ modelRepository: [dir], cudaPlanCache: cache });
    try {
      assert.deepEqual(
        compiled(second.logs).map((l) => l['fromCache']),
        [true],
      );
      assert.equal(second.server.repository.get('conv').provider, 'cuda');
      await inferConv(second.server, 2);
    } finally {
      await second.server.close();
    }
  });

  test('a model the CUDA compiler cannot take is served on onnxruntime, with the reason logged', async () => {
    const { server, logs } = await serverWithLogs({ modelRepository: [dir], cudaPlanCache: cache });
    try {
      const failures = compileFailures(logs, 'simple_trt');
      assert.ok(failures.length >= 1, JSON.stringify(logs.filter((l) => l['level'] !== 'info' && l['level'] !== 30)));
      assert.ok(String(failures[0]?.['reason']).length > 0);
      process.stdout.write(`# simple_trt compile failure reason: ${String(failures[0]?.['reason'])}\n`);
      assert.equal(server.repository.get('simple_trt').provider, 'cpu');
      assert.equal((await inferSimple(server, 'simple_trt')).length, 16);
    } finally {
      await server.close();
    }
  });
});
