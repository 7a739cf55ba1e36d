#!/usr/bin/env node
// Bundles the browser demo (web/src/main.ts, with the client SDK and the scene generator it imports) with esbuild.
// `rtserve serve` calls buildWebBundle() itself on the first request for /demo/app.js (src/transport/http/web-demo.ts),
// so nothing needs building by hand. For a server installed without dev dependencies (no esbuild), write the
// bundle beforehand; the server then serves that file:
//
//   node scripts/build-web.mjs            # writes dist/web/app.js
//
// esbuild comes with tsx (a dev dependency).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
export const PREBUILT = join(root, 'dist', 'web', 'app.js');

/** The bundle's text, built in memory (deterministic for a given esbuild version and source tree). */
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
    banner: { js: '// rtserve demo bundle: built by scripts/build-web.mjs from web/src' },
  });
  const out = result.outputFiles[0];
  if (out === undefined) throw new Error('esbuild produced no output');
  return out.text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await buildWebBundle();
  await mkdir(dirname(PREBUILT), { recursive: true });
  await writeFile(PREBUILT, text);
  console.log(`wrote ${PREBUILT} (${text.length} bytes)`);
}
