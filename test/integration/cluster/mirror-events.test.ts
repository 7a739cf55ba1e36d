/**
 * The workers' mirror follows the owner's model states as they change (src/cluster/owner-hub.ts, docs/workers.md):
 * a load or unload made in the owner (its own API, as another worker's call or the repository poller makes them) is
 * in the worker's mirror before anything the owner sends after it, so a call answered after the change sees it. The
 * assertions are about order (the mirror message travels ahead of a later answer on the same channel), not time:
 * nothing polls.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ownerLink, type OwnerLink } from '../../helpers/owner-link.ts';

describe("the workers' mirror follows model state changes", () => {
  let owner: OwnerLink;
  before(async () => {
    owner = await ownerLink({ modelControlMode: 'explicit', loadModel: ['simple'] });
  });
  after(async () => {
    await owner.close();
  });

  const mlpState = (): string | undefined => owner.link.api.repositoryIndex().find((e) => e.name === 'mlp')?.state;

  test('a load and an unload in the owner are in the mirror before the answer to the next call', async () => {
    // Never loaded: the owner itself knows the name from the repository only.
    assert.throws(() => owner.link.api.modelReady('mlp'), { code: 'MODEL_NOT_FOUND' });
    assert.equal(mlpState(), 'UNAVAILABLE');

    await owner.server.api.loadModel('mlp');
    // Any call: its answer leaves the owner after the change, so after the mirror message.
    await owner.link.api.modelStatistics('simple');
    assert.equal(owner.link.api.modelReady('mlp'), true);
    assert.equal(mlpState(), 'READY');
    assert.deepEqual(owner.link.api.modelMetadata('mlp').versions, ['1']);

    await owner.server.api.unloadModel('mlp');
    await owner.link.api.modelStatistics('simple');
    assert.equal(owner.link.api.modelReady('mlp'), false);
    assert.equal(mlpState(), 'UNAVAILABLE');
  });
});
