import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GraphBuilder } from '../../../../src/compiler/ir/builder.ts';
import { DT, floatToHalf, halfToFloat } from '../../../../src/tensor/onnx-dtype.ts';
import { loadModel } from '../../../../src/compiler/ir/graph.ts';
import { DEFAULT_PASSES, runPasses } from '../../../../src/compiler/passes/index.ts';
import { DEFAULT_FP16_BLOCK_LIST, convertToFp16 } from '../../../../src/compiler/precision/fp16.ts';
import { assertAllClose, randomFeeds, runBytes, runGraph } from '../helpers.ts';
import { tinyConvNet } from '../models.ts';

const blockOps = new Set(DEFAULT_FP16_BLOCK_LIST);

describe('float16 bits', () => {
  test('known values, rounding to nearest even, overflow and subnormals', () => {
    assert.equal(floatToHalf(1), 0x3c00);
    assert.equal(floatToHalf(-2), 0xc000);
    assert.equal(floatToHalf(65504), 0x7bff);
    assert.equal(floatToHalf(70000), 0x7c00);
    assert.equal(floatToHalf(2 ** -24), 0x0001);
    assert.equal(floatToHalf(2 ** -26), 0x0000);
    assert.equal(floatToHalf(1 + 2 ** -11), 0x3c00); // tie → even
    assert.equal(floatToHalf(1 + 3 * 2 ** -11), 0x3c02); // tie → even (up)
    assert.ok(Number.isNaN(halfToFloat(floatToHalf(NaN))));
    for (const v of [0.1, -3.14159, 1000.5, 6.1e-5]) assert.ok(Math.abs(halfToFloat(floatToHalf(v)) - v) <= Math.abs(v) * 2 ** -11);
  });
});

describe('convertToFp16', () => {
  test('the conv net stays within 1e-2 of FP32; Softmax is kept in FP32 behind Casts', async () => {
    const before = tinyConvNet();
    const g = loadModel(before);
    runPasses(g, DEFAULT_PASSES, { target: 'ort-cpu', precision: 'fp16' });
    const r = convertToFp16(g, { keepIoTypes: true, blockOps });
    const softmax = g.nodes.find((n) => n.opType === 'Softmax');
    assert.equal(r.nodePrecision.get(softmax?.name ?? ''), 'fp32');
    assert.ok(r.kept.some((k) => k.op === 'Softmax' && /block list/.test(k.reason)));
    assert.equal(r.nodePrecision.get(g.nodes.find((n) => n.opType === 'Conv')?.name ?? ''), 'fp16');
    assert.ok([...g.initializers.values()].some((t) => t.elemType === DT.FLOAT16));
    assert.equal(g.inputs[0]?.type.elemType, DT.FLOAT);
    assert.ok(g.outputs.every((o) => o.type.elemType === DT.FLOAT));
    const feeds = randomFeeds(g, 5, 3);
    const ref = await runBytes(before, feeds);
    const got = await runGraph(g, feeds, 'all');
    assertAllClose(got.logits, ref.logits, 1e-2, 1e-2);
    assertAllClose(got.probs, ref.probs, 1e-3, 1e-2);
  });

  test('without keep-io-types the inputs and outputs become FP16', async () => {
    const g = loadModel(tinyConvNet({ softmax: false }));
    runPasses(g, DEFAULT_PASSES, { target: 'ort-cpu', precision: 'fp16' });
    convertToFp16(g, { keepIoTypes: false, blockOps });
    assert.equal(g.inputs[0]?.type.elemType, DT.FLOAT16);
    assert.equal(g.outputs[0]?.type.elemType, DT.FLOAT16);
    assert.ok(!g.nodes.some((n) => n.opType === 'Cast'));
    const x = new Uint16Array(2 * 3 * 64).map((_, i) => floatToHalf(Math.sin(i)));
    const out = await runGraph(g, { x: { elemType: DT.FLOAT16, dims: [2, 3, 8, 8], data: x } }, 'all');
    assert.equal(out.logits?.elemType, DT.FLOAT16);
    assert.deepEqual(out.logits?.dims, [2, 5]);
  });

  test('a graph output that other nodes also read keeps its name and FP32 type', async () => {
    const b = new GraphBuilder();
    b.input('x', DT.FLOAT, ['N', 4]);
    b.node('Relu', ['x'], ['h']);
    b.node('Exp', ['h'], ['e']);
    b.node('Mul', ['h', 'e'], ['y'], {});
    b.output('h', DT.FLOAT, ['N', 4]).output('y', DT.FLOAT, ['N', 4]);
    const before = b.bytes();
    const g = loadModel(before);
    const r = convertToFp16(g, { keepIoTypes: true, blockOps });
    assert.equal(r.nodePrecision.get(g.nodes.find((n) => n.opType === 'Exp')?.name ?? ''), 'fp32');
    const feeds = randomFeeds(g, 1, 2);
    const ref = await runBytes(before, feeds);
    const got = await runGraph(g, feeds);
    assertAllClose(got.h, ref.h, 2e-3, 2e-3);
    assertAllClose(got.y, ref.y, 2e-2, 2e-2);
  });

  test('per-node block list keeps a chosen node in FP32', () => {
    const g = loadModel(tinyConvNet({ softmax: false }));
    const conv = g.nodes.find((n) => n.opType === 'Conv')?.name ?? '';
    const r = convertToFp16(g, { keepIoTypes: true, blockOps, blockNodes: new Set([conv]) });
    assert.equal(r.nodePrecision.get(conv), 'fp32');
  });
});
