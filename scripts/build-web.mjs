#!/usr/bin/env node
// Builds the browser demo (web/src/main.ts, with the client SDK and the scene generator it imports) into
// web/build/app.js, which `rtserve serve` serves at /demo/app.js. The bundle is committed, so a server needs no
// build tools; test/e2e/web-bundle.test.ts fails when it is stale. Run after changing web/src, src/client or what
// they import:
//
//   node scripts/build-web.mjs            # write web/build/app.js
//   node scripts/build-web.mjs --check    # exit 1 when web/build/app.js differs from a fresh build
//
// esbuild comes with tsx (a dev dependency); it is not needed at run time.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
export const BUNDLE = join(root, 'web', 'build', 'app.js');

/** The bundle's text, built in memory. Deterministic for a given esbuild version and source tree. */
export async function buildWebBundle() {
  const result = await build({
    entryPoints: [join(root, 'web', 'src', 'main.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
    banner: { js: '// rtserve demo bundle: built by scripts/build-web.mjs from web/src (do not edit)' },
  });
  const out = result.outputFiles[0];
  if (out === undefined) throw new Error('esbuild produced no output');
  return out.text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fresh = await buildWebBundle();
  if (process.argv.includes('--check')) {
    const kept = await readFile(BUNDLE, 'utf8').catch(() => '');
    if (kept !== fresh) {
      console.error('web/build/app.js is stale: run `node scripts/build-web.mjs`');
      process.exit(1);
    }
    console.log('web/build/app.js is up to date');
  } else {
    await mkdir(dirname(BUNDLE), { recursive: true });
    await writeFile(BUNDLE, fresh);
    console.log(`wrote ${BUNDLE} (${fresh.length} bytes)`);
  }
}
