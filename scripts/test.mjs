#!/usr/bin/env node
// The project's test command (README: `npm test`). Type-checks and builds the whole tree, then runs every
// test/**/*.test.ts file with node's own test runner (files listed explicitly: on Node 20 `node --test`
// without arguments finds no .ts files and still exits 0), and fails when no test ran at all.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv.slice(2);

function findTests(dir) {
  const out = [];
  for (const entry of readdirSync(dir)) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) out.push(...findTests(p));
    else if (entry.endsWith('.test.ts')) out.push(relative(root, p));
  }
  return out.sort();
}

// Type-check the whole tree and emit it to dist/, so the CLI tests run the same build `npx rtserve` runs.
const tc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
  cwd: root,
  stdio: 'inherit',
});
if (tc.status !== 0) {
  console.error('type check failed');
  process.exit(tc.status ?? 1);
}

const files = findTests(join(root, 'test')).filter((f) => only.length === 0 || only.some((o) => f.includes(o)));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', '--test-timeout=120000', ...files],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
let tail = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  tail = (tail + chunk.toString()).slice(-4000);
});
child.on('close', (code) => {
  const m = /ℹ tests (\d+)/.exec(tail);
  const ran = m ? Number(m[1]) : 0;
  const passed = Number(/ℹ pass (\d+)/.exec(tail)?.[1] ?? 0);
  const failed = Number(/ℹ fail (\d+)/.exec(tail)?.[1] ?? 0);
  const skipped = Number(/ℹ skipped (\d+)/.exec(tail)?.[1] ?? 0);
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (ran === 0) {
    console.error('zero tests ran: failing the run');
    process.exit(1);
  }
  process.exit(code ?? 1);
});
