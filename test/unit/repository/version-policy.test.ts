import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeVersionPolicy, missingVersions, selectVersions } from '../../../src/repository/version-policy.ts';

describe('selectVersions', () => {
  const available = [3, 1, 10, 2];

  test('latest n: the n highest, ascending; more than available gives all', () => {
    assert.deepEqual(selectVersions(available, { latest: { num_versions: 1 } }), [10]);
    assert.deepEqual(selectVersions(available, { latest: { num_versions: 2 } }), [3, 10]);
    assert.deepEqual(selectVersions(available, { latest: { num_versions: 9 } }), [1, 2, 3, 10]);
  });

  test('all: every version, ascending, without duplicates', () => {
    assert.deepEqual(selectVersions([...available, 2], { all: {} }), [1, 2, 3, 10]);
  });

  test('specific: the listed versions that exist; missing ones are reported separately', () => {
    const policy = { specific: { versions: [10, 4, 1, 7] } };
    assert.deepEqual(selectVersions(available, policy), [1, 10]);
    assert.deepEqual(missingVersions(available, policy), [4, 7]);
    assert.deepEqual(missingVersions(available, { latest: { num_versions: 5 } }), []);
  });

  test('no versions on disk: an empty selection, not an error', () => {
    assert.deepEqual(selectVersions([], { latest: { num_versions: 1 } }), []);
    assert.deepEqual(selectVersions([], { all: {} }), []);
    assert.deepEqual(selectVersions([], { specific: { versions: [1] } }), []);
    assert.deepEqual(missingVersions([], { specific: { versions: [1] } }), [1]);
  });

  test('describeVersionPolicy', () => {
    assert.equal(describeVersionPolicy({ latest: { num_versions: 2 } }), 'latest 2');
    assert.equal(describeVersionPolicy({ all: {} }), 'all');
    assert.equal(describeVersionPolicy({ specific: { versions: [1, 3] } }), 'specific [1, 3]');
  });
});
