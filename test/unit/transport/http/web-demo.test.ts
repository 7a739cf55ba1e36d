/**
 * The demo script's prebuilt path (src/transport/http/web-demo.ts): where esbuild is not installed, the server
 * serves dist/web/app.js written beforehand by `node scripts/build-web.mjs`. The package root here is a temporary
 * copy holding the real scripts/build-web.mjs but no node_modules, so its `import 'esbuild'` fails exactly as in an
 * installation without dev dependencies.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { packageRoot } from '../../../../src/util/package-root.ts';
import { RtError } from '../../../../src/errors/registry.ts';
import { demoBundle, registerWebDemo } from '../../../../src/transport/http/web-demo.ts';

describe('the demo script without esbuild: the prebuilt dist/web/app.js', () => {
  let root: string;
  let bundle: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'rtserve-no-esbuild-'));
    await mkdir(join(root, 'scripts'));
    await copyFile(join(packageRoot(), 'scripts', 'build-web.mjs'), join(root, 'scripts', 'build-web.mjs'));
    // What `node scripts/build-web.mjs` writes, built here where esbuild is installed.
    // @ts-expect-error: a plain .mjs script without type declarations
    const { buildWebBundle } = (await import('../../../../scripts/build-web.mjs')) as { buildWebBundle: () => Promise<string> };
    bundle = await buildWebBundle();
  });
  after(() => rm(root, { recursive: true, force: true }));

  test('without the prebuilt file: ROUTE_NOT_FOUND saying that bundling failed and how to prebuild', async () => {
    await assert.rejects(demoBundle(root), (e: unknown) => {
      assert.ok(e instanceof RtError && e.code === 'ROUTE_NOT_FOUND', String(e));
      assert.match(
        e.message,
        /bundling web\/src failed \(.*esbuild.*\) and there is no prebuilt dist\/web\/app\.js \(run `node scripts\/build-web\.mjs`\)/,
      );
      return true;
    });
  });

  test('once the file is written, the next request serves it (a failure is not cached), with the demo headers', async () => {
    await mkdir(join(root, 'dist', 'web'), { recursive: true });
    await writeFile(join(root, 'dist', 'web', 'app.js'), bundle);
    const app = Fastify();
    registerWebDemo(app, { packageRoot: root });
    try {
      const r = await app.inject({ method: 'GET', url: '/demo/app.js' });
      assert.equal(r.statusCode, 200);
      assert.match(String(r.headers['content-type']), /^text\/javascript/);
      assert.match(String(r.headers['content-security-policy']), /script-src 'self'/);
      assert.equal(r.body, bundle);
    } finally {
      await app.close();
    }
  });
});
