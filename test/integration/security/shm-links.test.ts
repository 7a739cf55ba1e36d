/**
 * Client shared memory keys are opened as shm_open opens them (O_NOFOLLOW) and checked on the opened descriptor
 * (issue 37, hole 1): a symbolic link in /dev/shm is refused (ELOOP) on REST and gRPC registration, so no region
 * of that name exists for inputs or outputs on REST, gRPC and WebSocket inference; the link's target is never read
 * into an output nor written. Only regular objects large enough for the range register (a FIFO and a too-small
 * object are refused). Before, registration followed the link: inference read the target file's bytes, and an
 * output region on the link overwrote the file.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { hashApiKey } from '../../../src/security/authenticator.ts';
import { type FetchResult, request, startTestServer } from '../../helpers/server.ts';
import { int32Bytes, SHM_DIR, ShmObjects, shmInferParameters } from '../../helpers/shm.ts';
import { type InferenceClient, inferenceClient, rejectsWith, unary } from '../grpc/grpc-test-client.ts';
import { TestWs } from '../ws/ws-test-client.ts';

const KEY = 'sk-shm-links';
const SECRET = Buffer.from(Array.from({ length: 128 }, (_, i) => (i * 7 + 3) % 256));
const ONES = new Array<number>(16).fill(1);

describe('shared memory keys that are links, or not regular objects of the size, are refused', () => {
  const objects = new ShmObjects('links');
  const name = `rtserve-test-links-${process.pid}`;
  /** /dev/shm links: to a file outside /dev/shm, and to a real shm object. */
  const toFile = { key: `/${name}-file`, path: join(SHM_DIR, `${name}-file`) };
  const toObject = { key: `/${name}-object`, path: join(SHM_DIR, `${name}-object`) };
  const fifo = { key: `/${name}-fifo`, path: join(SHM_DIR, `${name}-fifo`) };
  let dir: string;
  let secret: string;
  let server: RunningServer;
  let client: InferenceClient;
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const md = (): grpc.Metadata => {
    const m = new grpc.Metadata();
    m.set('authorization', `Bearer ${KEY}`);
    return m;
  };

  const restRegister = (region: string, key: string, byteSize = 64): Promise<FetchResult> =>
    request(`${server.httpUrl}/v2/systemsharedmemory/region/${region}/register`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ key, offset: 0, byte_size: byteSize }),
    });
  const grpcRegister = (region: string, key: string, byteSize = 64) =>
    unary(client, 'SystemSharedMemoryRegister', { name: region, key, offset: 0, byte_size: byteSize }, {}, md());
  const expectError = (r: FetchResult, status: number, code: string, ...parts: string[]): void => {
    const text = new TextDecoder().decode(r.body);
    assert.equal(r.status, status, text);
    const e = r.json() as { code: string; error: string };
    assert.equal(e.code, code, text);
    for (const p of parts) assert.ok(e.error.includes(p), `${text} should mention ${p}`);
  };
  /** `simple` (OUTPUT0 = INPUT0 + INPUT1) with INPUT0 from `region`, or OUTPUT0 into it. */
  const restInfer = (region: string, role: 'input' | 'output'): Promise<FetchResult> =>
    request(`${server.httpUrl}/v2/models/simple/infer`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        inputs: [
          role === 'input'
            ? { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], parameters: { shared_memory_region: region, shared_memory_byte_size: 64 } }
            : { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: ONES },
          { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: ONES },
        ],
        outputs: [
          role === 'output' ? { name: 'OUTPUT0', parameters: { shared_memory_region: region, shared_memory_byte_size: 64 } } : { name: 'OUTPUT0' },
        ],
      }),
    });
  const secretUnchanged = async (): Promise<void> => assert.deepEqual(await readFile(secret), SECRET, 'the link target is unchanged');

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rtserve-shm-links-'));
    secret = join(dir, 'secret.bin');
    await writeFile(secret, SECRET);
    const real = await objects.create(128);
    await symlink(secret, toFile.path);
    await symlink(real.path, toObject.path);
    execFileSync('mkfifo', [fifo.path]);
    server = await startTestServer({
      allowClientShm: true,
      modelControlMode: 'explicit',
      loadModel: ['simple'],
      auth: { enabled: true, apiKeys: [{ id: 'p', sha256: hashApiKey(KEY), scopes: ['infer'] }] },
    });
    client = inferenceClient(server.grpcAddress ?? '');
  });
  after(async () => {
    client?.close();
    await server?.close();
    await Promise.all([toFile, toObject, fifo].map((l) => rm(l.path, { force: true })));
    await objects.removeAll();
    await rm(dir, { recursive: true, force: true });
  });

  test('REST: a link is refused at registration (ELOOP), so no input or output region reaches its target', async () => {
    for (const link of [toFile, toObject]) {
      expectError(await restRegister('evil', link.key), 400, 'SHM_BAD_KEY', "'evil'", 'symbolic link', 'O_NOFOLLOW', 'ELOOP');
    }
    assert.deepEqual((await request(`${server.httpUrl}/v2/systemsharedmemory/status`, { headers })).json(), []);
    expectError(await restInfer('evil', 'input'), 404, 'SHM_REGION_NOT_FOUND', "'evil'");
    expectError(await restInfer('evil', 'output'), 404, 'SHM_REGION_NOT_FOUND', "'evil'");
    await secretUnchanged();
  });

  test('gRPC: a link is refused at registration (ELOOP), so no input or output region reaches its target', async () => {
    for (const link of [toFile, toObject]) {
      await rejectsWith(grpcRegister('evil', link.key), grpc.status.INVALID_ARGUMENT, "'evil'", 'symbolic link', 'ELOOP');
    }
    assert.deepEqual((await unary<{ regions: Record<string, unknown> }>(client, 'SystemSharedMemoryStatus', { name: '' }, {}, md())).regions, {});
    const inline = { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], contents: { int_contents: ONES } };
    const fromRegion = { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], parameters: shmInferParameters('evil', 64) };
    const asInput = { model_name: 'simple', inputs: [fromRegion, inline], outputs: [{ name: 'OUTPUT0' }] };
    const asOutput = {
      model_name: 'simple',
      inputs: [{ ...inline, name: 'INPUT0' }, inline],
      outputs: [{ name: 'OUTPUT0', parameters: shmInferParameters('evil', 64) }],
    };
    await rejectsWith(unary(client, 'ModelInfer', asInput, {}, md()), grpc.status.NOT_FOUND, "'evil'");
    await rejectsWith(unary(client, 'ModelInfer', asOutput, {}, md()), grpc.status.NOT_FOUND, "'evil'");
    await secretUnchanged();
  });

  test('WebSocket: inference with the refused name as an input or output region finds no region', async () => {
    expectError(await restRegister('evil', toFile.key), 400, 'SHM_BAD_KEY', 'symbolic link');
    const ws = await TestWs.open(server.httpUrl, { headers: { authorization: `Bearer ${KEY}` } });
    try {
      const region = { shared_memory_region: 'evil', shared_memory_byte_size: 64 };
      const tensor = (name: string, fromRegion: boolean) =>
        fromRegion ? { name, datatype: 'INT32', shape: [1, 16], parameters: region } : { name, datatype: 'INT32', shape: [1, 16], data: ONES };
      ws.send({ type: 'infer', model: 'simple', id: 'in', inputs: [tensor('INPUT0', true), tensor('INPUT1', false)] });
      ws.send({
        type: 'infer',
        model: 'simple',
        id: 'out',
        inputs: [tensor('INPUT0', false), tensor('INPUT1', false)],
        outputs: [{ name: 'OUTPUT0', parameters: region }],
      });
      for (const id of ['in', 'out']) {
        const e = (await ws.terminal(id)) as unknown as { type: string; error: { code: string; message: string } };
        assert.equal(e.type, 'error', id);
        assert.equal(e.error.code, 'SHM_REGION_NOT_FOUND', id);
        assert.match(e.error.message, /'evil'/);
      }
    } finally {
      ws.close();
    }
    await secretUnchanged();
  });

  test('only a regular object large enough registers: a FIFO and a too-small object are refused, the right size is served', async () => {
    expectError(await restRegister('odd', fifo.key), 400, 'SHM_BAD_KEY', "'odd'", 'not a regular file');
    await rejectsWith(grpcRegister('odd', fifo.key), grpc.status.INVALID_ARGUMENT, 'not a regular file');
    const small = await objects.create(32);
    expectError(await restRegister('small', small.key, 64), 400, 'SHM_OUT_OF_RANGE', "'small'", 'has 32 bytes', '64');
    await rejectsWith(grpcRegister('small', small.key, 64), grpc.status.INVALID_ARGUMENT, "'small'", 'has 32 bytes');
    // The same object with a range that fits registers and is read.
    const fits = await objects.create(64);
    await fits.write(0, int32Bytes(Array.from({ length: 16 }, (_, i) => i)));
    assert.equal((await restRegister('fits', fits.key, 64)).status, 200);
    const r = await restInfer('fits', 'input');
    assert.equal(r.status, 200, new TextDecoder().decode(r.body));
    const out = (r.json() as { outputs: { name: string; data: number[] }[] }).outputs.find((o) => o.name === 'OUTPUT0');
    assert.deepEqual(
      out?.data,
      Array.from({ length: 16 }, (_, i) => i + 1),
    );
  });
});
