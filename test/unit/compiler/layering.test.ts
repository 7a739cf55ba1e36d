import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await files(p)));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

// DESIGN.md layering: compiler/ imports only plan/, errors/, config/, onnx/ and small utilities, and never
// onnxruntime (the CLI hands it a runtime); plan/ is shared by compiler and engines and imports even less.
test('src/compiler and src/plan import nothing from core, transport, engine or onnxruntime', async () => {
  const allowedTop = new Set(['compiler', 'plan', 'errors', 'config', 'onnx', 'util']);
  const offenders: string[] = [];
  for (const dir of ['src/compiler', 'src/plan']) {
    for (const f of await files(join(root, dir))) {
      const rel = relative(root, f);
      const text = await readFile(f, 'utf8');
      for (const m of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
        const spec = m[1] ?? '';
        if (spec.includes('onnxruntime')) offenders.push(`${rel}: ${spec}`);
        if (!spec.startsWith('.')) continue;
        const target = normalize(join(dirname(rel), spec)).split('/');
        if (target[0] !== 'src' || !allowedTop.has(target[1] ?? '')) offenders.push(`${rel}: ${spec}`);
        if (rel.startsWith('src/plan') && target[1] === 'compiler') offenders.push(`${rel}: ${spec} (plan must not depend on compiler)`);
      }
    }
  }
  assert.deepEqual(offenders, []);
});
