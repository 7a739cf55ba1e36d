import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { postJson, startTestServer } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { bundledModelRepository } from '../../../src/util/package-root.ts';
import { simpleRequest } from './helpers.ts';
import { inferenceClient, rejectsWith, unary } from '../grpc/grpc-test-client.ts';

/**
 * Sends the path exactly as given: fetch (WHATWG URL) would normalise `%2e%2e` segments before they reach the
 * server, and a real attacker's client does not.
 */
function rawRequest(base: string, method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: u.hostname, port: u.port, method, path, headers: body === undefined ? {} : { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Model names come from URLs and must never reach outside the repository folder. The layout puts a loadable
 * model `outside` next to the repository, so that a traversal that worked would load it.
 */
describe('path traversal through model names (REST load, unload, infer, metadata)', () => {
  let root: string;
  let server: RunningServer;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'rtserve-traversal-'));
    const repo = join(root, 'repo');
    await mkdir(repo);
    await cp(join(bundledModelRepository(), 'simple'), join(repo, 'simple'), { recursive: true });
    await cp(join(bundledModelRepository(), 'simple'), join(root, 'outside'), { recursive: true });
    await writeFile(join(root, 'secret.txt'), Array.from({ length: 32 }, (_, i) => `TOP-SECRET-LINE-${i}`).join('\n'));
    server = await startTestServer({ modelRepository: [repo], modelControlMode: 'explicit', loadModel: ['simple'] });
  });
  after(async () => {
    await server.close();
    await rm(root, { recursive: true, force: true });
  });

  const NAMES = [
    '..%2Foutside',
    '%2e%2e%2foutside',
    '%2E%2E%2Foutside',
    '..%5Coutside',
    '%2e%2e',
    '..',
    '.',
    'simple%2F..%2F..%2Foutside',
    '%2Ftmp%2Foutside',
    encodeURIComponent(join('..', 'outside')),
    'outside%00',
    '%252e%252e%252foutside',
  ];

  test('every encoded traversal is a 4xx with a clear message, never a load of the outside model', async () => {
    for (const name of NAMES) {
      for (const [method, path] of [
        ['POST', `/v2/repository/models/${name}/load`],
        ['POST', `/v2/repository/models/${name}/unload`],
        ['POST', `/v2/models/${name}/infer`],
        ['GET', `/v2/models/${name}`],
        ['GET', `/v2/models/${name}/config`],
      ] as const) {
        const r = await rawRequest(server.httpUrl, method, path, method === 'POST' ? JSON.stringify(simpleRequest()) : undefined);
        assert.ok(r.status >= 400 && r.status < 500, `${method} ${path}: ${r.status} ${r.body}`);
        if (r.body.length > 0) {
          const body = JSON.parse(r.body) as { error?: string };
          assert.ok(typeof body.error === 'string' && body.error.length > 0, `${method} ${path}: error message`);
          assert.ok(!body.error.includes(root), `${method} ${path}: the message must not reveal the repository's location: ${body.error}`);
        }
      }
    }
    const index = (await postJson(`${server.httpUrl}/v2/repository/index`, {})).json() as { name: string; state: string }[];
    assert.deepEqual(
      index.map((e) => e.name),
      ['simple'],
      'nothing outside the repository was loaded or listed',
    );
    assert.equal((await postJson(`${server.httpUrl}/v2/models/simple/infer`, simpleRequest())).status, 200, 'the server still serves');
  });

  test('a load config override cannot name files outside the model folder (label_filename)', {}, async () => {
    const config = {
      name: 'simple',
      platform: 'onnxruntime_onnx',
      max_batch_size: 8,
      input: [
        { name: 'INPUT0', data_type: 'TYPE_INT32', dims: [16] },
        { name: 'INPUT1', data_type: 'TYPE_INT32', dims: [16] },
      ],
      output: [
        { name: 'OUTPUT0', data_type: 'TYPE_INT32', dims: [16], label_filename: '../../secret.txt' },
        { name: 'OUTPUT1', data_type: 'TYPE_INT32', dims: [16] },
      ],
    };
    const load = await postJson(`${server.httpUrl}/v2/repository/models/simple/load`, { parameters: { config: JSON.stringify(config) } });
    const req = { ...simpleRequest(), outputs: [{ name: 'OUTPUT0', parameters: { classification: 2 } }] };
    const r = await postJson(`${server.httpUrl}/v2/models/simple/infer`, req);
    const text = new TextDecoder().decode(r.body);
    assert.doesNotMatch(text, /TOP-SECRET/, 'a file outside the model folder leaked through classification labels');
    assert.ok(load.status >= 400 && load.status < 500, `load with an escaping label_filename: ${load.status}`);
  });

  test('a config override whose default_model_filename leaves the version folder is 400 naming the field', async () => {
    const config = {
      name: 'simple',
      platform: 'onnxruntime_onnx',
      max_batch_size: 8,
      input: [
        { name: 'INPUT0', data_type: 'TYPE_INT32', dims: [16] },
        { name: 'INPUT1', data_type: 'TYPE_INT32', dims: [16] },
      ],
      output: [
        { name: 'OUTPUT0', data_type: 'TYPE_INT32', dims: [16] },
        { name: 'OUTPUT1', data_type: 'TYPE_INT32', dims: [16] },
      ],
    };
    for (const name of ['../../outside/1/model.onnx', '/tmp/model.onnx', '..', 'sub\\model.onnx']) {
      const load = await postJson(`${server.httpUrl}/v2/repository/models/simple/load`, {
        parameters: { config: JSON.stringify({ ...config, default_model_filename: name }) },
      });
      const body = load.json() as { error: string; code: string };
      assert.equal(load.status, 400, `${name}: ${load.status} ${body.error}`);
      assert.equal(body.code, 'BAD_CONFIG', name);
      assert.match(body.error, /default_model_filename/, name);
      assert.ok(!body.error.includes(root), `${name}: the message names no host path: ${body.error}`);
    }
    assert.equal((await postJson(`${server.httpUrl}/v2/models/simple/infer`, simpleRequest())).status, 200, 'the loaded version keeps serving');
  });

  test('a load of a model the repository lacks is 404 naming no host path', async () => {
    const load = await postJson(`${server.httpUrl}/v2/repository/models/nosuch/load`, {});
    const body = load.json() as { error: string; code: string };
    assert.equal(load.status, 404, body.error);
    assert.equal(body.code, 'MODEL_NOT_FOUND');
    assert.match(body.error, /no model named 'nosuch'/);
    for (const path of [root, tmpdir(), '/'])
      assert.ok(!body.error.includes(path), `the message must not reveal where the repository is (${path}): ${body.error}`);
  });

  test("Triton's file: load parameters are refused (501 naming the parameter) on REST as on gRPC, never ignored", async () => {
    const files = { 'file:1/model.onnx': Buffer.from('not an onnx model').toString('base64') };
    const rest = await postJson(`${server.httpUrl}/v2/repository/models/simple/load`, { parameters: files });
    assert.equal(rest.status, 501, `the files were ignored: ${rest.status} ${new TextDecoder().decode(rest.body)}`);
    const body = rest.json() as { error: string; code: string };
    assert.equal(body.code, 'UNSUPPORTED');
    assert.match(body.error, /load parameter 'file:1\/model\.onnx'/);
    const client = inferenceClient(server.grpcAddress ?? '');
    try {
      await rejectsWith(
        unary(client, 'RepositoryModelLoad', { model_name: 'simple', parameters: { 'file:1/model.onnx': { bytes_param: Buffer.from('x') } } }),
        grpc.status.UNIMPLEMENTED,
        "load parameter 'file:1/model.onnx'",
      );
    } finally {
      client.close();
    }
    assert.equal((await postJson(`${server.httpUrl}/v2/models/simple/infer`, simpleRequest())).status, 200, 'the loaded version keeps serving');
  });
});
