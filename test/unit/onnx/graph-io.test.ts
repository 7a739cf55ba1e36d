import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphBuilder, attribute, floatAttr, tensorProto } from '../../../src/onnx/builder.ts';
import { dataTypeOfElemType, elemTypeName, elemTypeOfDataType } from '../../../src/onnx/elem-type.ts';
import { readGraphIO } from '../../../src/onnx/graph-io.ts';
import { AttributeType, ElemType, loadModel, saveModel, toNumber } from '../../../src/onnx/proto.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { DATA_TYPES } from '../../../src/tensor/datatype.ts';

function gemmModel(): Uint8Array {
  const g = new GraphBuilder('gemm');
  g.input('x', ElemType.FLOAT, ['batch', 4]);
  // A graph input that is also an initializer is a parameter with a default, not a client input.
  g.input('w', ElemType.FLOAT, [3, 4]);
  g.initializer('w', new Float32Array(12).fill(0.5), [3, 4]);
  const b = g.initializer('b', new Float32Array([1, 2, 3]), [3]);
  g.node('Gemm', ['x', 'w', b], ['y'], { transB: 1, alpha: floatAttr(1) });
  g.output('y', ElemType.FLOAT, ['batch', 3]);
  g.output('z', ElemType.INT64, [null, 2, 'n']);
  g.node('Shape', ['y'], ['z']);
  return saveModel(g.toModel({ opsetVersion: 13, producerName: 'test' }));
}

describe('readGraphIO', () => {
  test('lists inputs without initializers, marks symbolic and unknown dims -1, reads the opset', () => {
    const io = readGraphIO(gemmModel());
    assert.deepEqual(io.inputs, [{ name: 'x', elemType: ElemType.FLOAT, dims: [-1, 4], rankKnown: true }]);
    assert.deepEqual(io.outputs, [
      { name: 'y', elemType: ElemType.FLOAT, dims: [-1, 3], rankKnown: true },
      { name: 'z', elemType: ElemType.INT64, dims: [-1, 2, -1], rankKnown: true },
    ]);
    assert.equal(io.opsetVersion, 13);
  });

  test('accepts a decoded ModelProto as well as bytes', () => {
    const io = readGraphIO(loadModel(gemmModel()));
    assert.equal(io.inputs[0]?.name, 'x');
  });

  test('a value without a shape has an unknown rank; a non-tensor value has elemType 0', () => {
    const model = loadModel(gemmModel());
    const x = model.graph?.input?.[0];
    assert.ok(x?.type?.tensorType);
    x.type.tensorType.shape = null;
    const seq = model.graph?.output?.[1];
    assert.ok(seq);
    seq.type = { sequenceType: { elemType: { tensorType: { elemType: ElemType.FLOAT } } } };
    const io = readGraphIO(saveModel(model));
    assert.deepEqual(io.inputs[0], { name: 'x', elemType: ElemType.FLOAT, dims: [], rankKnown: false });
    assert.equal(io.outputs[1]?.elemType, 0);
    assert.equal(io.outputs[1]?.rankKnown, false);
  });

  test('bytes that are not a model give MODEL_LOAD_FAILED', () => {
    assert.throws(
      () => readGraphIO(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f])),
      (err: unknown) => {
        assert.ok(err instanceof RtError);
        assert.equal(err.code, 'MODEL_LOAD_FAILED');
        assert.match(err.message, /not a valid ONNX model/);
        return true;
      },
    );
    // An empty buffer decodes to an empty ModelProto: no graph.
    assert.throws(() => loadModel(new Uint8Array(0)), /has no graph/);
  });
});

describe('GraphBuilder', () => {
  test('round-trips nodes, attributes and raw little-endian initializers through protobuf', () => {
    const model = loadModel(gemmModel());
    assert.equal(toNumber(model.irVersion), 8);
    assert.equal(model.producerName, 'test');
    const gemm = model.graph?.node?.[0];
    assert.equal(gemm?.opType, 'Gemm');
    assert.equal(gemm?.name, 'Gemm_0');
    assert.deepEqual(gemm?.input, ['x', 'w', 'b']);
    const attrs = Object.fromEntries((gemm?.attribute ?? []).map((a) => [a.name, a]));
    assert.equal(attrs['transB']?.type, AttributeType.INT);
    assert.equal(toNumber(attrs['transB']?.i), 1);
    assert.equal(attrs['alpha']?.type, AttributeType.FLOAT);
    assert.equal(attrs['alpha']?.f, 1);
    const b = model.graph?.initializer?.find((t) => t.name === 'b');
    assert.equal(b?.dataType, ElemType.FLOAT);
    assert.deepEqual(
      b?.dims?.map((d) => toNumber(d)),
      [3],
    );
    const raw = b?.rawData;
    assert.ok(raw);
    assert.deepEqual([...new Float32Array(Uint8Array.from(raw).buffer)], [1, 2, 3]);
  });

  test('the same graph always encodes to the same bytes', () => {
    assert.deepEqual(gemmModel(), gemmModel());
  });

  test('attribute() infers INT/FLOAT/INTS/FLOATS/STRING(S) from JS values', () => {
    assert.equal(attribute('a', 2).type, AttributeType.INT);
    assert.equal(attribute('a', 0.5).type, AttributeType.FLOAT);
    assert.equal(attribute('a', [1, 2]).type, AttributeType.INTS);
    assert.equal(attribute('a', [1, 2.5]).type, AttributeType.FLOATS);
    assert.equal(attribute('a', 'x').type, AttributeType.STRING);
    assert.equal(attribute('a', ['x', 'y']).type, AttributeType.STRINGS);
    assert.equal(attribute('a', floatAttr(3)).type, AttributeType.FLOAT);
  });

  test('tensorProto checks that dims match the data', () => {
    assert.throws(() => tensorProto('t', new Float32Array(5), [2, 3]), /hold 6 elements, data has 5/);
    assert.equal(tensorProto('t', new BigInt64Array(2), [2]).dataType, ElemType.INT64);
    assert.equal(tensorProto('t', new Uint16Array(2), [2], ElemType.FLOAT16).dataType, ElemType.FLOAT16);
  });

  test('names are unique: uniqueName skips taken names, a second initializer with the same name throws', () => {
    const g = new GraphBuilder('g');
    g.input('relu', ElemType.FLOAT, [1]);
    assert.equal(g.op('Relu', ['relu']), 'relu_1');
    assert.equal(g.op('Relu', ['relu_1']), 'relu_2');
    g.initializer('w', new Float32Array(1), [1]);
    assert.throws(() => g.initializer('w', new Float32Array(1), [1]), /already used/);
  });
});

describe('element types', () => {
  test('every KServe datatype maps to an ONNX element type and back', () => {
    for (const dt of DATA_TYPES) assert.equal(dataTypeOfElemType(elemTypeOfDataType(dt)), dt);
    assert.equal(dataTypeOfElemType(ElemType.STRING), 'BYTES');
    assert.equal(dataTypeOfElemType(ElemType.COMPLEX64), undefined);
    assert.equal(elemTypeName(ElemType.FLOAT16), 'FLOAT16');
    assert.equal(elemTypeName(17), 'FLOAT8E4M3FN', 'a type of ONNX 1.14 (src/onnx/onnx.proto is 1.20)');
    assert.equal(elemTypeName(99), 'elem_type 99');
  });
});
