/**
 * Building onnxruntime-common tensors from rtserve's typed arrays. One workaround lives here: where the runtime
 * has `Float16Array` (Node 24 and later), onnxruntime-common wraps a float16 tensor's `Uint16Array` in a
 * `Float16Array` view, which the onnxruntime-node 1.30 / 1.31 binding cannot read: it sees zero bytes and fails the
 * run with "not enough space: expected N, got 0" (upstream: microsoft/onnxruntime#32323). Handing the binding the
 * original `Uint16Array` back as the tensor's `cpuData` (the same bytes, the type the binding reads) works around it.
 * Drop it once an onnxruntime-node release with that fix is the pinned one.
 */
import ort from 'onnxruntime-node';
import type { OrtTensorType } from './ort-types.ts';

/** The numeric onnxruntime tensor types (everything but 'string'). */
export type OrtNumericType = Exclude<OrtTensorType, 'string'>;

/** The field onnxruntime-common's TensorImpl keeps a CPU tensor's data in (its `data` getter returns it). */
interface WithCpuData {
  cpuData: unknown;
}

/** A numeric tensor over `data` without a copy; float16 data stays the caller's `Uint16Array` (see above). */
export function numericOrtTensor(type: OrtNumericType, data: ort.Tensor.DataType, dims: readonly number[]): ort.Tensor {
  const tensor = new ort.Tensor(type, data as never, dims);
  if (type === 'float16' && data instanceof Uint16Array && tensor.data !== data) (tensor as unknown as WithCpuData).cpuData = data;
  return tensor;
}
