/**
 * System shared memory regions belong to the principal that registered them, with auth on, over REST and gRPC
 * (and WebSocket inference):
 * another principal can neither see a region (status), nor use it in an inference, nor unregister it (one region
 * or "all"), and may register its own region under the same name. Region names are no longer global (before
 * 2026-12-01 principal b could read, overwrite and unregister principal a's regions by name).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import type { ServerConfigInput } from '../../../src/config/server-config.ts';
import { hashApiKey } from '../../../src/security/authenticator.ts';
import { request, startTestServer, type FetchResult } from '../../helpers/server.ts';
import { ShmObjects, int32Bytes, int32Values, shmInferParameters, type ShmObject } from '../../helpers/shm.ts';
import { inferenceClient, rejectsWith, streamAll, unary, type InferenceClient, type ModelInferResponse } from '../grpc/grpc-test-client.ts';
import { TestWs, outputData } from '../ws/ws-test-client.ts';

const KEY_A = 'sk-owner-a';
const KEY_B = 'sk-owner-b';

/** The server every test here starts: client shared memory is opt-in (`--allow-client-shm`). */
const SERVER_OPTIONS: Partial<ServerConfigInput> = {
  allowClientShm: true,
  modelControlMode: 'explicit',
  loadModel: ['simple'],
  auth: {
    enabled: true,
    apiKeys: [
      { id: 'a', sha256: hashApiKey(KEY_A), scopes: ['infer'] },
      { id: 'b', sha256: hashApiKey(KEY_B), scopes: ['infer'] },
    ],
  },
};

const A = Array.from({ length: 16 }, (_, i) => i * 2 - 9);
const B = Array.from({ length: 16 }, (_, i) => 50 - i);
const C = Array.from({ length: 16 }, (_, i) => 1000 + i);

describe('shared memory regions are owned by their principal (auth on)', () => {
  const objects = new ShmObjects('owner');
  let server: RunningServer;
  let client: InferenceClient;
  /** a's inputs (A then B), b's inputs (C then C). */
  let ofA: ShmObject;
  let ofB: ShmObject;

  // REST, as one principal.
  const rest = (key: string) => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const base = `${server.httpUrl}/v2/systemsharedmemory`;
    return {
      register: (name: string, obj: ShmObject, byteSize = 128): Promise<FetchResult> =>
        request(`${base}/region/${name}/register`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ key: obj.key, offset: 0, byte_size: byteSize }),
        }),
      unregister: (name?: string): Promise<FetchResult> =>
        request(`${base}${name === undefined ? '' : `/region/${name}`}/unregister`, { method: 'POST', headers }),
      status: (name?: string): Promise<FetchResult> => request(`${base}${name === undefined ? '' : `/region/${name}`}/status`, { headers }),
      /** `simple` with both inputs from `region`; OUTPUT0 (the sum) comes back in the response. */
      infer: (region: string): Promise<FetchResult> =>
        request(`${server.httpUrl}/v2/models/simple/infer`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            inputs: [
              { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], parameters: { shared_memory_region: region, shared_memory_byte_size: 64 } },
              {
                name: 'INPUT1',
                datatype: 'INT32',
                shape: [1, 16],
                parameters: { shared_memory_region: region, shared_memory_byte_size: 64, shared_memory_offset: 64 },
              },
            ],
            outputs: [{ name: 'OUTPUT0' }],
          }),
        }),
    };
  };
  // gRPC, as one principal.
  const rpc = (key: string) => {
    const md = (): grpc.Metadata => {
      const m = new grpc.Metadata();
      m.set('authorization', `Bearer ${key}`);
      return m;
    };
    const request = (region: string) => ({
      model_name: 'simple',
      inputs: [
        { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], parameters: shmInferParameters(region, 64) },
        { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], parameters: shmInferParameters(region, 64, 64) },
      ],
      outputs: [{ name: 'OUTPUT0' }],
    });
    return {
      register: (name: string, obj: ShmObject, byteSize = 128) =>
        unary(client, 'SystemSharedMemoryRegister', { name, key: obj.key, offset: 0, byte_size: byteSize }, {}, md()),
      unregister: (name = '') => unary(client, 'SystemSharedMemoryUnregister', { name }, {}, md()),
      status: (name = '') => unary<{ regions: Record<string, { key: string }> }>(client, 'SystemSharedMemoryStatus', { name }, {}, md()),
      infer: (region: string) => unary<ModelInferResponse>(client, 'ModelInfer', request(region), {}, md()),
      /** One request on a ModelStreamInfer stream: its answer (a response or an error message). */
      stream: async (region: string) => (await streamAll(client, [request(region)], md()))[0],
    };
  };
  const sumOf = (r: FetchResult): number[] => {
    assert.equal(r.status, 200, new TextDecoder().decode(r.body));
    return ((r.json() as { outputs: { name: string; data: number[] }[] }).outputs.find((o) => o.name === 'OUTPUT0')?.data ?? []) as number[];
  };
  const grpcSumOf = (r: ModelInferResponse): number[] => int32Values(r.raw_output_contents[0] ?? Buffer.alloc(0));
  const expectNotFound = (r: FetchResult, ...parts: string[]): void => {
    const text = new TextDecoder().decode(r.body);
    assert.equal(r.status, 404, text);
    const e = r.json() as { code: string; error: string };
    assert.equal(e.code, 'SHM_REGION_NOT_FOUND', text);
    for (const p of parts) assert.ok(e.error.includes(p), `${text} should mention ${p}`);
  };
  const sum = (x: number[], y: number[]): number[] => x.map((v, i) => v + (y[i] ?? 0));

  before(async () => {
    server = await startTestServer(SERVER_OPTIONS);
    client = inferenceClient(server.grpcAddress ?? '');
    ofA = await objects.create(128);
    await ofA.write(0, int32Bytes(A));
    await ofA.write(64, int32Bytes(B));
    ofB = await objects.create(128);
    await ofB.write(0, int32Bytes(C));
    await ofB.write(64, int32Bytes(C));
  });
  after(async () => {
    client.close();
    await server.close();
    await objects.removeAll();
  });

  test("REST: b cannot see, use or unregister a's region; b's own region of the same name is separate", async () => {
    const a = rest(KEY_A);
    const b = rest(KEY_B);
    assert.equal((await a.register('r', ofA)).status, 200);
    assert.deepEqual(sumOf(await a.infer('r')), sum(A, B));

    // Invisible to b: not in its status, not found by name, not usable, and the message names none of a's regions.
    assert.deepEqual((await b.status()).json(), []);
    expectNotFound(await b.status('r'), "'r'", 'no region is registered');
    expectNotFound(await b.infer('r'), "input 'INPUT0'", "'r'");
    // Unregistering a name b does not have is not an error (Triton), and a's region stays.
    assert.equal((await b.unregister('r')).status, 200);
    assert.equal((await b.unregister()).status, 200);
    assert.deepEqual((await a.status()).json(), [{ name: 'r', key: ofA.key, offset: 0, byte_size: 128 }]);
    assert.deepEqual(sumOf(await a.infer('r')), sum(A, B));

    // b registers its own 'r': each principal's inference reads its own object.
    assert.equal((await b.register('r', ofB)).status, 200);
    assert.deepEqual(sumOf(await b.infer('r')), sum(C, C));
    assert.deepEqual(sumOf(await a.infer('r')), sum(A, B));
    assert.deepEqual((await b.status()).json(), [{ name: 'r', key: ofB.key, offset: 0, byte_size: 128 }]);

    // "Unregister all" is all of the caller's own.
    assert.equal((await a.unregister()).status, 200);
    expectNotFound(await a.status('r'));
    assert.deepEqual(sumOf(await b.infer('r')), sum(C, C));
    assert.equal((await b.unregister('r')).status, 200);
    assert.deepEqual((await b.status()).json(), []);
  });

  test("gRPC: the same isolation; a region registered over REST is its owner's over gRPC too", async () => {
    const a = rpc(KEY_A);
    const b = rpc(KEY_B);
    assert.deepEqual(await a.register('g', ofA), {});
    assert.deepEqual(grpcSumOf(await a.infer('g')), sum(A, B));

    assert.deepEqual((await b.status()).regions, {});
    await rejectsWith(b.status('g'), grpc.status.NOT_FOUND, "'g'", 'no region is registered');
    await rejectsWith(b.infer('g'), grpc.status.NOT_FOUND, "input 'INPUT0'", "'g'");
    assert.deepEqual(await b.unregister('g'), {});
    assert.deepEqual(await b.unregister(), {});
    assert.deepEqual(Object.keys((await a.status()).regions), ['g']);
    assert.deepEqual(grpcSumOf(await a.infer('g')), sum(A, B));

    assert.deepEqual(await b.register('g', ofB), {});
    assert.deepEqual(grpcSumOf(await b.infer('g')), sum(C, C));
    assert.deepEqual(grpcSumOf(await a.infer('g')), sum(A, B));

    // ModelStreamInfer requests are admitted one by one, with the same principal scoping.
    const streamSum = (answer: Awaited<ReturnType<typeof a.stream>>): number[] => {
      assert.ok(answer?.infer_response, answer?.error_message ?? 'no answer');
      return grpcSumOf(answer.infer_response);
    };
    assert.deepEqual(streamSum(await a.stream('g')), sum(A, B));
    assert.deepEqual(streamSum(await b.stream('g')), sum(C, C), "b's own region g");
    assert.deepEqual(await b.unregister('g'), {});
    const gone = await b.stream('g');
    assert.match(gone?.error_message ?? '', /Unable to find system shared memory region: 'g'/, "b no longer has a g; a's g stays invisible");
    assert.deepEqual(await b.register('g', ofB), {});

    // One principal across protocols: a's REST registration is usable by a over gRPC, not by b.
    assert.equal((await rest(KEY_A).register('both', ofA)).status, 200);
    assert.deepEqual(grpcSumOf(await a.infer('both')), sum(A, B));
    await rejectsWith(b.infer('both'), grpc.status.NOT_FOUND, "'both'");

    assert.deepEqual(await a.unregister(), {});
    assert.deepEqual((await a.status()).regions, {});
    assert.deepEqual(Object.keys((await b.status()).regions), ['g']);
    assert.deepEqual(await b.unregister(), {});
  });

  test("WebSocket inference reads only the sending principal's regions", async () => {
    assert.equal((await rest(KEY_A).register('w', ofA)).status, 200);
    const event = (id: string) => ({
      type: 'infer',
      id,
      model: 'simple',
      inputs: [
        { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], parameters: { shared_memory_region: 'w', shared_memory_byte_size: 64 } },
        {
          name: 'INPUT1',
          datatype: 'INT32',
          shape: [1, 16],
          parameters: { shared_memory_region: 'w', shared_memory_byte_size: 64, shared_memory_offset: 64 },
        },
      ],
      outputs: [{ name: 'OUTPUT0' }],
    });
    const asA = await TestWs.open(server.httpUrl, { headers: { authorization: `Bearer ${KEY_A}` } });
    const asB = await TestWs.open(server.httpUrl, { headers: { authorization: `Bearer ${KEY_B}` } });
    try {
      asA.send(event('a1'));
      assert.deepEqual(outputData(await asA.terminal('a1'), 'OUTPUT0'), sum(A, B));
      asB.send(event('b1'));
      const e = (await asB.terminal('b1')) as unknown as { type: string; error: { code: string; message: string } };
      assert.equal(e.type, 'error');
      assert.equal(e.error.code, 'SHM_REGION_NOT_FOUND');
      assert.match(e.error.message, /'w'/);
    } finally {
      asA.close();
      asB.close();
      assert.equal((await rest(KEY_A).unregister('w')).status, 200);
    }
  });
});
