import { rtError } from '../errors/registry.ts';
import type { PlanManifest, PlanTarget } from './manifest.ts';

/** What the loading engine offers; the engine fills this from its own provider and runtime. */
export interface PlanRuntime {
  /** Targets this engine can run, e.g. ['ort-cpu'] for onnxruntime-node on a machine without a GPU. */
  readonly targets: readonly PlanTarget[];
  /** The runtime library and version, e.g. { name: 'onnxruntime-node', version: '1.30.0' }. */
  readonly runtime: { readonly name: string; readonly version: string } | null;
  /** process.arch of the loading machine. */
  readonly arch?: string;
  /** Whether the WebGPU adapter exposes shader-f16 (only asked for ort-webgpu plans). */
  readonly shaderF16?: boolean;
}

export interface CompatibilityResult {
  /** Things that do not stop the load but deserve a log line. */
  readonly warnings: readonly string[];
}

function parseVersion(v: string): [number, number, number] | undefined {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(v);
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}

function compareVersions(a: [number, number, number], b: [number, number, number]): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Checks a plan manifest against the runtime that wants to load it. A mismatch throws ENGINE_UNAVAILABLE
 * (category FAILED_PRECONDITION: the plan is valid, this machine/runtime is not the one it was built for) with a
 * message that says which requirement failed and how to fix it.
 */
export function checkPlanCompatibility(manifest: PlanManifest, runtime: PlanRuntime, planName = 'plan'): CompatibilityResult {
  const warnings: string[] = [];
  const fail = (why: string): never => {
    throw rtError('ENGINE_UNAVAILABLE', `${planName} cannot be loaded here: ${why}`);
  };
  if (!runtime.targets.includes(manifest.target)) {
    const offered = runtime.targets.length > 0 ? runtime.targets.join(', ') : 'no targets';
    fail(
      `it was built for target '${manifest.target}' but this engine provides ${offered}; ` +
        `rebuild it with \`rtserve build --target ${runtime.targets[0] ?? '<target>'}\``,
    );
  }
  if (manifest.runtime !== null) {
    if (runtime.runtime === null) {
      fail(`it needs ${manifest.runtime.name} ${manifest.runtime.version} but this engine has no such runtime`);
    } else if (runtime.runtime.name !== manifest.runtime.name) {
      fail(`it was optimized by ${manifest.runtime.name} but this engine runs ${runtime.runtime.name}`);
    } else {
      const built = parseVersion(manifest.runtime.version);
      const have = parseVersion(runtime.runtime.version);
      if (built === undefined || have === undefined) {
        warnings.push(`cannot compare runtime versions '${manifest.runtime.version}' and '${runtime.runtime.version}'`);
      } else {
        // An optimized ONNX payload may hold contrib operators (FusedConv, QLinear*, NCHWc) or opsets that an
        // older onnxruntime does not register; a newer one keeps reading them.
        const cmp = compareVersions([have[0], have[1], 0], [built[0], built[1], 0]);
        if (cmp < 0) {
          fail(
            `it was optimized by ${manifest.runtime.name} ${manifest.runtime.version}, newer than this runtime ` +
              `(${runtime.runtime.version}), whose operator set may lack what the payload uses; upgrade the runtime or rebuild the plan here`,
          );
        } else if (cmp > 0) {
          warnings.push(
            `plan optimized by ${manifest.runtime.name} ${manifest.runtime.version}, running on ${runtime.runtime.version}; rebuild to pick up newer optimizations`,
          );
        }
      }
    }
  }
  const req = manifest.deviceRequirements;
  if (req.arch !== undefined && runtime.arch !== undefined && req.arch !== runtime.arch) {
    fail(`its payload is specific to CPU architecture '${req.arch}' but this machine is '${runtime.arch}'`);
  }
  if (req.shaderF16 === true && runtime.shaderF16 === false) {
    fail("it computes in FP16 on WebGPU and this adapter lacks the 'shader-f16' feature; rebuild with --precision fp32");
  }
  return { warnings };
}
