/**
 * The GPU unit tests on the GPU machine, with a record that they ran (issue #26: CI never runs them). Runs the given
 * test files with node's TAP reporter into a file (and the spec reporter on stdout), reads node's own summary from
 * the whole TAP stream, and writes a JSON summary with the commit it ran on:
 *
 *   node bench/cuda/gpu-tests.ts --out FILE.json [--commit SHA] FILE.test.ts ...
 *
 * Exits non-zero when a test failed, when any test was skipped (on the GPU machine every test must run: a skip there
 * means the evidence is missing, e.g. the addon or onnxruntime was not there), or when no test ran at all.
 * The commit: --commit, else RTSERVE_COMMIT, else .device/cuda/commit.txt (written by scripts/device/pack-cuda.sh).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseTap, verdict } from '../../src/bench/tap-summary.ts';

function commitOf(given: string | undefined): string {
  if (given !== undefined && given !== '') return given;
  if (process.env.RTSERVE_COMMIT !== undefined && process.env.RTSERVE_COMMIT !== '') return process.env.RTSERVE_COMMIT;
  if (existsSync('.device/cuda/commit.txt')) return readFileSync('.device/cuda/commit.txt', 'utf8').trim();
  const git = spawnSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' });
  return git.status === 0 ? git.stdout.trim() : 'unknown';
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { out: { type: 'string', default: 'gpu-tests.json' }, commit: { type: 'string' } },
  });
  const tapFile = `${values.out.replace(/\.json$/, '')}.tap`;
  const r = spawnSync(
    process.execPath,
    [
      '--test',
      '--test-concurrency=1',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tapFile}`,
      ...positionals,
    ],
    { stdio: 'inherit', env: process.env },
  );
  const summary = parseTap(existsSync(tapFile) ? readFileSync(tapFile, 'utf8') : '');
  const why = verdict(summary, r.status);
  const gpu = spawnSync('nvidia-smi', ['--query-gpu=name,driver_version', '--format=csv,noheader'], { encoding: 'utf8' });
  const record = {
    commit: commitOf(values.commit),
    date: new Date().toISOString(),
    machine: gpu.status === 0 ? gpu.stdout.trim() : 'no nvidia-smi',
    node: process.version,
    files: positionals,
    ...summary,
    evidence: why.length === 0,
    why,
  };
  writeFileSync(values.out, `${JSON.stringify(record, null, 1)}\n`);
  console.log(
    `GPU tests on ${record.commit}: ${summary.passed}/${summary.tests} passed, ${summary.failed} failed, ${summary.skipped} skipped${why.length === 0 ? '' : ` — NOT evidence: ${why.join('; ')}`}`,
  );
  process.exitCode = why.length === 0 ? 0 : 1;
}

main();
