/**
 * The test command (scripts/test.mjs) run on fixture test files (test/fixtures/runner/): its summary comes from the
 * tests' events, not from the tail of the spec output, so a long failure message printed after node's own summary
 * cannot turn it into "0 passed, 0 failed"; a failing after-hook counts; and under CI=true a skip that is not one of
 * the known GPU-only skips fails the run.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function runRunner(args: string[], env: Record<string, string | undefined>): { status: number | null; stdout: string; lastLine: string } {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  // NODE_TEST_CONTEXT tells a nested node --test that it reports to a parent runner; the runner must run on its own.
  delete childEnv['NODE_TEST_CONTEXT'];
  const r = spawnSync(process.execPath, ['scripts/test.mjs', '--no-build', '--no-coverage', '--dir', 'test/fixtures/runner', ...args], {
    cwd: root,
    env: childEnv,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const lines = r.stdout.trimEnd().split('\n');
  return { status: r.status, stdout: r.stdout, lastLine: lines.at(-1) ?? '' };
}

function knownSkipsFile(entries: unknown[]): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'rtserve-known-skips-'));
  const path = join(dir, 'known.json');
  writeFileSync(path, JSON.stringify(entries));
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
const gpuSuite = { file: 'test/fixtures/runner/clean.test.mjs', suite: 'needs a GPU', why: 'fixture' };

describe('scripts/test.mjs summary', () => {
  test("counts from the events: a long failure after node's summary, a failing after hook, skipped tests and suites", () => {
    const r = runRunner(['mixed'], { CI: undefined });
    assert.equal(r.status, 1);
    assert.equal(r.lastLine, '3 passed, 2 failed, 2 skipped');
    assert.match(r.stdout, /^failed: test\/fixtures\/runner\/mixed\.test\.mjs › fails with a long message: boom x+$/m);
    assert.match(r.stdout, /^failed: test\/fixtures\/runner\/mixed\.test\.mjs › a hook fails: after hook failed$/m);
    assert.match(r.stdout, /^skipped: test\/fixtures\/runner\/mixed\.test\.mjs › a suite › skips at run time: the tool is missing$/m);
    assert.match(r.stdout, /^skipped: test\/fixtures\/runner\/mixed\.test\.mjs › needs a GPU: no GPU here$/m);
    // The spec output stays there for people.
    assert.match(r.stdout, /✖ fails with a long message/);
  });

  test('without CI a skip beyond the known list is a note; the run passes', () => {
    const r = runRunner(['clean'], { CI: undefined });
    assert.equal(r.status, 0, r.stdout.slice(-2000));
    assert.equal(r.lastLine, '1 passed, 0 failed, 1 skipped');
    assert.match(r.stdout, /note: 1 skipped test\(s\) beyond the known GPU-only skips; under CI=true they fail the run/);
  });

  test('under CI=true a skip beyond the known GPU-only skips fails the run, naming it', () => {
    const r = runRunner(['clean'], { CI: 'true' });
    assert.equal(r.status, 1);
    assert.equal(r.lastLine, '1 passed, 0 failed, 1 skipped');
    assert.match(r.stdout, /^skipped: test\/fixtures\/runner\/clean\.test\.mjs › needs a GPU: no GPU here$/m);
    assert.match(r.stdout, /CI=true: 1 skipped test\(s\) beyond the known GPU-only skips .*: failing the run/);
  });

  test('under CI=true the known GPU-only skips pass; any other skip still fails', () => {
    const known = knownSkipsFile([gpuSuite]);
    try {
      const ok = runRunner(['clean', '--known-skips', known.path], { CI: 'true' });
      assert.equal(ok.status, 0, ok.stdout.slice(-2000));
      assert.match(ok.stdout, /^skipped \(GPU only\): test\/fixtures\/runner\/clean\.test\.mjs › needs a GPU: no GPU here$/m);
      assert.equal(ok.lastLine, '1 passed, 0 failed, 1 skipped');
      const mixed = runRunner(['mixed', '--known-skips', known.path], { CI: 'true' });
      assert.equal(mixed.status, 1);
      assert.match(mixed.stdout, /CI=true: 2 skipped test\(s\) beyond the known GPU-only skips/);
    } finally {
      known.cleanup();
    }
  });

  test('a filter that matches no test file fails', () => {
    const r = spawnSync(process.execPath, ['scripts/test.mjs', '--no-build', '--no-coverage', '--dir', 'test/fixtures/runner', 'no-such-file'], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /no test files found/);
  });

  test('every known GPU-only skip names a test file and a suite or test title in it', async () => {
    // @ts-expect-error: a plain .mjs module without type declarations
    const { GPU_ONLY_SKIPS } = (await import('../../../scripts/test-runner/known-skips.mjs')) as {
      GPU_ONLY_SKIPS: { file: string; suite: string; why: string }[];
    };
    assert.ok(GPU_ONLY_SKIPS.length > 0);
    for (const k of GPU_ONLY_SKIPS) {
      assert.match(k.file, /^test\/.*\.test\.ts$/);
      const text = readFileSync(join(root, k.file), 'utf8');
      assert.ok(text.includes(`describe('${k.suite}'`) || text.includes(`test('${k.suite}'`), `${k.file} has no suite or test '${k.suite}'`);
      assert.ok(k.why.length > 0);
    }
  });
});

describe('scripts/test.mjs --coverage', () => {
  test('prints the line coverage of src/ from every test process before the summary line', () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env['NODE_TEST_CONTEXT'];
    const r = spawnSync(process.execPath, ['scripts/test.mjs', '--no-build', '--coverage', 'test/unit/tensor/half.test.ts'], {
      cwd: root,
      env,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    assert.equal(r.status, 0, r.stdout.slice(-2000));
    const lines = r.stdout.trim().split('\n');
    const cov = lines.find((l) => l.startsWith('coverage of src/'));
    assert.ok(cov, r.stdout.slice(-2000));
    // half.test.ts runs src/tensor/half.ts: some of src/ is covered, not all of it.
    const pct = Number(/Lines : ([\d.]+)%/.exec(cov)?.[1]);
    assert.ok(pct > 0 && pct < 100, cov);
    assert.match(lines.at(-1) ?? '', /^\d+ passed, 0 failed, 0 skipped$/);
  });
});
