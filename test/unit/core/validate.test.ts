import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InferRequest } from '../../../src/api/types.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import { validateRequest } from '../../../src/core/validate.ts';
import type { ModelIoMetadata } from '../../../src/repository/model-metadata.ts';
import { RtError } from '../../../src/errors/registry.ts';
import type { ErrorCode } from '../../../src/errors/registry.ts';

function expectError(fn: () => unknown, code: ErrorCode, ...fragments: string[]): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof RtError, `expected RtError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    for (const f of fragments) assert.ok(err.message.includes(f), `${JSON.stringify(err.message)} should include ${JSON.stringify(f)}`);
    return true;
  });
}

const batching: ModelIoMetadata = {
  name: 'm',
  version: '1',
  maxBatchSize: 8,
  inputs: [
    { name: 'INPUT0', datatype: 'FP32', shape: [-1, 4] },
    { name: 'INPUT1', datatype: 'INT64', shape: [2] },
  ],
  outputs: [
    { name: 'OUT0', datatype: 'FP32', shape: [-1] },
    { name: 'OUT1', datatype: 'INT64', shape: [1] },
  ],
  optionalInputs: new Set(),
};

const fixed: ModelIoMetadata = {
  name: 'plain',
  version: '2',
  maxBatchSize: 0,
  inputs: [
    { name: 'x', datatype: 'FP32', shape: [2, 3] },
    { name: 'mask', datatype: 'BOOL', shape: [3] },
    { name: 'text', datatype: 'BYTES', shape: [-1] },
  ],
  outputs: [{ name: 'y', datatype: 'FP32', shape: [2, 3] }],
  optionalInputs: new Set(['mask', 'text']),
};

const in0 = (batch: number, rows = 3): Tensor => ({
  name: 'INPUT0',
  datatype: 'FP32',
  shape: [batch, rows, 4],
  data: new Float32Array(batch * rows * 4),
});
const in1 = (batch: number): Tensor => ({ name: 'INPUT1', datatype: 'INT64', shape: [batch, 2], data: new BigInt64Array(batch * 2) });
const req = (inputs: Tensor[], extra: Partial<InferRequest> = {}): InferRequest => ({ model: 'm', inputs, ...extra });

describe('validateRequest: valid requests', () => {
  test('batching model: batch size from the first dimension, all outputs by default', () => {
    const r = req([in0(3), in1(3)]);
    const v = validateRequest(r, batching, 123n);
    assert.equal(v.request, r);
    assert.equal(v.batchSize, 3);
    assert.deepEqual(v.outputNames, ['OUT0', 'OUT1']);
    assert.equal(v.arrivalNs, 123n);
  });

  test('requested outputs keep the request order; empty outputs mean all', () => {
    assert.deepEqual(validateRequest(req([in0(1), in1(1)], { outputs: [{ name: 'OUT1' }, { name: 'OUT0' }] }), batching, 0n).outputNames, [
      'OUT1',
      'OUT0',
    ]);
    assert.deepEqual(validateRequest(req([in0(1), in1(1)], { outputs: [] }), batching, 0n).outputNames, ['OUT0', 'OUT1']);
  });

  test('non-batching model: batch size 1, optional inputs may be left out', () => {
    const x: Tensor = { name: 'x', datatype: 'FP32', shape: [2, 3], data: new Float32Array(6) };
    assert.equal(validateRequest(req([x]), fixed, 0n).batchSize, 1);
    const text: Tensor = { name: 'text', datatype: 'BYTES', shape: [2], data: [new Uint8Array(1), new Uint8Array(0)] };
    assert.equal(validateRequest(req([text, x]), fixed, 0n).batchSize, 1);
  });

  test('priority and timeout as non-negative integers; output parameters of the right types', () => {
    const v = validateRequest(
      req([in0(1), in1(1)], {
        parameters: { priority: 2, timeout: 0, binary_data_output: true },
        outputs: [{ name: 'OUT0', parameters: { binary_data: false, classification: 3 } }],
      }),
      batching,
      0n,
    );
    assert.deepEqual(v.outputNames, ['OUT0']);
  });
});

describe('validateRequest: errors', () => {
  test('missing inputs name them and list what the model expects', () => {
    expectError(
      () => validateRequest(req([in0(1)]), batching, 0n),
      'MISSING_INPUT',
      "model 'm' needs input 'INPUT1'",
      "expected inputs: 'INPUT0' (FP32 [-1,-1,4]), 'INPUT1' (INT64 [-1,2])",
    );
    expectError(() => validateRequest(req([]), batching, 0n), 'MISSING_INPUT', "inputs 'INPUT0', 'INPUT1'");
    expectError(() => validateRequest(req([]), fixed, 0n), 'MISSING_INPUT', "needs input 'x'", "'mask' (BOOL [3], optional)");
  });

  test('unknown and repeated inputs', () => {
    const extra: Tensor = { name: 'INPUT9', datatype: 'FP32', shape: [1], data: new Float32Array(1) };
    expectError(
      () => validateRequest(req([in0(1), in1(1), extra]), batching, 0n),
      'UNEXPECTED_INPUT',
      "model 'm' has no input 'INPUT9'",
      "its inputs are 'INPUT0' (FP32 [-1,-1,4]), 'INPUT1'",
    );
    expectError(() => validateRequest(req([in0(1), in0(1), in1(1)]), batching, 0n), 'UNEXPECTED_INPUT', "input 'INPUT0' appears more than once");
  });

  test('datatype mismatch', () => {
    const wrong: Tensor = { name: 'INPUT0', datatype: 'INT32', shape: [1, 3, 4], data: new Int32Array(12) };
    expectError(() => validateRequest(req([wrong, in1(1)]), batching, 0n), 'BAD_DATATYPE', "input 'INPUT0': expected FP32, got INT32");
  });

  test('shape: rank and each dimension against the config', () => {
    const rank: Tensor = { name: 'INPUT0', datatype: 'FP32', shape: [3, 4], data: new Float32Array(12) };
    expectError(
      () => validateRequest(req([rank, in1(1)]), batching, 0n),
      'BAD_SHAPE',
      "input 'INPUT0': expected shape [-1,-1,4] (rank 3), got [3,4] (rank 2)",
    );
    const dim: Tensor = { name: 'INPUT0', datatype: 'FP32', shape: [1, 3, 5], data: new Float32Array(15) };
    expectError(
      () => validateRequest(req([dim, in1(1)]), batching, 0n),
      'BAD_SHAPE',
      "input 'INPUT0': expected shape [-1,-1,4], got [1,3,5] (dimension 2 is 5, expected 4)",
    );
    const x: Tensor = { name: 'x', datatype: 'FP32', shape: [3, 2], data: new Float32Array(6) };
    expectError(() => validateRequest(req([x]), fixed, 0n), 'BAD_SHAPE', "input 'x': expected shape [2,3], got [3,2] (dimension 0 is 3, expected 2)");
    const neg: Tensor = { name: 'x', datatype: 'FP32', shape: [-1, 3], data: new Float32Array(6) };
    expectError(() => validateRequest(req([neg]), fixed, 0n), 'BAD_SHAPE', 'got [-1,3]; dimension 0 must be a non-negative integer');
    expectError(
      () => validateRequest(req([in0(0), in1(0)]), batching, 0n),
      'BAD_SHAPE',
      "input 'INPUT0': batch dimension of shape [0,3,4] must be at least 1",
    );
  });

  test('batch size consistent across inputs and within max_batch_size', () => {
    expectError(
      () => validateRequest(req([in0(2), in1(3)]), batching, 0n),
      'BAD_SHAPE',
      "input 'INPUT1': batch size 3 (shape [3,2]) does not match batch size 2 of input 'INPUT0'",
    );
    expectError(() => validateRequest(req([in0(9), in1(9)]), batching, 0n), 'BATCH_TOO_LARGE', "model 'm': batch size 9", 'exceeds max_batch_size 8');
  });

  test('data length and kind vs shape', () => {
    const short: Tensor = { name: 'INPUT0', datatype: 'FP32', shape: [1, 3, 4], data: new Float32Array(11) };
    expectError(
      () => validateRequest(req([short, in1(1)]), batching, 0n),
      'BAD_DATA',
      "input 'INPUT0': shape [1,3,4] needs 12 elements, data has 11",
    );
    const kind: Tensor = { name: 'INPUT1', datatype: 'INT64', shape: [1, 2], data: new Int32Array(2) };
    expectError(
      () => validateRequest(req([in0(1), kind]), batching, 0n),
      'BAD_DATA',
      "input 'INPUT1': INT64 data must be a BigInt64Array, got Int32Array",
    );
    const bytes: Tensor = { name: 'text', datatype: 'BYTES', shape: [3], data: [new Uint8Array(1)] };
    const x: Tensor = { name: 'x', datatype: 'FP32', shape: [2, 3], data: new Float32Array(6) };
    expectError(() => validateRequest(req([x, bytes]), fixed, 0n), 'BAD_DATA', "input 'text': shape [3] needs 3 elements, data has 1");
  });

  test('unknown and repeated outputs', () => {
    expectError(
      () => validateRequest(req([in0(1), in1(1)], { outputs: [{ name: 'OUT7' }] }), batching, 0n),
      'UNKNOWN_OUTPUT',
      "model 'm' has no output 'OUT7'; its outputs are 'OUT0', 'OUT1'",
    );
    expectError(
      () => validateRequest(req([in0(1), in1(1)], { outputs: [{ name: 'OUT0' }, { name: 'OUT0' }] }), batching, 0n),
      'BAD_REQUEST',
      "output 'OUT0' is requested more than once",
    );
  });

  test('priority, timeout and output parameters', () => {
    const base = [in0(1), in1(1)];
    expectError(
      () => validateRequest(req(base, { parameters: { priority: -1 } }), batching, 0n),
      'BAD_PARAMETER',
      "parameter 'priority' must be a non-negative integer, got number -1",
    );
    expectError(
      () => validateRequest(req(base, { parameters: { priority: '2' } }), batching, 0n),
      'BAD_PARAMETER',
      "parameter 'priority'",
      'got string "2"',
    );
    expectError(
      () => validateRequest(req(base, { parameters: { timeout: 1.5 } }), batching, 0n),
      'BAD_PARAMETER',
      "parameter 'timeout' must be a non-negative integer, got number 1.5",
    );
    expectError(
      () => validateRequest(req(base, { parameters: { binary_data_output: 'yes' } }), batching, 0n),
      'BAD_PARAMETER',
      "parameter 'binary_data_output' must be a boolean",
    );
    expectError(
      () => validateRequest(req(base, { outputs: [{ name: 'OUT0', parameters: { classification: -2 } }] }), batching, 0n),
      'BAD_PARAMETER',
      "output 'OUT0': parameter 'classification' must be a non-negative integer, got number -2",
    );
    expectError(
      () => validateRequest(req(base, { outputs: [{ name: 'OUT0', parameters: { binary_data: 1 } }] }), batching, 0n),
      'BAD_PARAMETER',
      "output 'OUT0': parameter 'binary_data' must be a boolean",
    );
  });
});
