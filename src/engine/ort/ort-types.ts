/**
 * KServe v2 datatypes (docs/protocol.md §2.2) ↔ onnxruntime-common tensor types. The in-memory layouts match
 * src/tensor/datatype.ts: BOOL is one byte per element (Uint8Array), FP16 is raw IEEE half bits (Uint16Array),
 * INT64/UINT64 are BigInt64Array/BigUint64Array, BYTES is onnxruntime's 'string' (UTF-8 decoded at the edge of
 * onnxruntime and encoded back on the way out).
 *
 * BF16 has no onnxruntime-node tensor type (onnxruntime-common's Tensor.Type has no 'bfloat16'), so a model
 * with a bfloat16 input or output cannot be served by this engine; 4-bit types have no KServe datatype.
 */
import type { DataType } from '../../tensor/datatype.ts';
import { elemTypeOfKserve, kserveDatatype } from '../../tensor/onnx-dtype.ts';

/** onnxruntime-common `Tensor.Type` names that rtserve exchanges. */
export type OrtTensorType =
  | 'bool'
  | 'uint8'
  | 'uint16'
  | 'uint32'
  | 'uint64'
  | 'int8'
  | 'int16'
  | 'int32'
  | 'int64'
  | 'float16'
  | 'float32'
  | 'float64'
  | 'string';

export const ORT_TYPE_OF = Object.freeze({
  BOOL: 'bool',
  UINT8: 'uint8',
  UINT16: 'uint16',
  UINT32: 'uint32',
  UINT64: 'uint64',
  INT8: 'int8',
  INT16: 'int16',
  INT32: 'int32',
  INT64: 'int64',
  FP16: 'float16',
  FP32: 'float32',
  FP64: 'float64',
  BYTES: 'string',
} as const satisfies Record<Exclude<DataType, 'BF16'>, OrtTensorType>);

const DATATYPE_OF_ORT: ReadonlyMap<string, DataType> = new Map(
  (Object.entries(ORT_TYPE_OF) as [DataType, OrtTensorType][]).map(([dt, ort]) => [ort, dt]),
);

/** The KServe datatype of an onnxruntime tensor type, or undefined for types KServe cannot carry (int4, uint4). */
export function dataTypeOfOrt(ortType: string): DataType | undefined {
  return DATATYPE_OF_ORT.get(ortType);
}

/** The onnxruntime tensor type of an ONNX element type (via its KServe datatype), or undefined when there is none. */
export function ortTypeOfElemType(elemType: number): OrtTensorType | undefined {
  const dt = kserveDatatype(elemType);
  return dt === undefined || dt === 'BF16' ? undefined : ORT_TYPE_OF[dt];
}

/** The ONNX element type of an onnxruntime tensor type, or undefined for types KServe cannot carry. */
export function elemTypeOfOrt(ortType: string): number | undefined {
  const dt = DATATYPE_OF_ORT.get(ortType);
  return dt === undefined ? undefined : elemTypeOfKserve(dt);
}
