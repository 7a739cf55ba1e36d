/**
 * Reads just the graph inputs and outputs (name and element type) of a serialized ONNX ModelProto, skipping
 * everything else (initializers are skipped by length, never decoded). Used only to explain a load failure:
 * onnxruntime-node reports "Unsupported data type: 16" without saying which tensor, and users need the name.
 *
 * Field numbers from onnx.proto: ModelProto.graph = 7; GraphProto.input = 11, output = 12;
 * ValueInfoProto.name = 1, type = 2; TypeProto.tensor_type = 1; TypeProto.Tensor.elem_type = 1.
 */

export interface GraphValueType {
  readonly name: string;
  /** ONNX element type number; undefined when the value is not a plain tensor (sequence, map, optional, ...). */
  readonly elemType: number | undefined;
}

export interface GraphIo {
  readonly inputs: readonly GraphValueType[];
  readonly outputs: readonly GraphValueType[];
}

interface Field {
  readonly field: number;
  readonly wire: number;
  /** Varint value (wire type 0). */
  readonly value: number;
  /** Payload range (wire type 2). */
  readonly start: number;
  readonly end: number;
}

function readVarint(buf: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  let scale = 1;
  let pos = at;
  for (let i = 0; i < 10; i++) {
    const b = buf[pos++];
    if (b === undefined) throw new Error('truncated varint');
    value += (b & 0x7f) * scale;
    if ((b & 0x80) === 0) return [value, pos];
    scale *= 128;
  }
  throw new Error('varint too long');
}

function* fields(buf: Uint8Array, start: number, end: number): Generator<Field> {
  let pos = start;
  while (pos < end) {
    const [key, afterKey] = readVarint(buf, pos);
    const field = Math.floor(key / 8);
    const wire = key % 8;
    pos = afterKey;
    switch (wire) {
      case 0: {
        const [value, next] = readVarint(buf, pos);
        pos = next;
        yield { field, wire, value, start: 0, end: 0 };
        break;
      }
      case 1:
        pos += 8;
        break;
      case 2: {
        const [length, next] = readVarint(buf, pos);
        if (next + length > end) throw new Error('field runs past its message');
        yield { field, wire, value: 0, start: next, end: next + length };
        pos = next + length;
        break;
      }
      case 5:
        pos += 4;
        break;
      default:
        throw new Error(`unsupported protobuf wire type ${wire}`);
    }
  }
}

function firstMessage(buf: Uint8Array, start: number, end: number, fieldNumber: number): Field | undefined {
  for (const f of fields(buf, start, end)) if (f.field === fieldNumber && f.wire === 2) return f;
  return undefined;
}

function valueInfo(buf: Uint8Array, start: number, end: number): GraphValueType {
  let name = '';
  let elemType: number | undefined;
  for (const f of fields(buf, start, end)) {
    if (f.field === 1 && f.wire === 2) name = new TextDecoder().decode(buf.subarray(f.start, f.end));
    if (f.field === 2 && f.wire === 2) {
      const tensorType = firstMessage(buf, f.start, f.end, 1);
      if (tensorType !== undefined) {
        for (const t of fields(buf, tensorType.start, tensorType.end)) if (t.field === 1 && t.wire === 0) elemType = t.value;
      }
    }
  }
  return { name, elemType };
}

/** Graph inputs and outputs of a serialized ModelProto. Throws on bytes that are not one. */
export function scanGraphIo(model: Uint8Array): GraphIo {
  const graph = firstMessage(model, 0, model.byteLength, 7);
  if (graph === undefined) throw new Error('no graph in the model');
  const inputs: GraphValueType[] = [];
  const outputs: GraphValueType[] = [];
  for (const f of fields(model, graph.start, graph.end)) {
    if (f.wire !== 2) continue;
    if (f.field === 11) inputs.push(valueInfo(model, f.start, f.end));
    else if (f.field === 12) outputs.push(valueInfo(model, f.start, f.end));
  }
  return { inputs, outputs };
}
