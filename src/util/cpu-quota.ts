/**
 * How many CPUs this process may keep busy: the CPU quota of its cgroup (v2) where one is set, as in a Kubernetes
 * pod with `resources.limits.cpu` or `docker run --cpus`, else `os.availableParallelism()`. A quota does not
 * hide the node's cores from `availableParallelism()` on every Node line, so a 2-CPU pod on a 16-core node would
 * otherwise size itself for 16.
 *
 * cgroup v2 writes a group's limit to `cpu.max` as "<quota> <period>" (microseconds; "max" for none), and a group
 * is held to the smallest limit on its path up to the root. The process's group is the `0::<path>` line of
 * /proc/self/cgroup: "/" inside a container's cgroup namespace, where /sys/fs/cgroup is the container's own group.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';

/** Where the cgroup files are read from (tests point these at fixture trees). */
export interface CgroupPaths {
  /** The cgroup v2 mount: /sys/fs/cgroup. */
  readonly root?: string;
  /** The process's cgroup membership: /proc/self/cgroup. */
  readonly selfCgroup?: string;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** CPUs a `cpu.max` line allows (quota / period), or undefined for "max", no file or a line of another shape. */
export function parseCpuMax(text: string | undefined): number | undefined {
  const m = /^(max|\d+)\s+(\d+)\s*$/.exec(text?.trim() ?? '');
  if (m === null || m[1] === 'max') return undefined;
  const quota = Number(m[1]);
  const period = Number(m[2]);
  return quota > 0 && period > 0 ? quota / period : undefined;
}

/**
 * The CPU quota of this process's cgroup v2 group and its ancestors (the smallest), rounded up to whole CPUs;
 * undefined where none is set or the machine has no cgroup v2 (cgroup v1 only, not Linux).
 */
export function cgroupCpuLimit(paths: CgroupPaths = {}): number | undefined {
  const root = paths.root ?? '/sys/fs/cgroup';
  const membership = readText(paths.selfCgroup ?? '/proc/self/cgroup');
  const group = membership
    ?.split('\n')
    .find((line) => line.startsWith('0::'))
    ?.slice(3)
    .trim();
  if (group === undefined || !group.startsWith('/')) return undefined;
  let limit: number | undefined;
  for (let dir = join(root, group); ; dir = dirname(dir)) {
    const cpus = parseCpuMax(readText(join(dir, 'cpu.max')));
    if (cpus !== undefined) limit = Math.min(limit ?? cpus, cpus);
    if (dir === root || dirname(dir) === dir) break;
  }
  return limit === undefined ? undefined : Math.max(1, Math.ceil(limit));
}

/** The CPUs this process may use: its cgroup's quota where set, never more than the `cores` it can run on. */
export function usableCpus(paths: CgroupPaths = {}, cores: number = availableParallelism()): number {
  return Math.min(cores, cgroupCpuLimit(paths) ?? cores);
}
