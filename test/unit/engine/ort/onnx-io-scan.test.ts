import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { scanGraphIo } from '../../../../src/engine/ort/onnx-io-scan.ts';
import { ElemType, heavyMatMulModel, identityModel, twoOutputModel } from '../../../fixtures/onnx-builders.ts';

describe('scanGraphIo', () => {
  test('reads graph inputs and outputs with their element types', () => {
    assert.deepEqual(scanGraphIo(twoOutputModel()), {
      inputs: [
        { name: 'a', elemType: ElemType.FLOAT },
        { name: 'b', elemType: ElemType.FLOAT },
        { name: 'i', elemType: ElemType.INT64 },
      ],
      outputs: [
        { name: 'sum', elemType: ElemType.FLOAT },
        { name: 'idx', elemType: ElemType.INT64 },
      ],
    });
    assert.deepEqual(scanGraphIo(identityModel(ElemType.BFLOAT16)).inputs, [{ name: 'x', elemType: ElemType.BFLOAT16 }]);
  });

  test('skips initializers without decoding them', () => {
    const io = scanGraphIo(heavyMatMulModel(64, 2));
    assert.deepEqual(io.inputs, [{ name: 'x', elemType: ElemType.FLOAT }]);
    assert.deepEqual(io.outputs, [{ name: 'y', elemType: ElemType.FLOAT }]);
  });

  test('refuses bytes that are not a model', () => {
    assert.throws(() => scanGraphIo(Uint8Array.of(0x3a, 0x05, 1)), /runs past|truncated/);
    assert.throws(() => scanGraphIo(new Uint8Array(0)), /no graph/);
  });
});
