/**
 * What a JPEG's markers say before any pixel is decoded (ITU T.81 Annex B; EXIF 2.3 for the orientation; Adobe's
 * APP14 for the colour transform): its size, components, coding process and orientation. The GPU image path
 * (gpu-decode.ts) uses it to send each frame where it can be decoded exactly like the CPU path does: nvJPEG takes
 * 8-bit Huffman-coded YCbCr frames (baseline, extended, progressive) that need no rotation; grayscale, CMYK / YCCK,
 * 12-bit, lossless, arithmetic-coded or EXIF-rotated ones go to the CPU decoder (sharp), and a frame whose markers
 * are broken is refused here, per image.
 */

export type JpegProcess = 'baseline' | 'extended' | 'progressive' | 'lossless' | 'hierarchical' | 'arithmetic';

export interface JpegHeader {
  readonly width: number;
  readonly height: number;
  readonly components: number;
  /** Sample precision in bits (8 or 12). */
  readonly precision: number;
  readonly process: JpegProcess;
  /** EXIF orientation (1..8); 1 when there is none. */
  readonly orientation: number;
  /** Adobe APP14 colour transform (0 none / RGB or CMYK, 1 YCbCr, 2 YCCK); undefined without APP14. */
  readonly adobeTransform: number | undefined;
}

export type JpegHeaderResult = { readonly ok: true; readonly header: JpegHeader } | { readonly ok: false; readonly reason: string };

function processOf(marker: number): JpegProcess {
  if (marker === 0xc0) return 'baseline';
  if (marker === 0xc1) return 'extended';
  if (marker === 0xc2) return 'progressive';
  if (marker === 0xc3) return 'lossless';
  if (marker >= 0xc9) return 'arithmetic';
  return 'hierarchical';
}

/** EXIF orientation from an APP1 segment's payload (after the length), 1 when absent or unreadable. */
function exifOrientation(b: Uint8Array, start: number, end: number): number {
  // "Exif\0\0" then a TIFF header.
  if (end - start < 14 || b[start] !== 0x45 || b[start + 1] !== 0x78 || b[start + 2] !== 0x69 || b[start + 3] !== 0x66) return 1;
  const t = start + 6;
  const little = b[t] === 0x49 && b[t + 1] === 0x49;
  if (!little && !(b[t] === 0x4d && b[t + 1] === 0x4d)) return 1;
  const u16 = (p: number): number => (little ? (b[p] as number) | ((b[p + 1] as number) << 8) : ((b[p] as number) << 8) | (b[p + 1] as number));
  const u32 = (p: number): number => (little ? u16(p) + u16(p + 2) * 65536 : u16(p) * 65536 + u16(p + 2));
  const ifd = t + u32(t + 4);
  if (ifd + 2 > end) return 1;
  const n = u16(ifd);
  for (let i = 0; i < n; i++) {
    const e = ifd + 2 + i * 12;
    if (e + 12 > end) return 1;
    if (u16(e) === 0x0112) {
      const v = u16(e + 8);
      return v >= 1 && v <= 8 ? v : 1;
    }
  }
  return 1;
}

/** Reads the markers up to the frame header (SOFn). Never throws: a broken stream gives the reason. */
export function readJpegHeader(b: Uint8Array): JpegHeaderResult {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return { ok: false, reason: 'not a JPEG (no start-of-image marker)' };
  let p = 2;
  let orientation = 1;
  let adobeTransform: number | undefined;
  while (p < b.length) {
    if (b[p] !== 0xff) return { ok: false, reason: `corrupt JPEG: expected a marker at byte ${p}` };
    while (p < b.length && b[p] === 0xff) p++; // fill bytes
    if (p >= b.length) break;
    const marker = b[p] as number;
    p++;
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // no length
    if (marker === 0xd9) return { ok: false, reason: 'corrupt JPEG: end of image before any frame header' };
    if (p + 2 > b.length) break;
    const len = ((b[p] as number) << 8) | (b[p + 1] as number);
    if (len < 2) return { ok: false, reason: `corrupt JPEG: segment of length ${len} at byte ${p}` };
    const start = p + 2;
    const end = p + len;
    if (end > b.length) break;
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      if (len < 8) return { ok: false, reason: 'corrupt JPEG: frame header too short' };
      const precision = b[start] as number;
      const height = ((b[start + 1] as number) << 8) | (b[start + 2] as number);
      const width = ((b[start + 3] as number) << 8) | (b[start + 4] as number);
      const components = b[start + 5] as number;
      if (width === 0 || height === 0 || components === 0 || len < 8 + 3 * components) {
        return { ok: false, reason: `corrupt JPEG: frame header says ${width}x${height} with ${components} components` };
      }
      return { ok: true, header: { width, height, components, precision, process: processOf(marker), orientation, adobeTransform } };
    }
    if (marker === 0xda) return { ok: false, reason: 'corrupt JPEG: scan data before any frame header' };
    if (marker === 0xe1) {
      const o = exifOrientation(b, start, end);
      if (o !== 1) orientation = o;
    }
    if (marker === 0xee && len >= 14 && b[start] === 0x41 && b[start + 1] === 0x64 && b[start + 2] === 0x6f && b[start + 3] === 0x62) {
      adobeTransform = b[start + 11] as number; // "Adobe", version, flags0, flags1, transform
    }
    p = end;
  }
  return { ok: false, reason: 'truncated JPEG: the data ends before the frame header' };
}

/** Where one JPEG frame is decoded: on the GPU (nvJPEG), on the CPU (sharp, as every other format), or refused. */
export type JpegRoute =
  | { readonly to: 'gpu'; readonly header: JpegHeader }
  | { readonly to: 'cpu'; readonly why: string }
  | { readonly to: 'error'; readonly message: string };

export function routeJpeg(bytes: Uint8Array): JpegRoute {
  const r = readJpegHeader(bytes);
  if (!r.ok) return { to: 'error', message: r.reason };
  const h = r.header;
  if (h.precision !== 8) return { to: 'cpu', why: `${h.precision}-bit samples` };
  if (h.process !== 'baseline' && h.process !== 'extended' && h.process !== 'progressive') return { to: 'cpu', why: `${h.process} coding` };
  if (h.components !== 3) return { to: 'cpu', why: h.components === 1 ? 'grayscale' : `${h.components} components (CMYK / YCCK)` };
  if (h.adobeTransform === 0) return { to: 'cpu', why: 'RGB-coded (Adobe transform 0)' };
  if (h.orientation !== 1) return { to: 'cpu', why: `EXIF orientation ${h.orientation}` };
  return { to: 'gpu', header: h };
}
