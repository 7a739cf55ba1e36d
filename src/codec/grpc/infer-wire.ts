/**
 * The pieces of ModelInferRequest / ModelInferResponse that both directions share (docs/protocol.md §2.5, "Inference
 * messages"; field numbers are those of proto/grpc_service.proto):
 *
 *   parameters                (infer-parameters.ts)
 *   Infer{Input,Output}Tensor { name=1, datatype=2, shape=3 (packed int64), parameters=4, contents=5 }
 *   InferTensorContents       { bool=1, int=2, int64=3, uint=4, uint64=5, fp32=6, fp64=7, bytes=8 }
 *
 * Typed contents become typed arrays of the tensor's datatype. Packed float and double contents are viewed in
 * place (no copy when aligned); varint contents are counted before anything is allocated, so a hostile count
 * cannot make the server allocate more than the message already holds.
 */
import { BYTE_SIZE, DATA_TYPES, isDataType, viewAs } from '../../tensor/datatype.ts';
import type { DataType, NumericArray, TensorData } from '../../tensor/datatype.ts';
import type { Parameters } from '../../api/types.ts';
import { rtError } from '../../errors/registry.ts';
import { formatShape, parseShape, tensorLabel } from '../tensor-data.ts';
import { alignInPlace, deserializeBytes } from '../binary-data.ts';
import type { TensorRole } from '../tensor-data.ts';
import { parametersSize, planParameters, readParameterEntry, writeParameters, type ParameterPlan } from './infer-parameters.ts';
import {
  WIRE_FIXED32,
  WIRE_FIXED64,
  WIRE_LEN,
  WIRE_VARINT,
  WireReader,
  type WireWriter,
  int64Size,
  lenFieldSize,
  utf8Length,
  varintSize,
} from './proto-wire.ts';

// ---------------------------------------------------------------------------------------------------------------
// Tensor messages (InferInputTensor / InferOutputTensor share field numbers 1..5)

export interface TensorMessage {
  name: string;
  datatype: string;
  shape: number[];
  parameters: Record<string, string | number | boolean> | undefined;
  /** Every occurrence of `contents` (protobuf merges repeated occurrences of an embedded message). */
  contents: Uint8Array[];
}

/** Reads an Infer{Input,Output}Tensor message. */
export function readTensorMessage(r: WireReader, role: TensorRole): TensorMessage {
  const t: TensorMessage = { name: '', datatype: '', shape: [], parameters: undefined, contents: [] };
  while (!r.done) {
    const tag = r.uint32();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wt !== WIRE_LEN) r.fail(`a ${role} tensor name has wire type ${wt}`);
        t.name = r.string();
        break;
      case 2:
        if (wt !== WIRE_LEN) r.fail(`a ${role} tensor datatype has wire type ${wt}`);
        t.datatype = r.string();
        break;
      case 3:
        // repeated int64: packed (proto3 default) or one varint per element; parsers must accept both.
        if (wt === WIRE_LEN) {
          const end = r.lengthEnd();
          const sub = new WireReader(r.buf, r.pos, end, r.what);
          while (!sub.done) t.shape.push(sub.int64Number(`a dimension of ${role} '${t.name}'`));
          r.pos = end;
        } else if (wt === WIRE_VARINT) {
          t.shape.push(r.int64Number(`a dimension of ${role} '${t.name}'`));
        } else {
          r.fail(`a ${role} tensor shape has wire type ${wt}`);
        }
        break;
      case 4:
        if (wt !== WIRE_LEN) r.fail(`${role} tensor parameters have wire type ${wt}`);
        readParameterEntry(r, (t.parameters ??= {}), `${role} '${t.name}':`);
        break;
      case 5:
        if (wt !== WIRE_LEN) r.fail(`${role} tensor contents have wire type ${wt}`);
        t.contents.push(r.bytes());
        break;
      default:
        r.skip(wt);
    }
  }
  return t;
}

/** Checks a tensor message's name, datatype and shape (the same wording as the REST codec's errors). */
export function checkTensorHeader(t: TensorMessage, role: TensorRole, index: number): { datatype: DataType; shape: number[]; count: number } {
  const list = role === 'input' ? 'inputs' : 'outputs';
  if (t.name === '') throw rtError('BAD_REQUEST', `${list}[${index}]: 'name' must be a non-empty string`);
  const what = tensorLabel(role, t.name);
  if (!isDataType(t.datatype)) {
    const got = t.datatype.length > 32 ? `${t.datatype.slice(0, 32)}…` : t.datatype;
    throw rtError('BAD_DATATYPE', `${what}: datatype '${got}' is not a KServe v2 datatype (expected one of ${DATA_TYPES.join(', ')})`);
  }
  const { shape, count } = parseShape(role, t.name, t.shape);
  return { datatype: t.datatype, shape, count };
}

/**
 * Tensor data from one raw_input_contents / raw_output_contents entry (docs/protocol.md §2.5 "Rules for raw contents":
 * flattened row-major, little-endian, no padding; BYTES as 4-byte length-prefixed elements). Numeric data is a
 * typed-array view over the received message (a copy only when the bytes are misaligned for the element size).
 */
export function rawToTensorData(
  role: TensorRole,
  name: string,
  datatype: DataType,
  shape: readonly number[],
  count: number,
  raw: Uint8Array,
  rawField: string,
  headerBytes = 0,
): TensorData {
  if (datatype === 'BYTES') return deserializeBytes(role, name, shape, count, raw);
  const expected = count * BYTE_SIZE[datatype];
  if (raw.byteLength !== expected) {
    throw rtError(
      'BAD_DATA',
      `${tensorLabel(role, name)}: shape ${formatShape(shape)} of ${datatype} needs ${expected} bytes, ${rawField} has ${raw.byteLength}`,
    );
  }
  return alignedView(datatype, raw, headerBytes);
}

/**
 * The bytes of one raw contents entry as a typed array, without a copy where possible. A gRPC message puts them
 * wherever the fields before them end, so they are unaligned for their element size three times in four, and
 * `viewAs` then copies them into fresh zeroed memory: for a 10 MB input, 10 MB allocated, cleared and copied on the
 * event loop, and the message itself left behind for the collector instead of moving to the engine whole. When the
 * message's buffer belongs to this request alone (tensor/exclusive-buffers.ts: the server marks what grpc-js
 * assembled for it) the bytes move back instead, inside that buffer, over their own field's tag and length
 * (`headerBytes` of them, already read; nothing else views them), and the tensor stays a view of the message.
 */
function alignedView(datatype: Exclude<DataType, 'BYTES'>, raw: Uint8Array, headerBytes: number): NumericArray {
  return viewAs(datatype, alignInPlace(raw, headerBytes, BYTE_SIZE[datatype]) ?? raw);
}

// ---------------------------------------------------------------------------------------------------------------
// Typed contents

/** The InferTensorContents field that carries each datatype (GS comments); FP16 and BF16 have none. */
const CONTENTS_FIELD: Readonly<Record<DataType, number>> = {
  BOOL: 1,
  INT8: 2,
  INT16: 2,
  INT32: 2,
  INT64: 3,
  UINT8: 4,
  UINT16: 4,
  UINT32: 4,
  UINT64: 5,
  FP32: 6,
  FP64: 7,
  BYTES: 8,
  FP16: 0,
  BF16: 0,
};

const CONTENTS_NAME = [
  '',
  'bool_contents',
  'int_contents',
  'int64_contents',
  'uint_contents',
  'uint64_contents',
  'fp32_contents',
  'fp64_contents',
  'bytes_contents',
];

/** The name of the typed contents field for a datatype, for messages and docs. */
export function contentsFieldName(dt: DataType): string | undefined {
  const f = CONTENTS_FIELD[dt];
  return f === 0 ? undefined : CONTENTS_NAME[f];
}

/** Bytes per element of the fixed-width contents fields (fp32, fp64); 0 for varint and bytes fields. */
const FIXED_SIZE = [0, 0, 0, 0, 0, 0, 4, 8, 0];

/** A run of contents bytes: a packed run (or one bytes element) [start, end), or one unpacked element at `pos`. */
type Segment =
  | { readonly buf: Buffer; readonly packed: true; readonly start: number; readonly end: number }
  | { readonly buf: Buffer; readonly packed: false; readonly pos: number };

/**
 * Converts the typed `contents` of a tensor to data of its datatype, checking that exactly the datatype's field
 * is used and that it holds `count` elements.
 */
export function contentsToTensorData(
  role: TensorRole,
  name: string,
  datatype: DataType,
  shape: readonly number[],
  count: number,
  messages: readonly Uint8Array[],
  what: string,
): TensorData {
  const label = tensorLabel(role, name);
  const want = CONTENTS_FIELD[datatype];
  const segments: Segment[] = [];
  let found = 0;
  for (const m of messages) {
    const r = WireReader.of(m, what);
    const buf = r.buf;
    while (!r.done) {
      const tag = r.uint32();
      const field = tag >>> 3;
      const wt = tag & 7;
      if (field < 1 || field > 8) {
        r.skip(wt);
        continue;
      }
      if (field !== want) {
        if (want === 0) {
          throw rtError(
            'BAD_DATA',
            `${label}: ${datatype} has no typed contents field (InferTensorContents has none for 16-bit floats); send it in raw_${role}_contents`,
          );
        }
        throw rtError(
          'BAD_DATA',
          `${label}: ${datatype} data goes in contents.${CONTENTS_NAME[want]}, but the message uses contents.${CONTENTS_NAME[field]}`,
        );
      }
      if (field === 8) {
        if (wt !== WIRE_LEN) r.fail(`${label}: bytes_contents has wire type ${wt}`);
        const end = r.lengthEnd();
        segments.push({ buf, packed: true, start: r.pos, end });
        r.pos = end;
        found++;
      } else if (wt === WIRE_LEN) {
        const end = r.lengthEnd();
        const len = end - r.pos;
        const size = FIXED_SIZE[field]!;
        if (size > 0) {
          if (len % size !== 0) r.fail(`${label}: packed contents.${CONTENTS_NAME[field]} has ${len} bytes, not a multiple of ${size}`);
          found += len / size;
        } else {
          // One element per byte without the continuation bit.
          for (let i = r.pos; i < end; i++) if (r.buf[i]! < 0x80) found++;
          if (len > 0 && r.buf[end - 1]! >= 0x80) r.fail(`${label}: packed contents.${CONTENTS_NAME[field]} ends inside a varint`);
        }
        segments.push({ buf, packed: true, start: r.pos, end });
        r.pos = end;
      } else {
        const single = FIXED_SIZE[field] === 4 ? WIRE_FIXED32 : FIXED_SIZE[field] === 8 ? WIRE_FIXED64 : WIRE_VARINT;
        if (wt !== single) r.fail(`${label}: contents.${CONTENTS_NAME[field]} has wire type ${wt}`);
        segments.push({ buf, packed: false, pos: r.pos });
        r.skip(wt);
        found++;
      }
    }
  }
  if (found !== count) {
    if (want === 0 && found === 0 && count > 0) {
      throw rtError(
        'BAD_DATA',
        `${label}: ${datatype} has no typed contents field (InferTensorContents has none for 16-bit floats); send it in raw_${role}_contents`,
      );
    }
    const field = want === 0 ? 'contents' : `contents.${CONTENTS_NAME[want]}`;
    throw rtError('BAD_DATA', `${label}: shape ${formatShape(shape)} needs ${count} elements, ${field} has ${found}`);
  }
  if (count === 0) return emptyData(datatype);
  return fillFromSegments(datatype, count, segments, label, what);
}

function emptyData(dt: DataType): TensorData {
  if (dt === 'BYTES') return [];
  return viewAs(dt, new Uint8Array(0));
}

const INT_RANGE: Readonly<Partial<Record<DataType, readonly [number, number]>>> = {
  INT8: [-128, 127],
  INT16: [-32768, 32767],
  UINT8: [0, 255],
  UINT16: [0, 65535],
};

function fillFromSegments(dt: DataType, count: number, segments: readonly Segment[], label: string, what: string): TensorData {
  if (dt === 'BYTES') {
    const out = new Array<Uint8Array>(count);
    let i = 0;
    for (const s of segments) if (s.packed) out[i++] = s.buf.subarray(s.start, s.end);
    return out;
  }
  if (dt === 'FP32' || dt === 'FP64') {
    const size = BYTE_SIZE[dt];
    const only = segments[0];
    // The usual case: one packed run, viewed in place (moved over its own tag and length when unaligned).
    if (segments.length === 1 && only !== undefined && only.packed) {
      return alignedView(dt, only.buf.subarray(only.start, only.end), 1 + varintSize(only.end - only.start));
    }
    const out = dt === 'FP32' ? new Float32Array(count) : new Float64Array(count);
    let i = 0;
    for (const s of segments) {
      const buf = s.buf;
      if (s.packed) {
        for (let p = s.start; p < s.end; p += size) out[i++] = size === 4 ? buf.readFloatLE(p) : buf.readDoubleLE(p);
      } else {
        out[i++] = size === 4 ? buf.readFloatLE(s.pos) : buf.readDoubleLE(s.pos);
      }
    }
    return out;
  }
  // Varint fields: decode each element's two 32-bit halves.
  const each = (fn: (lo: number, hi: number, i: number) => void): void => {
    let i = 0;
    for (const s of segments) {
      if (s.packed && s.start === s.end) continue;
      const r = s.packed ? new WireReader(s.buf, s.start, s.end, what) : new WireReader(s.buf, s.pos, s.buf.length, what);
      do {
        r.varint64();
        fn(r.lo, r.hi, i++);
      } while (s.packed && !r.done);
    }
  };
  switch (dt) {
    case 'BOOL': {
      const out = new Uint8Array(count);
      each((lo, hi, i) => {
        out[i] = (lo | hi) !== 0 ? 1 : 0;
      });
      return out;
    }
    case 'INT64':
    case 'UINT64': {
      const out = dt === 'INT64' ? new BigInt64Array(count) : new BigUint64Array(count);
      // Write the halves straight into the 64-bit slots (little-endian, as every supported platform is): no BigInt
      // is created per element.
      const halves = new Uint32Array(out.buffer, out.byteOffset, count * 2);
      each((lo, hi, i) => {
        halves[2 * i] = lo;
        halves[2 * i + 1] = hi;
      });
      return out;
    }
    case 'INT32': {
      const out = new Int32Array(count);
      each((lo, _hi, i) => {
        out[i] = lo | 0;
      });
      return out;
    }
    case 'UINT32': {
      const out = new Uint32Array(count);
      each((lo, _hi, i) => {
        out[i] = lo;
      });
      return out;
    }
    default: {
      // INT8 / INT16 (int_contents, int32 on the wire) and UINT8 / UINT16 (uint_contents, uint32 on the wire).
      const range = INT_RANGE[dt]!;
      const [min, max] = range;
      const signed = dt === 'INT8' || dt === 'INT16';
      const out = viewAs(dt, new Uint8Array(count * BYTE_SIZE[dt])) as NumericArray & { [i: number]: number };
      each((lo, _hi, i) => {
        const v = signed ? lo | 0 : lo;
        if (v < min || v > max) throw rtError('BAD_DATA', `${label}: element ${i} value ${v} is out of range for ${dt} [${min}, ${max}]`);
        out[i] = v;
      });
      return out;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Writing tensor headers and raw contents

export interface TensorPlan {
  readonly name: string;
  readonly nameLen: number;
  readonly datatype: DataType;
  readonly shape: readonly number[];
  /** Packed shape payload bytes. */
  readonly shapeLen: number;
  /** Tensor message payload bytes. */
  readonly msgLen: number;
  /** The raw contents: a view for numeric data; for BYTES, the elements written with length prefixes. */
  readonly raw: Uint8Array | undefined;
  readonly bytesElements: readonly Uint8Array[] | undefined;
  readonly rawLen: number;
  /** The tensor's parameters (field 4); only shared-memory tensors carry any. */
  readonly params?: readonly ParameterPlan[];
}

/** Sizes a tensor header message (name, datatype, shape) and its raw contents. */
export function planTensor(name: string, datatype: DataType, shape: readonly number[], data: TensorData, role: TensorRole): TensorPlan {
  const nameLen = utf8Length(name);
  let shapeLen = 0;
  let count = 1;
  for (const d of shape) {
    shapeLen += int64Size(d);
    count *= d;
  }
  if (data.length !== count) {
    throw rtError('INTERNAL', `${tensorLabel(role, name)}: shape ${formatShape(shape)} needs ${count} elements, data has ${data.length}`);
  }
  const msgLen = lenFieldSize(nameLen) + lenFieldSize(datatype.length) + (shape.length > 0 ? lenFieldSize(shapeLen) : 0);
  if (Array.isArray(data)) {
    if (datatype !== 'BYTES') throw rtError('INTERNAL', `${tensorLabel(role, name)}: ${datatype} data must be a typed array`);
    let rawLen = 0;
    for (const el of data) rawLen += 4 + el.byteLength;
    return { name, nameLen, datatype, shape, shapeLen, msgLen, raw: undefined, bytesElements: data, rawLen };
  }
  const numeric = data as NumericArray;
  const raw = new Uint8Array(numeric.buffer, numeric.byteOffset, numeric.byteLength);
  return { name, nameLen, datatype, shape, shapeLen, msgLen, raw, bytesElements: undefined, rawLen: raw.byteLength };
}

/**
 * Sizes a tensor whose bytes are in a shared memory region: its header carries the region parameters, its raw
 * contents are empty (Triton still sends one raw_output_contents entry per output, so indexes line up).
 */
export function planSharedMemoryTensor(name: string, datatype: DataType, shape: readonly number[], parameters: Parameters): TensorPlan {
  const nameLen = utf8Length(name);
  let shapeLen = 0;
  for (const d of shape) shapeLen += int64Size(d);
  const params = planParameters(parameters);
  const msgLen = lenFieldSize(nameLen) + lenFieldSize(datatype.length) + (shape.length > 0 ? lenFieldSize(shapeLen) : 0) + parametersSize(params);
  return { name, nameLen, datatype, shape, shapeLen, msgLen, raw: new Uint8Array(0), bytesElements: undefined, rawLen: 0, params };
}

export function writeTensorHeader(w: WireWriter, field: number, p: TensorPlan): void {
  w.lenHeader(field, p.msgLen);
  w.stringField(1, p.name, p.nameLen);
  w.stringField(2, p.datatype, p.datatype.length);
  if (p.shape.length > 0) {
    w.lenHeader(3, p.shapeLen);
    for (const d of p.shape) w.int64(d);
  }
  if (p.params !== undefined) writeParameters(w, 4, p.params);
}

export function writeRaw(w: WireWriter, field: number, p: TensorPlan): void {
  w.lenHeader(field, p.rawLen);
  if (p.raw !== undefined) {
    w.buf.set(p.raw, w.pos);
    w.pos += p.rawLen;
    return;
  }
  const buf = w.buf;
  for (const el of p.bytesElements ?? []) {
    buf.writeUInt32LE(el.byteLength, w.pos);
    buf.set(el, w.pos + 4);
    w.pos += 4 + el.byteLength;
  }
}
