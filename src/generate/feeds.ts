/**
 * The index and mask tensors a decoder step feeds, in the element types the graph declares (decoder-spec.ts):
 * shared by the continuous batcher and the host TokenEngine.
 */
import type { Tensor } from '../tensor/tensor.ts';
import type { IndexType, MaskType } from './decoder-spec.ts';

export function indexTensor(name: string, type: IndexType, shape: number[], values: ArrayLike<number>): Tensor {
  const data = type === 'INT64' ? BigInt64Array.from(Array.from(values, (v) => BigInt(v))) : Int32Array.from(values);
  return { name, datatype: type, shape, data };
}

export function maskTensor(name: string, type: MaskType, shape: number[], values: Uint8Array): Tensor {
  switch (type) {
    case 'INT64': {
      const d = new BigInt64Array(values.length);
      for (let i = 0; i < values.length; i++) if (values[i] === 1) d[i] = 1n;
      return { name, datatype: type, shape, data: d };
    }
    case 'INT32':
      return { name, datatype: type, shape, data: Int32Array.from(values) };
    case 'FP32':
      return { name, datatype: type, shape, data: Float32Array.from(values) };
    case 'BOOL':
      return { name, datatype: type, shape, data: values };
  }
}
