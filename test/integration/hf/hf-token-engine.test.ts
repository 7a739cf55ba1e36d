/**
 * The generate.engine setting on Hugging Face checkpoints: a server given a TokenEngine factory (the CUDA
 * decoder's seam, app/token-engines.ts) builds one per `cuda` / `auto` version at load, with the config's kv_cache
 * sizes, and serves it through the paged scheduler; without a factory `auto` serves the ONNX graph and `cuda`
 * fails the load. The factory here builds the host TokenEngine from the checkpoint it is given (real onnxruntime),
 * so the outputs can be compared with the ONNX path of the same checkpoint token for token.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import type { TokenEngineFactory, TokenEngineOptions } from '../../../src/app/token-engines.ts';
import { modelConfigSchema } from '../../../src/config/model-config.ts';
import { rtError } from '../../../src/errors/registry.ts';
import { createOrtEngine } from '../../../src/engine/ort/index.ts';
import { ContinuousBatcher } from '../../../src/generate/continuous-batcher.ts';
import { decoderSpecOf } from '../../../src/generate/decoder-spec.ts';
import { HostTokenEngine } from '../../../src/generate/host-token-engine.ts';
import { PagedBatcher } from '../../../src/generate/paged-batcher.ts';
import type { TokenEngine } from '../../../src/generate/token-engine.ts';
import { loadHfDecoder } from '../../../src/hf/checkpoint.ts';
import { tinyModel, writeCheckpoint } from '../../helpers/hf-checkpoint.ts';
import { postJson, startTestServer } from '../../helpers/server.ts';

let repo: string;
let server: RunningServer;
let noFactory: RunningServer;
let failing: RunningServer;
const made: { dir: string; arch: string; options: TokenEngineOptions; engine: TokenEngine }[] = [];

/** Builds the host TokenEngine over the ONNX decoder of the checkpoint in `dir`. */
const hostFactory: TokenEngineFactory = async (dir, arch, options) => {
  const hf = await loadHfDecoder(dir, { cacheRoot: join(repo, '.cache') });
  const session = await createOrtEngine().load(hf.onnxPath, { providers: [{ name: 'cpu' }], intraOpNumThreads: 1 });
  const spec = decoderSpecOf(modelConfigSchema.parse({ name: 'device', ...hf.configDefaults }), session.describe(), hf.text);
  const host = new HostTokenEngine(spec, session, { ...options, totalBlocks: options.totalBlocks || 64 });
  const engine: TokenEngine = {
    geometry: host.geometry,
    step: (rows) => host.step(rows),
    copyBlocks: (from, to) => host.copyBlocks(from, to),
    close: async () => {
      await host.close();
      await session.close();
    },
  };
  made.push({ dir, arch: arch.architecture, options, engine });
  return engine;
};

before(async () => {
  repo = await mkdtemp(join(tmpdir(), 'rtserve-hf-device-'));
  const ckpt = join(repo, '.ckpt');
  await writeCheckpoint(ckpt, tinyModel('llama', { seed: 11 }));
  const models: Record<string, Record<string, unknown>> = {
    onnx: { engine: 'onnx' },
    device: { engine: 'cuda', kv_cache: { block_tokens: 4, blocks: 40, max_step_tokens: 24 } },
    auto: { engine: 'auto' },
  };
  for (const [name, generate] of Object.entries(models)) {
    await cp(ckpt, join(repo, name, '1'), { recursive: true });
    await writeFile(join(repo, name, 'config.json'), JSON.stringify({ name, backend: 'huggingface', generate }));
  }
  server = await startTestServer({ modelRepository: [repo] }, { tokenEngineFactory: hostFactory });
  noFactory = await startTestServer({ modelRepository: [repo] }, { tokenEngineFactory: null });
  failing = await startTestServer(
    { modelRepository: [repo] },
    { tokenEngineFactory: () => Promise.reject(rtError('ENGINE_UNAVAILABLE', 'no device here (test)')) },
  );
});
after(async () => {
  await server?.close();
  await noFactory?.close();
  await failing?.close();
  await rm(repo, { recursive: true, force: true });
});

const PROMPTS = ['Hello there, how are you today?', 'The quick brown fox', 'a'];
const complete = (s: RunningServer, model: string, prompt: string) =>
  postJson(`${s.httpUrl}/v1/completions`, { model, prompt, max_tokens: 16, temperature: 0 });

describe('generate.engine on a Hugging Face checkpoint', () => {
  test('cuda and auto with a factory: a TokenEngine per version, with the kv_cache sizes, serving the ONNX tokens', async () => {
    const byDir = new Map(made.map((m) => [m.dir, m]));
    const device = byDir.get(join(repo, 'device', '1'));
    assert.ok(device !== undefined && byDir.has(join(repo, 'auto', '1')) && !byDir.has(join(repo, 'onnx', '1')));
    assert.equal(device.arch, 'LlamaForCausalLM');
    assert.deepEqual(
      { blockTokens: device.options.blockTokens, totalBlocks: device.options.totalBlocks, maxStepTokens: device.options.maxStepTokens },
      { blockTokens: 4, totalBlocks: 40, maxStepTokens: 24 },
    );
    const batcher = server.generate.batcher('device');
    assert.ok(batcher instanceof PagedBatcher && batcher.engine === device.engine, 'the paged scheduler drives the factory engine');
    assert.ok(server.generate.batcher('onnx') instanceof ContinuousBatcher);
    for (const model of ['device', 'auto']) {
      const [want, got] = await Promise.all([
        Promise.all(PROMPTS.map((p) => complete(server, 'onnx', p))),
        Promise.all(PROMPTS.map((p) => complete(server, model, p))),
      ]);
      got.forEach((res, i) => {
        assert.equal(res.status, 200);
        const text = (r: { json: () => unknown } | undefined) => (r?.json() as { choices: { text: string }[] }).choices[0]?.text;
        assert.equal(text(res), text(want[i]), `${model}, prompt ${i}`);
      });
    }
  });

  test('without a factory: auto serves the ONNX graph, cuda fails its load and says why', async () => {
    assert.ok(noFactory.generate.batcher('auto') instanceof ContinuousBatcher);
    const res = await postJson(`${noFactory.httpUrl}/v2/repository/index`, {});
    const device = (res.json() as { name: string; state: string; reason: string }[]).find((m) => m.name === 'device');
    assert.equal(device?.state, 'UNAVAILABLE');
    assert.match(device?.reason ?? '', /generate\.engine 'cuda' needs the CUDA addon and a GPU/);
  });

  test("a factory that fails: auto serves the ONNX graph, cuda fails its load with the factory's reason", async () => {
    assert.ok(failing.generate.batcher('auto') instanceof ContinuousBatcher);
    const res = await complete(failing, 'auto', PROMPTS[0] as string);
    assert.equal(res.status, 200);
    const index = (await postJson(`${failing.httpUrl}/v2/repository/index`, {})).json() as { name: string; state: string; reason: string }[];
    const device = index.find((m) => m.name === 'device');
    assert.equal(device?.state, 'UNAVAILABLE');
    assert.match(device?.reason ?? '', /no device here \(test\)/);
  });

  test('unloading the version closes its TokenEngine', async () => {
    const device = made.find((m) => m.dir === join(repo, 'device', '1'));
    await server.repository.unload('device');
    await assert.rejects(device?.engine.step([]) ?? Promise.resolve(), /closed/);
  });
});
