/**
 * The CPU quota of a container (cgroup v2 cpu.max), read from fixture trees laid out as /proc/self/cgroup and
 * /sys/fs/cgroup are (test/fixtures/cgroup/<case>/proc-self-cgroup and sys-fs-cgroup/), and what `--workers auto`
 * makes of it.
 */
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { frontEndWorkers } from '../../../src/config/workers.ts';
import { type CgroupPaths, cgroupCpuLimit, parseCpuMax, usableCpus } from '../../../src/util/cpu-quota.ts';

function fixture(name: string): CgroupPaths {
  const dir = fileURLToPath(new URL(`../../fixtures/cgroup/${name}/`, import.meta.url));
  return { root: `${dir}sys-fs-cgroup`, selfCgroup: `${dir}proc-self-cgroup` };
}

describe('cgroup v2 CPU quota', () => {
  test('cpu.max lines: quota / period, "max" and other shapes are no limit', () => {
    assert.equal(parseCpuMax('200000 100000\n'), 2);
    assert.equal(parseCpuMax('50000 100000'), 0.5);
    assert.equal(parseCpuMax('max 100000\n'), undefined);
    for (const bad of [undefined, '', 'garbage', '100000', '0 100000', '100000 0']) assert.equal(parseCpuMax(bad), undefined, String(bad));
  });

  test("a container's own cgroup namespace: its cpu.max at the mount's root", () => {
    assert.equal(cgroupCpuLimit(fixture('pod-2-cpus')), 2);
    assert.equal(cgroupCpuLimit(fixture('unlimited')), undefined);
  });

  test('the smallest limit on the path from the process group up to the root, rounded up to whole CPUs', () => {
    // The pod's group allows 1.5 CPUs, the container's group below it none: 2.
    assert.equal(cgroupCpuLimit(fixture('nested-host-view')), 2);
    // limits.cpu: 500m is one CPU, never zero.
    assert.equal(cgroupCpuLimit(fixture('half-cpu')), 1);
  });

  test('no cgroup v2 (cgroup v1 only, or no files at all): no limit', () => {
    assert.equal(cgroupCpuLimit(fixture('cgroup-v1')), undefined);
    assert.equal(cgroupCpuLimit(fixture('does-not-exist')), undefined);
  });

  test('usable CPUs: the quota where it is lower than the cores, else the cores', () => {
    assert.equal(usableCpus(fixture('pod-2-cpus'), 16), 2);
    assert.equal(usableCpus(fixture('quota-above-cores'), 16), 16);
    assert.equal(usableCpus(fixture('unlimited'), 16), 16);
    assert.equal(usableCpus(fixture('cgroup-v1'), 16), 16);
    // This machine's own files: never more than availableParallelism().
    assert.ok(usableCpus() >= 1 && usableCpus() <= availableParallelism());
  });
});

describe('--workers auto in a container (docs/workers.md)', () => {
  test('a 2-CPU pod on a 16-core node runs one process; without a quota the node gets 8 front ends', () => {
    assert.equal(
      frontEndWorkers('auto', () => usableCpus(fixture('pod-2-cpus'), 16)),
      1,
    );
    assert.equal(
      frontEndWorkers('auto', () => usableCpus(fixture('unlimited'), 16)),
      8,
    );
    assert.equal(
      frontEndWorkers(3, () => usableCpus(fixture('pod-2-cpus'), 16)),
      3,
    );
  });
});
