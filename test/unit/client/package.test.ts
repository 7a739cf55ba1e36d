/**
 * The client is its own package (packages/client, `@rtserve/client`, an npm workspace): its dependencies are a
 * small allow-list of pure-JavaScript packages, importing it loads none of the server's modules or packages (only
 * its own files and the protocol layers it shares with the server: src/codec, src/tensor, src/errors), and the
 * server's `rtserve/client` entry is the same module objects.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageRoot } from '../../../src/util/package-root.ts';

const root = packageRoot();
const pkg = JSON.parse(readFileSync(join(root, 'packages/client/package.json'), 'utf8')) as {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};
const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces?: string[]; dependencies: Record<string, string> };
const ALLOWED = ['@grpc/grpc-js', 'ws'];

interface Manifest {
  dependencies?: Record<string, string>;
  scripts?: Record<string, string>;
  gypfile?: boolean;
}
const manifest = (name: string): Manifest => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as Manifest;

/** `names` and every package they depend on, as installed. */
function closure(names: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...names];
  while (stack.length > 0) {
    const n = stack.pop() as string;
    if (seen.has(n)) continue;
    seen.add(n);
    stack.push(...Object.keys(manifest(n).dependencies ?? {}));
  }
  return seen;
}

test('a workspace of the repository whose dependencies are the allow-list, pinned as the server pins them, none native', () => {
  assert.equal(pkg.name, '@rtserve/client');
  assert.deepEqual(rootPkg.workspaces, ['packages/client']);
  const deps = pkg.dependencies ?? {};
  assert.deepEqual(Object.keys(deps).sort(), ALLOWED);
  assert.equal(pkg.devDependencies, undefined, 'the package builds with the repository tools');
  for (const [name, version] of Object.entries(deps)) assert.equal(version, rootPkg.dependencies[name], `${name} pinned as the server pins it`);
  for (const name of closure(ALLOWED)) {
    const m = manifest(name);
    assert.ok(m.gypfile !== true && !existsSync(join(root, 'node_modules', name, 'binding.gyp')), `${name} is not native`);
    for (const s of ['preinstall', 'install', 'postinstall']) {
      // protobufjs (under @grpc/proto-loader) only prints a version warning there; allowScripts denies it.
      if (name !== 'protobufjs') assert.equal(m.scripts?.[s], undefined, `${name} has no ${s} script`);
    }
  }
});

/** The files (relative to the repository) and packages a fresh Node process loads when it imports `entry`. */
function loadedBy(entry: string): { files: string[]; packages: Set<string> } {
  const dir = mkdtempSync(join(tmpdir(), 'rtserve-client-load-'));
  try {
    const log = join(dir, 'loaded.txt');
    writeFileSync(log, '');
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(
      hooks,
      `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (r.url.startsWith('file:')) appendFileSync(log, r.url + '\\n');
  return r;
}`,
    );
    const register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)}, { data: { log: ${JSON.stringify(log)} } });\n`,
    );
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        pathToFileURL(register).href,
        '--input-type=module',
        '-e',
        `await import(${JSON.stringify(pathToFileURL(join(root, entry)).href)});`,
      ],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 0, r.stderr);
    const files = [...new Set(readFileSync(log, 'utf8').trim().split('\n'))].map((u) => relative(root, fileURLToPath(u)));
    // A package's file, wherever node_modules is (this checkout's may be a link to another's): its name.
    const packageOf = (f: string): string | undefined => {
      const at = f.lastIndexOf('node_modules/');
      if (at < 0) return undefined;
      const parts = f.slice(at + 'node_modules/'.length).split('/');
      return parts[0]?.startsWith('@') === true ? `${parts[0]}/${parts[1]}` : parts[0];
    };
    const packages = new Set(files.map(packageOf).filter((p): p is string => p !== undefined));
    return { files: files.filter((f) => packageOf(f) === undefined), packages };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SHARED = ['packages/client/src/', 'src/codec/', 'src/tensor/', 'src/errors/'];

test('importing the Node entry loads only the package, the shared protocol layers and the allowed packages', () => {
  const { files, packages } = loadedBy('packages/client/src/node.ts');
  assert.ok(files.includes('packages/client/src/rtserve-client.ts'), files.join(', '));
  assert.deepEqual(
    files.filter((f) => !SHARED.some((s) => f.startsWith(s))),
    [],
    'server modules loaded',
  );
  const allowed = closure(ALLOWED);
  assert.ok(packages.has('ws') && packages.has('@grpc/grpc-js'));
  assert.deepEqual(
    [...packages].filter((p) => !allowed.has(p) && p !== 'tsx'),
    [],
    'packages outside the allow-list',
  );
});

test('importing the browser entry loads no package at all', () => {
  const { files, packages } = loadedBy('packages/client/src/index.ts');
  assert.ok(!files.includes('packages/client/src/node.ts'));
  assert.deepEqual(
    [...packages].filter((p) => p !== 'tsx'),
    [],
  );
});

test("the server's rtserve/client entry re-exports the package's objects", async () => {
  const server = await import('../../../src/client/index.ts');
  const client = await import('../../../packages/client/src/index.ts');
  assert.deepEqual(Object.keys(server).sort(), Object.keys(client).sort());
  for (const [k, v] of Object.entries(client)) assert.equal((server as Record<string, unknown>)[k], v, k);
});
