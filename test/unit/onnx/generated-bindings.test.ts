/**
 * src/onnx/generated/ is what `npm run gen:onnx` (protobufjs-cli's pbjs and pbts) writes from src/onnx/onnx.proto:
 * the script as package.json has it, run into a temporary folder, gives the committed bytes. A hand edit of the
 * generated code, or a schema change without regenerating, fails here.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { packageRoot } from '../../../src/util/package-root.ts';

const root = packageRoot();

test('the committed ONNX bindings are exactly what npm run gen:onnx generates from src/onnx/onnx.proto', async () => {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const script = pkg.scripts['gen:onnx'] ?? '';
  assert.ok(script.includes('src/onnx/generated/'), 'package.json has the gen:onnx script');
  const out = await mkdtemp(join(tmpdir(), 'rtserve-gen-onnx-'));
  try {
    const r = spawnSync('sh', ['-c', script.replaceAll('src/onnx/generated/', `${out}/`)], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env['PATH'] ?? ''}` },
    });
    assert.equal(r.status, 0, r.stderr);
    for (const file of ['onnx.js', 'onnx.d.ts']) {
      const fresh = await readFile(join(out, file), 'utf8');
      const committed = await readFile(join(root, 'src', 'onnx', 'generated', file), 'utf8');
      assert.ok(fresh === committed, `src/onnx/generated/${file} differs from a fresh generation (run npm run gen:onnx)`);
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
