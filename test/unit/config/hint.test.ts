import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closestMatch, describeZodError, didYouMean, editDistance, formatPath, knownKeysAt } from '../../../src/config/hint.ts';
import { modelConfigSchema } from '../../../src/config/model-config.ts';

function problems(data: unknown): string[] {
  const r = modelConfigSchema.safeParse(data);
  assert.equal(r.success, false, 'expected the parse to fail');
  return r.success ? [] : describeZodError(r.error, modelConfigSchema, data);
}

describe('editDistance / closestMatch', () => {
  test('counts insertions, deletions, substitutions and adjacent transpositions as 1', () => {
    assert.equal(editDistance('dims', 'dims'), 0);
    assert.equal(editDistance('dim', 'dims'), 1);
    assert.equal(editDistance('dimss', 'dims'), 1);
    assert.equal(editDistance('dins', 'dims'), 1);
    assert.equal(editDistance('dmis', 'dims'), 1);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('kitten', 'sitting'), 3);
  });

  test('suggests a close key, prefers spelling variants, and stays silent for unrelated words', () => {
    const keys = ['max_batch_size', 'input', 'output', 'dynamic_batching', 'name'];
    assert.equal(closestMatch('max_batch_sise', keys), 'max_batch_size');
    assert.equal(closestMatch('maxBatchSize', keys), 'max_batch_size');
    assert.equal(closestMatch('inputs', keys), 'input');
    assert.equal(closestMatch('dynamic_batch', keys), 'dynamic_batching');
    assert.equal(closestMatch('foo', keys), undefined);
    assert.equal(closestMatch('x', keys), undefined);
    // an abbreviated ending is found by its long shared prefix, a short shared prefix is not enough
    assert.equal(closestMatch('max_queue_delay_us', ['max_queue_delay_microseconds', 'preserve_ordering']), 'max_queue_delay_microseconds');
    assert.equal(closestMatch('max_foo', keys), undefined);
    assert.equal(didYouMean('nmae', keys), " (did you mean 'name'?)");
    assert.equal(didYouMean('zzzzzz', keys), '');
  });

  test('formatPath', () => {
    assert.equal(formatPath(['input', 0, 'dims']), 'input[0].dims');
    assert.equal(formatPath(['parameters', 'my key']), 'parameters["my key"]');
    assert.equal(formatPath([]), '');
  });

  test('knownKeysAt walks objects, arrays, records, defaults and unions', () => {
    assert.ok(knownKeysAt(modelConfigSchema, []).includes('max_batch_size'));
    assert.ok(knownKeysAt(modelConfigSchema, ['input', 0]).includes('data_type'));
    assert.deepEqual(knownKeysAt(modelConfigSchema, ['version_policy']).sort(), ['all', 'latest', 'specific']);
    assert.deepEqual(knownKeysAt(modelConfigSchema, ['version_policy', 'latest']), ['num_versions']);
    assert.ok(knownKeysAt(modelConfigSchema, ['dynamic_batching', 'priority_queue_policy', '1']).includes('max_queue_size'));
    assert.deepEqual(knownKeysAt(modelConfigSchema, ['name']), []);
  });
});

describe('describeZodError on the ModelConfig schema', () => {
  test('unknown keys name their full path and the closest known key', () => {
    assert.deepEqual(problems({ name: 'm', max_batch_sise: 4 }), ["unknown key 'max_batch_sise' (did you mean 'max_batch_size'?)"]);
    assert.deepEqual(problems({ name: 'm', input: [{ name: 'x', data_type: 'TYPE_FP32', dims: [1], formt: 'FORMAT_NONE' }] }), [
      "unknown key 'input[0].formt' (did you mean 'format'?)",
    ]);
    assert.deepEqual(problems({ name: 'm', dynamic_batching: { max_queue_delay_us: 5 } }), [
      "unknown key 'dynamic_batching.max_queue_delay_us' (did you mean 'max_queue_delay_microseconds'?)",
    ]);
  });

  test('an unknown key with nothing close lists the valid keys', () => {
    assert.deepEqual(problems({ name: 'm', response_cache: { enable: true, zzz: 1 } }), [
      "unknown key 'response_cache.zzz' (valid keys in 'response_cache': enable)",
    ]);
  });

  test('a typo inside a union (version_policy) is reported once with the keys of all alternatives', () => {
    assert.deepEqual(problems({ name: 'm', version_policy: { latst: { num_versions: 2 } } }), [
      "unknown key 'version_policy.latst' (did you mean 'latest'?)",
    ]);
    assert.deepEqual(problems({ name: 'm', version_policy: { latest: { num_version: 2 } } }), [
      "unknown key 'version_policy.latest.num_version' (did you mean 'num_versions'?)",
    ]);
  });

  test('enum values get the closest allowed value', () => {
    const [message] = problems({ name: 'm', input: [{ name: 'x', data_type: 'TYPE_FP23', dims: [1] }] });
    assert.match(message ?? '', /^'input\[0\]\.data_type': 'TYPE_FP23' is not one of TYPE_BOOL, .*TYPE_BF16 \(did you mean 'TYPE_FP32'\?\)$/);
    assert.deepEqual(problems({ name: 'm', engine: { providers: ['cuda', 'cpux'] } }), [
      "'engine.providers[1]': 'cpux' is not one of cpu, webgpu, cuda, tensorrt (did you mean 'cpu'?)",
    ]);
  });

  test('wrong types name the path and what was expected', () => {
    assert.deepEqual(problems({ name: 'm', max_batch_size: 'eight' }), [
      "'max_batch_size': expected a number or a string matching /^-?\\d+$/, got 'eight'",
    ]);
    assert.deepEqual(problems({ name: 'm', max_batch_size: -1 }), ["'max_batch_size': Too small: expected number to be >=0"]);
    assert.deepEqual(problems({ name: 'm', input: {} }), ["'input': Invalid input: expected array, received object"]);
  });
});
