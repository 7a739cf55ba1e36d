import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { GRPC_METHODS, registeredRoutes, routeRule, trackRoutes } from '../../../src/security/route-table.ts';
import { healthPackageDefinition, inferencePackageDefinition } from '../../../src/transport/grpc/proto.ts';

test('REST routes map to operations and API groups', () => {
  const cases: [string, string | undefined, string, string?][] = [
    ['GET', '/v2/health/live', 'health'],
    ['HEAD', '/readyz', 'health'],
    ['GET', '/v2', 'metadata'],
    ['GET', '/v2/models/:model', 'metadata'],
    ['GET', '/v2/models/:model/versions/:version/config', 'metadata'],
    ['GET', '/v2/models/:model/stats', 'metrics', 'statistics'],
    ['GET', '/v2/models/stats', 'metrics', 'statistics'],
    ['GET', '/metrics', 'metrics'],
    ['POST', '/v2/repository/index', 'repository', 'repository'],
    ['POST', '/v2/repository/models/:model/load', 'repository', 'repository'],
    ['POST', '/v2/models/:model/infer', 'infer'],
    ['POST', '/v2/models/:model/versions/:version/infer', 'infer'],
    ['POST', '/v2/models/:model/generate_stream', 'infer'],
    ['POST', '/v1/chat/completions', 'infer'],
    ['POST', '/v2/auth/ws-ticket', 'any'],
    ['GET', '/openapi.json', 'public'],
    ['GET', '/docs', 'public', 'demo'],
    ['GET', '/docs/:asset', 'public', 'demo'],
    ['GET', '/', 'public', 'demo'],
    ['GET', '/chat', 'public', 'demo'],
    ['GET', '/demo/app.js', 'public', 'demo'],
    ['GET', '/v1/models', 'metadata'],
    ['POST', '/v2/models/:model/image', 'infer'],
    // Logging changes what the server writes where: admin only (it used to fall through to 'metadata').
    ['GET', '/v2/logging', 'admin', 'logging'],
    ['POST', '/v2/logging', 'admin', 'logging'],
    // Shared memory regions carry inference inputs and outputs.
    ['GET', '/v2/systemsharedmemory/status', 'infer', 'shared-memory'],
    ['POST', '/v2/systemsharedmemory/region/:region/register', 'infer', 'shared-memory'],
    ['POST', '/v2/cudasharedmemory/region/:region/register', 'infer', 'shared-memory'],
    // No route matched (404): credentials are still needed. A matched route missing from the table: admin only.
    ['GET', undefined, 'metadata'],
    ['DELETE', '/v2/models/:model/infer', 'admin'],
  ];
  for (const [method, url, op, api] of cases) {
    const r = routeRule(method, url);
    assert.equal(r.op, op, `${method} ${String(url)}`);
    assert.equal(r.api, api, `${method} ${String(url)} group`);
  }
});

test('a route missing from the table cannot be registered: the server would not start', async () => {
  const app = Fastify();
  trackRoutes(app);
  app.get('/v2/health/live', async () => '');
  assert.throws(() => app.get('/v2/secret-admin-thing', async () => ''), /GET \/v2\/secret-admin-thing has no entry in the route table/);
  assert.throws(() => app.post('/v2/health/live', async () => ''), /POST \/v2\/health\/live has no entry/);
  assert.deepEqual([...registeredRoutes(app)].sort(), ['GET /v2/health/live', 'HEAD /v2/health/live']);
  await app.close();
});

test('every gRPC method of the served services has an entry in the table', () => {
  const names = [
    ...Object.keys(inferencePackageDefinition()['inference.GRPCInferenceService'] as object),
    ...Object.keys(healthPackageDefinition()['grpc.health.v1.Health'] as object),
  ];
  assert.ok(names.includes('ModelInfer') && names.includes('LogSettings') && names.includes('Watch'), names.join(','));
  for (const name of names) assert.ok(GRPC_METHODS[name] !== undefined, `gRPC method ${name} has no entry`);
});
