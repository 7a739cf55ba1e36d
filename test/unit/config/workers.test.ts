import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { frontEndWorkers, workersForCores } from '../../../src/config/workers.ts';
import { loadServerConfig } from '../../../src/config/load-server-config.ts';
import { usableCpus } from '../../../src/util/cpu-quota.ts';

describe('the workers setting (docs/workers.md)', () => {
  test("'auto' is one process below 8 cores, half the cores (at most 8) from 8 up", () => {
    assert.deepEqual([1, 2, 4, 7, 8, 12, 16, 32, 128].map(workersForCores), [1, 1, 1, 1, 4, 6, 8, 8, 8]);
  });
  test("a number is taken as it is; the default is 'auto' (one process below 8 cores)", async () => {
    assert.equal(frontEndWorkers(3), 3);
    assert.equal((await loadServerConfig({ flags: {} })).workers, 'auto');
    assert.equal(frontEndWorkers('auto'), workersForCores(usableCpus()));
    assert.equal((await loadServerConfig({ flags: { workers: '4' } })).workers, 4);
    assert.equal((await loadServerConfig({ flags: {}, env: { RTSERVE_WORKERS: 'auto' } })).workers, 'auto');
  });
  test('zero, negative and non-numbers are refused with the key named', async () => {
    for (const bad of ['0', '-1', 'many', '1.5'])
      await assert.rejects(loadServerConfig({ flags: { workers: bad } }), (err: Error) => err.message.includes('workers'));
  });
});
