#!/usr/bin/env node
// Entry point of `npx rtserve`: runs the compiled CLI (built by `npm ci` through the prepare script).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('rtserve: dist/ is missing; run `npm ci` (or `npm run build`) in the rtserve folder first\n');
  process.exit(2);
}
await import(entry.href);
