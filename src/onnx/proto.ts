/**
 * The one place that touches the ONNX protobuf bindings (onnx-proto: protobufjs 6 static code generated from
 * onnx.proto of ONNX 1.10, IR version 8). Everything else imports the value `onnx` and the type aliases from here.
 *
 * Fields added to onnx.proto after ONNX 1.10 are skipped when decoding (protobuf rules for unknown fields), so a
 * newer model survives `readGraphIO` unchanged but loses those fields if it is decoded and re-encoded.
 */
import onnxProto from 'onnx-proto';
import type { onnx as OnnxTypes } from 'onnx-proto';
import { rtError } from '../errors/registry.ts';

export const onnx = onnxProto.onnx;

export type ModelProto = OnnxTypes.ModelProto;
export type IModelProto = OnnxTypes.IModelProto;
export type GraphProto = OnnxTypes.GraphProto;
export type IGraphProto = OnnxTypes.IGraphProto;
export type NodeProto = OnnxTypes.NodeProto;
export type INodeProto = OnnxTypes.INodeProto;
export type TensorProto = OnnxTypes.TensorProto;
export type ITensorProto = OnnxTypes.ITensorProto;
export type ValueInfoProto = OnnxTypes.ValueInfoProto;
export type IValueInfoProto = OnnxTypes.IValueInfoProto;
export type AttributeProto = OnnxTypes.AttributeProto;
export type IAttributeProto = OnnxTypes.IAttributeProto;
export type ITypeProto = OnnxTypes.ITypeProto;

/** TensorProto.DataType (onnx.proto): FLOAT=1, UINT8=2, ... BFLOAT16=16. Newer values decode as plain numbers. */
export const ElemType = onnx.TensorProto.DataType;
export type ElemType = OnnxTypes.TensorProto.DataType;
export const AttributeType = onnx.AttributeProto.AttributeType;

/** protobufjs decodes int64 fields as `Long` when the `long` package is present, as numbers otherwise. */
export type Int64Like = number | { toNumber(): number; toString(): string } | null | undefined;

/** An int64 field as a JS number; throws when it does not fit (never silently rounds a dimension or a size). */
export function toNumber(value: Int64Like): number {
  if (value === null || value === undefined) return 0;
  const n = typeof value === 'number' ? value : value.toNumber();
  if (!Number.isSafeInteger(n)) {
    throw rtError('MODEL_LOAD_FAILED', `ONNX integer ${String(value)} does not fit in a JavaScript number`);
  }
  return n;
}

/** Decodes ModelProto bytes; a file that is not a ModelProto gets a MODEL_LOAD_FAILED error, not a stack trace. */
export function loadModel(bytes: Uint8Array): ModelProto {
  let model: ModelProto;
  try {
    model = onnx.ModelProto.decode(bytes);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw rtError('MODEL_LOAD_FAILED', `not a valid ONNX model (${bytes.byteLength} bytes): ${why}`, { cause: err });
  }
  if (model.graph === null || model.graph === undefined) {
    throw rtError('MODEL_LOAD_FAILED', `not a valid ONNX model (${bytes.byteLength} bytes): it has no graph`);
  }
  return model;
}

/**
 * Encodes a ModelProto. protobufjs writes fields in field-number order and repeated fields in array order, so
 * the same object always gives the same bytes (models/generate.ts relies on that).
 */
export function saveModel(model: IModelProto): Uint8Array {
  const buf = onnx.ModelProto.encode(model).finish();
  // finish() may return a Node Buffer (a pooled slab view); hand out a plain Uint8Array over exactly these bytes.
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** The version of the default ONNX operator set ('' or 'ai.onnx') the model imports; 0 when it imports none. */
export function defaultOpsetVersion(model: IModelProto): number {
  for (const opset of model.opsetImport ?? []) {
    const domain = opset.domain ?? '';
    if (domain === '' || domain === 'ai.onnx') return toNumber(opset.version);
  }
  return 0;
}
