import { createHash } from 'node:crypto';
import { PLAN_FORMAT_MAJOR, PLAN_FORMAT_MINOR, sha256Hex } from '../../../src/plan/format.ts';
import type { PlanManifest } from '../../../src/plan/manifest.ts';

/** A minimal valid manifest for `payload`. */
export function manifestFor(payload: Uint8Array, overrides: Partial<PlanManifest> = {}): PlanManifest {
  return {
    formatVersion: { major: PLAN_FORMAT_MAJOR, minor: PLAN_FORMAT_MINOR },
    createdAt: '2025-01-01T00:00:00.000Z',
    source: { fileName: 'm.onnx', sha256: 'ab'.repeat(32), bytes: 10, irVersion: 8, opsets: { '': 13 }, producer: 'test' },
    target: 'ort-cpu',
    precision: 'fp32',
    keepIoTypes: true,
    payload: { format: 'onnx', sha256: sha256Hex(payload), bytes: payload.byteLength, ortOptimizationLevel: 'extended' },
    tool: { name: 'rtserve', version: '0.1.0', node: 'v20' },
    runtime: { name: 'onnxruntime-node', version: '1.30.0' },
    deviceRequirements: { executionProvider: 'cpu', notes: [] },
    io: { inputs: [{ name: 'x', datatype: 'FP32', shape: [-1, 4] }], outputs: [{ name: 'y', datatype: 'FP32', shape: [-1, 4] }] },
    passes: [],
    nodePrecision: { n0: 'fp32' },
    calibration: null,
    profiles: [],
    accuracy: null,
    ...overrides,
  };
}

/** Recomputes the trailing sha256 after a test edits the bytes on purpose. */
export function resign(bytes: Uint8Array): Uint8Array {
  const out = Uint8Array.from(bytes);
  const digest = createHash('sha256')
    .update(out.subarray(0, out.byteLength - 32))
    .digest();
  out.set(digest, out.byteLength - 32);
  return out;
}
