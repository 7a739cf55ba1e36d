import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundledModelRepository } from '../../../src/util/package-root.ts';
import { makeRepository, postJson, request, startTestServer } from '../../helpers/server.ts';
import { waitFor } from './helpers.ts';

interface IndexEntry {
  name: string;
  version?: string;
  state: string;
  reason: string;
}

const MLP_CONFIG = {
  max_batch_size: 8,
  input: [{ name: 'input', data_type: 'TYPE_FP32', dims: [64] }],
  output: [{ name: 'logits', data_type: 'TYPE_FP32', dims: [10] }],
  dynamic_batching: {},
};
const body = (rows = 1): unknown => ({
  inputs: [{ name: 'input', shape: [rows, 64], datatype: 'FP32', data: new Array<number>(64 * rows).fill(0.25) }],
});

async function index(base: string): Promise<IndexEntry[]> {
  const r = await postJson(`${base}/v2/repository/index`, {});
  assert.equal(r.status, 200);
  return r.json() as IndexEntry[];
}

describe('model control modes (Triton semantics)', () => {
  test("none: the load/unload API is refused with Triton's message", async () => {
    const server = await startTestServer();
    try {
      for (const op of ['load', 'unload']) {
        const r = await postJson(`${server.httpUrl}/v2/repository/models/mlp/${op}`, {});
        assert.equal(r.status, 501, op);
        assert.match((r.json() as { error: string }).error, /explicit model load \/ unload is not allowed/);
      }
    } finally {
      await server.close();
    }
  });

  test('explicit: --load-model loads only the named model, the index lists the rest as not loaded', async () => {
    const repo = await makeRepository({ a: { from: 'mlp', config: MLP_CONFIG }, b: { from: 'mlp', config: MLP_CONFIG } });
    const server = await startTestServer({ modelRepository: [repo.dir], modelControlMode: 'explicit', loadModel: ['a'] });
    try {
      assert.deepEqual(await index(server.httpUrl), [
        { name: 'a', version: '1', state: 'READY', reason: '' },
        { name: 'b', state: 'UNAVAILABLE', reason: 'not loaded' },
      ]);
      const ready = await postJson(`${server.httpUrl}/v2/repository/index`, { ready: true });
      assert.deepEqual(
        (ready.json() as IndexEntry[]).map((e) => e.name),
        ['a'],
      );
      assert.equal((await postJson(`${server.httpUrl}/v2/models/b/infer`, body())).status, 404);

      // load, unload and load again
      assert.equal((await postJson(`${server.httpUrl}/v2/repository/models/b/load`, {})).status, 200);
      assert.equal((await postJson(`${server.httpUrl}/v2/models/b/infer`, body())).status, 200);
      assert.equal((await postJson(`${server.httpUrl}/v2/repository/models/b/unload`, {})).status, 200);
      assert.deepEqual(
        (await index(server.httpUrl)).find((e) => e.name === 'b'),
        { name: 'b', state: 'UNAVAILABLE', reason: 'unloaded' },
      );
      assert.equal((await postJson(`${server.httpUrl}/v2/models/b/infer`, body())).status, 503);
      assert.equal((await request(`${server.httpUrl}/v2/models/b/ready`)).status, 400);
      assert.equal((await postJson(`${server.httpUrl}/v2/repository/models/b/load`, {})).status, 200);
      assert.equal((await request(`${server.httpUrl}/v2/models/b/ready`)).status, 200);

      // unknown model
      const unknown = await postJson(`${server.httpUrl}/v2/repository/models/zzz/load`, {});
      assert.equal(unknown.status, 404);
    } finally {
      await server.close();
      await repo.cleanup();
    }
  });

  test("explicit: --load-model '*' loads every model", async () => {
    const repo = await makeRepository({ a: { from: 'mlp', config: MLP_CONFIG }, b: { from: 'mlp', config: MLP_CONFIG } });
    const server = await startTestServer({ modelRepository: [repo.dir], modelControlMode: 'explicit', loadModel: ['*'] });
    try {
      assert.deepEqual(
        (await index(server.httpUrl)).map((e) => `${e.name}:${e.state}`),
        ['a:READY', 'b:READY'],
      );
    } finally {
      await server.close();
      await repo.cleanup();
    }
  });

  test('explicit: load with a config override replaces the file config (Triton load parameter "config")', async () => {
    const repo = await makeRepository({ a: { from: 'mlp', config: MLP_CONFIG } });
    const server = await startTestServer({ modelRepository: [repo.dir], modelControlMode: 'explicit', loadModel: ['a'] });
    try {
      assert.equal((await postJson(`${server.httpUrl}/v2/models/a/infer`, body(4))).status, 200);
      const override = JSON.stringify({ ...MLP_CONFIG, name: 'a', max_batch_size: 2 });
      const r = await postJson(`${server.httpUrl}/v2/repository/models/a/load`, { parameters: { config: override } });
      assert.equal(r.status, 200);
      const cfg = (await request(`${server.httpUrl}/v2/models/a/config`)).json() as { max_batch_size: number };
      assert.equal(cfg.max_batch_size, 2);
      const tooBig = await postJson(`${server.httpUrl}/v2/models/a/infer`, body(4));
      assert.equal(tooBig.status, 400);
      assert.match((tooBig.json() as { error: string }).error, /max_batch_size|batch/);
      // A broken override fails the load and the loaded model keeps serving.
      const bad = await postJson(`${server.httpUrl}/v2/repository/models/a/load`, {
        parameters: { config: '{"name": "a", "max_batch_size": "many"}' },
      });
      assert.ok(bad.status >= 400, `status ${bad.status}`);
      assert.equal((await postJson(`${server.httpUrl}/v2/models/a/infer`, body(2))).status, 200);
    } finally {
      await server.close();
      await repo.cleanup();
    }
  });
});

describe('poll mode: background reloads swap atomically under load', () => {
  test('a new version is swapped in with zero failed requests; a broken one leaves the old serving and the index says why', async () => {
    const repo = await makeRepository({ m: { from: 'mlp', config: MLP_CONFIG }, gone: { from: 'mlp', config: MLP_CONFIG } });
    const server = await startTestServer({ modelRepository: [repo.dir], modelControlMode: 'poll', repositoryPollSecs: 0.2 });
    const versionsSeen = new Map<string, number>();
    const failures: string[] = [];
    let stop = false;
    let sent = 0;
    const client = async (): Promise<void> => {
      // Bounded: stops when told, or after 4000 requests per client at the latest.
      for (let i = 0; i < 4000 && !stop; i++) {
        sent++;
        try {
          const r = await postJson(`${server.httpUrl}/v2/models/m/infer`, body());
          if (r.status !== 200) failures.push(`${r.status} ${new TextDecoder().decode(r.body)}`);
          else {
            const v = (r.json() as { model_version: string }).model_version;
            versionsSeen.set(v, (versionsSeen.get(v) ?? 0) + 1);
          }
        } catch (err) {
          failures.push(String(err));
        }
      }
    };
    try {
      // poll mode refuses the explicit API, as Triton does.
      const refused = await postJson(`${server.httpUrl}/v2/repository/models/m/load`, {});
      assert.equal(refused.status, 501);
      assert.match((refused.json() as { error: string }).error, /not allowed if polling is enabled/);

      const load = Promise.all([client(), client(), client(), client()]);
      await waitFor('traffic on version 1', () => ((versionsSeen.get('1') ?? 0) > 20 ? true : undefined));
      // Version 2 appears: the manager builds it beside version 1 and swaps (version_policy latest 1).
      await cp(join(bundledModelRepository(), 'mlp', '1'), join(repo.dir, 'm', '2'), { recursive: true });
      await waitFor('traffic on version 2', () => ((versionsSeen.get('2') ?? 0) > 20 ? true : undefined), 30_000);
      // Version 3 is broken: the reload fails, version 2 keeps serving.
      await cp(join(bundledModelRepository(), 'mlp', '1'), join(repo.dir, 'm', '3'), { recursive: true });
      await writeFile(join(repo.dir, 'm', '3', 'model.onnx'), 'this is not an onnx model');
      const broken = await waitFor(
        'the index to report version 3 unavailable',
        async () => (await index(server.httpUrl)).find((e) => e.name === 'm' && e.version === '3'),
        30_000,
      );
      const served = (versionsSeen.get('2') ?? 0) + 50;
      await waitFor('more traffic on version 2', () => ((versionsSeen.get('2') ?? 0) > served ? true : undefined), 30_000);
      stop = true;
      await load;

      assert.deepEqual(failures, [], `${failures.length} of ${sent} requests failed`);
      assert.equal(versionsSeen.get('3'), undefined);
      assert.equal(broken.state, 'UNAVAILABLE');
      assert.ok(broken.reason.length > 0, 'reason given');
      assert.deepEqual(
        (await index(server.httpUrl)).find((e) => e.name === 'm' && e.version === '2'),
        { name: 'm', version: '2', state: 'READY', reason: '' },
      );

      // Removing a model's folder unloads it; a new folder is loaded.
      await rm(join(repo.dir, 'gone'), { recursive: true, force: true });
      await cp(join(bundledModelRepository(), 'mlp', '1'), join(repo.dir, 'fresh', '1'), { recursive: true });
      await writeFile(join(repo.dir, 'fresh', 'config.json'), JSON.stringify({ name: 'fresh', ...MLP_CONFIG }));
      await waitFor(
        'gone unloaded and fresh loaded',
        async () => {
          const idx = await index(server.httpUrl);
          const gone = idx.find((e) => e.name === 'gone');
          const fresh = idx.find((e) => e.name === 'fresh');
          return gone?.state === 'UNAVAILABLE' && fresh?.state === 'READY' ? true : undefined;
        },
        30_000,
      );
      assert.equal((await postJson(`${server.httpUrl}/v2/models/fresh/infer`, body())).status, 200);
    } finally {
      stop = true;
      await server.close();
      await repo.cleanup();
    }
  });
});
