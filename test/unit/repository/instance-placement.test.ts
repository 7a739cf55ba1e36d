/** Triton's instance_group placement (src/repository/instance-placement.ts): which instances load, on which GPU. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { modelConfigSchema } from '../../../src/config/model-config.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { instancePlacements } from '../../../src/repository/instance-placement.ts';

const groups = (instance_group: unknown[]) => modelConfigSchema.parse({ name: 'm', instance_group }).instance_group;
const devices = (ps: readonly { device?: number }[]) => ps.map((p) => p.device ?? null);

describe('instance_group placement', () => {
  test('no group: one instance per visible GPU, or one instance on an engine without GPUs', () => {
    assert.deepEqual(devices(instancePlacements('m', [], 2)), [0, 1]);
    assert.deepEqual(devices(instancePlacements('m', [], 0)), [null]);
    assert.deepEqual(devices(instancePlacements('m', [], undefined)), [null]);
  });

  test('KIND_GPU with gpus puts count instances on each listed GPU, GPU by GPU', () => {
    const ps = instancePlacements('m', groups([{ count: 2, kind: 'KIND_GPU', gpus: [1, 0] }]), 2);
    assert.deepEqual(devices(ps), [1, 1, 0, 0]);
    assert.deepEqual(
      ps.map((p) => p.group),
      ['m_0', 'm_0', 'm_0', 'm_0'],
    );
  });

  test('KIND_GPU without gpus: count on every visible GPU', () => {
    assert.deepEqual(devices(instancePlacements('m', groups([{ count: 3, kind: 'KIND_GPU' }]), 2)), [0, 0, 0, 1, 1, 1]);
  });

  test('the same GPU listed twice holds two sets of instances (two "devices" on one GPU, as the GPU tests use)', () => {
    assert.deepEqual(devices(instancePlacements('m', groups([{ count: 1, kind: 'KIND_GPU', gpus: [0, 0] }]), 1)), [0, 0]);
  });

  test('KIND_CPU and KIND_MODEL count instances without a device; groups keep their names and order', () => {
    const ps = instancePlacements(
      'm',
      groups([
        { name: 'cpu', count: 2, kind: 'KIND_CPU' },
        { count: 1, kind: 'KIND_GPU', gpus: [1] },
        { count: 1, kind: 'KIND_MODEL' },
      ]),
      2,
    );
    assert.deepEqual(
      ps.map((p) => [p.group, p.device ?? null]),
      [
        ['cpu', null],
        ['cpu', null],
        ['m_1', 1],
        ['m_2', null],
      ],
    );
  });

  test('KIND_AUTO places on GPUs when the engine has them and counts otherwise', () => {
    assert.deepEqual(devices(instancePlacements('m', groups([{ count: 2 }]), 2)), [0, 0, 1, 1]);
    assert.deepEqual(devices(instancePlacements('m', groups([{ count: 2 }]), 0)), [null, null]);
  });

  test('an engine without GPUs keeps listed GPUs as given (only engines with devices read them)', () => {
    assert.deepEqual(devices(instancePlacements('m', groups([{ count: 1, kind: 'KIND_GPU', gpus: [0, 1] }]), undefined)), [0, 1]);
    assert.deepEqual(devices(instancePlacements('m', groups([{ count: 2, kind: 'KIND_GPU' }]), 0)), [null, null]);
  });

  test('a GPU the process does not see is a BAD_CONFIG error naming the group, the GPU and what is visible', () => {
    const before = process.env.CUDA_VISIBLE_DEVICES;
    process.env.CUDA_VISIBLE_DEVICES = '3';
    try {
      assert.throws(
        () => instancePlacements('resnet', groups([{ name: 'g', count: 1, kind: 'KIND_GPU', gpus: [0, 1] }]), 1),
        (e: unknown) =>
          e instanceof RtError &&
          e.code === 'BAD_CONFIG' &&
          /model 'resnet': instance_group 'g' lists GPU 1, but 1 GPU is visible \(numbered 0\.\.0; CUDA_VISIBLE_DEVICES=3\)/.test(e.message),
      );
    } finally {
      if (before === undefined) delete process.env.CUDA_VISIBLE_DEVICES;
      else process.env.CUDA_VISIBLE_DEVICES = before;
    }
  });

  test('a negative GPU number is refused by the config schema', () => {
    assert.throws(() => groups([{ count: 1, kind: 'KIND_GPU', gpus: [-1] }]));
  });
});
