/**
 * The demo's script is bundled from web/src on demand and served with the page; the demo's TypeScript
 * type-checks (web/ is outside the root tsconfig).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { startTestServer } from '../helpers/server.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('the demo sources type-check (web/tsconfig.json)', () => {
  const r = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}web/tsconfig.json`], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('rtserve serves the page at /, its styles, and the script bundled from web/src', async () => {
  const server = await startTestServer();
  try {
    const page = await fetch(`${server.httpUrl}/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(await page.text(), await readFile(`${root}web/index.html`, 'utf8'));
    const js = await fetch(`${server.httpUrl}/demo/app.js`);
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /^text\/javascript/);
    // @ts-expect-error: a plain .mjs script without type declarations
    const { buildWebBundle } = (await import('../../scripts/build-web.mjs')) as { buildWebBundle: () => Promise<string> };
    const body = await js.text();
    assert.equal(body, await buildWebBundle());
    // browser code only: no Node built-ins slipped into the bundle
    assert.doesNotMatch(body, /from\s*"node:|require\("(fs|path|os|worker_threads)"\)/);
    assert.equal((await fetch(`${server.httpUrl}/demo/style.css`)).status, 200);
    assert.equal((await fetch(`${server.httpUrl}/demo/../package.json`)).status, 404);
    assert.equal((await fetch(`${server.httpUrl}/demo/other.js`)).status, 404);
  } finally {
    await server.close();
  }
});
