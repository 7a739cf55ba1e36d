/**
 * Several requests of one front-end worker in one channel frame (src/cluster/frame-channel.ts, docs/workers.md):
 * requests sent within one turn of the worker's event loop reach the engine owner in fewer frames than requests,
 * every one is answered with its own result, and a bad one among them gets its own error while the rest are served.
 * The owner is a real server's pipeline behind a real OwnerHub, the worker's end a real channel (helpers/owner-link.ts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InferRequest } from '../../../src/api/types.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { ownerLink, type OwnerLink } from '../../helpers/owner-link.ts';

const N = 24;
const BAD = 7;

function simpleRequest(k: number): InferRequest {
  const a = Int32Array.from({ length: 16 }, (_, i) => i * k);
  const b = new Int32Array(16).fill(k);
  return {
    model: 'simple',
    id: `r${k}`,
    inputs: [
      // The bad one has 15 elements in a [1,15] input where the model takes [-1,16].
      { name: 'INPUT0', datatype: 'INT32', shape: [1, k === BAD ? 15 : 16], data: k === BAD ? a.subarray(0, 15) : a },
      { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: b },
    ],
  };
}

describe('requests of one worker share channel frames', () => {
  let owner: OwnerLink;
  before(async () => {
    // Every request goes to the owner, the bad one too: its error comes back in a frame shared with answers.
    owner = await ownerLink({}, { workerChecks: false });
  });
  after(async () => {
    await owner.close();
  });

  test(`${N} concurrent requests arrive in fewer than ${N} frames; each gets its own answer, the bad one its own error`, async () => {
    const before = owner.hub.channelCounts();
    const settled = await Promise.allSettled(Array.from({ length: N }, (_, k) => owner.link.api.infer(simpleRequest(k))));
    const after = owner.hub.channelCounts();
    const requests = after.messagesReceived - before.messagesReceived;
    const frames = after.framesReceived - before.framesReceived;
    assert.equal(requests, N, 'one message per request');
    assert.equal(owner.hub.served.get('infer'), N, 'the bad one reached the owner too');
    assert.ok(frames < N, `${N} requests came in ${frames} frames`);
    assert.ok(after.framesSent - before.framesSent < N, `${N} answers went back in ${after.framesSent - before.framesSent} frames`);
    settled.forEach((s, k) => {
      if (k === BAD) {
        assert.equal(s.status, 'rejected');
        const err = (s as PromiseRejectedResult).reason as RtError;
        assert.ok(err instanceof RtError);
        assert.equal(err.code, 'BAD_SHAPE');
        assert.match(err.message, /INPUT0/);
        return;
      }
      assert.equal(s.status, 'fulfilled', `request ${k}: ${s.status === 'rejected' ? String(s.reason) : ''}`);
      const r = (s as PromiseFulfilledResult<Awaited<ReturnType<typeof owner.link.api.infer>>>).value;
      assert.equal(r.id, `r${k}`);
      const out = new Map(r.outputs.map((o) => [o.name, Array.from(o.data as Int32Array)]));
      assert.deepEqual(
        out.get('OUTPUT0'),
        Array.from({ length: 16 }, (_, i) => i * k + k),
      );
      assert.deepEqual(
        out.get('OUTPUT1'),
        Array.from({ length: 16 }, (_, i) => i * k - k),
      );
    });
  });
});
