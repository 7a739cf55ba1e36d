/** Small generated models for the compiler tests (seeded, nothing downloaded). */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeNpy } from '../../../src/compiler/data/npy.ts';
import { GraphBuilder, attr } from '../../../src/compiler/ir/builder.ts';
import { DT } from '../../../src/tensor/onnx-dtype.ts';
import { f32, randn, rng } from './helpers.ts';

/**
 * A residual conv net: Conv-BN-Relu → Conv-BN → Add(skip) → Relu → MaxPool → GAP → Flatten → Gemm → logits,
 * and Softmax(logits) → probs. Input [N, 3, 8, 8], 5 classes.
 */
export function tinyConvNet(options: { opset?: number; softmax?: boolean } = {}): Uint8Array {
  const r = rng(2024);
  const b = new GraphBuilder({ opset: options.opset ?? 13 });
  b.input('x', DT.FLOAT, ['N', 3, 8, 8]);
  const bn = (name: string, c: number): string[] => {
    b.init(`${name}.g`, f32(r, [c], 0.1, 1));
    b.init(`${name}.b`, f32(r, [c], 0.1));
    b.init(`${name}.m`, f32(r, [c], 0.1));
    b.init(`${name}.v`, { elemType: DT.FLOAT, dims: [c], data: Float32Array.from({ length: c }, () => 0.5 + r()) });
    return [`${name}.g`, `${name}.b`, `${name}.m`, `${name}.v`];
  };
  b.init('w1', f32(r, [8, 3, 3, 3], Math.sqrt(2 / 27)));
  b.init('w2', f32(r, [8, 8, 3, 3], Math.sqrt(2 / 72)));
  b.init('fcw', f32(r, [5, 8], Math.sqrt(1 / 8)));
  b.init('fcb', f32(r, [5], 0.1));
  b.node('Conv', ['x', 'w1'], ['c1'], { pads: attr.ints([1, 1, 1, 1]) });
  b.node('BatchNormalization', ['c1', ...bn('bn1', 8)], ['b1']);
  b.node('Relu', ['b1'], ['r1']);
  b.node('Conv', ['r1', 'w2'], ['c2'], { pads: attr.ints([1, 1, 1, 1]) });
  b.node('BatchNormalization', ['c2', ...bn('bn2', 8)], ['b2']);
  b.node('Add', ['b2', 'r1'], ['s']);
  b.node('Relu', ['s'], ['r2']);
  b.node('MaxPool', ['r2'], ['p'], { kernel_shape: attr.ints([2, 2]), strides: attr.ints([2, 2]) });
  b.node('GlobalAveragePool', ['p'], ['gap']);
  b.node('Flatten', ['gap'], ['flat']);
  b.node('Gemm', ['flat', 'fcw', 'fcb'], ['logits'], { transB: attr.int(1) });
  b.output('logits', DT.FLOAT, ['N', 5]);
  if (options.softmax !== false) {
    b.node('Softmax', ['logits'], ['probs'], { axis: attr.int(1) });
    b.output('probs', DT.FLOAT, ['N', 5]);
  }
  return b.bytes();
}

export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'rtserve-compiler-'));
}

/** Writes `samples` seeded standard-normal inputs for tinyConvNet as .npy and returns the path. */
export async function writeCalibration(dir: string, samples: number, seed = 99, name = 'calib.npy', dims: number[] = [3, 8, 8]): Promise<string> {
  const n = dims.reduce((a, b) => a * b, 1);
  const path = join(dir, name);
  await writeFile(path, writeNpy({ elemType: DT.FLOAT, dims: [samples, ...dims], data: randn(rng(seed), samples * n) }));
  return path;
}

export async function writeModelFile(dir: string, name: string, bytes: Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}
