import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parseTap, verdict } from '../../../src/bench/tap-summary.ts';

const dir = mkdtempSync(join(tmpdir(), 'rtserve-tap-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a generated test file with node's TAP reporter (as bench/cuda/gpu-tests.ts does) and returns the TAP text. */
function tapOf(name: string, body: string): { tap: string; status: number | null } {
  const file = join(dir, `${name}.test.mjs`);
  writeFileSync(file, `import { describe, test } from 'node:test';\n${body}\n`);
  const out = join(dir, `${name}.tap`);
  // A child of a test run would report to its parent (NODE_TEST_CONTEXT) instead of the reporter it is given.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', `--test-reporter-destination=${out}`, file], { encoding: 'utf8', env });
  return { tap: readFileSync(out, 'utf8'), status: r.status };
}

describe('GPU test evidence from node:test TAP output', () => {
  test('all passed: evidence', () => {
    const { tap, status } = tapOf('pass', "test('a', () => {}); test('b', () => {});");
    const s = parseTap(tap);
    assert.equal(s.tests, 2);
    assert.equal(s.passed, 2);
    assert.deepEqual(verdict(s, status), []);
  });

  test('every test skipped (a GPU describe block on a machine without the addon): not evidence, and says so', () => {
    const { tap, status } = tapOf(
      'skipall',
      "describe('on the GPU', { skip: 'needs the native CUDA engine' }, () => { test('x', () => {}); test('y', () => {}); });",
    );
    const s = parseTap(tap);
    assert.equal(s.passed, 0);
    assert.equal(s.skipped, 0, 'node counts a skipped describe block nowhere in its summary');
    assert.ok(
      s.skippedTests.some((t) => /needs the native CUDA engine/.test(t.reason)),
      JSON.stringify(s.skippedTests),
    );
    assert.ok(verdict(s, status).includes('every test skipped'), JSON.stringify(verdict(s, status)));
  });

  test('one skipped among passing tests, and a failure: both named', () => {
    const { tap, status } = tapOf(
      'mixed',
      "test('ok', () => {}); test('gone', { skip: 'no GPU' }, () => {}); test('bad', () => { throw new Error('boom'); });",
    );
    const s = parseTap(tap);
    assert.equal(s.skipped, 1);
    assert.equal(s.failed, 1);
    assert.deepEqual(s.skippedTests, [{ name: 'gone', reason: 'no GPU' }]);
    assert.deepEqual(s.failedTests, ['bad']);
    assert.deepEqual(verdict(s, status), ['1 failed, 0 cancelled', '1 skipped (gone)']);
  });

  test('CPU tests pass but the GPU describe block skipped: not evidence', () => {
    const { tap, status } = tapOf('cpuonly', "test('cpu', () => {}); describe('on the GPU', { skip: 'no addon' }, () => { test('x', () => {}); });");
    const s = parseTap(tap);
    assert.equal(s.passed, 1);
    assert.deepEqual(verdict(s, status), ['1 skipped (on the GPU)']);
  });

  test('no TAP at all (node never ran): not evidence', () => {
    assert.ok(verdict(parseTap(''), 1).includes('no test summary in the TAP output'));
  });
});
