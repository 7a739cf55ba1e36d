import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

// The linter and formatter (Biome, configured in biome.json) run with the suite, so CI fails on a lint error or an
// unformatted file like on a failing test. `npm run lint` runs the same check by hand; `npm run format` formats,
// `npm run lint:fix` applies Biome's safe fixes.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const biome = join(dirname(createRequire(import.meta.url).resolve('@biomejs/biome/package.json')), 'bin/biome');

test('the tree passes the linter and is formatted (biome ci: lint and format check, warnings are errors)', () => {
  const r = spawnSync(process.execPath, [biome, 'ci', '--error-on-warnings', '--max-diagnostics=50', '--colors=off'], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
});
