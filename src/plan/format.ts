import { createHash } from 'node:crypto';
import { rtError } from '../errors/registry.ts';
import { planManifestSchema, type PlanManifest } from './manifest.ts';

/**
 * The plan file layout (docs/plan-format.md), all integers little-endian:
 *
 *   0   8  magic      0x89 'R' 'T' 'P' 'L' 'A' 'N' 0x0A
 *   8   2  major      format major version (a reader refuses a major it does not know)
 *  10   2  minor      format minor version (only adds manifest fields; older readers ignore them)
 *  12   4  flags      0 (reserved)
 *  16   4  manifestLength
 *  20   4  reserved   0
 *  24   8  payloadLength
 *  32   M  manifest   UTF-8 JSON
 *  32+M P  payload    the model bytes (an ONNX ModelProto for ORT targets)
 *  end-32 32 sha256   of every byte before it
 *
 * The magic borrows PNG's trick: the 0x89 byte catches 7-bit transfers, the trailing LF catches CRLF rewriting.
 * The trailing digest catches truncation and bit rot before a single manifest field is trusted.
 */
export const PLAN_MAGIC = Uint8Array.from([0x89, 0x52, 0x54, 0x50, 0x4c, 0x41, 0x4e, 0x0a]);
export const PLAN_FORMAT_MAJOR = 1;
export const PLAN_FORMAT_MINOR = 0;
export const PLAN_HEADER_BYTES = 32;
export const PLAN_DIGEST_BYTES = 32;
/** A manifest is metadata; anything bigger than this is a corrupt length field, not a real manifest. */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

export interface PlanFile {
  readonly manifest: PlanManifest;
  readonly payload: Uint8Array;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** True when `bytes` start with the plan magic (cheap sniffing for `inspect` and repository scans). */
export function isPlanBytes(bytes: Uint8Array): boolean {
  if (bytes.byteLength < PLAN_MAGIC.byteLength) return false;
  return PLAN_MAGIC.every((b, i) => bytes[i] === b);
}

/** Serializes a plan. The manifest's payload digest and size are checked against the payload given. */
export function writePlan(manifest: PlanManifest, payload: Uint8Array): Uint8Array {
  if (manifest.payload.bytes !== payload.byteLength || manifest.payload.sha256 !== sha256Hex(payload)) {
    throw rtError('INTERNAL', 'plan writer: manifest.payload does not describe the payload bytes');
  }
  const parsed = planManifestSchema.safeParse(manifest);
  if (!parsed.success) {
    throw rtError('INTERNAL', `plan writer: invalid manifest: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const json = new TextEncoder().encode(JSON.stringify(manifest));
  const total = PLAN_HEADER_BYTES + json.byteLength + payload.byteLength + PLAN_DIGEST_BYTES;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out.set(PLAN_MAGIC, 0);
  view.setUint16(8, PLAN_FORMAT_MAJOR, true);
  view.setUint16(10, PLAN_FORMAT_MINOR, true);
  view.setUint32(12, 0, true);
  view.setUint32(16, json.byteLength, true);
  view.setUint32(20, 0, true);
  view.setBigUint64(24, BigInt(payload.byteLength), true);
  out.set(json, PLAN_HEADER_BYTES);
  out.set(payload, PLAN_HEADER_BYTES + json.byteLength);
  const digest = createHash('sha256')
    .update(out.subarray(0, total - PLAN_DIGEST_BYTES))
    .digest();
  out.set(digest, total - PLAN_DIGEST_BYTES);
  return out;
}

function corrupt(what: string, why: string): Error {
  return rtError('BAD_CONFIG', `${what} is not a valid rtserve plan: ${why}; rebuild it with \`rtserve build\``);
}

export interface ReadPlanOptions {
  /** Used in error messages (a file path). */
  readonly name?: string;
}

/**
 * Parses and verifies a plan. Corruption (bad magic, truncation, digest mismatch, malformed manifest) is
 * BAD_CONFIG; a plan written by a newer major format is ENGINE_UNAVAILABLE (FAILED_PRECONDITION): the file is
 * fine, this runtime is too old for it. The payload is a view into `bytes` (no copy).
 */
export function readPlan(bytes: Uint8Array, options: ReadPlanOptions = {}): PlanFile {
  const what = options.name ?? 'the file';
  if (!isPlanBytes(bytes)) {
    throw corrupt(what, 'it does not start with the plan magic bytes (is it an .onnx model? load that directly)');
  }
  if (bytes.byteLength < PLAN_HEADER_BYTES + PLAN_DIGEST_BYTES) {
    throw corrupt(what, `it is truncated (${bytes.byteLength} bytes, the header and digest alone take ${PLAN_HEADER_BYTES + PLAN_DIGEST_BYTES})`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const major = view.getUint16(8, true);
  const minor = view.getUint16(10, true);
  if (major !== PLAN_FORMAT_MAJOR) {
    throw rtError(
      'ENGINE_UNAVAILABLE',
      `${what} uses plan format ${major}.${minor}, but this rtserve reads format ${PLAN_FORMAT_MAJOR}.x; ` +
        (major > PLAN_FORMAT_MAJOR ? 'upgrade rtserve or rebuild the plan with this version' : 'rebuild the plan with this version of rtserve'),
    );
  }
  const manifestLength = view.getUint32(16, true);
  const payloadLength = view.getBigUint64(24, true);
  const expected = BigInt(PLAN_HEADER_BYTES) + BigInt(manifestLength) + payloadLength + BigInt(PLAN_DIGEST_BYTES);
  if (manifestLength > MAX_MANIFEST_BYTES || expected !== BigInt(bytes.byteLength)) {
    throw corrupt(what, `its header announces ${expected} bytes but the file has ${bytes.byteLength} (truncated or appended to)`);
  }
  const bodyEnd = bytes.byteLength - PLAN_DIGEST_BYTES;
  const digest = createHash('sha256').update(bytes.subarray(0, bodyEnd)).digest();
  const stored = bytes.subarray(bodyEnd);
  if (!digest.equals(stored)) throw corrupt(what, 'its sha256 checksum does not match (the file is damaged)');

  const manifestBytes = bytes.subarray(PLAN_HEADER_BYTES, PLAN_HEADER_BYTES + manifestLength);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(manifestBytes));
  } catch (err) {
    throw corrupt(what, `its manifest is not valid UTF-8 JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const parsed = planManifestSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw corrupt(what, `its manifest is malformed (${first.join('; ')})`);
  }
  const payload = bytes.subarray(PLAN_HEADER_BYTES + manifestLength, bodyEnd);
  const manifest = parsed.data;
  if (manifest.payload.bytes !== payload.byteLength || manifest.payload.sha256 !== sha256Hex(payload)) {
    throw corrupt(what, 'its manifest does not describe its payload (size or sha256 differ)');
  }
  return { manifest, payload };
}
