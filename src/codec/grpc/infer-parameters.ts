/**
 * InferParameter maps of the inference messages, both directions (docs/protocol.md §2.5; field numbers of
 * proto/grpc_service.proto): InferParameter oneof { bool_param=1, int64_param=2, string_param=3, double_param=4,
 * uint64_param=5 }; map<string,InferParameter> entries { key=1, value=2 }.
 */
import type { Parameters } from '../../api/types.ts';
import { rtError } from '../../errors/registry.ts';
import { WIRE_FIXED64, WIRE_LEN, WIRE_VARINT, type WireReader, type WireWriter, int64Size, lenFieldSize, utf8Length } from './proto-wire.ts';

/** Reads one map<string, InferParameter> entry into `into`. */
export function readParameterEntry(r: WireReader, into: Record<string, string | number | boolean>, where: string): void {
  const entry = r.sub();
  let key = '';
  let value: string | number | boolean | undefined;
  while (!entry.done) {
    const tag = entry.uint32();
    const field = tag >>> 3;
    if (field === 1 && (tag & 7) === WIRE_LEN) key = entry.string();
    else if (field === 2 && (tag & 7) === WIRE_LEN) value = readInferParameter(entry.sub(), () => `${where} parameter '${key}'`);
    else entry.skip(tag & 7);
  }
  if (value === undefined) throw rtError('BAD_PARAMETER', `${where} parameter '${key}' has no value (InferParameter sets none of its fields)`);
  into[key] = value;
}

function readInferParameter(r: WireReader, name: () => string): string | number | boolean | undefined {
  let value: string | number | boolean | undefined;
  while (!r.done) {
    const tag = r.uint32();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wt !== WIRE_VARINT) return r.fail(`${name()}: bool_param has wire type ${wt}`);
        value = r.bool();
        break;
      case 2:
        if (wt !== WIRE_VARINT) return r.fail(`${name()}: int64_param has wire type ${wt}`);
        r.varint64();
        value = int64PartsToSafe(r.lo, r.hi, name);
        break;
      case 3:
        if (wt !== WIRE_LEN) return r.fail(`${name()}: string_param has wire type ${wt}`);
        value = r.string();
        break;
      case 4:
        if (wt !== WIRE_FIXED64) return r.fail(`${name()}: double_param has wire type ${wt}`);
        value = r.double();
        break;
      case 5:
        if (wt !== WIRE_VARINT) return r.fail(`${name()}: uint64_param has wire type ${wt}`);
        r.varint64();
        if (r.hi > 0x1fffff)
          throw rtError('BAD_PARAMETER', `${name()}: uint64_param ${uint64String(r.lo, r.hi)} is beyond 2^53, which rtserve parameters cannot hold`);
        value = r.hi * 4294967296 + r.lo;
        break;
      default:
        r.skip(wt);
    }
  }
  return value;
}

function uint64String(lo: number, hi: number): string {
  return ((BigInt(hi) << 32n) | BigInt(lo)).toString();
}

function int64PartsToSafe(lo: number, hi: number, name: () => string): number {
  if (hi <= 0x1fffff) return hi * 4294967296 + lo;
  const big = BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
  if (big >= -BigInt(Number.MAX_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(big);
  throw rtError('BAD_PARAMETER', `${name()}: int64_param ${big} is beyond ±2^53, which rtserve parameters cannot hold`);
}

export interface ParameterPlan {
  readonly key: string;
  readonly keyLen: number;
  readonly value: string | number | boolean;
  readonly valueLen: number;
  /** InferParameter payload bytes. */
  readonly paramLen: number;
  /** Map entry payload bytes. */
  readonly entryLen: number;
}

/** Sizes a parameters map: integers go as int64_param, other numbers as double_param. */
export function planParameters(params: Parameters | undefined): ParameterPlan[] {
  if (params === undefined) return [];
  const out: ParameterPlan[] = [];
  for (const key of Object.keys(params)) {
    const value = params[key]!;
    let valueLen = 0;
    let paramLen: number;
    if (typeof value === 'boolean') paramLen = 2;
    else if (typeof value === 'string') {
      valueLen = utf8Length(value);
      paramLen = lenFieldSize(valueLen);
    } else if (Number.isSafeInteger(value)) paramLen = 1 + int64Size(value);
    else paramLen = 9;
    const keyLen = utf8Length(key);
    const entryLen = lenFieldSize(keyLen) + lenFieldSize(paramLen);
    out.push({ key, keyLen, value, valueLen, paramLen, entryLen });
  }
  return out;
}

export function parametersSize(plans: readonly ParameterPlan[]): number {
  let size = 0;
  for (const p of plans) size += lenFieldSize(p.entryLen);
  return size;
}

export function writeParameters(w: WireWriter, field: number, plans: readonly ParameterPlan[]): void {
  for (const p of plans) {
    w.lenHeader(field, p.entryLen);
    w.stringField(1, p.key, p.keyLen);
    w.lenHeader(2, p.paramLen);
    const v = p.value;
    if (typeof v === 'boolean') {
      w.tag(1, WIRE_VARINT);
      w.bool(v);
    } else if (typeof v === 'string') {
      w.stringField(3, v, p.valueLen);
    } else if (Number.isSafeInteger(v)) {
      w.tag(2, WIRE_VARINT);
      w.int64(v);
    } else {
      w.tag(4, WIRE_FIXED64);
      w.double(v);
    }
  }
}
