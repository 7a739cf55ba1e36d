/**
 * ONNX TensorProto.DataType ↔ KServe v2 datatypes. FLOAT16/BFLOAT16 travel as raw 16-bit patterns and STRING
 * as BYTES (docs/protocol.md §1.2: the wire name of TYPE_STRING is "BYTES").
 */
import type { DataType } from '../tensor/datatype.ts';
import { elemTypeOfKserve, kserveDatatype } from '../tensor/onnx-dtype.ts';
import { ElemType } from './proto.ts';

/** The KServe datatype of an ONNX element type, or undefined for types KServe cannot carry (complex, float8...). */
export const dataTypeOfElemType: (elemType: number) => DataType | undefined = kserveDatatype;

export const elemTypeOfDataType: (dataType: DataType) => number = elemTypeOfKserve;

/** A readable name for messages: `FLOAT`, `INT64`, `FLOAT8E4M3FN`, or `elem_type 99` for values newer than our onnx.proto. */
export function elemTypeName(elemType: number): string {
  const name = (ElemType as unknown as Record<number, string | undefined>)[elemType];
  return name ?? `elem_type ${elemType}`;
}
