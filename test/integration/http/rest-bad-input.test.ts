import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeRepository, postJson, request, startTestServer, slowMlpConfig } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { Gate, startGatedServer } from '../ws/gated-engine.ts';
import { pendingCount, until } from '../../helpers/until.ts';

const simpleBody = (data0: unknown = Array.from({ length: 16 }, (_, i) => i)) => ({
  inputs: [
    { name: 'INPUT0', shape: [1, 16], datatype: 'INT32', data: data0 },
    { name: 'INPUT1', shape: [1, 16], datatype: 'INT32', data: new Array(16).fill(1) },
  ],
});

/** The server still answers a valid request correctly: checked after every bad one. */
async function assertStillServing(base: string): Promise<void> {
  const r = await postJson(`${base}/v2/models/simple/infer`, simpleBody());
  assert.equal(r.status, 200);
  const out = (r.json() as { outputs: { name: string; data: number[] }[] }).outputs[0];
  assert.deepEqual(
    out?.data,
    Array.from({ length: 16 }, (_, i) => i + 1),
  );
}

function binaryRequest(base: string, headerLength: string, body: Uint8Array<ArrayBuffer>, model = 'simple') {
  return request(`${base}/v2/models/${model}/infer`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': headerLength },
    body,
  });
}

describe('REST: bad input gets a clear 4xx and the server keeps serving', () => {
  let server: RunningServer;
  let base: string;
  before(async () => {
    server = await startTestServer({ maxBodyBytes: 1024 * 1024 });
    base = server.httpUrl;
  });
  after(async () => {
    await server.close();
  });

  const cases: { name: string; send: () => Promise<{ status: number; json: () => unknown }>; status: number; mentions: RegExp[] }[] = [
    {
      name: 'malformed JSON names the position',
      send: () =>
        request(`${base}/v2/models/simple/infer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"inputs": [' }),
      status: 400,
      mentions: [/JSON/i],
    },
    {
      name: 'unknown datatype',
      send: () => postJson(`${base}/v2/models/simple/infer`, { inputs: [{ name: 'INPUT0', shape: [1, 16], datatype: 'FP33', data: [] }] }),
      status: 400,
      mentions: [/INPUT0/, /FP33/],
    },
    {
      name: 'data length not matching the shape',
      send: () => postJson(`${base}/v2/models/simple/infer`, simpleBody([1, 2, 3])),
      status: 400,
      mentions: [/INPUT0/, /16/, /3/],
    },
    {
      name: 'non-integer in an INT32 tensor',
      send: () => postJson(`${base}/v2/models/simple/infer`, simpleBody([...new Array(15).fill(0), 'x'])),
      status: 400,
      mentions: [/INPUT0/],
    },
    {
      name: 'binary header length negative',
      send: () => binaryRequest(base, '-5', new Uint8Array(10)),
      status: 400,
      mentions: [/Inference-Header-Content-Length/i, /-5/],
    },
    {
      name: 'binary header length larger than the body',
      send: () => binaryRequest(base, '500', new Uint8Array(10)),
      status: 400,
      mentions: [/500/, /10/],
    },
    {
      name: 'binary header length absurd',
      send: () => binaryRequest(base, '99999999999999999999', new Uint8Array(10)),
      status: 400,
      mentions: [/Inference-Header-Content-Length/i],
    },
    {
      name: 'binary header length not a number',
      send: () => binaryRequest(base, 'abc', new Uint8Array(10)),
      status: 400,
      mentions: [/abc/],
    },
    {
      name: 'binary data shorter than binary_data_size',
      send: () => {
        const header = new TextEncoder().encode(
          JSON.stringify({
            inputs: [
              { name: 'INPUT0', shape: [1, 16], datatype: 'INT32', parameters: { binary_data_size: 64 } },
              { name: 'INPUT1', shape: [1, 16], datatype: 'INT32', parameters: { binary_data_size: 64 } },
            ],
          }),
        );
        const body = new Uint8Array(header.byteLength + 70);
        body.set(header);
        return binaryRequest(base, String(header.byteLength), body);
      },
      status: 400,
      mentions: [/INPUT1/],
    },
    {
      name: 'raw binary request to a two-input model',
      send: () => binaryRequest(base, '0', new Uint8Array(64)),
      status: 400,
      mentions: [/one input/, /simple/],
    },
    {
      name: 'body over the configured limit is refused with 413 before it is buffered',
      send: () =>
        request(`${base}/v2/models/simple/infer`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: new Uint8Array(2 * 1024 * 1024),
        }),
      status: 413,
      mentions: [/limit/],
    },
    {
      name: 'a negative priority parameter',
      send: () => postJson(`${base}/v2/models/simple/infer`, { ...simpleBody(), parameters: { priority: -1 } }),
      status: 400,
      mentions: [/priority/],
    },
  ];

  for (const c of cases) {
    test(c.name, async () => {
      const r = await c.send();
      assert.equal(r.status, c.status);
      const err = (r.json() as { error: string }).error;
      assert.equal(typeof err, 'string');
      for (const m of c.mentions) assert.match(err, m);
      assert.doesNotMatch(err, /\n\s+at /, 'no stack traces');
      await assertStillServing(base);
    });
  }

  test('a raw binary request works for a one-input model (mlp) and all outputs come back binary', async () => {
    const x = new Float32Array(64).fill(0.25);
    const r = await binaryRequest(base, '0', new Uint8Array(x.buffer), 'mlp');
    assert.equal(r.status, 200);
    assert.ok(r.headers.get('inference-header-content-length') !== null);
  });
});

describe('REST: overload answers 429 with Retry-After and the queue stays bounded', () => {
  // A queue of one, and the model's runs held at a gate: the first request runs (held), the second waits in the
  // queue, a third finds it full; no queue-delay window to race.
  const gate = new Gate();
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  before(async () => {
    const repo = await makeRepository({
      mlp_q1: slowMlpConfig(0, 1),
    });
    cleanup = repo.cleanup;
    server = await startGatedServer(gate, { modelRepository: [repo.dir] });
  });
  after(async () => {
    gate.release('mlp_q1');
    await server.close();
    await cleanup();
  });

  test('a request into a full queue gets 429 at once, the queued and running ones are still answered', async () => {
    const body = { inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array(64).fill(1) }] };
    const url = `${server.httpUrl}/v2/models/mlp_q1/infer`;
    const runsBefore = gate.runs('mlp_q1'); // the load-time runs
    gate.hold('mlp_q1');
    const running = postJson(url, body);
    await gate.untilRuns('mlp_q1', runsBefore + 1);
    const queued = postJson(url, body);
    await until(async () => (await pendingCount(server.httpUrl, 'mlp_q1')) === 1, 'the second request in the queue');
    const refused = await postJson(url, body);
    assert.equal(refused.status, 429);
    const retryAfter = refused.headers.get('retry-after');
    assert.ok(retryAfter !== null && Number(retryAfter) >= 1, `Retry-After: ${String(retryAfter)}`);
    assert.match((refused.json() as { error: string }).error, /mlp_q1/);
    gate.release('mlp_q1');
    assert.deepEqual([(await running).status, (await queued).status], [200, 200]);
  });
});
