/**
 * The committed demo bundle (web/build/app.js) is what scripts/build-web.mjs builds from the current sources,
 * the demo's TypeScript type-checks, and the server serves the page and its files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { startTestServer } from '../helpers/server.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('web/build/app.js is up to date with web/src and what it imports', async () => {
  // @ts-expect-error: a plain .mjs script without type declarations
  const { buildWebBundle, BUNDLE } = (await import('../../scripts/build-web.mjs')) as { buildWebBundle: () => Promise<string>; BUNDLE: string };
  const fresh = await buildWebBundle();
  const kept = await readFile(BUNDLE, 'utf8');
  assert.ok(kept === fresh, 'web/build/app.js is stale: run `node scripts/build-web.mjs` and commit it');
});

test('the demo sources type-check (web/tsconfig.json)', () => {
  const r = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}web/tsconfig.json`], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('rtserve serves the page at / and its script and styles under /demo/', async () => {
  const server = await startTestServer();
  try {
    const page = await fetch(`${server.httpUrl}/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const html = await page.text();
    assert.match(html, /<script type="module" src="\/demo\/app.js">/);
    const js = await fetch(`${server.httpUrl}/demo/app.js`);
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(await js.text(), await readFile(`${root}web/build/app.js`, 'utf8'));
    assert.equal((await fetch(`${server.httpUrl}/demo/style.css`)).status, 200);
    assert.equal((await fetch(`${server.httpUrl}/demo/../package.json`)).status, 404);
    assert.equal((await fetch(`${server.httpUrl}/demo/other.js`)).status, 404);
  } finally {
    await server.close();
  }
});
