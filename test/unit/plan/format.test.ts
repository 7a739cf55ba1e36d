import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RtError } from '../../../src/errors/registry.ts';
import { PLAN_HEADER_BYTES, isPlanBytes, readPlan, writePlan } from '../../../src/plan/format.ts';
import { manifestFor, resign } from './plan-fixtures.ts';

const payload = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) & 0xff);

function expectError(f: () => unknown, code: string, pattern: RegExp): void {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof RtError, 'an RtError');
    assert.equal(e.code, code);
    assert.match(e.message, pattern);
    return true;
  });
}

describe('plan format', () => {
  test('round-trips manifest and payload', () => {
    const manifest = manifestFor(payload);
    const bytes = writePlan(manifest, payload);
    assert.ok(isPlanBytes(bytes));
    const back = readPlan(bytes);
    assert.deepEqual(back.manifest, manifest);
    assert.deepEqual(back.payload, payload);
  });

  test('an ONNX file is not a plan', () => {
    expectError(() => readPlan(Uint8Array.from([0x08, 0x08, 0x12, 0x00])), 'BAD_CONFIG', /magic/);
  });

  test('a flipped payload byte fails the checksum', () => {
    const bytes = writePlan(manifestFor(payload), payload);
    const at = bytes.byteLength - 100;
    bytes[at] = (bytes[at] ?? 0) ^ 0x01;
    expectError(() => readPlan(bytes, { name: 'model.plan' }), 'BAD_CONFIG', /model\.plan .*sha256 checksum does not match/);
  });

  test('a truncated file is reported as truncated', () => {
    const bytes = writePlan(manifestFor(payload), payload);
    expectError(() => readPlan(bytes.subarray(0, bytes.byteLength - 10)), 'BAD_CONFIG', /truncated/);
    expectError(() => readPlan(bytes.subarray(0, 20)), 'BAD_CONFIG', /truncated/);
  });

  test('a newer major format version is FAILED_PRECONDITION with what to do', () => {
    const bytes = writePlan(manifestFor(payload), payload);
    new DataView(bytes.buffer).setUint16(8, 2, true);
    try {
      readPlan(resign(bytes));
      assert.fail('should throw');
    } catch (e) {
      assert.ok(e instanceof RtError);
      assert.equal(e.category, 'FAILED_PRECONDITION');
      assert.match(e.message, /format 2\.0.*reads format 1\.x.*upgrade rtserve/);
    }
  });

  test('a malformed manifest names the bad field', () => {
    const m = manifestFor(payload);
    const bytes = writePlan(m, payload);
    const text = new TextDecoder().decode(bytes.subarray(PLAN_HEADER_BYTES, PLAN_HEADER_BYTES + new DataView(bytes.buffer).getUint32(16, true)));
    const broken = text.replace('"target":"ort-cpu"', '"target":"ort-xyz"');
    assert.equal(broken.length, text.length, 'same length, so the header stays valid');
    bytes.set(new TextEncoder().encode(broken), PLAN_HEADER_BYTES);
    expectError(() => readPlan(resign(bytes)), 'BAD_CONFIG', /manifest is malformed \(target:/);
  });

  test('the writer refuses a manifest that does not describe the payload', () => {
    assert.throws(() => writePlan(manifestFor(payload), payload.subarray(1)), /does not describe the payload/);
  });

  test('a minor version bump with an extra manifest field still loads', () => {
    const m = { ...manifestFor(payload), futureField: { x: 1 } };
    const bytes = writePlan(m, payload);
    new DataView(bytes.buffer).setUint16(10, 7, true);
    const back = readPlan(resign(bytes));
    assert.equal(back.manifest.target, 'ort-cpu');
  });
});
