/**
 * The published package: `npm pack`'s tarball installed into an empty project, offline, runs `npx rtserve serve`
 * on its bundled models (no TypeScript, tsx or esbuild installed there), and its `rtserve/client` entry bundles
 * for the browser (esbuild, resolved through the package's `exports`) and answers from Chromium.
 *
 * Offline: the empty project starts with a hard-linked copy of this repository's node_modules, so npm resolves
 * rtserve's dependencies from packages already on disk (and prunes everything rtserve does not depend on:
 * the dev tools); nothing is fetched.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../../src/util/package-root.ts';
import { groupAlive, startCli, type CliProcess } from '../helpers/cli.ts';
import { browserSkipReason, launchChromium } from './browser.ts';

const root = packageRoot();
const npm = (args: string[], cwd: string): { status: number | null; out: string } => {
  const r = spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip', npm_config_update_notifier: 'false' },
  });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
};

describe('the npm package', { skip: existsSync(join(root, 'dist', 'src', 'cli', 'main.js')) ? false : 'dist/ not built (npm ci builds it)' }, () => {
  let work: string;
  let project: string;
  let tarball: string;
  let files: string[];
  let server: CliProcess | undefined;

  before(async () => {
    // Inside the repository (its tmp/ is git-ignored) so the hard links stay on one file system.
    await mkdir(join(root, 'tmp'), { recursive: true });
    work = await mkdtemp(join(root, 'tmp', 'npm-package-'));
    // The demo bundle is prebuilt into dist/web (what `npm pack`'s prepack does after tsc).
    const web = spawnSync(process.execPath, [join(root, 'scripts', 'build-web.mjs')], { encoding: 'utf8' });
    assert.equal(web.status, 0, web.stderr);
    const pack = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], root);
    assert.equal(pack.status, 0, pack.out);
    const info = (
      JSON.parse(pack.out.slice(pack.out.indexOf('['), pack.out.lastIndexOf(']') + 1)) as { filename: string; files: { path: string }[] }[]
    )[0];
    assert.ok(info !== undefined);
    tarball = join(work, info.filename);
    files = info.files.map((f) => f.path);
    project = join(work, 'project');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'empty-project', version: '1.0.0', private: true, type: 'module' }));
    const copy = spawnSync('cp', ['-al', join(root, 'node_modules'), join(project, 'node_modules')]);
    assert.equal(copy.status, 0, String(copy.stderr));
    await rm(join(project, 'node_modules', '.package-lock.json'), { force: true });
  });
  after(async () => {
    if (server?.child.pid !== undefined && groupAlive(server.child.pid)) process.kill(-server.child.pid, 'SIGKILL');
    await rm(work, { recursive: true, force: true });
  });

  test('the tarball holds what runs, the licence and the docs, and no sources, tests or build tools', () => {
    for (const f of [
      'package.json',
      'LICENSE',
      'README.md',
      'bin/rtserve.js',
      'dist/src/cli/main.js',
      'dist/src/index.d.ts',
      'dist/src/client/index.js',
      'dist/src/client/index.d.ts',
      'dist/web/app.js',
      'src/transport/grpc/proto/grpc_service.proto',
      'models/simple/1/model.onnx',
      'models/simple/config.pbtxt',
      'web/index.html',
      'docs/triton-compat.md',
    ]) {
      assert.ok(files.includes(f), `${f} is packed`);
    }
    const stray = files.filter(
      (f) => /^(test|scripts|native|bench|models\/train)\//.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts')) || f.endsWith('.map'),
    );
    assert.deepEqual(stray, []);
  });

  test('installs offline into an empty project; npx rtserve serve answers on the bundled models', async () => {
    const install = npm(['install', '--offline', '--no-audit', '--no-fund', tarball], project);
    assert.equal(install.status, 0, install.out);
    assert.doesNotMatch(install.out, /Unknown (project|user) config/);
    const installed = await readdir(join(project, 'node_modules'));
    for (const devTool of ['typescript', 'tsx', 'esbuild', 'playwright-core', 'fast-check'])
      assert.ok(!installed.includes(devTool), `${devTool} is not installed`);
    const pkg = JSON.parse(await readFile(join(project, 'node_modules', 'rtserve', 'package.json'), 'utf8')) as {
      license: string;
      engines: { node: string };
    };
    assert.equal(pkg.license, 'Apache-2.0');

    // `npx rtserve serve` in the project: npx finds the package's bin in node_modules/.bin, nothing is fetched.
    server = await startCli(['--offline', '--no', 'rtserve'], ['--http-port', '0', '--grpc-port', '0', '--metrics-port', '0'], {
      command: 'npx',
      cwd: project,
      detached: true,
      env: { ...process.env, RTSERVE_LOG_LEVEL: 'warn', npm_config_update_notifier: 'false' },
      timeoutMs: 90_000,
    });
    const http = server.urls['http'] ?? '';
    const index = (await (await fetch(`${http}/v2/repository/index`, { method: 'POST' })).json()) as { name: string; state: string }[];
    assert.deepEqual(
      index.filter((m) => m.state === 'READY').map((m) => m.name),
      ['charlm', 'digits', 'encoder', 'identity_all', 'mlp', 'resnet_tiny', 'shapes', 'simple'],
    );
    const body = JSON.stringify({
      inputs: ['INPUT0', 'INPUT1'].map((name) => ({ name, shape: [1, 16], datatype: 'INT32', data: new Array(16).fill(name === 'INPUT0' ? 5 : 3) })),
    });
    const res = (await (
      await fetch(`${http}/v2/models/simple/infer`, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
    ).json()) as { outputs: { name: string; data: number[] }[] };
    assert.deepEqual(res.outputs.find((o) => o.name === 'OUTPUT1')?.data, new Array(16).fill(2));
    // The demo page's script comes from the prebuilt bundle: esbuild is not installed here.
    const demo = await fetch(`${http}/demo/app.js`);
    assert.equal(demo.status, 200);
    assert.equal(await demo.text(), await readFile(join(root, 'dist', 'web', 'app.js'), 'utf8'));
  });

  test("'rtserve/client' bundles for the browser through the package's exports and answers from Chromium", {
    skip: browserSkipReason(),
  }, async () => {
    assert.ok(server !== undefined, 'the previous test started the installed server');
    const http = server.urls['http'] ?? '';
    await writeFile(
      join(project, 'entry.js'),
      [
        "import { RtserveClient } from 'rtserve/client';",
        'const client = new RtserveClient({ url: location.origin });',
        "const r = await client.infer('simple', { INPUT0: { shape: [1, 16], data: new Int32Array(16).fill(7) }, INPUT1: { shape: [1, 16], data: new Int32Array(16).fill(2) } });",
        "document.title = 'done ' + Array.from(r.data('OUTPUT0')).join(',');",
      ].join('\n'),
    );
    // esbuild from this repository's tools (the project itself has none): resolves 'rtserve/client' in the project.
    const { build } = await import('esbuild');
    const out = await build({
      entryPoints: [join(project, 'entry.js')],
      absWorkingDir: project,
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      target: ['es2022'],
      logLevel: 'silent',
    });
    const script = out.outputFiles[0]?.text ?? '';
    assert.doesNotMatch(script, /from\s*"node:|require\("(fs|path|os|net|http)"\)/, 'no Node built-ins in the browser bundle');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      // The page is served as if from the rtserve origin, so the client's requests are same-origin.
      await page.route(`${http}/package-test.html`, (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><title>loading</title><script type="module" src="/package-test.js"></script>',
        }),
      );
      await page.route(`${http}/package-test.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: script }));
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${http}/package-test.html`);
      await page.waitForFunction(() => document.title.startsWith('done') || document.title.startsWith('error'), undefined, { timeout: 30_000 });
      assert.deepEqual(errors, []);
      assert.equal(await page.title(), `done ${new Array(16).fill(9).join(',')}`);
    } finally {
      await browser.close();
    }
  });

  test('Ctrl-C (SIGINT to the process group) stops npx and the server it started', async () => {
    const pid = server?.child.pid;
    assert.ok(server !== undefined && pid !== undefined, 'the install test started the installed server');
    process.kill(-pid, 'SIGINT');
    await server.exited;
    // The server drains and exits on its own; the group is empty once it has.
    for (let i = 0; i < 600 && groupAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(groupAlive(pid), false, `rtserve exited; stderr: ${server.stderr()}`);
    assert.doesNotMatch(server.stderr(), /"level":"(error|fatal)"/, 'no error logged while stopping');
  });
});
