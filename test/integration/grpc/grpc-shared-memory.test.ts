/**
 * Triton's system shared memory extension over gRPC against a real server: real /dev/shm objects and a grpc-js
 * client generated from rtserve's .proto (the generic protobuf codec, not rtserve's). SystemSharedMemory* RPCs
 * with Triton's status codes, ModelInfer and ModelStreamInfer reading inputs from and writing outputs to regions
 * (equal to an ordinary inference), and one clear error per bad request with the server still serving.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { startTestServer } from '../../helpers/server.ts';
import { ShmObjects, int32Bytes, int32Values, shmInferParameters as shm, type ShmObject } from '../../helpers/shm.ts';
import {
  inferenceClient,
  inferRequestObject,
  rejectsWith,
  streamAll,
  unary,
  type InferenceClient,
  type ModelInferResponse,
} from './grpc-test-client.ts';

const A = Array.from({ length: 16 }, (_, i) => 5 * i - 40);
const B = Array.from({ length: 16 }, (_, i) => (i % 3) * 11);

interface OutputWithParameters {
  name: string;
  datatype: string;
  shape: string[];
  parameters: Record<string, { parameter_choice?: string; string_param?: string; int64_param?: string }>;
}

describe('system shared memory over gRPC', () => {
  const objects = new ShmObjects('grpc');
  let server: RunningServer;
  let client: InferenceClient;
  let inputs: ShmObject;
  let outputs: ShmObject;

  /** A `simple` ModelInfer reading INPUT0/INPUT1 from region `in` and writing both outputs to region `out`. */
  const shmRequest = (id: string, over: { in?: string; out?: string; outSize?: number } = {}): Record<string, unknown> => ({
    model_name: 'simple',
    id,
    inputs: [
      { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], parameters: shm(over.in ?? 'in', 64) },
      { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], parameters: shm(over.in ?? 'in', 64, 64) },
    ],
    outputs: [
      { name: 'OUTPUT0', parameters: shm(over.out ?? 'out', over.outSize ?? 64) },
      { name: 'OUTPUT1', parameters: shm(over.out ?? 'out', 64, 64) },
    ],
  });
  const register = (name: string, key: string, byteSize: number, offset = 0) =>
    unary(client, 'SystemSharedMemoryRegister', { name, key, offset, byte_size: byteSize });

  before(async () => {
    server = await startTestServer({ modelControlMode: 'explicit', loadModel: ['simple'], allowClientShm: true });
    client = inferenceClient(server.grpcAddress ?? '');
    inputs = await objects.create(128);
    await inputs.write(0, int32Bytes(A));
    await inputs.write(64, int32Bytes(B));
    outputs = await objects.create(128);
  });
  after(async () => {
    client.close();
    await server.close();
    await objects.removeAll();
  });

  test("SystemSharedMemoryRegister / Status / Unregister with Triton's status codes", async () => {
    const obj = await objects.create(64);
    assert.deepEqual(await register('g1', obj.key, 32, 8), {});
    assert.deepEqual(await register('g2', obj.key, 64), {});
    const all = await unary<{ regions: Record<string, unknown> }>(client, 'SystemSharedMemoryStatus', { name: '' });
    assert.deepEqual(all.regions, {
      g1: { name: 'g1', key: obj.key, offset: '8', byte_size: '32' },
      g2: { name: 'g2', key: obj.key, offset: '0', byte_size: '64' },
    });
    const one = await unary<{ regions: Record<string, unknown> }>(client, 'SystemSharedMemoryStatus', { name: 'g2' });
    assert.deepEqual(Object.keys(one.regions), ['g2']);

    await rejectsWith(register('g1', obj.key, 8), grpc.status.ALREADY_EXISTS, "'g1'", 'already in manager');
    await rejectsWith(register('g3', '/no/such', 8), grpc.status.INVALID_ARGUMENT, 'POSIX shared memory name');
    await rejectsWith(register('g3', `/rtserve-test-missing-${process.pid}`, 8), grpc.status.INVALID_ARGUMENT, "'g3'", 'no shared memory object');
    await rejectsWith(register('g3', obj.key, 64, 1), grpc.status.INVALID_ARGUMENT, "'g3'", 'offset 1 + byte_size 64 = 65 bytes', 'has 64 bytes');
    await rejectsWith(register('', obj.key, 8), grpc.status.INVALID_ARGUMENT, 'non-empty name');
    await rejectsWith(unary(client, 'SystemSharedMemoryStatus', { name: 'g3' }), grpc.status.NOT_FOUND, "'g3'");

    assert.deepEqual(await unary(client, 'SystemSharedMemoryUnregister', { name: 'g1' }), {});
    await rejectsWith(unary(client, 'SystemSharedMemoryStatus', { name: 'g1' }), grpc.status.NOT_FOUND, "'g1'");
    assert.deepEqual(await unary(client, 'SystemSharedMemoryUnregister', { name: '' }), {});
    assert.deepEqual((await unary<{ regions: Record<string, unknown> }>(client, 'SystemSharedMemoryStatus', { name: '' })).regions, {});

    for (const rpc of ['CudaSharedMemoryStatus', 'CudaSharedMemoryRegister', 'CudaSharedMemoryUnregister']) {
      await rejectsWith(unary(client, rpc, { name: 'c' }), grpc.status.UNIMPLEMENTED, 'CUDA shared memory is not supported');
    }
    const meta = await unary<{ extensions: string[] }>(client, 'ServerMetadata', {});
    assert.ok(meta.extensions.includes('system_shared_memory'));
  });

  test('ModelInfer and ModelStreamInfer read inputs from and write outputs to regions, equal to an ordinary inference', async () => {
    await register('in', inputs.key, 128);
    await register('out', outputs.key, 128);
    try {
      const plain = await unary<ModelInferResponse>(
        client,
        'ModelInfer',
        inferRequestObject(
          {
            model: 'simple',
            inputs: [
              { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: Int32Array.from(A) },
              { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: Int32Array.from(B) },
            ],
          },
          false,
        ),
      );
      const sum = int32Values(plain.raw_output_contents[0]!);
      const diff = int32Values(plain.raw_output_contents[1]!);

      const r = await unary<ModelInferResponse & { outputs: OutputWithParameters[] }>(client, 'ModelInfer', shmRequest('u1'));
      assert.equal(r.id, 'u1');
      assert.deepEqual(
        r.outputs.map((o) => [o.name, o.datatype, o.shape.map(Number)]),
        [
          ['OUTPUT0', 'INT32', [1, 16]],
          ['OUTPUT1', 'INT32', [1, 16]],
        ],
      );
      assert.equal(r.outputs[1]?.parameters['shared_memory_region']?.string_param, 'out');
      assert.equal(r.outputs[1]?.parameters['shared_memory_byte_size']?.int64_param, '64');
      assert.equal(r.outputs[1]?.parameters['shared_memory_offset']?.int64_param, '64');
      // One (empty) raw entry per output, as Triton sends, so tritonclient's indexes line up.
      assert.deepEqual(
        r.raw_output_contents.map((b) => b.length),
        [0, 0],
      );
      let written = await outputs.read();
      assert.deepEqual(int32Values(written.subarray(0, 64)), sum);
      assert.deepEqual(int32Values(written.subarray(64)), diff);

      // A stream: a shared-memory request, a bad one (the stream stays open), a good one.
      await outputs.write(0, new Uint8Array(128));
      const answers = await streamAll(client, [shmRequest('s1'), shmRequest('s2', { in: 'missing' }), shmRequest('s3')]);
      const byId = new Map(answers.map((a) => [a.infer_response?.id ?? '', a]));
      assert.equal(byId.get('s1')?.error_message, '');
      assert.equal(byId.get('s3')?.error_message, '');
      assert.match(byId.get('s2')?.error_message ?? '', /input 'INPUT0'.*'missing'/);
      written = await outputs.read();
      assert.deepEqual(int32Values(written.subarray(0, 64)), sum);
    } finally {
      await unary(client, 'SystemSharedMemoryUnregister', { name: '' });
    }
  });

  test('each bad request gets its own clear error and status, and a good request afterwards still works', async () => {
    await register('in', inputs.key, 128);
    await register('out', outputs.key, 128);
    try {
      const base = shmRequest('bad');
      const inputsOf = (i: number, patch: Record<string, unknown>) => ({
        ...base,
        inputs: (base['inputs'] as Record<string, unknown>[]).map((t, j) => (j === i ? { ...t, ...patch } : t)),
      });
      await rejectsWith(unary(client, 'ModelInfer', shmRequest('x', { in: 'nope' })), grpc.status.NOT_FOUND, "input 'INPUT0'", "'nope'");
      await rejectsWith(unary(client, 'ModelInfer', shmRequest('x', { out: 'nope' })), grpc.status.NOT_FOUND, "output 'OUTPUT0'", "'nope'");
      await rejectsWith(
        unary(client, 'ModelInfer', inputsOf(1, { parameters: shm('in', 60, 64) })),
        grpc.status.INVALID_ARGUMENT,
        "input 'INPUT1'",
        'needs 64 bytes',
        'is 60',
      );
      await rejectsWith(
        unary(client, 'ModelInfer', inputsOf(1, { parameters: shm('in', 64, 100) })),
        grpc.status.INVALID_ARGUMENT,
        "input 'INPUT1'",
        'past the end',
        "'in' (128 bytes)",
      );
      await rejectsWith(
        unary(client, 'ModelInfer', inputsOf(0, { contents: { int_contents: A } })),
        grpc.status.INVALID_ARGUMENT,
        "input 'INPUT0'",
        'both contents and parameters.shared_memory_region',
      );
      await rejectsWith(
        unary(client, 'ModelInfer', shmRequest('x', { outSize: 32 })),
        grpc.status.INVALID_ARGUMENT,
        "output 'OUTPUT0'",
        'should be at least 64 bytes',
      );
      const good = await unary<ModelInferResponse>(client, 'ModelInfer', shmRequest('ok'));
      assert.equal(good.id, 'ok');
      assert.deepEqual(
        int32Values((await outputs.read()).subarray(64)),
        A.map((a, i) => a - B[i]!),
      );
    } finally {
      await unary(client, 'SystemSharedMemoryUnregister', { name: '' });
    }
  });
});
