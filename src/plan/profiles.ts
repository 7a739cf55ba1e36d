import { rtError } from '../errors/registry.ts';
import type { ShapeProfile } from './manifest.ts';

/**
 * Shape profiles (TensorRT's optimization profiles): for each dynamic input, the smallest, the most common
 * and the largest shape the plan accepts. Engines warm up with `opt` and call `checkShapeInProfiles` on every
 * request so that a shape outside the range is refused with BAD_SHAPE before it reaches the runtime.
 */
export function checkShapeInProfiles(profiles: readonly ShapeProfile[], input: string, shape: readonly number[]): void {
  const p = profiles.find((x) => x.input === input);
  if (p === undefined) return;
  const fmt = (s: readonly number[]): string => `[${s.join(',')}]`;
  if (shape.length !== p.min.length) {
    throw rtError(
      'BAD_SHAPE',
      `input '${input}' has shape ${fmt(shape)} (rank ${shape.length}) but the plan's profile expects rank ${p.min.length} (min ${fmt(p.min)}, max ${fmt(p.max)})`,
    );
  }
  for (let i = 0; i < shape.length; i++) {
    const d = shape[i] ?? 0;
    const lo = p.min[i] ?? 0;
    const hi = p.max[i] ?? 0;
    if (d < lo || d > hi) {
      throw rtError(
        'BAD_SHAPE',
        `input '${input}' has shape ${fmt(shape)}, outside the plan's shape profile: dimension ${i} is ${d} but must be in [${lo}, ${hi}] ` +
          `(profile min ${fmt(p.min)}, opt ${fmt(p.opt)}, max ${fmt(p.max)})`,
      );
    }
  }
}

/** Checks that min <= opt <= max element-wise and the ranks agree; returns a message or undefined. */
export function profileProblem(p: ShapeProfile): string | undefined {
  const rank = p.min.length;
  if (p.opt.length !== rank || p.max.length !== rank) {
    return `profile for '${p.input}': min, opt and max must have the same rank (got ${p.min.length}, ${p.opt.length}, ${p.max.length})`;
  }
  for (let i = 0; i < rank; i++) {
    const lo = p.min[i] ?? 0;
    const mid = p.opt[i] ?? 0;
    const hi = p.max[i] ?? 0;
    if (!(lo <= mid && mid <= hi)) {
      return `profile for '${p.input}': dimension ${i} must satisfy min <= opt <= max (got ${lo}, ${mid}, ${hi})`;
    }
  }
  return undefined;
}

/**
 * The shapes an engine warms a plan up with: each profiled input at its `opt` shape; other inputs at their
 * manifest shape with dynamic dims (-1) set to 1.
 */
export function warmupShapes(
  inputs: readonly { readonly name: string; readonly shape: readonly number[] }[],
  profiles: readonly ShapeProfile[],
): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const i of inputs) {
    const p = profiles.find((x) => x.input === i.name);
    out[i.name] = p !== undefined ? [...p.opt] : i.shape.map((d) => (d < 0 ? 1 : d));
  }
  return out;
}

/** Rejects any input whose shape is outside the plan's profiles with BAD_SHAPE naming the input and the range. */
export function checkInputsInProfiles(
  profiles: readonly ShapeProfile[],
  inputs: readonly { readonly name: string; readonly shape: readonly number[] }[],
): void {
  if (profiles.length === 0) return;
  for (const t of inputs) checkShapeInProfiles(profiles, t.name, t.shape);
}
