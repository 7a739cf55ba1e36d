import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GraphBuilder, attr } from '../../../../src/compiler/ir/builder.ts';
import { DT } from '../../../../src/tensor/onnx-dtype.ts';
import { loadModel } from '../../../../src/compiler/ir/graph.ts';
import { int64Tensor } from '../../../../src/compiler/ir/tensor.ts';
import {
  activationFusion,
  batchNormFolding,
  biasFusion,
  constantFolding,
  deadNodeElimination,
  identityElimination,
  runPasses,
  shapeSimplification,
  type Pass,
} from '../../../../src/compiler/passes/index.ts';
import { assertAllClose, assertEquivalent, f32, floatT, opTypes, randn, rng, runBytes, runGraph } from '../helpers.ts';

const ctx = { target: 'ort-cpu', precision: 'fp32' } as const;

function apply(bytes: Uint8Array, passes: Pass[]) {
  const g = loadModel(bytes);
  const report = runPasses(g, passes, ctx);
  return { g, report };
}

/** x → Conv(3→4, 3x3, pad 1) → BatchNormalization → Relu → y */
function convBnRelu(): Uint8Array {
  const r = rng(7);
  const b = new GraphBuilder();
  b.input('x', DT.FLOAT, ['N', 3, 6, 6]);
  b.init('w', f32(r, [4, 3, 3, 3], 0.5));
  b.init('cb', f32(r, [4], 0.1));
  b.init('gamma', f32(r, [4], 0.2, 1));
  b.init('beta', f32(r, [4], 0.1));
  b.init('mean', f32(r, [4], 0.3));
  b.init('var', { elemType: DT.FLOAT, dims: [4], data: Float32Array.from([0.5, 1.5, 2, 0.8]) });
  b.node('Conv', ['x', 'w', 'cb'], ['c'], { pads: attr.ints([1, 1, 1, 1]) });
  b.node('BatchNormalization', ['c', 'gamma', 'beta', 'mean', 'var'], ['bn'], { epsilon: attr.float(1e-3) });
  b.node('Relu', ['bn'], ['y']);
  b.output('y', DT.FLOAT, ['N', 4, 6, 6]);
  return b.bytes();
}

describe('batchnorm-folding', () => {
  test('folds BN into the preceding Conv and keeps the outputs', async () => {
    const before = convBnRelu();
    const { g, report } = apply(before, [batchNormFolding, deadNodeElimination]);
    assert.deepEqual(opTypes(g), ['Conv', 'Relu']);
    assert.equal(report[0]?.changed, 1);
    assert.match(report[0]?.changes[0] ?? '', /folded BatchNormalization/);
    await assertEquivalent(before, g, 11);
  });

  test('folds BN into a Gemm (BatchNorm1d after Linear)', async () => {
    const r = rng(3);
    const b = new GraphBuilder();
    b.input('x', DT.FLOAT, ['N', 5]);
    b.init('W', f32(r, [6, 5]));
    b.init('C', f32(r, [6]));
    for (const [n, off] of [
      ['g', 1],
      ['bt', 0],
      ['m', 0],
    ] as const)
      b.init(n, f32(r, [6], 0.3, off));
    b.init('v', { elemType: DT.FLOAT, dims: [6], data: new Float32Array(6).fill(0.7) });
    b.node('Gemm', ['x', 'W', 'C'], ['h'], { transB: attr.int(1), beta: attr.float(0.5) });
    b.node('BatchNormalization', ['h', 'g', 'bt', 'm', 'v'], ['y']);
    b.output('y', DT.FLOAT, ['N', 6]);
    const before = b.bytes();
    const { g } = apply(before, [batchNormFolding]);
    assert.deepEqual(opTypes(g), ['Gemm']);
    await assertEquivalent(before, g, 5);
  });

  test('leaves BN alone when the Conv output has another consumer', async () => {
    const r = rng(1);
    const b = new GraphBuilder();
    b.input('x', DT.FLOAT, [1, 2, 4, 4]);
    b.init('w', f32(r, [2, 2, 1, 1]));
    for (const n of ['g', 'bt', 'm']) b.init(n, f32(r, [2]));
    b.init('v', { elemType: DT.FLOAT, dims: [2], data: Float32Array.from([1, 2]) });
    b.node('Conv', ['x', 'w'], ['c']);
    b.node('BatchNormalization', ['c', 'g', 'bt', 'm', 'v'], ['y']);
    b.node('Relu', ['c'], ['z']);
    b.output('y').output('z');
    const { g, report } = apply(b.bytes(), [batchNormFolding]);
    assert.equal(report[0]?.changed, 0);
    assert.ok(opTypes(g).includes('BatchNormalization'));
  });
});

describe('bias-fusion and activation-fusion', () => {
  test('Conv + Add(per-channel const) becomes a Conv with bias; + Relu becomes FusedConv', async () => {
    const r = rng(9);
    const b = new GraphBuilder();
    b.input('x', DT.FLOAT, ['N', 3, 5, 5]);
    b.init('w', f32(r, [4, 3, 3, 3]));
    b.init('bias', f32(r, [1, 4, 1, 1]));
    b.node('Conv', ['x', 'w'], ['c']);
    b.node('Add', ['bias', 'c'], ['a']);
    b.node('Relu', ['a'], ['y']);
    b.output('y', DT.FLOAT, ['N', 4, 3, 3]);
    const before = b.bytes();
    const { g } = apply(before, [biasFusion, activationFusion]);
    assert.deepEqual(opTypes(g), ['FusedConv']);
    assert.equal(g.nodes[0]?.domain, 'com.microsoft');
    assert.equal(g.nodes[0]?.inputs.length, 3);
    await assertEquivalent(before, g, 2);
  });

  test('MatMul + Add becomes Gemm; Gemm + LeakyRelu becomes FusedGemm', async () => {
    const r = rng(4);
    const b = new GraphBuilder();
    b.input('x', DT.FLOAT, ['N', 8]);
    b.init('W', f32(r, [8, 3]));
    b.init('b', f32(r, [3]));
    b.node('MatMul', ['x', 'W'], ['m']);
    b.node('Add', ['m', 'b'], ['a']);
    b.node('LeakyRelu', ['a'], ['y'], { alpha: attr.float(0.2) });
    b.output('y', DT.FLOAT, ['N', 3]);
    const before = b.bytes();
    const { g } = apply(before, [biasFusion, activationFusion]);
    assert.deepEqual(opTypes(g), ['FusedGemm']);
    await assertEquivalent(before, g, 3);
  });

  test('an Add whose constant does not broadcast per channel is not fused', () => {
    const r = rng(4);
    const b = new GraphBuilder();
    b.input('x', DT.FLOAT, ['N', 3, 5, 5]);
    b.init('w', f32(r, [4, 3, 1, 1]));
    b.init('k', f32(r, [5]));
    b.node('Conv', ['x', 'w'], ['c']);
    b.node('Add', ['c', 'k'], ['y']);
    b.output('y');
    const { report } = apply(b.bytes(), [biasFusion]);
    assert.equal(report[0]?.changed, 0);
  });

  test('activation fusion is skipped for INT8 and WebGPU builds', () => {
    assert.equal(activationFusion.applies?.({ target: 'ort-cpu', precision: 'int8' }), false);
    assert.equal(activationFusion.applies?.({ target: 'ort-webgpu', precision: 'fp32' }), false);
  });
});

describe('identity-elimination, constant-folding, shape-simplification, dead-node-elimination', () => {
  test('removes Identity/Dropout/no-op Cast but keeps graph output names', async () => {
    const b = new GraphBuilder();
    b.input('x', DT.FLOAT, ['N', 4]);
    b.node('Identity', ['x'], ['a']);
    b.node('Relu', ['a'], ['r']);
    b.node('Dropout', ['r'], ['d']);
    b.node('Cast', ['d'], ['c'], { to: attr.int(DT.FLOAT) });
    b.node('Identity', ['c'], ['y']);
    b.output('y', DT.FLOAT, ['N', 4]);
    const before = b.bytes();
    const { g } = apply(before, [identityElimination]);
    assert.deepEqual(opTypes(g), ['Relu']);
    assert.deepEqual(g.nodes[0]?.outputs, ['y']);
    assert.equal(g.outputs[0]?.name, 'y');
    await assertEquivalent(before, g, 8);
  });

  test('an Identity from a graph input straight to a graph output stays', () => {
    const b = new GraphBuilder();
    b.input('x', DT.FLOAT, [2]);
    b.node('Identity', ['x'], ['y']);
    b.output('y', DT.FLOAT, [2]);
    const { g } = apply(b.bytes(), [identityElimination]);
    assert.deepEqual(opTypes(g), ['Identity']);
  });

  test('folds a constant weight Transpose and a Constant node', async () => {
    const r = rng(2);
    const b = new GraphBuilder();
    b.input('x', DT.FLOAT, ['N', 4]);
    b.init('Wt', f32(r, [3, 4]));
    b.node('Transpose', ['Wt'], ['W'], { perm: attr.ints([1, 0]) });
    b.node('Constant', [], ['k'], { value: attr.tensor({ elemType: DT.FLOAT, dims: [3], data: Float32Array.from([1, 2, 3]) }) });
    b.node('MatMul', ['x', 'W'], ['m']);
    b.node('Mul', ['m', 'k'], ['y']);
    b.output('y', DT.FLOAT, ['N', 3]);
    const before = b.bytes();
    const { g, report } = apply(before, [constantFolding, deadNodeElimination]);
    assert.deepEqual(opTypes(g), ['MatMul', 'Mul']);
    assert.equal(report[0]?.changed, 2);
    await assertEquivalent(before, g, 4);
  });

  test('x.view(x.size(0), -1): the Shape chain becomes a constant Reshape target with a copied dim', async () => {
    const b = new GraphBuilder({ opset: 13 });
    b.input('x', DT.FLOAT, ['N', 2, 3, 3]);
    b.init('zero', int64Tensor([0], []));
    b.init('ax', int64Tensor([0]));
    b.init('minus1', int64Tensor([-1]));
    b.node('Shape', ['x'], ['s']);
    b.node('Gather', ['s', 'zero'], ['n0']);
    b.node('Unsqueeze', ['n0', 'ax'], ['n1']);
    b.node('Concat', ['n1', 'minus1'], ['target'], { axis: attr.int(0) });
    b.node('Reshape', ['x', 'target'], ['y']);
    b.output('y', DT.FLOAT, ['N', 18]);
    const before = b.bytes();
    const { g } = apply(before, [shapeSimplification, constantFolding, deadNodeElimination]);
    assert.deepEqual(opTypes(g), ['Reshape']);
    const target = g.initializers.get(g.nodes[0]?.inputs[1] ?? '');
    assert.deepEqual(Array.from(target?.data as BigInt64Array, Number), [0, -1]);
    await assertEquivalent(before, g, 6, 1e-6, 3);
  });

  /**
   * Attention heads as torch.onnx exports them: the Reshape targets are built from Shape(x) of the layer input,
   * not of the tensor being reshaped, so only the shared symbolic dims (batch, seq) say that they are copies.
   */
  function torchStyleHeads(keySeq = 'S'): Uint8Array {
    const r = rng(17);
    const b = new GraphBuilder({ opset: 17 });
    b.input('x', DT.FLOAT, ['B', 'S', 8]);
    b.input('k', DT.FLOAT, ['B', keySeq, 8]);
    b.init('W', f32(r, [8, 8], 0.4));
    b.init('i0', int64Tensor([0], []));
    b.init('i1', int64Tensor([1], []));
    b.init('ax', int64Tensor([0]));
    b.init('heads', int64Tensor([2, 4]));
    b.init('width', int64Tensor([8]));
    b.node('MatMul', ['x', 'W'], ['q']);
    b.node('Shape', ['x'], ['xs']);
    b.node('Gather', ['xs', 'i0'], ['nb']);
    b.node('Gather', ['xs', 'i1'], ['ns']);
    b.node('Unsqueeze', ['nb', 'ax'], ['nb1']);
    b.node('Unsqueeze', ['ns', 'ax'], ['ns1']);
    b.node('Concat', ['nb1', 'ns1', 'heads'], ['split'], { axis: attr.int(0) });
    b.node('Reshape', ['q', 'split'], ['qh']);
    b.node('Transpose', ['qh'], ['qt'], { perm: attr.ints([0, 2, 1, 3]) });
    b.node('Softmax', ['qt'], ['p'], { axis: attr.int(-1) });
    b.node('Transpose', ['p'], ['pt'], { perm: attr.ints([0, 2, 1, 3]) });
    b.node('Concat', ['nb1', 'ns1', 'width'], ['merge'], { axis: attr.int(0) });
    b.node('Reshape', ['pt', 'merge'], ['y']);
    // A reshape of k [B, T, 8] by x's sizes: T is another symbol, so it must keep its runtime shape.
    b.node('Reshape', ['k', 'merge'], ['z']);
    b.output('y', DT.FLOAT, ['B', 'S', 8]);
    b.output('z', DT.FLOAT, ['B', 'S', 8]);
    return b.bytes();
  }

  test("torch-style attention heads: Reshape targets from another tensor's Shape become constants through shared symbolic dims", async () => {
    const before = torchStyleHeads();
    const { g, report } = apply(before, [shapeSimplification, constantFolding, deadNodeElimination]);
    assert.deepEqual(opTypes(g), ['MatMul', 'Reshape', 'Transpose', 'Softmax', 'Transpose', 'Reshape', 'Reshape']);
    const targets = g.nodes
      .filter((n) => n.opType === 'Reshape')
      .map((n) => Array.from(g.initializers.get(n.inputs[1] ?? '')?.data as BigInt64Array, Number));
    assert.deepEqual(targets, [
      [0, 0, 2, 4],
      [0, 0, 8],
      [0, 0, 8],
    ]);
    assert.ok(
      report[0]?.changes.some((c) => /same symbolic dims/.test(c)),
      report[0]?.changes.join('; '),
    );
    // batch 2, sequence 5 (different sizes, so a swapped copy would show)
    const rand = rng(4);
    const feeds = { x: floatT(randn(rand, 80), [2, 5, 8]), k: floatT(randn(rand, 80), [2, 5, 8]) };
    const ref = await runBytes(before, feeds);
    const got = await runGraph(g, feeds);
    for (const o of ['y', 'z']) assertAllClose(got[o], ref[o], 1e-6);
  });

  test('a Reshape of a tensor whose dim is another symbol keeps its runtime target', () => {
    const { g } = apply(torchStyleHeads('T'), [shapeSimplification, constantFolding, deadNodeElimination]);
    const z = g.nodes.find((n) => n.outputs[0] === 'z');
    assert.ok(z !== undefined && !g.initializers.has(z.inputs[1] ?? ''), 'z keeps the Concat target');
    assert.ok(g.nodes.some((n) => n.opType === 'Shape'));
    const y = g.nodes.find((n) => n.outputs[0] === 'y');
    assert.deepEqual(Array.from(g.initializers.get(y?.inputs[1] ?? '')?.data as BigInt64Array, Number), [0, 0, 8]);
  });

  test('a fully static Shape computation folds to a constant', async () => {
    const b = new GraphBuilder({ opset: 13 });
    b.input('x', DT.FLOAT, [2, 6]);
    b.init('one', int64Tensor([1], []));
    b.init('two', int64Tensor([2], []));
    b.node('Shape', ['x'], ['s']);
    b.node('Gather', ['s', 'one'], ['d1']);
    b.node('Div', ['d1', 'two'], ['half']);
    b.init('ax', int64Tensor([0]));
    b.node('Unsqueeze', ['half', 'ax'], ['h1']);
    b.init('lead', int64Tensor([4]));
    b.node('Concat', ['lead', 'h1'], ['target'], { axis: attr.int(0) });
    b.node('Reshape', ['x', 'target'], ['y']);
    b.output('y', DT.FLOAT, [4, 3]);
    const before = b.bytes();
    const { g } = apply(before, [shapeSimplification, constantFolding, deadNodeElimination]);
    assert.deepEqual(opTypes(g), ['Reshape']);
    await assertEquivalent(before, g, 6);
  });

  test('dead-node-elimination drops unused branches and initializers', () => {
    const b = new GraphBuilder();
    b.input('x', DT.FLOAT, [2]);
    b.init('unused', { elemType: DT.FLOAT, dims: [1], data: Float32Array.from([1]) });
    b.node('Relu', ['x'], ['y']);
    b.node('Exp', ['x'], ['dangling']);
    b.output('y');
    const { g, report } = apply(b.bytes(), [deadNodeElimination]);
    assert.deepEqual(opTypes(g), ['Relu']);
    assert.equal(g.initializers.size, 0);
    assert.equal(report[0]?.changed, 2);
  });
});

describe('pass manager', () => {
  test('runs to a fixed point and reports per pass', async () => {
    const before = convBnRelu();
    const { g, report } = apply(before, [identityElimination, constantFolding, deadNodeElimination, batchNormFolding, biasFusion, activationFusion]);
    assert.deepEqual(opTypes(g), ['FusedConv']);
    const byName = new Map(report.map((r) => [r.name, r]));
    assert.equal(byName.get('batchnorm-folding')?.changed, 1);
    assert.equal(byName.get('activation-fusion')?.changed, 1);
    assert.equal(byName.get('batchnorm-folding')?.nodesBefore, 3);
    await assertEquivalent(before, g, 12);
  });
});
