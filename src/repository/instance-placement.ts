/**
 * Where a model's instances run: Triton's `instance_group` placement. A group of kind KIND_GPU puts `count`
 * instances on each GPU it lists in `gpus`, or on each GPU the engine sees when it lists none; KIND_AUTO does the
 * same when the engine has GPUs, and counts instances otherwise; KIND_CPU and KIND_MODEL count instances without a
 * device. No group at all is Triton's default: one instance per GPU, or one instance on an engine without GPUs.
 * GPU numbers are ordinals among the devices this process sees: CUDA_VISIBLE_DEVICES (and a MIG instance named
 * there) renumbers them from 0, as in Triton.
 */
import { rtError } from '../errors/registry.ts';
import { deviceEnv } from '../config/device-env.ts';
import type { ModelConfig } from '../config/model-config.ts';

export interface InstancePlacement {
  /** The instance_group entry this instance comes from (its `name`, or `<model>_<index>` as Triton names it). */
  readonly group: string;
  /** The GPU ordinal, or undefined for an instance without a device. */
  readonly device?: number;
}

/**
 * The instances of a model, in the order they are loaded: group by group, and within a group GPU by GPU (all of
 * one GPU's instances together). `deviceCount` is what the engine sees (undefined or 0: an engine or machine
 * without GPUs, where listed `gpus` are kept as given and only engines with devices read them).
 */
export function instancePlacements(model: string, groups: ModelConfig['instance_group'], deviceCount: number | undefined): InstancePlacement[] {
  const visible = deviceCount ?? 0;
  if (groups.length === 0) {
    return visible > 0 ? Array.from({ length: visible }, (_, device) => ({ group: `${model}_0`, device })) : [{ group: `${model}_0` }];
  }
  const out: InstancePlacement[] = [];
  groups.forEach((g, index) => {
    const group = g.name ?? `${model}_${index}`;
    const onGpus = g.kind === 'KIND_GPU' || (g.kind === 'KIND_AUTO' && (visible > 0 || g.gpus !== undefined));
    if (!onGpus) {
      for (let i = 0; i < g.count; i++) out.push({ group });
      return;
    }
    const gpus = g.gpus ?? Array.from({ length: visible }, (_, d) => d);
    if (gpus.length === 0) {
      // KIND_GPU on an engine without GPUs: counted, and an engine that needs a device says so when it loads.
      for (let i = 0; i < g.count; i++) out.push({ group });
      return;
    }
    for (const device of gpus) {
      if (visible > 0 && device >= visible) {
        const mask = deviceEnv().cudaVisibleDevices;
        throw rtError(
          'BAD_CONFIG',
          `model '${model}': instance_group '${group}' lists GPU ${device}, but ${visible} GPU${visible === 1 ? ' is' : 's are'} visible ` +
            `(numbered 0..${visible - 1}${mask === undefined ? '' : `; CUDA_VISIBLE_DEVICES=${mask}`})`,
        );
      }
      for (let i = 0; i < g.count; i++) out.push({ group, device });
    }
  });
  return out;
}
