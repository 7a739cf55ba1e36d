/**
 * Property-based tests of the WebSocket front end (/v2/ws) with a real `ws` client: random text frames, mutated
 * infer events and stray or corrupted binary frames. Invariants: every refusal is an `error` event with a
 * client-class category and a message (or, for a frame the protocol cannot continue after, a close with a
 * client-class code such as 1009 — never 1011 INTERNAL); the server answers a valid request correctly right after;
 * nothing stays in flight.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestServer } from '../helpers/server.ts';
import type { RunningServer } from '../../src/app/rtserve-server.ts';
import { TestWs, outputData } from '../integration/ws/ws-test-client.ts';
import { A, B, EXPECTED_SUM, FUZZ_RUNS, assertNoLeaks } from './helpers.ts';
import { fuzzParams } from '../helpers/fuzz.ts';

const CLIENT_CATEGORIES = new Set([
  'INVALID_ARGUMENT',
  'NOT_FOUND',
  'FAILED_PRECONDITION',
  'PAYLOAD_TOO_LARGE',
  'UNIMPLEMENTED',
  'RESOURCE_EXHAUSTED',
]);

function validInfer(id: string): Record<string, unknown> {
  return {
    type: 'infer',
    id,
    model: 'simple',
    inputs: [
      { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: [...A] },
      { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: [...B] },
    ],
  };
}

const nasty = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1e308, 'x', '', [], {}, [[]]),
  fc.integer(),
  fc.string({ maxLength: 12 }),
  fc.jsonValue({ maxDepth: 3 }),
);

describe('fuzz: WebSocket frames', () => {
  let server: RunningServer;
  let ws: TestWs;
  let n = 0;
  before(async () => {
    server = await startTestServer({ wsMaxMessageBytes: 64 * 1024 });
    ws = await TestWs.open(server.httpUrl);
  });
  after(async () => {
    ws.close();
    await server.close();
  });

  /** After each case: no INTERNAL error, a client-class close if any, then a valid request answered right. */
  const check = async (what: string): Promise<void> => {
    const ask = async (): Promise<Awaited<ReturnType<TestWs['terminal']>> | undefined> => {
      const id = `valid-${n++}`;
      ws.send(validInfer(id));
      // The case may have made the server close the socket (e.g. 1009): then the valid request gets no answer.
      return Promise.race([ws.terminal(id), ws.closed.then(() => undefined)]);
    };
    let r = await ask();
    const events = [...ws.events];
    if (r === undefined) {
      const closed = await ws.closed;
      assert.notEqual(closed.code, 1011, `${what}: closed with 1011 INTERNAL`);
      assert.ok(
        closed.code === 1009 || closed.code === 1002 || closed.code === 1007 || (closed.code >= 4400 && closed.code < 4500) || closed.code === 1000,
        `${what}: close code ${closed.code}`,
      );
      ws = await TestWs.open(server.httpUrl);
      r = await ask();
    }
    for (const e of events) {
      if (e.type !== 'error') continue;
      const err = (e as unknown as { error: { category: string; message: string } }).error;
      assert.ok(CLIENT_CATEGORIES.has(err.category), `${what}: error category ${err.category}: ${err.message}`);
      assert.ok(err.message.length > 0, `${what}: error without a message`);
    }
    assert.ok(r !== undefined, `${what}: the socket closed again on a valid request`);
    assert.equal(r.type, 'result', `${what}: the valid request after it: ${JSON.stringify(r).slice(0, 300)}`);
    assert.deepEqual(outputData(r, 'OUTPUT0'), EXPECTED_SUM);
    ws.events.length = 0;
  };

  test('random JSON text frames', async (t) => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 5 }), async (value) => {
        ws.ws.send(JSON.stringify(value));
        await check(`frame ${JSON.stringify(value).slice(0, 200)}`);
      }),
      fuzzParams(t, { numRuns: FUZZ_RUNS }),
    );
    assertNoLeaks(server);
  });

  test('mutated infer events and binary frames', async (t) => {
    const mutation = fc.record({
      field: fc.constantFrom('type', 'id', 'model', 'inputs', 'outputs', 'parameters', 'stream', 'frame_stream', 'version', 'priority'),
      value: nasty,
      inputField: fc.constantFrom('name', 'datatype', 'shape', 'data', 'parameters'),
      inputValue: fc.oneof(nasty, fc.record({ binary_data_size: fc.integer({ min: -5, max: 200_000 }) })),
      binary: fc.option(fc.uint8Array({ maxLength: 200 }), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => {
        const event = validInfer(`m-${n++}`);
        if (m.field !== 'id') event[m.field] = m.value;
        const inputs = event['inputs'];
        if (Array.isArray(inputs) && typeof inputs[0] === 'object' && inputs[0] !== null)
          (inputs[0] as Record<string, unknown>)[m.inputField] = m.inputValue;
        ws.ws.send(JSON.stringify(event));
        if (m.binary !== undefined) ws.sendBinary(m.binary);
        await check(`event ${JSON.stringify(m).slice(0, 300)}`);
      }),
      fuzzParams(t, { numRuns: FUZZ_RUNS }),
    );
    assertNoLeaks(server);
  });

  test('arbitrary bytes as text and binary frames', async (t) => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), fc.boolean(), async (bytes, binary) => {
        ws.ws.send(bytes, { binary });
        await check(`${binary ? 'binary' : 'text'} ${Buffer.from(bytes).toString('hex').slice(0, 100)}`);
      }),
      fuzzParams(t, { numRuns: FUZZ_RUNS }),
    );
    assertNoLeaks(server);
  });
});
