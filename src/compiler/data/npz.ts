import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { rtError } from '../../errors/registry.ts';
import type { HostTensor } from '../../plan/runtime.ts';
import { readNpy, writeNpy } from './npy.ts';

/**
 * NumPy .npz reader and writer: a ZIP archive (PKWARE APPNOTE.TXT) of `<key>.npy` members, stored
 * (np.savez) or deflated (np.savez_compressed). numpy writes members with force_zip64, so local headers
 * carry ZIP64 extra fields; sizes are taken from the central directory, with its ZIP64 extra when needed.
 */

const EOCD_SIG = 0x06054b50;
const CDH_SIG = 0x02014b50;
const LFH_SIG = 0x04034b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = (CRC_TABLE[(c ^ (bytes[i] ?? 0)) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function bad(name: string, why: string): Error {
  return rtError('BAD_CONFIG', `${name} is not a readable .npz archive: ${why}`);
}

interface Entry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

function readEntries(bytes: Uint8Array, name: string): Entry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record sits in the last 22 + 65535 (comment) bytes.
  let eocd = -1;
  for (let i = bytes.byteLength - 22; i >= Math.max(0, bytes.byteLength - 22 - 65535); i--) {
    if (view.getUint32(i, true) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw bad(name, 'no end-of-central-directory record (not a zip file, or truncated)');
  let count = view.getUint16(eocd + 10, true);
  let cdOffset = view.getUint32(eocd + 16, true);
  if ((count === 0xffff || cdOffset === 0xffffffff) && eocd >= 20 && view.getUint32(eocd - 20, true) === ZIP64_LOCATOR_SIG) {
    const z64 = Number(view.getBigUint64(eocd - 20 + 8, true));
    if (z64 + 56 > bytes.byteLength || view.getUint32(z64, true) !== ZIP64_EOCD_SIG) throw bad(name, 'broken ZIP64 end record');
    count = Number(view.getBigUint64(z64 + 32, true));
    cdOffset = Number(view.getBigUint64(z64 + 48, true));
  }
  const entries: Entry[] = [];
  let p = cdOffset;
  const dec = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (p + 46 > bytes.byteLength || view.getUint32(p, true) !== CDH_SIG) throw bad(name, 'corrupt central directory');
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    const crc = view.getUint32(p + 16, true);
    let compressedSize = view.getUint32(p + 20, true);
    let size = view.getUint32(p + 24, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    let localOffset = view.getUint32(p + 42, true);
    if ((flags & 1) !== 0) throw bad(name, 'encrypted members are not supported');
    const entryName = dec.decode(bytes.subarray(p + 46, p + 46 + nameLen));
    // ZIP64 extended information extra field (header id 0x0001): only the fields set to 0xFFFFFFFF follow.
    let e = p + 46 + nameLen;
    const extraEnd = e + extraLen;
    while (e + 4 <= extraEnd) {
      const id = view.getUint16(e, true);
      const len = view.getUint16(e + 2, true);
      if (id === 1) {
        let q = e + 4;
        if (size === 0xffffffff) {
          size = Number(view.getBigUint64(q, true));
          q += 8;
        }
        if (compressedSize === 0xffffffff) {
          compressedSize = Number(view.getBigUint64(q, true));
          q += 8;
        }
        if (localOffset === 0xffffffff) {
          localOffset = Number(view.getBigUint64(q, true));
          q += 8;
        }
      }
      e += 4 + len;
    }
    entries.push({ name: entryName, method, crc, compressedSize, size, localOffset });
    p = extraEnd + commentLen;
  }
  return entries;
}

function entryData(bytes: Uint8Array, e: Entry, name: string): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const p = e.localOffset;
  if (p + 30 > bytes.byteLength || view.getUint32(p, true) !== LFH_SIG) throw bad(name, `corrupt local header for '${e.name}'`);
  const start = p + 30 + view.getUint16(p + 26, true) + view.getUint16(p + 28, true);
  const raw = bytes.subarray(start, start + e.compressedSize);
  if (raw.byteLength !== e.compressedSize) throw bad(name, `member '${e.name}' is truncated`);
  let out: Uint8Array;
  if (e.method === 0) out = raw;
  else if (e.method === 8) {
    try {
      out = new Uint8Array(inflateRawSync(raw));
    } catch (err) {
      throw bad(name, `member '${e.name}' does not inflate (${err instanceof Error ? err.message : String(err)})`);
    }
  } else throw bad(name, `member '${e.name}' uses compression method ${e.method}; only stored (0) and deflate (8) are supported`);
  if (out.byteLength !== e.size) throw bad(name, `member '${e.name}' has ${out.byteLength} bytes, expected ${e.size}`);
  if (crc32(out) !== e.crc) throw bad(name, `member '${e.name}' fails its CRC-32 check`);
  return out;
}

/** Reads every array of an .npz archive, keyed by member name without `.npy`. */
export function readNpz(bytes: Uint8Array, name = 'the archive'): Map<string, HostTensor> {
  const out = new Map<string, HostTensor>();
  for (const e of readEntries(bytes, name)) {
    if (e.name.endsWith('/')) continue;
    const key = e.name.endsWith('.npy') ? e.name.slice(0, -4) : e.name;
    out.set(key, readNpy(entryData(bytes, e, name), `${name}[${key}]`));
  }
  return out;
}

/** Writes an .npz archive (stored or deflated members, no ZIP64: members must stay below 4 GiB). */
export function writeNpz(arrays: ReadonlyMap<string, HostTensor> | Record<string, HostTensor>, compress = false): Uint8Array {
  const items = arrays instanceof Map ? [...arrays.entries()] : Object.entries(arrays);
  const enc = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const [key, t] of items) {
    const data = writeNpy(t);
    const body = compress ? new Uint8Array(deflateRawSync(data)) : data;
    const fname = enc.encode(`${key}.npy`);
    const crc = crc32(data);
    const lh = new Uint8Array(30 + fname.byteLength);
    const lv = new DataView(lh.buffer);
    lv.setUint32(0, LFH_SIG, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(8, compress ? 8 : 0, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, body.byteLength, true);
    lv.setUint32(22, data.byteLength, true);
    lv.setUint16(26, fname.byteLength, true);
    lh.set(fname, 30);
    const ch = new Uint8Array(46 + fname.byteLength);
    const cv = new DataView(ch.buffer);
    cv.setUint32(0, CDH_SIG, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(10, compress ? 8 : 0, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, body.byteLength, true);
    cv.setUint32(24, data.byteLength, true);
    cv.setUint16(28, fname.byteLength, true);
    cv.setUint32(42, offset, true);
    ch.set(fname, 46);
    locals.push(lh, body);
    centrals.push(ch);
    offset += lh.byteLength + body.byteLength;
  }
  const cdSize = centrals.reduce((s, c) => s + c.byteLength, 0);
  const eocd = new Uint8Array(22);
  const ev = new DataView(eocd.buffer);
  ev.setUint32(0, EOCD_SIG, true);
  ev.setUint16(8, items.length, true);
  ev.setUint16(10, items.length, true);
  ev.setUint32(12, cdSize, true);
  ev.setUint32(16, offset, true);
  const parts = [...locals, ...centrals, eocd];
  const out = new Uint8Array(parts.reduce((s, x) => s + x.byteLength, 0));
  let p = 0;
  for (const x of parts) {
    out.set(x, p);
    p += x.byteLength;
  }
  return out;
}
