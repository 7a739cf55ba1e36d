import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RtError } from '../../../src/errors/registry.ts';
import { checkPlanCompatibility } from '../../../src/plan/compatibility.ts';
import { checkShapeInProfiles, profileProblem } from '../../../src/plan/profiles.ts';
import { manifestFor } from './plan-fixtures.ts';

const ort = (version: string) => ({ name: 'onnxruntime-node', version });

function failsWith(f: () => unknown, pattern: RegExp, category = 'FAILED_PRECONDITION'): void {
  assert.throws(f, (e: unknown) => e instanceof RtError && e.category === category && pattern.test(e.message));
}

describe('checkPlanCompatibility', () => {
  const m = manifestFor(new Uint8Array(4));

  test('accepts the runtime it was built for', () => {
    assert.deepEqual(checkPlanCompatibility(m, { targets: ['ort-cpu'], runtime: ort('1.30.0') }).warnings, []);
  });

  test('a wrong target says which target and how to rebuild', () => {
    const webgpu = { ...m, target: 'ort-webgpu' as const };
    failsWith(
      () => checkPlanCompatibility(webgpu, { targets: ['ort-cpu'], runtime: ort('1.30.0') }, 'resnet.plan'),
      /resnet\.plan cannot be loaded here: it was built for target 'ort-webgpu' but this engine provides ort-cpu; rebuild it with `rtserve build --target ort-cpu`/,
    );
  });

  test('an older runtime is refused, a newer one only warns', () => {
    failsWith(
      () => checkPlanCompatibility(m, { targets: ['ort-cpu'], runtime: ort('1.29.1') }),
      /optimized by onnxruntime-node 1\.30\.0, newer than this runtime \(1\.29\.1\)/,
    );
    const r = checkPlanCompatibility(m, { targets: ['ort-cpu'], runtime: ort('1.31.0') });
    assert.equal(r.warnings.length, 1);
    assert.equal(checkPlanCompatibility(m, { targets: ['ort-cpu'], runtime: ort('1.30.2') }).warnings.length, 0);
  });

  test('another runtime or none at all is refused', () => {
    failsWith(
      () => checkPlanCompatibility(m, { targets: ['ort-cpu'], runtime: { name: 'onnxruntime-web', version: '1.30.0' } }),
      /runs onnxruntime-web/,
    );
    failsWith(() => checkPlanCompatibility(m, { targets: ['ort-cpu'], runtime: null }), /no such runtime/);
  });

  test('architecture and shader-f16 requirements', () => {
    const tied = { ...m, deviceRequirements: { executionProvider: 'cpu' as const, arch: 'x64', notes: [] } };
    failsWith(() => checkPlanCompatibility(tied, { targets: ['ort-cpu'], runtime: ort('1.30.0'), arch: 'arm64' }), /architecture 'x64'.*'arm64'/);
    const f16 = { ...m, target: 'ort-webgpu' as const, deviceRequirements: { executionProvider: 'webgpu' as const, shaderF16: true, notes: [] } };
    failsWith(() => checkPlanCompatibility(f16, { targets: ['ort-webgpu'], runtime: ort('1.30.0'), shaderF16: false }), /shader-f16/);
  });
});

describe('shape profiles', () => {
  const profiles = [{ input: 'x', min: [1, 3, 8, 8], opt: [4, 3, 8, 8], max: [16, 3, 8, 8] }];

  test('shapes inside the profile pass, others fail with BAD_SHAPE naming the dimension', () => {
    checkShapeInProfiles(profiles, 'x', [16, 3, 8, 8]);
    checkShapeInProfiles(profiles, 'other', [999]);
    failsWith(
      () => checkShapeInProfiles(profiles, 'x', [17, 3, 8, 8]),
      /input 'x' has shape \[17,3,8,8\], outside the plan's shape profile: dimension 0 is 17 but must be in \[1, 16\]/,
      'INVALID_ARGUMENT',
    );
    failsWith(() => checkShapeInProfiles(profiles, 'x', [1, 3, 8]), /rank 3\).* expects rank 4/, 'INVALID_ARGUMENT');
  });

  test('profileProblem catches min > opt and rank disagreements', () => {
    assert.match(profileProblem({ input: 'x', min: [4], opt: [2], max: [8] }) ?? '', /min <= opt <= max/);
    assert.match(profileProblem({ input: 'x', min: [4], opt: [4, 1], max: [8] }) ?? '', /same rank/);
    assert.equal(profileProblem(profiles[0] as (typeof profiles)[0]), undefined);
  });
});

describe('loadPlan and warm-up shapes', () => {
  test('loadPlan verifies, checks and hands back the payload', async () => {
    const { writePlan } = await import('../../../src/plan/format.ts');
    const { loadPlan } = await import('../../../src/plan/load.ts');
    const { warmupShapes } = await import('../../../src/plan/profiles.ts');
    const payload = Uint8Array.from([1, 2, 3]);
    const m = manifestFor(payload, { profiles: [{ input: 'x', min: [1, 4], opt: [8, 4], max: [32, 4] }] });
    const bytes = writePlan(m, payload);
    const loaded = loadPlan(bytes, { targets: ['ort-cpu'], runtime: ort('1.30.0') }, 'm.plan');
    assert.deepEqual([...loaded.payload], [1, 2, 3]);
    assert.deepEqual(warmupShapes(loaded.manifest.io.inputs, loaded.manifest.profiles), { x: [8, 4] });
    assert.deepEqual(warmupShapes([{ name: 'z', shape: [-1, 3] }], []), { z: [1, 3] });
    failsWith(() => loadPlan(bytes, { targets: ['ort-webgpu'], runtime: ort('1.30.0') }, 'm.plan'), /m\.plan cannot be loaded here/);
  });
});
