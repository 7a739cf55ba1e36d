/**
 * The gRPC front end beyond inference itself: the metadata and repository RPCs, grpc.health.v1 Check / Watch,
 * server reflection, the message size limit, status mapping for a full queue, call deadlines and cancellation
 * (a queued request leaves the queue), and draining on close.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { startServer, type RunningServer } from '../../../src/app/rtserve-server.ts';
import { loadServerConfig } from '../../../src/config/load-server-config.ts';
import type { ServerConfigInput } from '../../../src/config/server-config.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { makeRepository, startTestServer } from '../../helpers/server.ts';
import {
  Gate,
  gatedEngine,
  inferenceClient,
  inferRequestObject,
  pendingCount,
  reflect,
  rejectsWith,
  streamAll,
  unary,
  until,
  type InferenceClient,
  type ModelInferResponse,
  type ModelStreamInferResponse,
} from './grpc-test-client.ts';

const simpleRequest = (id: string): Record<string, unknown> =>
  inferRequestObject(
    {
      model: 'simple',
      id,
      inputs: [
        { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: new Int32Array(16).fill(2) },
        { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: new Int32Array(16).fill(1) },
      ],
    },
    false,
  );

function healthClient(address: string): grpc.Client {
  const def = protoLoader.loadSync(healthProtoPath, { keepCase: true, enums: String, defaults: true });
  const pkg = grpc.loadPackageDefinition(def) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } };
  return new pkg.grpc.health.v1.Health(address, grpc.credentials.createInsecure());
}

type Watch = grpc.ClientReadableStream<{ status: string }>;

/** Collects a Watch stream's statuses; `next(n)` resolves once n have arrived. */
function watch(client: grpc.Client, service: string): { statuses: string[]; next: (n: number) => Promise<void>; call: Watch; ended: Promise<void> } {
  const call = (client as unknown as { Watch(req: unknown): Watch }).Watch({ service });
  const statuses: string[] = [];
  call.on('data', (r: { status: string }) => statuses.push(r.status));
  const ended = new Promise<void>((resolve) => {
    call.on('end', resolve);
    call.on('error', () => resolve());
  });
  return { statuses, call, ended, next: (n) => until(() => statuses.length >= n, `${n} health statuses for '${service}'`) };
}

async function startGated(gate: Gate, overrides: Partial<ServerConfigInput>): Promise<RunningServer> {
  const config = await loadServerConfig({
    flags: { host: '127.0.0.1', httpPort: 0, grpcPort: 0, metricsPort: 0, logLevel: 'silent', exitTimeoutSecs: 10, ...overrides },
  });
  return startServer({ config, logger: silentLogger(), engine: gatedEngine(gate) });
}

describe('gRPC metadata, repository and status mapping', () => {
  let server: RunningServer;
  let client: InferenceClient;
  let repo: { dir: string; cleanup: () => Promise<void> };
  before(async () => {
    repo = await makeRepository({
      simple: { from: 'simple', config: { max_batch_size: 8, dynamic_batching: {} } },
      mlp: { from: 'mlp' },
      identity_all: { from: 'identity_all' },
    });
    server = await startTestServer({ modelRepository: [repo.dir] });
    client = inferenceClient(server.grpcAddress!);
  });
  after(async () => {
    client.close();
    await server.close();
    await repo.cleanup();
  });

  test('ServerLive, ServerReady, ServerMetadata', async () => {
    assert.deepEqual(await unary(client, 'ServerLive', {}), { live: true });
    assert.deepEqual(await unary(client, 'ServerReady', {}), { ready: true });
    const meta = await unary<{ name: string; version: string; extensions: string[] }>(client, 'ServerMetadata', {});
    assert.equal(meta.name, 'rtserve');
    assert.ok(meta.extensions.includes('model_repository'));
  });

  test('ModelReady, ModelMetadata (-1 for the batch dimension), unknown model is NOT_FOUND', async () => {
    assert.deepEqual(await unary(client, 'ModelReady', { name: 'simple', version: '' }), { ready: true });
    const meta = await unary<{ name: string; versions: string[]; platform: string; inputs: { name: string; datatype: string; shape: string[] }[] }>(
      client,
      'ModelMetadata',
      { name: 'simple' },
    );
    assert.equal(meta.name, 'simple');
    assert.deepEqual(meta.versions, ['1']);
    assert.equal(meta.platform, 'onnxruntime_onnx');
    assert.deepEqual(
      meta.inputs.map((t) => [t.name, t.datatype, t.shape]),
      [
        ['INPUT0', 'INT32', ['-1', '16']],
        ['INPUT1', 'INT32', ['-1', '16']],
      ],
    );
    await rejectsWith(unary(client, 'ModelMetadata', { name: 'no_such_model' }), grpc.status.NOT_FOUND, 'no_such_model');
    await rejectsWith(unary(client, 'ModelReady', { name: 'no_such_model' }), grpc.status.NOT_FOUND, 'no_such_model');
  });

  test('ModelConfig speaks Triton ModelConfig: enums, dims, the dynamic_batching oneof', async () => {
    const { config } = await unary<{ config: Record<string, unknown> & { input: { name: string; data_type: string; dims: string[] }[] } }>(
      client,
      'ModelConfig',
      { name: 'simple' },
    );
    assert.equal(config['name'], 'simple');
    assert.equal(config['max_batch_size'], 8);
    assert.deepEqual(
      config.input.map((t) => [t.name, t.data_type, t.dims]),
      [
        ['INPUT0', 'TYPE_INT32', ['16']],
        ['INPUT1', 'TYPE_INT32', ['16']],
      ],
    );
    assert.equal(config['scheduling_choice'], 'dynamic_batching');
    assert.ok(config['dynamic_batching'] !== null && typeof config['dynamic_batching'] === 'object');
  });

  test('ModelStatistics counts an inference; RepositoryIndex lists ready models', async () => {
    await unary(client, 'ModelInfer', simpleRequest('stats-1'));
    const { model_stats } = await unary<{
      model_stats: { name: string; inference_count: string; inference_stats: { success: { count: string } } }[];
    }>(client, 'ModelStatistics', { name: 'simple' });
    assert.equal(model_stats.length, 1);
    assert.ok(Number(model_stats[0]?.inference_count) >= 1);
    assert.ok(Number(model_stats[0]?.inference_stats.success.count) >= 1);
    const all = await unary<{ model_stats: unknown[] }>(client, 'ModelStatistics', {});
    assert.ok(all.model_stats.length >= 3);
    const index = await unary<{ models: { name: string; state: string }[] }>(client, 'RepositoryIndex', { ready: true });
    assert.ok(index.models.some((m) => m.name === 'simple' && m.state === 'READY'));
  });

  test('load/unload without explicit model control, CUDA shared memory and trace RPCs are UNIMPLEMENTED with a reason', async () => {
    await rejectsWith(unary(client, 'RepositoryModelLoad', { model_name: 'simple' }), grpc.status.UNIMPLEMENTED, 'model-control-mode');
    await rejectsWith(unary(client, 'CudaSharedMemoryRegister', { name: 'r' }), grpc.status.UNIMPLEMENTED, 'CUDA shared memory is not supported');
    await rejectsWith(unary(client, 'TraceSetting', {}), grpc.status.UNIMPLEMENTED, 'trace');
  });

  test('errors carry the registry code in trailing metadata', async () => {
    await assert.rejects(unary(client, 'ModelInfer', { ...simpleRequest('x'), model_name: 'nope' }), (err: grpc.ServiceError) => {
      assert.equal(err.code, grpc.status.NOT_FOUND);
      assert.deepEqual(err.metadata.get('rtserve-error-code'), ['MODEL_NOT_FOUND']);
      return true;
    });
  });

  test('health Check: overall, the service name, a model, an unknown name', async () => {
    const health = healthClient(server.grpcAddress!);
    try {
      assert.deepEqual(await unary(health, 'Check', { service: '' }), { status: 'SERVING' });
      assert.deepEqual(await unary(health, 'Check', { service: 'inference.GRPCInferenceService' }), { status: 'SERVING' });
      assert.deepEqual(await unary(health, 'Check', { service: 'simple' }), { status: 'SERVING' });
      await rejectsWith(unary(health, 'Check', { service: 'no_such_model' }), grpc.status.NOT_FOUND, 'no_such_model');
      const w = watch(health, 'no_such_model');
      await w.next(1);
      assert.deepEqual(w.statuses, ['SERVICE_UNKNOWN']);
      w.call.cancel();
    } finally {
      health.close();
    }
  });

  test('server reflection lists the inference and health services and serves their descriptors', async () => {
    const answers = await reflect(server.grpcAddress!, [{ list_services: '' }, { file_containing_symbol: 'inference.ModelInferRequest' }]);
    const list = answers[0]?.['list_services_response'] as { service: { name: string }[] };
    const names = list.service.map((s) => s.name);
    assert.ok(names.includes('inference.GRPCInferenceService'), names.join(', '));
    assert.ok(names.includes('grpc.health.v1.Health'), names.join(', '));
    const files = (answers[1]?.['file_descriptor_response'] as { file_descriptor_proto: Buffer[] }).file_descriptor_proto;
    // proto-loader serves the whole `inference` package as one file descriptor.
    assert.ok(files.some((f) => f.includes('ModelInferRequest') && f.includes('GRPCInferenceService') && f.includes('raw_input_contents')));
  });
});

describe('gRPC limits', () => {
  test('a message over grpcMaxMessageBytes is refused with RESOURCE_EXHAUSTED naming the limit', async () => {
    const server = await startTestServer({ grpcMaxMessageBytes: 1024 * 1024 });
    const client = inferenceClient(server.grpcAddress!);
    try {
      const big = { ...simpleRequest('big'), raw_input_contents: [Buffer.alloc(2 * 1024 * 1024), Buffer.alloc(64)] };
      await rejectsWith(unary(client, 'ModelInfer', big), grpc.status.RESOURCE_EXHAUSTED, '1048576');
      // The connection and the server are fine afterwards.
      const ok = await unary<ModelInferResponse>(client, 'ModelInfer', simpleRequest('small'));
      assert.equal(ok.id, 'small');
    } finally {
      client.close();
      await server.close();
    }
  });

  test('a response over the limit is RESOURCE_EXHAUSTED naming grpcMaxMessageBytes; on a stream only that request fails', async () => {
    const server = await startTestServer({ grpcMaxMessageBytes: 1024 });
    const client = inferenceClient(server.grpcAddress!);
    try {
      // Typed zeros cost one byte per element on the wire; the answer comes back raw (4 bytes each): > 1024 bytes.
      const zeros = (id: string): Record<string, unknown> =>
        inferRequestObject(
          {
            model: 'simple',
            id,
            inputs: [
              { name: 'INPUT0', datatype: 'INT32', shape: [8, 16], data: new Int32Array(128) },
              { name: 'INPUT1', datatype: 'INT32', shape: [8, 16], data: new Int32Array(128) },
            ],
          },
          true,
        );
      await rejectsWith(unary(client, 'ModelInfer', zeros('big-answer')), grpc.status.RESOURCE_EXHAUSTED, 'grpcMaxMessageBytes', '1024');
      const answers = await streamAll(client, [zeros('too-big'), simpleRequest('fits')]);
      const byId = new Map(answers.map((a) => [a.infer_response?.id, a.error_message]));
      assert.match(byId.get('too-big') ?? '', /grpcMaxMessageBytes/);
      assert.equal(byId.get('fits'), '');
    } finally {
      client.close();
      await server.close();
    }
  });
});

describe('gRPC deadlines, cancellation, full queues and draining (a gated engine holds batches on the only instance)', () => {
  let repo: { dir: string; cleanup: () => Promise<void> };
  before(async () => {
    repo = await makeRepository({
      simple: { from: 'simple' },
      limited: { from: 'simple', config: { max_batch_size: 8, dynamic_batching: { default_queue_policy: { max_queue_size: 1 } } } },
    });
  });
  after(async () => {
    await repo.cleanup();
  });

  async function withServer(fn: (server: RunningServer, client: InferenceClient, gate: Gate) => Promise<void>): Promise<void> {
    const gate = new Gate();
    const server = await startGated(gate, { modelRepository: [repo.dir] });
    const client = inferenceClient(server.grpcAddress!);
    try {
      await fn(server, client, gate);
    } finally {
      gate.open();
      client.close();
      await server.close();
    }
  }

  const inferenceCount = async (client: InferenceClient, model: string): Promise<number> => {
    const { model_stats } = await unary<{ model_stats: { inference_count: string }[] }>(client, 'ModelStatistics', { name: model });
    return Number(model_stats[0]?.inference_count);
  };

  test('a queued request whose call deadline passes leaves the queue and never runs', async () => {
    await withServer(async (server, client, gate) => {
      gate.close();
      const first = unary<ModelInferResponse>(client, 'ModelInfer', simpleRequest('A'));
      await gate.untilStarted(1);
      const late = unary(client, 'ModelInfer', simpleRequest('B'), { deadline: Date.now() + 3000 });
      await until(async () => (await pendingCount(server.metricsUrl!, 'simple')) === 1, 'B to be queued');
      await rejectsWith(late, grpc.status.DEADLINE_EXCEEDED);
      await until(async () => (await pendingCount(server.metricsUrl!, 'simple')) === 0, 'B to leave the queue');
      gate.open();
      assert.equal((await first).id, 'A');
      // C queues behind where B was: had B stayed queued, it would have run first.
      assert.equal((await unary<ModelInferResponse>(client, 'ModelInfer', simpleRequest('C'))).id, 'C');
      assert.equal(await inferenceCount(client, 'simple'), 2, 'only A and C ran');
    });
  });

  test('a cancelled call and a cancelled stream take their queued requests out of the queue', async () => {
    await withServer(async (server, client, gate) => {
      gate.close();
      const first = unary<ModelInferResponse>(client, 'ModelInfer', simpleRequest('A'));
      await gate.untilStarted(1);

      let call: grpc.ClientUnaryCall | undefined;
      const cancelled = new Promise<unknown>((resolve, reject) => {
        call = (client as unknown as Record<string, (r: unknown, cb: (e: grpc.ServiceError | null, r: unknown) => void) => grpc.ClientUnaryCall>)[
          'ModelInfer'
        ]!.call(client, simpleRequest('B'), (err, res) => (err === null ? resolve(res) : reject(err)));
      });
      await until(async () => (await pendingCount(server.metricsUrl!, 'simple')) === 1, 'B to be queued');
      call?.cancel();
      await rejectsWith(cancelled, grpc.status.CANCELLED);
      await until(async () => (await pendingCount(server.metricsUrl!, 'simple')) === 0, 'B to leave the queue');

      const stream = client.ModelStreamInfer();
      stream.on('error', () => undefined);
      for (const id of ['S1', 'S2', 'S3']) stream.write(simpleRequest(id));
      await until(async () => (await pendingCount(server.metricsUrl!, 'simple')) === 3, 'the stream requests to be queued');
      stream.cancel();
      await until(async () => (await pendingCount(server.metricsUrl!, 'simple')) === 0, 'the stream requests to leave the queue');

      gate.open();
      assert.equal((await first).id, 'A');
      assert.equal((await unary<ModelInferResponse>(client, 'ModelInfer', simpleRequest('C'))).id, 'C');
      assert.equal(await inferenceCount(client, 'simple'), 2, 'only A and C ran');
    });
  });

  test('a full queue answers RESOURCE_EXHAUSTED at once with a retry hint', async () => {
    await withServer(async (server, client, gate) => {
      gate.close();
      const running = unary(client, 'ModelInfer', { ...simpleRequest('A'), model_name: 'limited' });
      await gate.untilStarted(1);
      const queued = unary(client, 'ModelInfer', { ...simpleRequest('B'), model_name: 'limited' });
      await until(async () => (await pendingCount(server.metricsUrl!, 'limited')) === 1, 'B to be queued');
      await assert.rejects(unary(client, 'ModelInfer', { ...simpleRequest('C'), model_name: 'limited' }), (err: grpc.ServiceError) => {
        assert.equal(err.code, grpc.status.RESOURCE_EXHAUSTED);
        assert.match(err.details, /max_queue_size 1/);
        assert.deepEqual(err.metadata.get('rtserve-error-code'), ['QUEUE_FULL']);
        assert.ok(Number(err.metadata.get('retry-after-ms')[0]) >= 1);
        return true;
      });
      gate.open();
      await running;
      await queued;
    });
  });

  test('close() drains: health turns NOT_SERVING, in-flight calls and stream requests finish, the stream ends UNAVAILABLE', async () => {
    const gate = new Gate();
    const server = await startGated(gate, { modelRepository: [repo.dir] });
    const client = inferenceClient(server.grpcAddress!);
    const health = healthClient(server.grpcAddress!);
    try {
      const w = watch(health, '');
      await w.next(1);
      assert.deepEqual(w.statuses, ['SERVING']);

      gate.close();
      const unaryCall = unary<ModelInferResponse>(client, 'ModelInfer', simpleRequest('A'));
      await gate.untilStarted(1);
      const stream = client.ModelStreamInfer();
      const answers: ModelStreamInferResponse[] = [];
      const streamEnd = new Promise<grpc.ServiceError | undefined>((resolve) => {
        stream.on('data', (r: ModelStreamInferResponse) => answers.push(r));
        stream.on('error', (e: grpc.ServiceError) => resolve(e));
        stream.on('end', () => resolve(undefined));
      });
      stream.write(simpleRequest('S1'));
      await until(async () => (await pendingCount(server.metricsUrl!, 'simple')) === 1, 'S1 to be queued');

      const closed = server.close();
      await w.ended;
      assert.deepEqual(w.statuses, ['SERVING', 'NOT_SERVING']);
      gate.open();
      assert.equal((await unaryCall).id, 'A');
      const end = await streamEnd;
      assert.equal(end?.code, grpc.status.UNAVAILABLE, 'the stream ends with UNAVAILABLE once its requests are answered');
      assert.deepEqual(
        answers.map((a) => [a.infer_response?.id, a.error_message]),
        [['S1', '']],
      );
      await closed;
    } finally {
      gate.open();
      health.close();
      client.close();
      await server.close();
    }
  });
});

describe('gRPC model control and health Watch on a model', () => {
  test('RepositoryModelLoad / Unload drive ModelReady and the model health status', async () => {
    const repo = await makeRepository({ simple: { from: 'simple' } });
    const server = await startTestServer({ modelRepository: [repo.dir], modelControlMode: 'explicit' });
    const client = inferenceClient(server.grpcAddress!);
    const health = healthClient(server.grpcAddress!);
    try {
      const w = watch(health, 'simple');
      await w.next(1);
      assert.notEqual(w.statuses[0], 'SERVING', 'not loaded yet');
      await unary(client, 'RepositoryModelLoad', { model_name: 'simple' });
      assert.deepEqual(await unary(client, 'ModelReady', { name: 'simple' }), { ready: true });
      await w.next(2);
      assert.equal(w.statuses[1], 'SERVING');
      assert.deepEqual(await unary(health, 'Check', { service: 'simple' }), { status: 'SERVING' });
      await unary(client, 'RepositoryModelUnload', { model_name: 'simple' });
      await w.next(3);
      assert.notEqual(w.statuses[2], 'SERVING');
      await rejectsWith(unary(client, 'ModelInfer', simpleRequest('after-unload')), grpc.status.UNAVAILABLE);
      await rejectsWith(
        unary(client, 'RepositoryModelLoad', { model_name: 'simple', parameters: { 'file:1/model.onnx': { bytes_param: Buffer.from('x') } } }),
        grpc.status.UNIMPLEMENTED,
        'file:1/model.onnx',
      );
      await unary(client, 'RepositoryModelLoad', {
        model_name: 'simple',
        parameters: { config: { string_param: JSON.stringify({ max_batch_size: 4 }) } },
      });
      const { config } = await unary<{ config: { max_batch_size: number } }>(client, 'ModelConfig', { name: 'simple' });
      assert.equal(config.max_batch_size, 4);
      w.call.cancel();
    } finally {
      health.close();
      client.close();
      await server.close();
      await repo.cleanup();
    }
  });
});
