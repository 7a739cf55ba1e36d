import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluate } from '../../../../src/compiler/eval/kernels.ts';
import { GraphBuilder, attr } from '../../../../src/compiler/ir/builder.ts';
import { DT } from '../../../../src/tensor/onnx-dtype.ts';
import { loadModel, makeNode, saveModel } from '../../../../src/compiler/ir/graph.ts';
import { inferShapes } from '../../../../src/compiler/ir/shape-inference.ts';
import { int64Tensor, toIntArray } from '../../../../src/compiler/ir/tensor.ts';
import { validateGraph } from '../../../../src/compiler/ir/validate.ts';

describe('graph IR', () => {
  test('load → save → load keeps nodes, attributes, initializers and INT64_MAX', () => {
    const b = new GraphBuilder({ opset: 13 });
    b.input('x', DT.FLOAT, ['N', 8]);
    b.init('starts', int64Tensor([1]));
    b.init('ends', { elemType: DT.INT64, dims: [1], data: BigInt64Array.from([2n ** 63n - 1n]) });
    b.node('Slice', ['x', 'starts', 'ends'], ['s']);
    b.node('LeakyRelu', ['s'], ['y'], { alpha: attr.float(0.25) });
    b.output('y', DT.FLOAT, ['N', 7]);
    const g = loadModel(saveModel(loadModel(b.bytes())));
    assert.deepEqual(
      g.nodes.map((n) => n.opType),
      ['Slice', 'LeakyRelu'],
    );
    const alpha = g.nodes[1]?.attrs.get('alpha');
    assert.equal(alpha?.kind === 'float' ? alpha.value : undefined, 0.25);
    assert.equal((g.initializers.get('ends')?.data as BigInt64Array)[0], 2n ** 63n - 1n);
    assert.deepEqual(g.inputs[0]?.type.shape, ['N', 8]);
  });

  test('toposort orders nodes and reports undefined inputs and cycles', () => {
    const b = new GraphBuilder();
    b.input('x', DT.FLOAT, [1]);
    b.graph.nodes.push(makeNode('second', 'Relu', ['a'], ['y']), makeNode('first', 'Neg', ['x'], ['a']));
    b.output('y');
    const g = b.build();
    assert.deepEqual(
      g.nodes.map((n) => n.name),
      ['first', 'second'],
    );
    g.nodes.push(makeNode('bad', 'Relu', ['missing'], ['z']));
    assert.throws(() => g.toposort(), /reads 'missing', which no node, input or initializer defines/);
    g.nodes.pop();
    g.nodes[0]?.inputs.splice(0, 1, 'y');
    assert.throws(() => g.toposort(), /cycle/);
  });

  test('validation: double assignment and undefined outputs', () => {
    const b = new GraphBuilder();
    b.input('x', DT.FLOAT, [1]);
    b.node('Relu', ['x'], ['y']);
    b.node('Neg', ['x'], ['z']);
    b.output('y').output('w');
    const g = b.build();
    assert.throws(() => validateGraph(g, 'm.onnx'), /graph output 'w' is not produced/);
    g.nodes[1]?.outputs.splice(0, 1, 'y');
    g.outputs.pop();
    assert.throws(() => validateGraph(g, 'm.onnx'), /value 'y' is produced twice/);
  });
});

describe('shape inference', () => {
  test('conv, pool, gemm, reshape, concat, slice, transpose', () => {
    const b = new GraphBuilder({ opset: 13 });
    b.input('x', DT.FLOAT, ['N', 3, 15, 15]);
    b.init('w', { elemType: DT.FLOAT, dims: [6, 3, 3, 3], data: new Float32Array(162) });
    b.node('Conv', ['x', 'w'], ['c'], { strides: attr.ints([2, 2]), pads: attr.ints([1, 1, 1, 1]) });
    b.node('MaxPool', ['c'], ['p'], { kernel_shape: attr.ints([3, 3]), strides: attr.ints([2, 2]), ceil_mode: attr.int(1) });
    b.init('shape', int64Tensor([0, -1]));
    b.node('Reshape', ['p', 'shape'], ['r']);
    b.init('fc', { elemType: DT.FLOAT, dims: [4, 96], data: new Float32Array(384) });
    b.node('Gemm', ['r', 'fc'], ['g'], { transB: attr.int(1) });
    b.node('Concat', ['g', 'g'], ['cat'], { axis: attr.int(1) });
    b.init('st', int64Tensor([1]));
    b.init('en', int64Tensor([-1]));
    b.init('ax', int64Tensor([1]));
    b.node('Slice', ['cat', 'st', 'en', 'ax'], ['sl']);
    b.node('Transpose', ['sl'], ['t'], { perm: attr.ints([1, 0]) });
    b.output('t');
    const g = b.build();
    inferShapes(g);
    const shape = (n: string) => g.valueTypes.get(n)?.shape;
    assert.deepEqual(shape('c'), ['N', 6, 8, 8]);
    assert.deepEqual(shape('p'), ['N', 6, 4, 4]);
    assert.deepEqual(shape('r'), ['N', 96]);
    assert.deepEqual(shape('g'), ['N', 4]);
    assert.deepEqual(shape('cat'), ['N', 8]);
    assert.deepEqual(shape('sl'), ['N', 6]);
    assert.deepEqual(shape('t'), [6, 'N']);
  });
});

describe('reference kernels for constant folding', () => {
  const g = new GraphBuilder({ opset: 13 }).build();
  const t = (vals: number[], dims: number[]) => ({ elemType: DT.FLOAT, dims, data: Float32Array.from(vals) });

  test('gather, slice with negative step, transpose, broadcast add, cast', () => {
    const x = t([1, 2, 3, 4, 5, 6], [2, 3]);
    const gather = evaluate(g, makeNode('g', 'Gather', ['x', 'i'], ['y'], { axis: attr.int(1) }), [x, int64Tensor([2, -3], [2])]);
    assert.deepEqual([...(gather?.[0]?.data as Float32Array)], [3, 1, 6, 4]);
    const slice = evaluate(g, makeNode('s', 'Slice', ['x', 'a', 'b', 'c', 'd'], ['y']), [
      x,
      int64Tensor([-1]),
      int64Tensor([-100]),
      int64Tensor([1]),
      int64Tensor([-2]),
    ]);
    assert.deepEqual([...(slice?.[0]?.data as Float32Array)], [3, 1, 6, 4]);
    const tr = evaluate(g, makeNode('t', 'Transpose', ['x'], ['y']), [x]);
    assert.deepEqual(tr?.[0]?.dims, [3, 2]);
    assert.deepEqual([...(tr?.[0]?.data as Float32Array)], [1, 4, 2, 5, 3, 6]);
    const add = evaluate(g, makeNode('a', 'Add', ['x', 'b'], ['y']), [x, t([10, 20, 30], [3])]);
    assert.deepEqual([...(add?.[0]?.data as Float32Array)], [11, 22, 33, 14, 25, 36]);
    const cast = evaluate(g, makeNode('c', 'Cast', ['x'], ['y'], { to: attr.int(DT.INT64) }), [t([1.9, -1.9], [2])]);
    assert.deepEqual(toIntArray(cast?.[0] as never), [1, -1]);
  });

  test('unknown operators are not folded', () => {
    assert.equal(evaluate(g, makeNode('q', 'NonMaxSuppression', ['x'], ['y']), [t([1], [1])]), undefined);
  });
});
