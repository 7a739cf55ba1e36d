/**
 * Files of one concept (docs/architecture.md): no source file under src/ or packages/<name>/src/ grows past 500
 * lines, counted as the formatter leaves them. Generated code is not counted: the gRPC protos are .proto files, and the ONNX bindings that
 * protobufjs-cli writes from src/onnx/onnx.proto live in src/onnx/generated/ (`npm run gen:onnx`).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const LIMIT = 500;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'generated' ? [] : sources(join(dir, e.name))) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const packages = readdirSync(join(root, 'packages'), { withFileTypes: true }).filter((e) => e.isDirectory());

test(`no file under src/ or packages/*/src/ is over ${LIMIT} lines`, () => {
  const over = [join(root, 'src'), ...packages.map((p) => join(root, 'packages', p.name, 'src'))]
    .flatMap(sources)
    .map((f) => ({ file: relative(root, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > LIMIT)
    .map((f) => `${f.file}: ${f.lines} lines`);
  assert.deepEqual(over, [], 'split these by concept');
});
