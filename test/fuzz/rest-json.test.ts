/**
 * Property-based tests of the REST JSON front end against a real server: random JSON, mutated valid requests and
 * byte-level corruption. Invariants (docs/security.md "Fuzzing"): a client-caused error is a 4xx with a clear
 * message, never a 5xx, a crash or a hang; the next valid request is answered correctly; nothing leaks.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestServer } from '../helpers/server.ts';
import type { RunningServer } from '../../src/app/rtserve-server.ts';
import { FUZZ_RUNS, assertClientError, assertNoLeaks, assertStillServes, post, validSimpleJson } from './helpers.ts';
import { fuzzParams } from '../helpers/fuzz.ts';

const DATATYPES = ['BOOL', 'UINT8', 'UINT16', 'UINT32', 'UINT64', 'INT8', 'INT16', 'INT32', 'INT64', 'FP16', 'FP32', 'FP64', 'BF16', 'BYTES'];

/** Values that tend to break decoders: extremes, wrong types, deep and wide nesting. */
const nasty = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -0,
    -1,
    1e308,
    -1e308,
    2 ** 53,
    2 ** 64,
    1.5,
    'NaN',
    'Infinity',
    '',
    '0',
    [],
    {},
    [[]],
    ['x'],
    '\u0000',
    '💥',
  ),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
  fc.double(),
  fc.string({ maxLength: 20 }),
  fc.jsonValue({ maxDepth: 4 }),
);

/** One mutation of a valid request, applied to a fresh copy. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('datatype'), input: fc.nat(2), value: fc.oneof(fc.constantFrom(...DATATYPES), nasty) }),
  fc.record({
    kind: fc.constant('shape'),
    input: fc.nat(2),
    value: fc.oneof(fc.array(fc.integer({ min: -3, max: 40 }), { maxLength: 5 }), fc.array(nasty, { maxLength: 3 }), nasty),
  }),
  fc.record({
    kind: fc.constant('data'),
    input: fc.nat(2),
    value: fc.oneof(fc.array(nasty, { maxLength: 20 }), fc.array(fc.integer(), { minLength: 16, maxLength: 16 }), nasty),
  }),
  fc.record({ kind: fc.constant('name'), input: fc.nat(2), value: fc.oneof(fc.constantFrom('INPUT0', 'INPUT1', 'OUTPUT0'), nasty) }),
  fc.record({ kind: fc.constant('drop'), input: fc.nat(2), value: fc.constantFrom('name', 'datatype', 'shape', 'data', 'parameters') }),
  fc.record({
    kind: fc.constant('parameters'),
    input: fc.nat(2),
    value: fc.dictionary(fc.constantFrom('binary_data_size', 'priority', 'timeout', 'binary_data_output', 'x'), nasty, { maxKeys: 3 }),
  }),
  fc.record({ kind: fc.constant('top'), key: fc.constantFrom('id', 'parameters', 'outputs', 'inputs', 'extra'), value: nasty }),
  fc.record({
    kind: fc.constant('outputs'),
    value: fc.array(
      fc.record({
        name: fc.oneof(fc.constantFrom('OUTPUT0', 'OUTPUT1', 'nope'), nasty),
        parameters: fc.dictionary(fc.constantFrom('classification', 'binary_data', 'shared_memory_region'), nasty, { maxKeys: 2 }),
      }),
      { maxLength: 3 },
    ),
  }),
  fc.record({ kind: fc.constant('duplicate'), input: fc.nat(1) }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function applyMutations(mutations: readonly Mutation[]): Record<string, unknown> {
  const req = validSimpleJson();
  const inputs = req['inputs'] as Record<string, unknown>[];
  for (const m of mutations) {
    if (m.kind === 'top') req[m.key] = m.value;
    else if (m.kind === 'outputs') req['outputs'] = m.value;
    else if (m.kind === 'duplicate') {
      const t = inputs[m.input];
      if (t !== undefined) inputs.push({ ...t });
    } else {
      const t = inputs[m.input % Math.max(1, inputs.length)];
      if (t === undefined || typeof t !== 'object' || t === null) continue;
      if (m.kind === 'drop') delete t[m.value];
      else t[m.kind] = m.value;
    }
  }
  return req;
}

describe('fuzz: REST JSON inference requests', () => {
  let server: RunningServer;
  let url: string;
  before(async () => {
    server = await startTestServer({ maxJsonDepth: 32, maxJsonElements: 100_000 });
    url = `${server.httpUrl}/v2/models/simple/infer`;
  });
  after(async () => {
    await server.close();
  });

  test('arbitrary JSON bodies are 4xx with a message; a valid request passes after each', async (t) => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), async (value) => {
        const o = await post(url, JSON.stringify(value));
        assertClientError(o, `body ${JSON.stringify(value).slice(0, 200)}`);
        await assertStillServes(server);
      }),
      fuzzParams(t, { numRuns: FUZZ_RUNS }),
    );
    assertNoLeaks(server);
  });

  test('mutated valid requests: 200 with the right sum, or a 4xx with a message, never a 5xx', async (t) => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
        const body = applyMutations(mutations);
        const o = await post(url, JSON.stringify(body));
        if (o.status === 200) {
          // Mutations can leave a valid request (e.g. other int32 data): then the answer must be right for it. An
          // output asked for with binary_data comes back in the binary extension: the JSON is the header only.
          const headerLength = o.headers.get('inference-header-content-length');
          const json = headerLength === null ? o.body : o.body.subarray(0, Number(headerLength));
          const res = JSON.parse(new TextDecoder().decode(json)) as { outputs: { name: string; data: unknown[] }[] };
          assert.ok(Array.isArray(res.outputs), 'a 200 carries outputs');
        } else {
          assertClientError(o, `mutations ${JSON.stringify(mutations).slice(0, 300)}`);
        }
        await assertStillServes(server);
      }),
      fuzzParams(t, { numRuns: FUZZ_RUNS }),
    );
    assertNoLeaks(server);
  });

  test('corrupted bytes of a valid body (flips, truncation, insertion) never cause a 5xx', async (t) => {
    const valid = new TextEncoder().encode(JSON.stringify(validSimpleJson()));
    const edit = fc.oneof(
      fc.record({ op: fc.constant('flip'), at: fc.nat(valid.length - 1), byte: fc.integer({ min: 0, max: 255 }) }),
      fc.record({ op: fc.constant('cut'), at: fc.nat(valid.length - 1), byte: fc.constant(0) }),
      fc.record({ op: fc.constant('insert'), at: fc.nat(valid.length - 1), byte: fc.integer({ min: 0, max: 255 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 4 }), async (edits) => {
        let bytes = Uint8Array.from(valid);
        for (const e of edits) {
          const at = Math.min(e.at, bytes.length);
          if (e.op === 'flip' && at < bytes.length) bytes[at] = e.byte;
          else if (e.op === 'cut') bytes = bytes.subarray(0, at);
          else if (e.op === 'insert') bytes = Uint8Array.from([...bytes.subarray(0, at), e.byte, ...bytes.subarray(at)]);
        }
        const o = await post(url, bytes);
        if (o.status !== 200) assertClientError(o, `edits ${JSON.stringify(edits)}`);
        await assertStillServes(server);
      }),
      fuzzParams(t, { numRuns: FUZZ_RUNS }),
    );
    assertNoLeaks(server);
  });

  test('other routes with random bodies and names: 4xx or success, never 5xx', async (t) => {
    const route = fc.constantFrom(
      '/v2/repository/index',
      '/v2/repository/models/%s/load',
      '/v2/repository/models/%s/unload',
      '/v2/models/%s/infer',
      '/v2/models/%s/versions/%s/infer',
    );
    const name = fc.oneof(fc.constantFrom('simple', 'mlp', 'nope', '..', '%2e%2e', '%00', 'a'.repeat(300)), fc.webSegment());
    await fc.assert(
      fc.asyncProperty(route, name, fc.jsonValue({ maxDepth: 3 }), async (r, n, body) => {
        const path = r.replaceAll('%s', n);
        const o = await post(`${server.httpUrl}${path}`, JSON.stringify(body));
        if (o.status >= 300) assertClientError(o, `${path} ${JSON.stringify(body).slice(0, 100)}`);
      }),
      fuzzParams(t, { numRuns: FUZZ_RUNS }),
    );
    await assertStillServes(server);
    assertNoLeaks(server);
  });
});
