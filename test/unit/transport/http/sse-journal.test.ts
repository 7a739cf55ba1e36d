/**
 * pinSeed (src/transport/http/sse-journal.ts): a generate body that would sample with a random seed gets one fixed,
 * so a replica re-running the stream after its producer died draws the same tokens; bodies that are deterministic
 * already, or not for a generative model, are left as they are.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningServer } from '../../../../src/app/rtserve-server.ts';
import { pinSeed } from '../../../../src/transport/http/sse-journal.ts';
import { startTestServer } from '../../../helpers/server.ts';

describe('pinSeed', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  it('fixes a seed for a generative model when the body has none, keeping the other parameters', () => {
    const body = { text_input: 'x', parameters: { max_tokens: 5, temperature: 0.8 } };
    const pinned = pinSeed(server.core, 'charlm', undefined, body) as { parameters: Record<string, number> };
    assert.equal(pinned.parameters['max_tokens'], 5);
    assert.equal(pinned.parameters['temperature'], 0.8);
    assert.ok(Number.isSafeInteger(pinned.parameters['seed']));
    assert.deepEqual(body.parameters, { max_tokens: 5, temperature: 0.8 }, 'the original body is not changed');
  });

  it('leaves a body with a seed, a KServe-form body and a non-generative model alone', () => {
    for (const [model, body] of [
      ['charlm', { text_input: 'x', parameters: { seed: 3 } }],
      ['charlm', { text_input: 'x', parameters: { random_seed: 3 } }],
      ['charlm', { inputs: [] }],
      ['simple', { INPUT0: [1], INPUT1: [2] }],
    ] as const) {
      assert.equal(pinSeed(server.core, model, undefined, body), body);
    }
  });
});
