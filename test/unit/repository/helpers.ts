/** Shared helpers for the repository tests: temp repositories and small ONNX models built in memory. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { GraphBuilder } from '../../../src/onnx/builder.ts';
import type { DimSpec } from '../../../src/onnx/builder.ts';
import { ElemType, saveModel } from '../../../src/onnx/proto.ts';

export async function makeTempDir(prefix = 'rtserve-repo-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Writes files (string or bytes) and empty directories (null) under `root`; keys use '/' separators. */
export async function writeTree(root: string, tree: Readonly<Record<string, string | Uint8Array | null>>): Promise<void> {
  for (const [path, content] of Object.entries(tree)) {
    const target = join(root, ...path.split('/'));
    if (content === null) {
      await mkdir(target, { recursive: true });
    } else {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content);
    }
  }
}

/** `a + b` over two inputs of the given shape and element type (FLOAT by default). */
export function addModel(dims: readonly DimSpec[] = ['batch', 4], elemType: number = ElemType.FLOAT): Uint8Array {
  const g = new GraphBuilder('add');
  g.input('a', elemType, dims);
  g.input('b', elemType, dims);
  g.node('Add', ['a', 'b'], ['sum']);
  g.output('sum', elemType, dims);
  return saveModel(g.toModel({ opsetVersion: 13 }));
}
