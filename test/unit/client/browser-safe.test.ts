/**
 * The SDK's browser entry (src/client/index.ts) must run in browsers: no module it reaches may import a Node
 * built-in (`node:*`, `fs`, ...) or an npm package (the `ws` package comes in only through packages/client/src/node.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  // Static imports and re-exports; `import type` / `export type` are erased at runtime and not followed.
  for (const m of text.matchAll(/^\s*(import|export)\s(type\s)?[^'"]*?from\s+['"]([^'"]+)['"]/gm)) if (m[2] === undefined) out.push(m[3]!);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]!);
  return out;
}

test('everything reachable from src/client/index.ts imports only relative modules', () => {
  const start = resolve(root, 'src/client/index.ts');
  const seen = new Set<string>();
  const offending: string[] = [];
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of importsOf(file)) {
      if (spec.startsWith('.')) queue.push(resolve(dirname(file), spec));
      else offending.push(`${file.slice(root.length + 1)} imports '${spec}'`);
    }
  }
  assert.deepEqual(offending, []);
  assert.ok(seen.has(resolve(root, 'packages/client/src/ws-transport.ts')));
  assert.ok(!seen.has(resolve(root, 'packages/client/src/node.ts')));
  assert.ok(seen.size > 8, `walked ${seen.size} modules`);
});
