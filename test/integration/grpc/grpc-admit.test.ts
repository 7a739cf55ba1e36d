/**
 * The admission hook of the gRPC front end (where src/security plugs in auth and rate limits): every RPC is
 * admitted with its operation group and model before it runs, a refusal becomes the call's status (or the stream
 * request's error_message), and each admitted call is released exactly once when it ends.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { rtError } from '../../../src/errors/registry.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { startGrpcServer } from '../../../src/transport/grpc/grpc-server.ts';
import type { GrpcAdmitContext, GrpcFrontEnd } from '../../../src/transport/grpc/grpc-front-types.ts';
import { makeRepository, startTestServer } from '../../helpers/server.ts';
import { inferenceClient, inferRequestObject, unary, type InferenceClient, type ModelStreamInferResponse } from './grpc-test-client.ts';

const request = (id: string): Record<string, unknown> =>
  inferRequestObject(
    {
      model: 'simple',
      id,
      inputs: [
        { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: new Int32Array(16) },
        { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: new Int32Array(16) },
      ],
    },
    false,
  );

describe('gRPC admission hook', () => {
  let server: RunningServer;
  let front: GrpcFrontEnd;
  let client: InferenceClient;
  let repo: { dir: string; cleanup: () => Promise<void> };
  const seen: { op: string; model: string | undefined }[] = [];
  let admitted = 0;
  let released = 0;
  const good = new grpc.Metadata();
  good.set('authorization', 'Bearer ok');

  before(async () => {
    repo = await makeRepository({ simple: { from: 'simple' } });
    server = await startTestServer({ modelRepository: [repo.dir] });
    front = await startGrpcServer({
      api: server.api,
      logger: silentLogger(),
      host: '127.0.0.1',
      port: 0,
      maxMessageBytes: 1 << 20,
      keepaliveTimeMs: 60000,
      keepaliveTimeoutMs: 20000,
      keepalivePermitWithoutCalls: false,
      admit: async (ctx: GrpcAdmitContext) => {
        seen.push({ op: ctx.op, model: ctx.model });
        assert.match(ctx.peer, /127\.0\.0\.1/);
        if (ctx.metadata.get('authorization')[0] !== 'Bearer ok') throw rtError('UNSUPPORTED', 'denied by the test admission hook');
        admitted++;
        return { release: () => released++ };
      },
    });
    client = inferenceClient(front.address);
  });
  after(async () => {
    client.close();
    await front.close(1000);
    await server.close();
    await repo.cleanup();
  });

  test('each RPC is admitted with its operation and model; refusals become the status', async () => {
    seen.length = 0;
    await assert.rejects(
      unary(client, 'ModelInfer', request('x')),
      (e: grpc.ServiceError) => e.code === grpc.status.UNIMPLEMENTED && /denied/.test(e.details),
    );
    assert.equal((await unary<{ id: string }>(client, 'ModelInfer', request('y'), {}, good)).id, 'y');
    await unary(client, 'ServerLive', {}, {}, good);
    await unary(client, 'ModelMetadata', { name: 'simple' }, {}, good);
    await unary(client, 'ModelStatistics', { name: 'simple' }, {}, good);
    await unary(client, 'RepositoryIndex', {}, {}, good);
    await assert.rejects(unary(client, 'TraceSetting', {}, {}, good), (e: grpc.ServiceError) => e.code === grpc.status.UNIMPLEMENTED);
    assert.deepEqual(seen, [
      { op: 'infer', model: 'simple' },
      { op: 'infer', model: 'simple' },
      { op: 'health', model: undefined },
      { op: 'metadata', model: 'simple' },
      { op: 'metrics', model: 'simple' },
      { op: 'repository', model: undefined },
      { op: 'admin', model: undefined },
    ]);
    assert.equal(released, admitted, 'every admitted call is released once');
  });

  test('health checks go through the hook as the health operation', async () => {
    seen.length = 0;
    const def = protoLoader.loadSync(healthProtoPath, { keepCase: true, enums: String, defaults: true });
    const pkg = grpc.loadPackageDefinition(def) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } };
    const health = new pkg.grpc.health.v1.Health(front.address, grpc.credentials.createInsecure());
    try {
      await assert.rejects(unary(health, 'Check', { service: '' }), (e: grpc.ServiceError) => /denied/.test(e.details));
      assert.deepEqual(await unary(health, 'Check', { service: '' }, {}, good), { status: 'SERVING' });
      assert.deepEqual(
        seen.map((s) => s.op),
        ['health', 'health'],
      );
    } finally {
      health.close();
    }
  });

  test('stream requests are admitted one by one; a refused one is answered with error_message', async () => {
    const run = async (metadata: grpc.Metadata): Promise<ModelStreamInferResponse[]> => {
      const stream = client.ModelStreamInfer(metadata);
      const out: ModelStreamInferResponse[] = [];
      const done = new Promise<void>((resolve, reject) => {
        stream.on('data', (r: ModelStreamInferResponse) => out.push(r));
        stream.on('end', resolve);
        stream.on('error', reject);
      });
      stream.write(request('s1'));
      stream.write(request('s2'));
      stream.end();
      await done;
      return out;
    };
    const denied = await run(new grpc.Metadata());
    assert.deepEqual(denied.map((r) => [r.infer_response?.id, /denied/.test(r.error_message)]).sort(), [
      ['s1', true],
      ['s2', true],
    ]);
    const allowed = await run(good);
    assert.deepEqual(allowed.map((r) => [r.infer_response?.id, r.error_message]).sort(), [
      ['s1', ''],
      ['s2', ''],
    ]);
    assert.equal(released, admitted);
  });
});
