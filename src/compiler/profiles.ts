import { rtError } from '../errors/registry.ts';
import type { ShapeProfile } from '../plan/manifest.ts';
import { profileProblem } from '../plan/profiles.ts';
import type { ValueInfo } from './ir/graph.ts';

/** Parses `INPUT:MIN,OPT,MAX` with shapes written `1x3x224x224` (trtexec's --minShapes style). */
export function parseProfile(spec: string): ShapeProfile {
  const at = spec.lastIndexOf(':');
  const shapes = at < 0 ? [] : spec.slice(at + 1).split(',');
  const usage = `--profile '${spec}': expected INPUT:MIN,OPT,MAX with shapes like 1x3x32x32 (e.g. input:1x3x32x32,8x3x32x32,32x3x32x32)`;
  if (at <= 0 || shapes.length !== 3) throw rtError('BAD_CONFIG', usage);
  const parsed = shapes.map((s) =>
    s
      .trim()
      .split('x')
      .map((d) => Number(d)),
  );
  if (parsed.some((s) => s.some((d) => !Number.isInteger(d) || d < 0))) throw rtError('BAD_CONFIG', usage);
  const [min, opt, max] = parsed as [number[], number[], number[]];
  return { input: spec.slice(0, at), min, opt, max };
}

/** Checks profiles against the model: known input, matching rank, static dims respected, min <= opt <= max. */
export function checkProfiles(profiles: readonly ShapeProfile[], inputs: readonly ValueInfo[]): string[] {
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const p of profiles) {
    const input = inputs.find((i) => i.name === p.input);
    if (input === undefined) {
      throw rtError('BAD_CONFIG', `shape profile for '${p.input}': the model has no such input (inputs: ${inputs.map((i) => i.name).join(', ')})`);
    }
    if (seen.has(p.input)) throw rtError('BAD_CONFIG', `input '${p.input}' has two shape profiles; give one per input`);
    seen.add(p.input);
    const problem = profileProblem(p);
    if (problem !== undefined) throw rtError('BAD_CONFIG', problem);
    const shape = input.type.shape;
    if (shape === null) continue;
    if (shape.length !== p.min.length) {
      throw rtError(
        'BAD_CONFIG',
        `shape profile for '${p.input}' has rank ${p.min.length} but the input has rank ${shape.length} ([${shape.map((d) => d ?? '?').join(',')}])`,
      );
    }
    shape.forEach((d, i) => {
      if (typeof d === 'number' && (p.min[i] !== d || p.max[i] !== d)) {
        throw rtError(
          'BAD_CONFIG',
          `shape profile for '${p.input}': dimension ${i} is fixed to ${d} in the model, the profile says ${p.min[i]}..${p.max[i]}`,
        );
      }
    });
    if (p.min.some((d) => d === 0)) warnings.push(`profile for '${p.input}' allows empty tensors (a 0 in min)`);
  }
  for (const i of inputs) {
    if (i.type.shape?.some((d) => typeof d !== 'number') === true && !seen.has(i.name)) {
      warnings.push(`input '${i.name}' has dynamic dimensions and no --profile: the plan accepts any size`);
    }
  }
  return warnings;
}
