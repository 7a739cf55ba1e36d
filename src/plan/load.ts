import { checkPlanCompatibility, type PlanRuntime } from './compatibility.ts';
import { readPlan } from './format.ts';
import type { PlanManifest } from './manifest.ts';

export interface LoadedPlan {
  readonly manifest: PlanManifest;
  /** The model bytes to hand to the runtime (a view into the file's bytes). */
  readonly payload: Uint8Array;
  /** Compatibility warnings worth a log line (a newer runtime than the one that built the plan, ...). */
  readonly warnings: readonly string[];
}

/**
 * What an engine does with a .plan file: verify it (BAD_CONFIG when damaged), check it against the runtime
 * (ENGINE_UNAVAILABLE / FAILED_PRECONDITION with the reason when it was built for something else), and return
 * the payload. Warm up with `warmupShapes(manifest.io.inputs, manifest.profiles)` and guard requests with
 * `checkShapeInProfiles(manifest.profiles, name, shape)`.
 */
export function loadPlan(bytes: Uint8Array, runtime: PlanRuntime, name = 'plan'): LoadedPlan {
  const { manifest, payload } = readPlan(bytes, { name });
  const { warnings } = checkPlanCompatibility(manifest, runtime, name);
  return { manifest, payload, warnings };
}
