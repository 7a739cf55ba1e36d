import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { HTTP_ROUTES, registeredRoutes } from '../../../src/security/route-table.ts';
import { postJson, request, startTestServer } from '../../helpers/server.ts';
import { inferenceClient, reflect, rejectsWith, unary } from '../grpc/grpc-test-client.ts';

describe('the route table covers every route the real server registers', () => {
  let server: RunningServer;
  before(async () => {
    // Auth on, so that the security routes (the WebSocket ticket) are registered too.
    server = await startTestServer({ auth: { enabled: true, apiKeys: [{ id: 'k', sha256: 'a'.repeat(64), scopes: ['admin'] }] } });
  });
  after(async () => server?.close());

  test('every registered route has an entry, and every entry is a registered route', () => {
    const routes = registeredRoutes(server.http);
    assert.ok(routes.length > 40, `only ${routes.length} routes recorded`);
    for (const r of routes) {
      const [method, url] = r.split(' ') as [string, string];
      assert.ok(HTTP_ROUTES.has(`${method === 'HEAD' ? 'GET' : method} ${url}`), `${r} has no entry in the route table`);
    }
    const registered = new Set(routes);
    for (const key of HTTP_ROUTES.keys()) assert.ok(registered.has(key), `the route table lists ${key}, which the server does not register`);
    // The route that used to fall through to 'metadata'.
    assert.ok(registered.has('POST /v2/logging'));
  });
});

describe('disabledApis turns API groups off on REST and gRPC', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({
      disabledApis: ['repository', 'logging', 'statistics', 'demo', 'reflection'],
      allowClientShm: true,
      modelControlMode: 'explicit',
      loadModel: ['simple'],
    });
  });
  after(async () => server?.close());

  test('REST: repository, logging, statistics answer 501 naming the setting; demo pages 404; inference still works', async () => {
    for (const [method, path] of [
      ['POST', '/v2/repository/index'],
      ['POST', '/v2/repository/models/simple/unload'],
      ['GET', '/v2/logging'],
      ['POST', '/v2/logging'],
      ['GET', '/v2/models/stats'],
    ] as const) {
      const r = await request(`${server.httpUrl}${path}`, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
      assert.equal(r.status, 501, `${method} ${path}`);
      assert.match((r.json() as { error: string }).error, /turned off on this server \(server setting disabledApis/);
    }
    for (const path of ['/', '/chat', '/docs', '/demo/app.js']) assert.equal((await request(`${server.httpUrl}${path}`)).status, 404, path);
    const infer = await postJson(`${server.httpUrl}/v2/models/simple/infer`, {
      inputs: [
        { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: new Array<number>(16).fill(1) },
        { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: new Array<number>(16).fill(2) },
      ],
    });
    assert.equal(infer.status, 200);
    // Shared memory was not turned off here.
    assert.equal((await request(`${server.httpUrl}/v2/systemsharedmemory/status`)).status, 200);
    assert.equal((await request(`${server.httpUrl}/v2/models/simple/ready`)).status, 200);
  });

  test('gRPC: the same groups answer UNIMPLEMENTED naming the setting; reflection is not served', async () => {
    const client = inferenceClient(server.grpcAddress ?? '');
    try {
      await rejectsWith(unary(client, 'RepositoryIndex', {}), grpc.status.UNIMPLEMENTED, 'disabledApis');
      await rejectsWith(unary(client, 'RepositoryModelUnload', { model_name: 'simple' }), grpc.status.UNIMPLEMENTED, 'disabledApis');
      await rejectsWith(unary(client, 'ModelStatistics', {}), grpc.status.UNIMPLEMENTED, 'disabledApis');
      // Server reflection is not served at all: grpc-js itself answers that the method is unknown.
      await assert.rejects(reflect(server.grpcAddress ?? '', [{ list_services: '' }]), (err: grpc.ServiceError) => {
        assert.equal(err.code, grpc.status.UNIMPLEMENTED, err.details);
        return true;
      });
      const ready = await unary<{ ready: boolean }>(client, 'ModelReady', { name: 'simple' });
      assert.equal(ready.ready, true);
    } finally {
      client.close();
    }
  });
});
