/**
 * The `workers` setting (docs/workers.md): how many front-end processes share the server's ports in front of the
 * one engine owner (default 'auto'). A number, or 'auto': one process on small machines, where the protocol work and the engine
 * share few cores and IPC would only add work, and half the cores (at most 8) from 8 cores up, leaving the other
 * half to the engine owner, its engine threads and the kernel's network stack. Cores are the CPUs the process may
 * use: a container's CPU quota (cgroup v2 cpu.max) where one is set.
 */
import { z } from 'zod';
import { usableCpus } from '../util/cpu-quota.ts';

/** The most front-end processes a server runs. */
export const MAX_WORKERS = 64;

/**
 * The default is 'auto': every feature of the single process works across workers (docs/workers.md), and below 8
 * cores it is one process, exactly as before.
 */
export const workersSetting = z.union([z.literal('auto'), z.coerce.number().int().min(1).max(MAX_WORKERS)]).default('auto');

/** 'auto' on a machine of `cores` cores: 1 below 8 cores, else min(8, floor(cores / 2)). */
export function workersForCores(cores: number): number {
  return cores < 8 ? 1 : Math.min(8, Math.floor(cores / 2));
}

/**
 * The number of front-end processes a `workers` setting means here: 'auto' counts the CPUs this process may use
 * (its container's CPU quota where one is set, src/util/cpu-quota.ts), not the node's cores.
 */
export function frontEndWorkers(setting: number | 'auto', cpus: () => number = usableCpus): number {
  return setting === 'auto' ? workersForCores(cpus()) : setting;
}
