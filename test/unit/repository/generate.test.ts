import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateModels, mulberry32 } from '../../../models/generate.ts';
import { makeTempDir, removeDir } from './helpers.ts';

const MODELS = fileURLToPath(new URL('../../../models', import.meta.url));
/** Files in models/ that the generator does not write. */
const NOT_GENERATED = new Set(['README.md', 'generate.ts']);
/** Trained models and their training scripts (models/train/README.md): not generated, checked by their own tests. */
const TRAINED_DIRS = ['charlm/', 'digits/', 'shapes/', 'train/'];

async function listFiles(dir: string, root = dir): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(p, root)));
    else out.push(relative(root, p).split(sep).join('/'));
  }
  return out.sort();
}

let out = '';
before(async () => {
  out = await makeTempDir('rtserve-models-');
});
after(async () => removeDir(out));

test('mulberry32 is a deterministic sequence in [0, 1)', () => {
  const a = mulberry32(42);
  const b = mulberry32(42);
  const xs = Array.from({ length: 1000 }, () => a());
  assert.deepEqual(
    xs,
    Array.from({ length: 1000 }, () => b()),
  );
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  assert.notDeepEqual(xs.slice(0, 10), Array.from({ length: 10 }, mulberry32(43)));
});

test('regenerating the bundled models gives the committed bytes, and no committed file is stale', async () => {
  const written = (await generateModels(out)).sort();
  const committed = (await listFiles(MODELS)).filter((p) => !NOT_GENERATED.has(p) && !TRAINED_DIRS.some((d) => p.startsWith(d)));
  assert.deepEqual(committed, written, 'models/ holds exactly the generated files (run `npx tsx models/generate.ts`)');
  for (const path of written) {
    const fresh = await readFile(join(out, path));
    const kept = await readFile(join(MODELS, path));
    assert.ok(fresh.equals(kept), `models/${path} differs from a fresh generation (run \`npx tsx models/generate.ts\`)`);
  }
});
