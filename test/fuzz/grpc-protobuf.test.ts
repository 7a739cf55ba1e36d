/**
 * Property-based tests of the gRPC front end with protobuf bytes the client does not control the shape of:
 * random bytes and corrupted valid ModelInferRequest messages, sent through a real grpc-js client whose
 * serializer passes bytes through. Invariants: a client-caused error has an INVALID_ARGUMENT-class status (never
 * INTERNAL or UNKNOWN) with a message, the call never hangs, and a valid request is answered correctly after.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import fc from 'fast-check';
import { startTestServer } from '../helpers/server.ts';
import type { RunningServer } from '../../src/app/rtserve-server.ts';
import { decodeModelInferResponse, encodeModelInferRequest } from '../../src/codec/grpc/infer-client-codec.ts';
import { A, B, EXPECTED_SUM, FUZZ_RUNS, assertNoLeaks } from './helpers.ts';
import { fuzzParams } from '../helpers/fuzz.ts';

const METHOD = '/inference.GRPCInferenceService/ModelInfer';
/** Statuses a malformed or unsatisfiable request may get: INVALID_ARGUMENT, NOT_FOUND, RESOURCE_EXHAUSTED (size), FAILED_PRECONDITION, OUT_OF_RANGE, UNIMPLEMENTED. */
const CLIENT_STATUSES = new Set([3, 5, 8, 9, 11, 12]);

type Outcome = { ok: true; bytes: Buffer } | { ok: false; code: number; details: string };

function call(client: grpc.Client, bytes: Buffer): Promise<Outcome> {
  return new Promise((resolve) => {
    client.makeUnaryRequest<Buffer, Buffer>(
      METHOD,
      (b) => b,
      (b) => b,
      bytes,
      new grpc.Metadata(),
      { deadline: Date.now() + 15_000 },
      (err, res) => resolve(err === null ? { ok: true, bytes: res ?? Buffer.alloc(0) } : { ok: false, code: err.code, details: err.details }),
    );
  });
}

const VALID = encodeModelInferRequest({
  model: 'simple',
  id: 'ok',
  inputs: [
    { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: Int32Array.from(A) },
    { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: Int32Array.from(B) },
  ],
});

describe('fuzz: gRPC ModelInfer with arbitrary protobuf bytes', () => {
  let server: RunningServer;
  let client: grpc.Client;
  before(async () => {
    server = await startTestServer();
    assert.ok(server.grpcAddress !== undefined);
    client = new grpc.Client(server.grpcAddress, grpc.credentials.createInsecure());
  });
  after(async () => {
    client.close();
    await server.close();
  });

  const stillServes = async (): Promise<void> => {
    const o = await call(client, VALID);
    assert.ok(o.ok, o.ok ? '' : `valid request failed: ${o.code} ${o.details}`);
    const out = decodeModelInferResponse(o.bytes).outputs.find((t) => t.name === 'OUTPUT0');
    assert.deepEqual(Array.from(out?.data as Int32Array), EXPECTED_SUM);
  };
  const assertClientStatus = (o: Outcome, what: string): void => {
    if (o.ok) return;
    assert.ok(CLIENT_STATUSES.has(o.code), `${what}: status ${o.code} (${grpc.status[o.code]}) ${o.details}`);
    assert.ok(o.details.length > 0, `${what}: no message`);
  };

  test('the valid request is answered', stillServes);

  test('random bytes', async (t) => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        assertClientStatus(await call(client, Buffer.from(bytes)), `bytes ${Buffer.from(bytes).toString('hex').slice(0, 120)}`);
        await stillServes();
      }),
      fuzzParams(t, { numRuns: FUZZ_RUNS }),
    );
    assertNoLeaks(server);
  });

  test('corrupted valid messages (flips, truncation, insertion)', async (t) => {
    const edit = fc.record({
      at: fc.nat(VALID.length - 1),
      op: fc.constantFrom('flip', 'cut', 'insert'),
      byte: fc.integer({ min: 0, max: 255 }),
      count: fc.integer({ min: 1, max: 9 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 4 }), async (edits) => {
        let bytes = Buffer.from(VALID);
        for (const e of edits) {
          const at = Math.min(e.at, bytes.length);
          if (e.op === 'flip' && at < bytes.length) bytes[at] = e.byte;
          else if (e.op === 'cut') bytes = bytes.subarray(0, at);
          else bytes = Buffer.concat([bytes.subarray(0, at), Buffer.alloc(e.count, e.byte), bytes.subarray(at)]);
        }
        assertClientStatus(await call(client, bytes), `edits ${JSON.stringify(edits)}`);
        await stillServes();
      }),
      fuzzParams(t, { numRuns: FUZZ_RUNS }),
    );
    assertNoLeaks(server);
  });
});
