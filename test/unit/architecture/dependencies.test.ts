/**
 * package.json against what is installed (package-lock.json) and what src/ imports: `engines` promises only Node
 * versions every dependency supports, and CI (.ci/run) runs on the lines it promises (the suite on the current
 * LTS, the smoke test on the oldest allowed line); runtime dependencies are what src/ and bin/ import, nothing
 * more and nothing less; no dependency's install script runs (rtserve needs none), and none phones home.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const root = fileURLToPath(new URL('../../../', import.meta.url));

interface LockEntry {
  readonly version?: string;
  readonly hasInstallScript?: boolean;
  readonly engines?: { readonly node?: string } | readonly string[];
  readonly os?: readonly string[];
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  allowScripts?: Record<string, boolean>;
  scarfSettings?: { enabled?: boolean };
};
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
  // lowest allowed (where a dependency that needs more shows) and the two CI runs on.
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

/** Every .ts / .js file under `dir` (not declaration files: they load nothing at run time). */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|js|mjs)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => join(root, dir, f));
}

/** The packages a file loads at run time: imports, dynamic imports, require and require.resolve (not `import type`). */
function packagesLoaded(text: string): Set<string> {
  const out = new Set<string>();
  const specifier = /(?:^\s*import\s+(?!type\b)[^'"]*?from\s*|^\s*import\s*|\bimport\(|\brequire(?:\.resolve)?\()['"]([^'"./][^'"]*)['"]/gm;
  for (const m of text.matchAll(specifier)) {
    const spec = m[1] ?? '';
    // node: built-ins, and '#name': the package's own subpath imports (package.json "imports").
    if (spec.startsWith('node:') || spec.startsWith('#')) continue;
    const parts = spec.split('/');
    out.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? spec));
  }
  return out;
}

test('runtime dependencies are exactly the packages src/ and bin/ load; dev tools stay in devDependencies', () => {
  const loaded = new Set<string>();
  for (const file of [...sources('src'), ...sources('bin')]) for (const p of packagesLoaded(readFileSync(file, 'utf8'))) loaded.add(p);
  const runtime = Object.keys(pkg.dependencies);
  assert.deepEqual(
    runtime.filter((d) => !loaded.has(d)),
    [],
    'dependencies nothing in src/ or bin/ loads (devDependencies, if only tests use them)',
  );
  assert.deepEqual([...loaded].filter((p) => !runtime.includes(p)).sort(), [], 'packages src/ or bin/ load that are not runtime dependencies');
});

test('the import scan sees value imports and skips type-only ones', () => {
  const seen = packagesLoaded(
    "import a from 'pkg-a';\nimport { b } from '@scope/pkg-b/sub';\nimport type { C } from 'pkg-c';\nconst d = await import('pkg-d');\nrequire.resolve('pkg-e/package.json');\nimport './local.ts';\nimport 'node:fs';\nimport { onnx } from '#onnx-proto';",
  );
  assert.deepEqual([...seen].sort(), ['@scope/pkg-b', 'pkg-a', 'pkg-d', 'pkg-e']);
});

test("no installed package's install script runs: each is denied in allowScripts, and scarf's telemetry is off", () => {
  const allow = pkg.allowScripts ?? {};
  const withScripts = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (entry.hasInstallScript === true && path !== '') withScripts.add(path.replace(/^.*node_modules\//, ''));
  }
  assert.deepEqual(
    [...withScripts].filter((name) => allow[name] !== false).sort(),
    [],
    'packages with install scripts not denied in package.json allowScripts (npm install-scripts deny <pkg>)',
  );
  assert.deepEqual(
    Object.keys(allow).filter((name) => !withScripts.has(name)),
    [],
    'allowScripts entries for packages without install scripts (npm install-scripts prune)',
  );
  // swagger-ui-dist depends on @scarf/scarf, which reports installs to scarf.sh unless the root package says no.
  assert.equal(pkg.scarfSettings?.enabled, false);
});
