/**
 * ONNX TensorProto.DataType ↔ KServe v2 datatypes. FLOAT16/BFLOAT16 travel as raw 16-bit patterns and STRING
 * as BYTES (reference §1.2: the wire name of TYPE_STRING is "BYTES").
 */
import type { DataType } from '../core/datatype.ts';
import { ElemType } from './proto.ts';

const TO_DATA_TYPE: ReadonlyMap<number, DataType> = new Map<number, DataType>([
  [ElemType.BOOL, 'BOOL'],
  [ElemType.UINT8, 'UINT8'],
  [ElemType.UINT16, 'UINT16'],
  [ElemType.UINT32, 'UINT32'],
  [ElemType.UINT64, 'UINT64'],
  [ElemType.INT8, 'INT8'],
  [ElemType.INT16, 'INT16'],
  [ElemType.INT32, 'INT32'],
  [ElemType.INT64, 'INT64'],
  [ElemType.FLOAT16, 'FP16'],
  [ElemType.FLOAT, 'FP32'],
  [ElemType.DOUBLE, 'FP64'],
  [ElemType.STRING, 'BYTES'],
  [ElemType.BFLOAT16, 'BF16'],
]);

const TO_ELEM_TYPE: ReadonlyMap<DataType, number> = new Map([...TO_DATA_TYPE].map(([e, d]) => [d, e]));

/** The KServe datatype of an ONNX element type, or undefined for types KServe cannot carry (complex, float8...). */
export function dataTypeOfElemType(elemType: number): DataType | undefined {
  return TO_DATA_TYPE.get(elemType);
}

export function elemTypeOfDataType(dataType: DataType): number {
  const e = TO_ELEM_TYPE.get(dataType);
  if (e === undefined) throw new Error(`no ONNX element type for ${dataType}`);
  return e;
}

/** A readable name for messages: `FLOAT`, `INT64`, or `elem_type 17` for values newer than our onnx.proto. */
export function elemTypeName(elemType: number): string {
  const name = (ElemType as unknown as Record<number, string | undefined>)[elemType];
  return name ?? `elem_type ${elemType}`;
}
