/**
 * Every fast-check property in the suite takes its parameters from test/helpers/fuzz.ts: a fixed, printed seed
 * that FUZZ_SEED replays (docs/testing.md). A property without it would draw a fresh seed on every run again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? testFiles(p) : e.endsWith('.test.ts') ? [p] : [];
  });
}

test('every fc.assert / fc.check in test/ takes its parameters from fuzzParams', () => {
  const offenders: string[] = [];
  let properties = 0;
  for (const file of testFiles(join(root, 'test'))) {
    const text = readFileSync(file, 'utf8');
    const calls = (text.match(/\bfc\.(assert|check)\(/g) ?? []).length;
    properties += calls;
    const seeded = (text.match(/\bfuzzParams\(/g) ?? []).length;
    if (calls !== seeded) offenders.push(`${relative(root, file)}: ${calls} properties, ${seeded} fuzzParams`);
  }
  assert.ok(properties > 0);
  assert.deepEqual(offenders, []);
});
