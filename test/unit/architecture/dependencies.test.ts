/**
 * package.json against what is installed (package-lock.json): `engines` promises only Node versions every
 * dependency supports, and CI (.ci/run) runs on the lines it promises: the suite on the current LTS, the smoke test
 * on the oldest allowed line.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const root = fileURLToPath(new URL('../../../', import.meta.url));

interface LockEntry {
  readonly version?: string;
  readonly engines?: { readonly node?: string } | readonly string[];
  readonly os?: readonly string[];
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
const ciRun = readFileSync(join(root, '.ci', 'run'), 'utf8');

/** A `NAME=x.y.z` pin in .ci/run. */
function ciPin(name: string): string {
  const m = new RegExp(`^${name}=(\\d+\\.\\d+\\.\\d+)\\b`, 'm').exec(ciRun);
  assert.ok(m?.[1] !== undefined, `.ci/run pins ${name}=x.y.z`);
  return m[1];
}

test("the lowest Node engines.node allows, and CI's Node versions, satisfy every installed dependency's engines", () => {
  const min = semver.minVersion(pkg.engines.node);
  assert.ok(min !== null, `engines.node ${pkg.engines.node} has a lowest version`);
  // semver.subset() is conservative with unions ('^22.12.0 || >=23'), so the check is on concrete versions: the
  // lowest allowed (a dependency's lower bound above it would be missed) and the two CI runs on.
  const versions = [min.version, ciPin('NODE_OLDEST'), ciPin('NODE_LTS')];
  const unmet: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    const theirs = Array.isArray(entry.engines) ? undefined : (entry.engines as { node?: string } | undefined)?.node;
    // Platform packages for other systems (sharp's win32 build, say) are never installed on Linux.
    if (path === '' || theirs === undefined || (entry.os !== undefined && !entry.os.includes('linux'))) continue;
    for (const v of versions.filter((v) => !semver.satisfies(v, theirs)))
      unmet.push(`${path.replace(/^.*node_modules\//, '')}@${entry.version ?? '?'} needs node ${theirs}, not ${v}`);
  }
  assert.deepEqual(unmet, [], `package.json engines.node is ${pkg.engines.node}`);
});

test('CI smoke-tests the oldest Node line engines allows and runs the suite on a newer LTS line it allows', () => {
  const oldest = ciPin('NODE_OLDEST');
  const lts = ciPin('NODE_LTS');
  const min = semver.minVersion(pkg.engines.node);
  assert.ok(min !== null);
  assert.ok(semver.satisfies(oldest, pkg.engines.node), `NODE_OLDEST ${oldest} satisfies ${pkg.engines.node}`);
  assert.equal(semver.major(oldest), min.major, 'NODE_OLDEST is on the oldest allowed major line');
  assert.ok(semver.satisfies(lts, pkg.engines.node), `NODE_LTS ${lts} satisfies ${pkg.engines.node}`);
  // Node's LTS lines are the even majors.
  assert.ok(semver.major(lts) > min.major && semver.major(lts) % 2 === 0, `NODE_LTS ${lts} is a newer LTS line`);
});
