/**
 * What a principal may list reaches only the models it may use, on REST, gRPC and the OpenAI routes: statistics of
 * every model (`/v2/models/stats`, `ModelStatistics(name="")`), the models a 404 suggests, and server reflection,
 * which follows the route table (the metadata scope) like every other method (issue 37, holes #4, #5, #7).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { postJson, request, startTestServer } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { hashApiKey } from '../../../src/security/authenticator.ts';
import type { Operation } from '../../../src/config/security-schema.ts';
import { inferenceClient, reflect, rejectsWith, unary, type InferenceClient } from '../grpc/grpc-test-client.ts';
import { simpleRequest } from './helpers.ts';

const KEYS = { metricsSimple: 'k-metrics-simple', simpleStar: 'k-simple-star', admin: 'k-admin', inferOnly: 'k-infer-only' };
const apiKeys: { id: string; sha256: string; scopes: Operation[]; models?: string[] }[] = [
  { id: 'metrics-simple', sha256: hashApiKey(KEYS.metricsSimple), scopes: ['metrics'], models: ['simple'] },
  { id: 'simple-star', sha256: hashApiKey(KEYS.simpleStar), scopes: ['metadata', 'infer'], models: ['simple*'] },
  { id: 'admin', sha256: hashApiKey(KEYS.admin), scopes: ['admin'] },
  { id: 'infer-only', sha256: hashApiKey(KEYS.inferOnly), scopes: ['infer'] },
];
const LOADED = ['identity_all', 'mlp', 'simple'];
/** Models `simple-star` may not use: none of their names may reach it. */
const OTHERS = ['identity_all', 'mlp'];

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
function metadata(token?: string): grpc.Metadata {
  const md = new grpc.Metadata();
  if (token !== undefined) md.set('authorization', `Bearer ${token}`);
  return md;
}
function mentionsNone(text: string, names: readonly string[], what: string): void {
  for (const n of names) assert.ok(!text.includes(n), `${what} names '${n}', outside the caller's models: ${text}`);
}

describe('a principal lists only the models it may use (REST, gRPC, OpenAI)', () => {
  let server: RunningServer;
  let client: InferenceClient;
  before(async () => {
    server = await startTestServer({ auth: { enabled: true, apiKeys }, modelControlMode: 'explicit', loadModel: LOADED });
    client = inferenceClient(server.grpcAddress ?? '');
  });
  after(async () => {
    client?.close();
    await server?.close();
  });

  test('statistics of every model: only those the metrics key may use; an admin still gets them all', async () => {
    const names = (token: string) =>
      request(`${server.httpUrl}/v2/models/stats`, { headers: bearer(token) }).then((r) => {
        assert.equal(r.status, 200);
        return (r.json() as { model_stats: { name: string }[] }).model_stats.map((s) => s.name).sort();
      });
    assert.deepEqual(await names(KEYS.admin), LOADED);
    assert.deepEqual(await names(KEYS.metricsSimple), ['simple']);
    assert.equal((await request(`${server.httpUrl}/v2/models/mlp/stats`, { headers: bearer(KEYS.metricsSimple) })).status, 403);

    const grpcNames = async (token: string) =>
      (await unary<{ model_stats: { name: string }[] }>(client, 'ModelStatistics', { name: '' }, {}, metadata(token))).model_stats
        .map((s) => s.name)
        .sort();
    assert.deepEqual(await grpcNames(KEYS.admin), LOADED);
    assert.deepEqual(await grpcNames(KEYS.metricsSimple), ['simple']);
    await rejectsWith(unary(client, 'ModelStatistics', { name: 'mlp' }, {}, metadata(KEYS.metricsSimple)), grpc.status.PERMISSION_DENIED);
  });

  test('a 404 for a model suggests only the models the caller may use, on every front end', async () => {
    // REST metadata and inference
    for (const r of [
      await request(`${server.httpUrl}/v2/models/simplex`, { headers: bearer(KEYS.simpleStar) }),
      await request(`${server.httpUrl}/v2/models/simplex/infer`, {
        method: 'POST',
        headers: { ...bearer(KEYS.simpleStar), 'content-type': 'application/json' },
        body: JSON.stringify(simpleRequest()),
      }),
    ]) {
      const body = r.json() as { error: string; code: string };
      assert.equal(r.status, 404, body.error);
      assert.equal(body.code, 'MODEL_NOT_FOUND');
      assert.match(body.error, /unknown model 'simplex' \(models: simple\)/);
      mentionsNone(body.error, OTHERS, 'REST 404');
    }
    // gRPC metadata and inference
    for (const [method, req] of [
      ['ModelMetadata', { name: 'simplex' }],
      ['ModelInfer', { model_name: 'simplex', inputs: [] }],
    ] as const) {
      await assert.rejects(unary(client, method, req, {}, metadata(KEYS.simpleStar)), (err: grpc.ServiceError) => {
        assert.equal(err.code, grpc.status.NOT_FOUND, `${method}: ${err.details}`);
        assert.match(err.details, /unknown model 'simplex' \(models: simple\)/);
        mentionsNone(err.details, OTHERS, `gRPC ${method} NOT_FOUND`);
        return true;
      });
    }
    // OpenAI: the model is named in the body
    const openai = await request(`${server.httpUrl}/v1/completions`, {
      method: 'POST',
      headers: { ...bearer(KEYS.simpleStar), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'simplex', prompt: 'hi' }),
    });
    const text = new TextDecoder().decode(openai.body);
    assert.equal(openai.status, 404, text);
    assert.match(text, /simplex/);
    mentionsNone(text, OTHERS, 'OpenAI 404');
    // Whoever may use every model still gets every suggestion.
    const admin = await request(`${server.httpUrl}/v2/models/nope`, { headers: bearer(KEYS.admin) });
    assert.match((admin.json() as { error: string }).error, /\(models: identity_all, mlp, simple\)/);
  });

  test('server reflection needs credentials and the metadata scope, as ModelMetadata does', async () => {
    const address = server.grpcAddress ?? '';
    await assert.rejects(reflect(address, [{ list_services: '' }]), (err: grpc.ServiceError) => {
      assert.equal(err.code, grpc.status.UNAUTHENTICATED, err.details);
      return true;
    });
    await assert.rejects(reflect(address, [{ list_services: '' }], metadata(KEYS.inferOnly)), (err: grpc.ServiceError) => {
      assert.equal(err.code, grpc.status.PERMISSION_DENIED, err.details);
      assert.match(err.details, /lacks the 'metadata' scope/);
      return true;
    });
    const answers = await reflect(address, [{ list_services: '' }], metadata(KEYS.simpleStar));
    const list = answers[0]?.['list_services_response'] as { service: { name: string }[] };
    assert.ok(
      list.service.some((s) => s.name === 'inference.GRPCInferenceService'),
      JSON.stringify(answers),
    );
    assert.equal((await postJson(`${server.httpUrl}/v2/repository/index`, {})).status, 401, 'REST needs credentials too (sanity)');
  });
});
