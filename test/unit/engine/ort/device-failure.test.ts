import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isDeviceFailure, isInputShapeFailure } from '../../../../src/engine/ort/ort-backend.ts';

// Run-time errors as onnxruntime words them (cuda_call.cc's CUDA_CALL / CUDNN_CALL / CUBLAS_CALL format, the
// TensorRT EP, Dawn's device loss, DirectML's device removal). The input errors are real onnxruntime messages
// for wrong ranks, shapes and broadcasts: those are the request's fault and must not read as device failures.
const DEVICE = [
  'CUDA failure 700: an illegal memory access was encountered ; GPU=0 ; hostname=h ; file=/onnxruntime_src/onnxruntime/core/providers/cuda/cuda_call.cc ; line=121 ; expr=cudaStreamSynchronize(stream);',
  'CUDNN failure 8: CUDNN_STATUS_EXECUTION_FAILED ; GPU=0 ; hostname=h ; expr=cudnnConvolutionForward(...);',
  'CUBLAS failure 14: CUBLAS_STATUS_INTERNAL_ERROR ; GPU=0 ; hostname=h ; expr=cublasGemmHelper(...);',
  'CUDA error cudaErrorLaunchFailure:unspecified launch failure',
  'TensorRT EP execution context enqueue failed.',
  'WebGPU device lost: the GPU process was restarted',
  "Non-zero status code returned while running Conv node. Name:'c' Status Message: DXGI_ERROR_DEVICE_REMOVED",
  'Failed to allocate memory for requested buffer of size 1073741824',
];
const INPUT = [
  'Invalid rank for input: a Got: 1 Expected: 2 Please fix either the inputs/outputs or the model.',
  'Got invalid dimensions for input: input for the following indices index: 1 Got: 63 Expected: 64',
  "Non-zero status code returned while running Add node. Name:'n0' Status Message: Add: left operand cannot broadcast on dim 1 LeftShape: {1,3}, RightShape: {1,4}",
  "Non-zero status code returned while running Reshape node. Name:'r' Status Message: The input tensor cannot be reshaped to the requested shape. Input shape:{1,5}, requested shape:{2,-1}",
  'Unexpected input data type. Actual: (tensor(int32)) , expected: (tensor(float))',
];

describe('isDeviceFailure', () => {
  test('device and execution provider failures are recognized', () => {
    for (const m of DEVICE) assert.equal(isDeviceFailure(m), true, m);
  });
  test('errors about the batch inputs are not device failures', () => {
    for (const m of INPUT) assert.equal(isDeviceFailure(m), false, m);
  });
});

describe('isInputShapeFailure', () => {
  const SHAPES = [
    ...INPUT.filter((m) => !m.startsWith('Unexpected input data type')),
    // onnxruntime-node 1.30 on a graph y = a + b with both widths dynamic, fed [1,3] and [1,4]:
    "Non-zero status code returned while running Add node. Name:'n0' Status Message: /onnxruntime_src/onnxruntime/core/providers/cpu/math/element_wise_ops.h:563 void onnxruntime::BroadcastIterator::Init(ptrdiff_t, ptrdiff_t) axis == 1 || axis == largest was false. Attempting to broadcast an axis by a dimension other than 1. 3 by 4",
  ];
  test('onnxruntime refusing the shapes of the inputs is recognized (answered 400 BAD_SHAPE)', () => {
    for (const m of SHAPES) assert.equal(isInputShapeFailure(m), true, m);
  });
  test('device failures and other errors are not', () => {
    for (const m of [
      ...DEVICE,
      'Unexpected input data type. Actual: (tensor(int32)) , expected: (tensor(float))',
      "Non-zero status code returned while running TopK node. Name:'t' Status Message: k argument [5] should not be greater than specified axis dim value [3]",
    ]) {
      assert.equal(isInputShapeFailure(m), false, m);
    }
  });
});
