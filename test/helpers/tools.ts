/**
 * Tools from Debian packages that some tests need (promtool, prometheus, redis-server, Chromium). Outside CI a
 * missing tool skips those tests, saying how to install it; under CI=true (.ci/run installs every one of them) it
 * never skips: the test runs and fails with the same message, and scripts/test.mjs fails a CI run on any skip that
 * is not a known GPU-only one.
 */
import { spawnSync } from 'node:child_process';

export const underCi = (): boolean => process.env['CI'] === 'true';

export function hasCommand(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function missingMessage(what: string, install: string): string {
  return `${what} not installed (${install}; .ci/run installs it)`;
}

/** The skip reason for tests that need `present` to hold: none when it holds, and none under CI. */
export function skipUnlessPresent(present: boolean, what: string, install: string): false | string {
  if (present || underCi()) return false;
  return missingMessage(what, install);
}

/** skipUnlessPresent for a command from a Debian package. */
export function needTool(cmd: string, pkg: string): false | string {
  return skipUnlessPresent(hasCommand(cmd), cmd, `apt-get install ${pkg}`);
}

/** For a before hook: under CI a missing tool fails here with the install hint, not later with ENOENT. */
export function assertPresent(present: boolean, what: string, install: string): void {
  if (!present) throw new Error(`${missingMessage(what, install)}; CI=true requires it`);
}
