/**
 * The client package's calls besides infer (packages/client/src/server-calls.ts: tritonclient's statistics,
 * load/unload, system shared memory and log/trace settings), its timeout and retry policy (call-policy.ts) and
 * its typed `data(name, datatype)`, against real servers on port 0.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { RtserveError } from '../../../packages/client/src/errors.ts';
import type { LogSettings as ClientLogSettings } from '../../../packages/client/src/server-calls.ts';
import type { LogSettings as ServerLogSettings } from '../../../src/observability/logger.ts';
import { createNodeClient } from '../../../packages/client/src/node.ts';
import type { RtserveClient } from '../../../packages/client/src/rtserve-client.ts';
import { makeRepository, postJson, slowMlpConfig, startTestServer } from '../../helpers/server.ts';
import { ShmObjects } from '../../helpers/shm.ts';
import { pendingCount, until } from '../../helpers/until.ts';
import { Gate, startGatedServer } from '../ws/gated-engine.ts';

const SIMPLE = {
  INPUT0: { shape: [1, 16], data: Int32Array.from({ length: 16 }, (_, i) => i) },
  INPUT1: { shape: [1, 16], data: new Int32Array(16).fill(1) },
};

describe("client calls: tritonclient's statistics, repository, shared memory, log and trace settings", () => {
  let server: RunningServer;
  let client: RtserveClient;
  const shm = new ShmObjects('client-calls');
  before(async () => {
    server = await startTestServer({ modelControlMode: 'explicit', loadModel: ['simple'], allowClientShm: true });
    client = createNodeClient({ url: server.httpUrl });
  });
  after(async () => {
    client.close();
    await server.close();
    await shm.removeAll();
  });

  test('statistics of one model and of all; typed data by datatype, checked', async () => {
    const r = await client.infer('simple', SIMPLE);
    const sum: Int32Array = r.data('OUTPUT0', 'INT32');
    assert.ok(sum instanceof Int32Array);
    assert.deepEqual(
      [...sum],
      [...SIMPLE.INPUT0.data].map((v) => v + 1),
    );
    assert.throws(
      () => r.data('OUTPUT0', 'FP32'),
      (e: unknown) => e instanceof RtserveError && e.code === 'BAD_DATATYPE',
    );
    const [simple] = await client.statistics('simple');
    assert.equal(simple?.name, 'simple');
    assert.ok((simple?.inference_stats.success.count ?? 0) >= 1);
    assert.ok((await client.statistics()).some((s) => s.name === 'simple'));
  });

  test('loadModel and unloadModel (explicit model control)', async () => {
    assert.equal(await client.isModelReady('mlp'), false);
    await client.loadModel('mlp');
    assert.equal(await client.isModelReady('mlp'), true);
    await client.unloadModel('mlp');
    await until(async () => !(await client.isModelReady('mlp')), 'mlp unloaded');
    await assert.rejects(
      client.loadModel('no_such_model'),
      (e: unknown) => e instanceof RtserveError && /no model named 'no_such_model'/.test(e.message),
    );
  });

  test('system shared memory: register, status of one and of all, unregister', async () => {
    const region = await shm.create(64);
    await client.registerSystemSharedMemory('client-r1', region.key, 64, 0);
    assert.deepEqual(await client.systemSharedMemoryStatus('client-r1'), [{ name: 'client-r1', key: region.key, offset: 0, byte_size: 64 }]);
    assert.deepEqual(
      (await client.systemSharedMemoryStatus()).map((s) => s.name),
      ['client-r1'],
    );
    await client.unregisterSystemSharedMemory('client-r1');
    assert.deepEqual(await client.systemSharedMemoryStatus(), []);
  });

  test('log settings read and changed; trace settings read, and changing them refused while tracing is off', async () => {
    // The client's LogSettings mirror the server's wire type: each must be assignable to the other.
    const before: ServerLogSettings = await client.logSettings();
    const back: ClientLogSettings = before;
    assert.equal(typeof back.log_info, 'boolean');
    const changed = await client.updateLogSettings({ log_verbose_level: before.log_verbose_level + 1 });
    assert.equal(changed.log_verbose_level, before.log_verbose_level + 1);
    assert.deepEqual(await client.logSettings(), changed);
    await client.updateLogSettings({ log_verbose_level: before.log_verbose_level });
    const trace = await client.traceSettings();
    assert.deepEqual(trace['trace_level'], ['OFF']);
    assert.deepEqual(await client.traceSettings('simple'), trace);
    await assert.rejects(client.updateTraceSettings({ trace_rate: '10' }), (e: unknown) => e instanceof RtserveError && e.code === 'UNSUPPORTED');
  });
});

/** A server whose model mlp_q1 has a queue of one and runs at `gate`. */
async function gatedQueueOfOne(gate: Gate): Promise<{ server: RunningServer; close: () => Promise<void> }> {
  const repo = await makeRepository({ mlp_q1: slowMlpConfig(0, 1) });
  const server = await startGatedServer(gate, { modelRepository: [repo.dir], drainQuietMs: 0 });
  return {
    server,
    close: async () => {
      gate.release('mlp_q1');
      await server.close();
      await repo.cleanup();
    },
  };
}

describe('client retries against a full queue', () => {
  // A queue of one and the model's runs held at a gate: one request runs, one waits, the next is refused (429).
  const gate = new Gate();
  let server: RunningServer;
  let close: () => Promise<void>;
  const input = { input: { shape: [1, 64], data: new Float32Array(64).fill(1) } };
  const body = { inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array(64).fill(1) }] };
  before(async () => {
    ({ server, close } = await gatedQueueOfOne(gate));
  });
  after(() => close());

  /** Holds the model and fills its queue: one request running, one queued; answers both once released. */
  const fill = async (): Promise<{ answered: Promise<number[]> }> => {
    const url = `${server.httpUrl}/v2/models/mlp_q1/infer`;
    const runs = gate.runs('mlp_q1');
    gate.hold('mlp_q1');
    const running = postJson(url, body);
    await gate.untilRuns('mlp_q1', runs + 1);
    const queued = postJson(url, body);
    await until(async () => (await pendingCount(server.httpUrl, 'mlp_q1')) === 1, 'the second request in the queue');
    return { answered: Promise.all([running, queued]).then((rs) => rs.map((r) => r.status)) };
  };

  test("a 429 is retried after the server's Retry-After, and the retry is answered", async () => {
    const { answered } = await fill();
    const retries: { code: string; status: number | undefined; retry: number; delayMs: number; retryAfterMs: number | undefined }[] = [];
    const client = createNodeClient({
      url: server.httpUrl,
      retry: {
        maxRetries: 3,
        onRetry: (e, retry, delayMs) => {
          retries.push({ code: e.code, status: e.status, retry, delayMs, retryAfterMs: e.retryAfterMs });
          gate.release('mlp_q1'); // the queue drains while the client waits
        },
      },
    });
    const r = await client.infer('mlp_q1', input);
    assert.equal(r.data('logits', 'FP32').length, 10);
    assert.equal(retries.length, 1);
    assert.equal(retries[0]?.code, 'QUEUE_FULL');
    assert.equal(retries[0]?.status, 429);
    assert.ok((retries[0]?.retryAfterMs ?? 0) >= 1000, 'the server sent Retry-After');
    assert.equal(retries[0]?.delayMs, retries[0]?.retryAfterMs, 'waited what the server asked');
    assert.deepEqual(await answered, [200, 200]);
  });

  test('a client error is never retried; a 429 without retries configured is thrown at once', async () => {
    let retried = 0;
    const client = createNodeClient({ url: server.httpUrl, retry: { maxRetries: 3, onRetry: () => retried++ } });
    await assert.rejects(
      client.infer('mlp_q1', { input: { shape: [1, 63], data: new Float32Array(63) } }),
      (e: unknown) => e instanceof RtserveError && e.status === 400,
    );
    assert.equal(retried, 0);
    const { answered } = await fill();
    await assert.rejects(
      createNodeClient({ url: server.httpUrl }).infer('mlp_q1', input),
      (e: unknown) => e instanceof RtserveError && e.code === 'QUEUE_FULL' && e.retryable,
    );
    gate.release('mlp_q1');
    assert.deepEqual(await answered, [200, 200]);
  });
});

describe('client timeouts', () => {
  // Its own server: on the one above, a REST call aborted while its run was held, after the full-queue tests,
  // left that server's close waiting about 70 s (reported; not what these tests are about).
  const gate = new Gate();
  let server: RunningServer;
  let close: () => Promise<void>;
  const input = { input: { shape: [1, 64], data: new Float32Array(64).fill(1) } };
  before(async () => {
    ({ server, close } = await gatedQueueOfOne(gate));
  });
  after(() => close());

  test('timeoutMs fails a call that has no answer with DEADLINE_EXCEEDED (client-wide and per call)', async () => {
    gate.hold('mlp_q1');
    try {
      const client = createNodeClient({ url: server.httpUrl, timeoutMs: 60_000 });
      const held = client.infer('mlp_q1', input, { timeoutMs: 50 });
      await assert.rejects(held, (e: unknown) => e instanceof RtserveError && e.code === 'DEADLINE_EXCEEDED' && !e.retryable);
    } finally {
      gate.release('mlp_q1');
    }
  });
});
