/**
 * The abuse suite's auth-crossing class as one table over every front end (issue 37 "Also"): for each way of
 * naming a model (REST, SSE, the OpenAI routes, gRPC unary and streamed, WebSocket), a principal reaches its own
 * model, never another principal's, and nobody reaches anything without credentials. Every row asserts all four
 * outcomes, so a row that no longer reaches the server (always refused, or always admitted) fails too. A second
 * table covers what a principal may list (statistics of every model, the models a 404 suggests, /v1/models):
 * never another principal's model (holes #4 and #5 of issue 37 were of that class). Server reflection, which
 * names no model but describes the API, follows the route table like the metadata methods (hole #7).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { request, startTestServer } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { hashApiKey } from '../../../src/security/authenticator.ts';
import type { Operation } from '../../../src/config/security-schema.ts';
import { inferenceClient, reflect, streamAll, unary, type InferenceClient } from '../grpc/grpc-test-client.ts';
import { TestWs } from '../ws/ws-test-client.ts';

const SCOPES: Operation[] = ['infer', 'metadata', 'metrics'];
const ALPHA = 'k-alpha';
const BETA = 'k-beta';
/** gamma may infer on every model but not read metadata; admin may do everything. */
const GAMMA = 'k-gamma';
const ADMIN = 'k-admin';
const LOADED = ['charlm', 'mlp', 'simple'];
const apiKeys = [
  // Prefix patterns, so that each may ask for a missing model of its own (and get a 404 with suggestions).
  { id: 'alpha', sha256: hashApiKey(ALPHA), scopes: SCOPES, models: ['simple*', 'charlm*'] },
  { id: 'beta', sha256: hashApiKey(BETA), scopes: SCOPES, models: ['mlp*'] },
  { id: 'gamma', sha256: hashApiKey(GAMMA), scopes: ['infer'] as Operation[], models: ['*'] },
  { id: 'admin', sha256: hashApiKey(ADMIN), scopes: ['admin'] as Operation[] },
];
/** What each may list, and the missing model of its own it asks for. */
const VIEWS = [
  { token: ALPHA, who: 'alpha', probe: 'simple_missing', own: ['simple', 'charlm'], others: ['mlp'] },
  { token: BETA, who: 'beta', probe: 'mlp_missing', own: ['mlp'], others: ['simple', 'charlm'] },
];
/** beta's model: alpha may never reach it. */
const FOREIGN = 'mlp';

type Outcome = 'ok' | 'unauthenticated' | 'denied' | `other: ${string}`;

/** The tensors of a valid request to each model (denial comes before validation, so the foreign model's shape is moot). */
const TENSORS: Record<string, { name: string; datatype: string; shape: number[]; data: number[] }[]> = {
  simple: [
    { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: new Array<number>(16).fill(1) },
    { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: new Array<number>(16).fill(2) },
  ],
  mlp: [{ name: 'input', datatype: 'FP32', shape: [1, 64], data: new Array<number>(64).fill(0.5) }],
};
const tensorsOf = (model: string) => TENSORS[model] ?? TENSORS['simple'] ?? [];

function fromHttp(status: number, text: string): Outcome {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'denied';
  return `other: ${status} ${text.slice(0, 200)}`;
}
function fromGrpc(err: unknown): Outcome {
  const e = err as grpc.ServiceError;
  if (e.code === grpc.status.UNAUTHENTICATED) return 'unauthenticated';
  if (e.code === grpc.status.PERMISSION_DENIED) return 'denied';
  return `other: ${grpc.status[e.code]} ${e.details}`;
}
/** Stream and WebSocket refusals are per request, in the answer: told apart by the registry's words. */
function fromMessage(message: string): Outcome {
  if (/credentials are required/.test(message)) return 'unauthenticated';
  if (/may not use model|lacks the '\w+' scope/.test(message)) return 'denied';
  return `other: ${message}`;
}
function metadata(token: string | undefined): grpc.Metadata {
  const md = new grpc.Metadata();
  if (token !== undefined) md.set('authorization', `Bearer ${token}`);
  return md;
}

interface ListingRow {
  readonly front: string;
  /** The text of the answer (body, status details, error message) to `token` asking about `probe`. */
  readonly list: (token: string, probe: string) => Promise<string>;
  /** Whether the answer names the caller's own models (false: /v1/models lists only generative ones). */
  readonly namesOwn?: false;
}

interface Row {
  readonly front: string;
  /** alpha's model this row uses. */
  readonly own: string;
  /** Whether the route serves beta's model at all (the OpenAI routes serve generative models only). */
  readonly foreignServed?: false;
  readonly call: (token: string | undefined, model: string) => Promise<Outcome>;
}

// In one process, and with two front-end workers (docs/workers.md), whose answers come from the engine owner.
for (const workers of [1, 2]) {
  describe(`auth crossing: one principal never reaches another principal's model, on any front end (workers: ${workers})`, () => {
    let server: RunningServer;
    let client: InferenceClient;
    const http = async (method: string, path: string, token: string | undefined, body?: unknown): Promise<Outcome> => {
      const r = await request(`${server.httpUrl}${path}`, {
        method,
        headers: {
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return fromHttp(r.status, new TextDecoder().decode(r.body));
    };
    const grpcUnary = (method: string, req: unknown, token: string | undefined): Promise<Outcome> =>
      unary(client, method, req, {}, metadata(token)).then(() => 'ok' as const, fromGrpc);
    const grpcInfer = (model: string) => ({
      model_name: model,
      inputs: tensorsOf(model).map((t) => ({
        name: t.name,
        datatype: t.datatype,
        shape: t.shape,
        contents: t.datatype === 'FP32' ? { fp32_contents: t.data } : { int_contents: t.data },
      })),
    });
    /** One infer event on a socket opened with `credential` (a subprotocol entry), or without one. */
    const ws = async (credential: string | undefined, model: string): Promise<Outcome> => {
      let c: TestWs;
      try {
        c = await TestWs.open(server.httpUrl, { protocols: ['rtserve.v1', ...(credential === undefined ? [] : [credential])] });
      } catch (err) {
        return /HTTP 401/.test((err as Error).message) ? 'unauthenticated' : `other: ${(err as Error).message}`;
      }
      try {
        c.send({ type: 'infer', id: 'x', model, inputs: tensorsOf(model) });
        const r = (await c.terminal('x')) as unknown as { type: string; error?: { message: string } };
        return r.type === 'result' ? 'ok' : fromMessage(r.error?.message ?? JSON.stringify(r));
      } finally {
        c.close();
      }
    };

    const ROWS: readonly Row[] = [
      { front: 'REST infer', own: 'simple', call: (t, m) => http('POST', `/v2/models/${m}/infer`, t, { inputs: tensorsOf(m) }) },
      { front: 'REST versioned infer', own: 'simple', call: (t, m) => http('POST', `/v2/models/${m}/versions/1/infer`, t, { inputs: tensorsOf(m) }) },
      { front: 'REST metadata', own: 'simple', call: (t, m) => http('GET', `/v2/models/${m}`, t) },
      { front: 'REST config', own: 'simple', call: (t, m) => http('GET', `/v2/models/${m}/config`, t) },
      { front: 'REST ready', own: 'simple', call: (t, m) => http('GET', `/v2/models/${m}/ready`, t) },
      { front: 'REST statistics', own: 'simple', call: (t, m) => http('GET', `/v2/models/${m}/stats`, t) },
      {
        front: 'SSE generate_stream',
        own: 'simple',
        call: (t, m) => http('POST', `/v2/models/${m}/generate_stream`, t, { inputs: tensorsOf(m) }),
      },
      {
        front: 'OpenAI completions',
        own: 'charlm',
        foreignServed: false,
        call: (t, m) => http('POST', '/v1/completions', t, { model: m, prompt: 'de', max_tokens: 2 }),
      },
      { front: 'gRPC ModelInfer', own: 'simple', call: (t, m) => grpcUnary('ModelInfer', grpcInfer(m), t) },
      { front: 'gRPC ModelMetadata', own: 'simple', call: (t, m) => grpcUnary('ModelMetadata', { name: m }, t) },
      { front: 'gRPC ModelConfig', own: 'simple', call: (t, m) => grpcUnary('ModelConfig', { name: m }, t) },
      { front: 'gRPC ModelReady', own: 'simple', call: (t, m) => grpcUnary('ModelReady', { name: m }, t) },
      { front: 'gRPC ModelStatistics', own: 'simple', call: (t, m) => grpcUnary('ModelStatistics', { name: m }, t) },
      {
        front: 'gRPC ModelStreamInfer',
        own: 'simple',
        call: async (t, m) => {
          const [answer] = await streamAll(client, [grpcInfer(m)], metadata(t));
          return answer === undefined ? 'other: no answer' : answer.error_message === '' ? 'ok' : fromMessage(answer.error_message);
        },
      },
      { front: 'WebSocket infer', own: 'simple', call: (t, m) => ws(t === undefined ? undefined : `rtserve.bearer.${t}`, m) },
      {
        // A ticket carries the scopes of the credential it was issued for, no more.
        front: 'WebSocket infer with a ticket',
        own: 'simple',
        call: async (t, m) => {
          const r = await request(`${server.httpUrl}/v2/auth/ws-ticket`, {
            method: 'POST',
            headers: t === undefined ? {} : { authorization: `Bearer ${t}` },
          });
          if (r.status !== 200) return fromHttp(r.status, new TextDecoder().decode(r.body));
          return ws(`rtserve.ticket.${(r.json() as { ticket: string }).ticket}`, m);
        },
      },
    ];

    const text = async (method: string, path: string, token: string, body?: unknown): Promise<string> => {
      const r = await request(`${server.httpUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return `${r.status} ${new TextDecoder().decode(r.body)}`;
    };
    const grpcText = (method: string, req: unknown, token: string): Promise<string> =>
      unary(client, method, req, {}, metadata(token)).then(
        (res) => JSON.stringify(res),
        (err: grpc.ServiceError) => `${grpc.status[err.code]} ${err.details}`,
      );
    const LISTINGS: readonly ListingRow[] = [
      { front: 'REST statistics of every model', list: (t) => text('GET', '/v2/models/stats', t) },
      { front: 'gRPC ModelStatistics(name="")', list: (t) => grpcText('ModelStatistics', { name: '' }, t) },
      { front: 'REST metadata 404', list: (t, probe) => text('GET', `/v2/models/${probe}`, t) },
      { front: 'REST infer 404', list: (t, probe) => text('POST', `/v2/models/${probe}/infer`, t, { inputs: tensorsOf('simple') }) },
      { front: 'gRPC ModelMetadata NOT_FOUND', list: (t, probe) => grpcText('ModelMetadata', { name: probe }, t) },
      { front: 'gRPC ModelInfer NOT_FOUND', list: (t, probe) => grpcText('ModelInfer', grpcInfer(probe), t) },
      { front: 'OpenAI completions 404', list: (t, probe) => text('POST', '/v1/completions', t, { model: probe, prompt: 'de' }) },
      { front: 'OpenAI /v1/models', list: (t) => text('GET', '/v1/models', t), namesOwn: false },
    ];

    before(async () => {
      server = await startTestServer({ auth: { enabled: true, apiKeys }, modelControlMode: 'explicit', loadModel: LOADED, workers });
      client = inferenceClient(server.grpcAddress ?? '');
    });
    after(async () => {
      client?.close();
      await server?.close();
    });

    for (const row of LISTINGS) {
      test(`${row.front}: names the caller's models, never another principal's`, async () => {
        for (const v of VIEWS) {
          const answer = await row.list(v.token, v.probe);
          for (const other of v.others) assert.ok(!answer.includes(other), `${v.who} is told of '${other}': ${answer}`);
          if (row.namesOwn !== false)
            assert.ok(
              v.own.some((m) => answer.includes(m)),
              `${v.who} is told none of its models: ${answer}`,
            );
        }
      });
    }

    for (const row of ROWS) {
      test(`${row.front}: own model reached; the other principal's refused both ways; no credentials refused`, async () => {
        assert.equal(await row.call(ALPHA, row.own), 'ok', 'alpha on its own model');
        assert.equal(await row.call(ALPHA, FOREIGN), 'denied', "alpha on beta's model");
        assert.equal(await row.call(BETA, row.own), 'denied', "beta on alpha's model");
        if (row.foreignServed !== false) assert.equal(await row.call(BETA, FOREIGN), 'ok', 'beta on its own model');
        assert.equal(await row.call(undefined, row.own), 'unauthenticated', 'no credentials');
      });
    }

    test('whoever may use every model still lists every model, and 404s suggest them all', async () => {
      const names = JSON.parse((await text('GET', '/v2/models/stats', ADMIN)).slice(4)) as { model_stats: { name: string }[] };
      assert.deepEqual(names.model_stats.map((m) => m.name).sort(), LOADED);
      const stats = JSON.parse(await grpcText('ModelStatistics', { name: '' }, ADMIN)) as { model_stats: { name: string }[] };
      assert.deepEqual(stats.model_stats.map((m) => m.name).sort(), LOADED);
      assert.match(await text('GET', '/v2/models/nope', ADMIN), /^404 .*unknown model 'nope' \(models: charlm, mlp, simple\)/);
    });

    test('server reflection needs credentials and the metadata scope, as ModelMetadata does', async () => {
      const address = server.grpcAddress ?? '';
      const outcome = (token: string | undefined): Promise<Outcome> =>
        reflect(address, [{ list_services: '' }], metadata(token)).then((answers): Outcome => {
          const list = answers[0]?.['list_services_response'] as { service: { name: string }[] } | undefined;
          return list?.service.some((x) => x.name === 'inference.GRPCInferenceService') === true ? 'ok' : `other: ${JSON.stringify(answers)}`;
        }, fromGrpc);
      assert.equal(await outcome(undefined), 'unauthenticated');
      assert.equal(await outcome(GAMMA), 'denied', 'the infer scope alone does not describe the API');
      assert.equal(await outcome(ALPHA), 'ok');
    });
  });
}
