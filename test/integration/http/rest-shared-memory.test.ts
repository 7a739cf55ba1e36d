/**
 * Triton's system shared memory extension over REST against a real server: real /dev/shm objects, real fetch.
 * Region endpoints (Triton's JSON shapes), inference with inputs read from and outputs written to regions (equal
 * to an ordinary inference of the same data), one clear error per bad input with the server still serving, an
 * unregister while a request holds the region, and the extension turned off.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { postJson, request, startTestServer, type FetchResult } from '../../helpers/server.ts';
import { ShmObjects, int32Bytes, int32Values, type ShmObject } from '../../helpers/shm.ts';
import { Gate, startGatedServer } from '../ws/gated-engine.ts';
import { TestWs } from '../ws/ws-test-client.ts';
import { startServer } from '../../../src/app/rtserve-server.ts';
import { loadServerConfig } from '../../../src/config/load-server-config.ts';
import { openFileRegion, type RegionOpener } from '../../../src/shm/system-shared-memory.ts';
import { silentLogger } from '../../../src/observability/logger.ts';

const A = Array.from({ length: 16 }, (_, i) => i * 3 - 7);
const B = Array.from({ length: 16 }, (_, i) => 100 - i * i);

interface OutputJson {
  name: string;
  datatype: string;
  shape: number[];
  parameters?: Record<string, unknown>;
  data?: unknown[];
}

const shmParams = (region: string, byteSize: number, offset?: number): Record<string, string | number> =>
  offset === undefined
    ? { shared_memory_region: region, shared_memory_byte_size: byteSize }
    : { shared_memory_region: region, shared_memory_byte_size: byteSize, shared_memory_offset: offset };

function errorOf(r: FetchResult): { error: string; code: string } {
  return r.json() as { error: string; code: string };
}

function assertError(r: FetchResult, status: number, code: string, ...parts: string[]): void {
  const text = new TextDecoder().decode(r.body);
  assert.equal(r.status, status, text);
  const e = errorOf(r);
  assert.equal(e.code, code, text);
  for (const p of parts) assert.ok(e.error.includes(p), `${JSON.stringify(e.error)} should mention ${JSON.stringify(p)}`);
}

describe('system shared memory over REST', () => {
  const gate = new Gate();
  const shm = new ShmObjects('rest');
  let server: RunningServer;
  let base: string;
  // One object holding INPUT0 then INPUT1, one for the outputs.
  let inputs: ShmObject;
  let outputs: ShmObject;

  const register = (name: string, body: unknown): Promise<FetchResult> => postJson(`${base}/v2/systemsharedmemory/region/${name}/register`, body);
  const unregister = (name?: string): Promise<FetchResult> =>
    request(`${base}/v2/systemsharedmemory${name === undefined ? '' : `/region/${name}`}/unregister`, { method: 'POST' });
  const status = (name?: string): Promise<FetchResult> =>
    request(`${base}/v2/systemsharedmemory${name === undefined ? '' : `/region/${name}`}/status`);
  const infer = (model: string, body: unknown): Promise<FetchResult> => postJson(`${base}/v2/models/${model}/infer`, body);

  /** A `simple` request reading both inputs from region `in` and writing both outputs to region `out`. */
  const shmRequest = (over: { in?: string; out?: string } = {}) => ({
    inputs: [
      { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], parameters: shmParams(over.in ?? 'in', 64) },
      { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], parameters: shmParams(over.in ?? 'in', 64, 64) },
    ],
    outputs: [
      { name: 'OUTPUT0', parameters: shmParams(over.out ?? 'out', 64) },
      { name: 'OUTPUT1', parameters: shmParams(over.out ?? 'out', 64, 64) },
    ],
  });

  before(async () => {
    // The bundled `simple` (OUTPUT0 = INPUT0 + INPUT1, OUTPUT1 = INPUT0 - INPUT1) and `identity_all`, nothing else.
    server = await startGatedServer(gate, { modelControlMode: 'explicit', loadModel: ['simple', 'identity_all'], allowClientShm: true });
    base = server.httpUrl;
    inputs = await shm.create(128);
    await inputs.write(0, int32Bytes(A));
    await inputs.write(64, int32Bytes(B));
    outputs = await shm.create(128);
  });
  after(async () => {
    await server.close();
    await shm.removeAll();
  });

  test("register, status and unregister answer in Triton's shapes; the extension is advertised", async () => {
    const meta = (await request(`${base}/v2`)).json() as { extensions: string[] };
    assert.ok(meta.extensions.includes('system_shared_memory'));
    assert.ok(!meta.extensions.includes('cuda_shared_memory'));

    const obj = await shm.create(256);
    const r = await register('r1', { key: obj.key, offset: 16, byte_size: 128 });
    assert.equal(r.status, 200, new TextDecoder().decode(r.body));
    assert.equal(r.body.byteLength, 0);
    // A key without the leading '/' names the same object.
    assert.equal((await register('r2', { key: obj.key.slice(1), byte_size: 256 })).status, 200);

    const all = await status();
    assert.equal(all.status, 200);
    const regions = (all.json() as { name: string }[]).filter((s) => s.name === 'r1' || s.name === 'r2').sort((a, b) => (a.name < b.name ? -1 : 1));
    assert.deepEqual(regions, [
      { name: 'r1', key: obj.key, offset: 16, byte_size: 128 },
      { name: 'r2', key: obj.key.slice(1), offset: 0, byte_size: 256 },
    ]);
    const one = await status('r1');
    assert.equal(one.status, 200);
    assert.deepEqual(one.json(), [{ name: 'r1', key: obj.key, offset: 16, byte_size: 128 }]);

    const u = await unregister('r1');
    assert.equal(u.status, 200);
    assert.equal(u.body.byteLength, 0);
    assertError(await status('r1'), 404, 'SHM_REGION_NOT_FOUND', "'r1'");
    // Unregistering a name that is not registered succeeds, as in Triton.
    assert.equal((await unregister('r1')).status, 200);
    // The name is free again.
    assert.equal((await register('r1', { key: obj.key, byte_size: 8 })).status, 200);

    assert.equal((await unregister()).status, 200);
    assert.deepEqual((await status()).json(), []);
  });

  test('inputs read from and outputs written to regions equal an ordinary inference of the same data', async () => {
    assert.equal((await register('in', { key: inputs.key, offset: 0, byte_size: 128 })).status, 200);
    assert.equal((await register('out', { key: outputs.key, offset: 0, byte_size: 128 })).status, 200);
    try {
      const plain = await infer('simple', {
        inputs: [
          { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: A },
          { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: B },
        ],
      });
      assert.equal(plain.status, 200);
      const expected = new Map((plain.json() as { outputs: OutputJson[] }).outputs.map((o) => [o.name, o.data as number[]]));

      const r = await infer('simple', { id: 'shm-1', ...shmRequest() });
      assert.equal(r.status, 200, new TextDecoder().decode(r.body));
      assert.equal(r.headers.get('inference-header-content-length'), null, 'no binary section');
      const body = r.json() as { id: string; outputs: OutputJson[] };
      assert.equal(body.id, 'shm-1');
      assert.deepEqual(body.outputs, [
        { name: 'OUTPUT0', datatype: 'INT32', shape: [1, 16], parameters: { shared_memory_region: 'out', shared_memory_byte_size: 64 } },
        {
          name: 'OUTPUT1',
          datatype: 'INT32',
          shape: [1, 16],
          parameters: { shared_memory_region: 'out', shared_memory_byte_size: 64, shared_memory_offset: 64 },
        },
      ]);
      const written = await outputs.read();
      assert.deepEqual(int32Values(written.subarray(0, 64)), expected.get('OUTPUT0'));
      assert.deepEqual(int32Values(written.subarray(64, 128)), expected.get('OUTPUT1'));

      // Mixed: INPUT0 inline, INPUT1 from the region; OUTPUT0 to the region, OUTPUT1 back as binary data.
      await outputs.write(0, new Uint8Array(128));
      const mixed = await infer('simple', {
        inputs: [
          { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: A },
          { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], parameters: shmParams('in', 64, 64) },
        ],
        outputs: [
          { name: 'OUTPUT0', parameters: shmParams('out', 64) },
          { name: 'OUTPUT1', parameters: { binary_data: true } },
        ],
      });
      assert.equal(mixed.status, 200, new TextDecoder().decode(mixed.body));
      const headerLength = Number(mixed.headers.get('inference-header-content-length'));
      const head = JSON.parse(new TextDecoder().decode(mixed.body.subarray(0, headerLength))) as { outputs: OutputJson[] };
      assert.deepEqual(head.outputs[0], {
        name: 'OUTPUT0',
        datatype: 'INT32',
        shape: [1, 16],
        parameters: { shared_memory_region: 'out', shared_memory_byte_size: 64 },
      });
      assert.deepEqual(head.outputs[1]?.parameters, { binary_data_size: 64 });
      assert.deepEqual(int32Values(mixed.body.subarray(headerLength)), expected.get('OUTPUT1'));
      assert.deepEqual(int32Values((await outputs.read()).subarray(0, 64)), expected.get('OUTPUT0'));
    } finally {
      await unregister();
    }
  });

  test('BYTES tensors use 4-byte length-prefixed elements in regions, both ways', async () => {
    const words = ['shared', '', 'memory ✓'].map((w) => new TextEncoder().encode(w));
    const serialized = Buffer.concat(
      words.flatMap((w) => {
        const len = Buffer.alloc(4);
        len.writeUInt32LE(w.byteLength);
        return [len, Buffer.from(w)];
      }),
    );
    const io = await shm.create(serialized.byteLength * 2 + 8);
    await io.write(0, serialized);
    assert.equal((await register('bytes', { key: io.key, byte_size: serialized.byteLength * 2 + 8 })).status, 200);
    try {
      // identity_all has one Identity per datatype; every input is required, so the others go inline.
      const others: { name: string; datatype: string; data: unknown[] }[] = [
        ['BOOL', [true]],
        ['UINT8', [1]],
        ['UINT16', [1]],
        ['UINT32', [1]],
        ['UINT64', [1]],
        ['INT8', [1]],
        ['INT16', [1]],
        ['INT32', [1]],
        ['INT64', [1]],
        ['FP16', [1]],
        ['FP32', [1]],
        ['FP64', [1]],
      ].map(([dt, data]) => ({ name: `IN_${dt as string}`, datatype: dt as string, data: data as unknown[] }));
      const r = await infer('identity_all', {
        inputs: [
          ...others.map((t) => ({ ...t, shape: [1, 1] })),
          { name: 'IN_BYTES', datatype: 'BYTES', shape: [1, 3], parameters: shmParams('bytes', serialized.byteLength) },
        ],
        outputs: [{ name: 'OUT_BYTES', parameters: shmParams('bytes', serialized.byteLength + 8, serialized.byteLength) }],
      });
      assert.equal(r.status, 200, new TextDecoder().decode(r.body));
      const out = (r.json() as { outputs: OutputJson[] }).outputs;
      assert.deepEqual(
        out.map((o) => o.name),
        ['OUT_BYTES'],
      );
      assert.deepEqual(out[0]?.parameters, {
        shared_memory_region: 'bytes',
        shared_memory_byte_size: serialized.byteLength,
        shared_memory_offset: serialized.byteLength,
      });
      const region = await io.read();
      assert.deepEqual(region.subarray(serialized.byteLength, 2 * serialized.byteLength), serialized);
    } finally {
      await unregister('bytes');
    }
  });

  test('each bad input gets its own clear error and status, and a good request afterwards still works', async () => {
    assert.equal((await register('in', { key: inputs.key, byte_size: 128 })).status, 200);
    assert.equal((await register('out', { key: outputs.key, byte_size: 128 })).status, 200);
    const small = await shm.create(32);
    try {
      const req = shmRequest();
      const withInput = (i: number, patch: Record<string, unknown>) => ({
        ...req,
        inputs: req.inputs.map((t, j) => (j === i ? { ...t, ...patch } : t)),
      });
      const withOutput = (i: number, parameters: Record<string, unknown>) => ({
        ...req,
        outputs: req.outputs.map((o, j) => (j === i ? { ...o, parameters } : o)),
      });

      // Registration
      assertError(await register('in', { key: inputs.key, byte_size: 128 }), 400, 'SHM_REGION_EXISTS', "'in'", 'already in manager');
      for (const key of ['/a/b', '../etc/passwd', '', '/'])
        assertError(await register('bad', { key, byte_size: 8 }), 400, 'SHM_BAD_KEY', 'POSIX shared memory name');
      assertError(
        await register('bad', { key: `/rtserve-test-missing-${process.pid}`, byte_size: 8 }),
        400,
        'SHM_BAD_KEY',
        "'bad'",
        'no shared memory object',
        `rtserve-test-missing-${process.pid}`,
      );
      assertError(
        await register('bad', { key: small.key, offset: 16, byte_size: 32 }),
        400,
        'SHM_OUT_OF_RANGE',
        "'bad'",
        'offset 16 + byte_size 32 = 48 bytes',
        'has 32 bytes',
      );
      assertError(await register('bad', { offset: 0, byte_size: 8 }), 400, 'BAD_JSON', "'key'", 'required');
      assertError(await register('bad', { key: small.key }), 400, 'BAD_JSON', "'byte_size'", 'required');
      assertError(await register('bad', { key: small.key, byte_size: -1 }), 400, 'BAD_JSON', "'byte_size'", 'non-negative integer');

      // Inference
      assertError(
        await infer('simple', withInput(0, { parameters: shmParams('nope', 64) })),
        404,
        'SHM_REGION_NOT_FOUND',
        "input 'INPUT0'",
        "'nope'",
      );
      assertError(await infer('simple', withOutput(1, shmParams('nope', 64))), 404, 'SHM_REGION_NOT_FOUND', "output 'OUTPUT1'", "'nope'");
      assertError(
        await infer('simple', withInput(1, { parameters: shmParams('in', 60, 64) })),
        400,
        'BAD_DATA',
        "input 'INPUT1'",
        'needs 64 bytes',
        'shared_memory_byte_size is 60',
      );
      assertError(
        await infer('simple', withInput(1, { parameters: shmParams('in', 64, 96) })),
        400,
        'SHM_OUT_OF_RANGE',
        "input 'INPUT1'",
        'shared_memory_offset 96 + shared_memory_byte_size 64 = 160',
        "region 'in' (128 bytes)",
      );
      assertError(
        await infer('simple', withInput(0, { data: A })),
        400,
        'BAD_DATA',
        "input 'INPUT0'",
        "both 'data' and parameters.shared_memory_region",
      );
      assertError(
        await infer('simple', withInput(0, { parameters: { shared_memory_region: 'in' } })),
        400,
        'BAD_PARAMETER',
        "input 'INPUT0'",
        'shared_memory_byte_size',
      );
      assertError(
        await infer('simple', withOutput(0, shmParams('out', 60))),
        400,
        'SHM_OUT_OF_RANGE',
        "output 'OUTPUT0'",
        'should be at least 64 bytes',
        '60',
      );
      assertError(
        await infer('simple', withOutput(0, { ...shmParams('out', 64), classification: 2 })),
        400,
        'BAD_PARAMETER',
        "output 'OUTPUT0'",
        'classification',
      );

      // CUDA shared memory: not supported, every path says so.
      for (const [method, path] of [
        ['GET', '/status'],
        ['GET', '/region/c/status'],
        ['POST', '/region/c/register'],
        ['POST', '/unregister'],
      ] as const) {
        assertError(
          await request(`${base}/v2/cudasharedmemory${path}`, { method, ...(method === 'POST' ? { body: '{}' } : {}) }),
          501,
          'UNSUPPORTED',
          'CUDA shared memory is not supported',
        );
      }

      // The server and the regions are untouched.
      const good = await infer('simple', req);
      assert.equal(good.status, 200, new TextDecoder().decode(good.body));
      const written = await outputs.read();
      assert.deepEqual(
        int32Values(written.subarray(0, 64)),
        A.map((a, i) => a + B[i]!),
      );
      assert.deepEqual(
        int32Values(written.subarray(64)),
        A.map((a, i) => a - B[i]!),
      );
      assert.deepEqual((await status()).json(), [
        { name: 'in', key: inputs.key, offset: 0, byte_size: 128 },
        { name: 'out', key: outputs.key, offset: 0, byte_size: 128 },
      ]);
    } finally {
      await unregister();
    }
  });

  test('the same request as a WebSocket infer event (same HTTP port, same codec) reads and writes the regions', async () => {
    assert.equal((await register('in', { key: inputs.key, byte_size: 128 })).status, 200);
    assert.equal((await register('out', { key: outputs.key, byte_size: 128 })).status, 200);
    await outputs.write(0, new Uint8Array(128));
    const ws = await TestWs.open(base);
    try {
      ws.send({ type: 'infer', id: 'w1', model: 'simple', ...shmRequest() });
      const result = await ws.terminal('w1');
      assert.equal(result.type, 'result', JSON.stringify(result));
      assert.deepEqual(
        (result as unknown as { outputs: OutputJson[] }).outputs.map((o) => [o.name, o.data, o.parameters?.['shared_memory_region']]),
        [
          ['OUTPUT0', undefined, 'out'],
          ['OUTPUT1', undefined, 'out'],
        ],
      );
      assert.deepEqual(
        int32Values((await outputs.read()).subarray(0, 64)),
        A.map((a, i) => a + B[i]!),
      );
    } finally {
      ws.close();
      await unregister();
    }
  });

  test('unregistering regions while a request uses them does not break it; the names are free at once', async () => {
    assert.equal((await register('in', { key: inputs.key, byte_size: 128 })).status, 200);
    assert.equal((await register('out', { key: outputs.key, byte_size: 128 })).status, 200);
    await outputs.write(0, new Uint8Array(128));
    gate.hold('simple');
    let pending: Promise<FetchResult> | undefined;
    try {
      pending = infer('simple', shmRequest());
      // The request has read its inputs and is at the engine.
      await gate.untilRuns('simple', gate.runs('simple') + 1);
      assert.equal((await unregister('in')).status, 200);
      assert.equal((await unregister('out')).status, 200);
      assert.deepEqual((await status()).json(), []);
      // Another request that names them now fails, the held one is not affected.
      assertError(await infer('simple', shmRequest()), 404, 'SHM_REGION_NOT_FOUND', "'out'");
      // And the name can be registered again (another object) while the old region is still in use.
      const other = await shm.create(128);
      assert.equal((await register('out', { key: other.key, byte_size: 128 })).status, 200);
    } finally {
      gate.release('simple');
    }
    const r = await pending;
    assert.equal(r.status, 200, new TextDecoder().decode(r.body));
    const written = await outputs.read();
    assert.deepEqual(
      int32Values(written.subarray(0, 64)),
      A.map((a, i) => a + B[i]!),
    );
    await unregister();
  });
});

describe('client shared memory off (the default; Triton: --allow-client-shm=false)', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ modelControlMode: 'explicit', loadModel: ['simple'] });
  });
  after(async () => {
    await server.close();
  });

  test('not advertised; endpoints and requests that name regions answer 501', async () => {
    const base = server.httpUrl;
    const meta = (await request(`${base}/v2`)).json() as { extensions: string[] };
    assert.ok(!meta.extensions.includes('system_shared_memory'));
    assertError(await request(`${base}/v2/systemsharedmemory/status`), 501, 'UNSUPPORTED', '--allow-client-shm=true', 'allowClientShm');
    assertError(
      await postJson(`${base}/v2/systemsharedmemory/region/r/register`, { key: '/x', byte_size: 8 }),
      501,
      'UNSUPPORTED',
      '--allow-client-shm',
    );
    const r = await postJson(`${base}/v2/models/simple/infer`, {
      inputs: [
        { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], parameters: shmParams('in', 64) },
        { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: B },
      ],
    });
    assertError(r, 501, 'UNSUPPORTED', '--allow-client-shm');
  });
});

describe('an application-supplied RegionOpener (StartOptions.sharedMemoryOpener)', () => {
  test('the server opens regions with it, reads and writes through it, and closes them on shutdown', async () => {
    const objects = new ShmObjects('opener');
    const calls: string[] = [];
    // The default file backing, observed: what an mmap opener from a native addon would be asked to do.
    const sharedMemoryOpener: RegionOpener = async (file, offset, byteSize) => {
      const { path } = file;
      calls.push(`open ${path} ${offset} ${byteSize}`);
      const inner = await openFileRegion(file, offset, byteSize);
      return {
        read: (o, n) => (calls.push(`read ${o} ${n}`), inner.read(o, n)),
        write: (o, d) => (calls.push(`write ${o} ${d.byteLength}`), inner.write(o, d)),
        close: () => (calls.push(`close ${path}`), inner.close()),
      };
    };
    const config = await loadServerConfig({
      flags: {
        host: '127.0.0.1',
        httpPort: 0,
        grpcPort: 0,
        metricsPort: 0,
        logLevel: 'silent',
        modelControlMode: 'explicit',
        loadModel: ['simple'],
        allowClientShm: true,
      },
    });
    const server = await startServer({ config, logger: silentLogger(), sharedMemoryOpener });
    try {
      const io = await objects.create(256);
      await io.write(0, int32Bytes(A));
      await io.write(64, int32Bytes(B));
      const base = server.httpUrl;
      assert.equal((await postJson(`${base}/v2/systemsharedmemory/region/io/register`, { key: io.key, offset: 0, byte_size: 256 })).status, 200);
      const r = await postJson(`${base}/v2/models/simple/infer`, {
        inputs: [
          { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], parameters: shmParams('io', 64) },
          { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], parameters: shmParams('io', 64, 64) },
        ],
        outputs: [{ name: 'OUTPUT0', parameters: shmParams('io', 64, 128) }],
      });
      assert.equal(r.status, 200, new TextDecoder().decode(r.body));
      assert.deepEqual(
        int32Values((await io.read()).subarray(128, 192)),
        A.map((a, i) => a + B[i]!),
      );
      await server.close();
      assert.deepEqual(
        calls.filter((c) => !c.startsWith('read')),
        [`open ${io.path} 0 256`, 'write 128 64', `close ${io.path}`],
      );
      assert.deepEqual(calls.filter((c) => c.startsWith('read')).sort(), ['read 0 64', 'read 64 64']);
    } finally {
      await server.close();
      await objects.removeAll();
    }
  });
});
