/**
 * A front-end worker refuses a malformed inference request itself, from the model config the owner mirrors to it
 * (app/worker-validation.ts, docs/workers.md): the caller gets the error the owner would have answered, the owner
 * serves no call for it (its hub counts the calls it serves), and the owner's statistics still count it as a
 * failure of the model, as they count the requests the owner refuses. A good request still goes to the owner, and
 * one the worker cannot judge (a model it does not know) is left to the owner's answer.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InferRequest } from '../../../src/api/types.ts';
import { ownerLink, type OwnerLink } from '../../helpers/owner-link.ts';

function simple(input0Shape: readonly number[], elements: number): InferRequest {
  return {
    model: 'simple',
    inputs: [
      { name: 'INPUT0', datatype: 'INT32', shape: input0Shape, data: new Int32Array(elements) },
      { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: new Int32Array(16) },
    ],
  };
}

describe('a worker refuses malformed requests from the mirrored configs', () => {
  let owner: OwnerLink;
  before(async () => {
    owner = await ownerLink({ maxElementsPerTensor: 4096 });
  });
  after(async () => {
    await owner.close();
  });

  const inferCalls = (): number => owner.hub.served.get('infer') ?? 0;
  const failures = async (): Promise<number> => {
    const [s] = await owner.link.api.modelStatistics('simple');
    return (s as unknown as { inference_stats: { fail: { count: number } } }).inference_stats.fail.count;
  };

  test('bad shape, bad datatype, unknown input, too many elements: refused without an owner call, counted as failures', async () => {
    const calls = inferCalls();
    const failed = await failures();
    const bad: [InferRequest, string][] = [
      [simple([1, 15], 15), 'BAD_SHAPE'],
      [simple([1, 16], 15), 'BAD_DATA'],
      [
        {
          ...simple([1, 16], 16),
          inputs: [{ name: 'INPUT0', datatype: 'FP32', shape: [1, 16], data: new Float32Array(16) }, ...simple([1, 16], 16).inputs.slice(1)],
        },
        'BAD_DATATYPE',
      ],
      [
        {
          ...simple([1, 16], 16),
          inputs: [...simple([1, 16], 16).inputs, { name: 'EXTRA', datatype: 'INT32', shape: [1], data: new Int32Array(1) }],
        },
        'UNEXPECTED_INPUT',
      ],
      [simple([1, 5000], 5000), 'LIMIT_EXCEEDED'],
    ];
    for (const [request, code] of bad) await assert.rejects(owner.link.api.infer(request), { code });
    assert.equal(inferCalls(), calls, 'no infer call reached the owner');
    // The statistics call is answered after the refusals' notices arrived (one channel, in order).
    assert.equal(await failures(), failed + bad.length - 1, 'every refusal of the model counted but the limits one');
  });

  test('a good request, and one for a model the worker does not know, go to the owner', async () => {
    const calls = inferCalls();
    const r = await owner.link.api.infer(simple([1, 16], 16));
    assert.equal(r.model_name, 'simple');
    await assert.rejects(owner.link.api.infer({ ...simple([1, 16], 16), model: 'nonesuch' }), { code: 'MODEL_NOT_FOUND' });
    assert.equal(inferCalls(), calls + 2);
  });
});
