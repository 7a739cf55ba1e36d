/**
 * Image formats by their magic bytes, checked before any decoder sees the bytes: the server refuses formats a
 * model does not accept (and formats like SVG, which a general-purpose decoder would render) with a message that
 * names the format.
 */
export type SniffedFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'bmp' | 'tiff' | 'heif' | 'avif' | 'svg' | 'pdf';

function ascii(bytes: Uint8Array, start: number, length: number): string {
  let s = '';
  for (let i = start; i < Math.min(bytes.length, start + length); i++) s += String.fromCharCode(bytes[i] as number);
  return s;
}

export function sniffImageFormat(bytes: Uint8Array): SniffedFormat | undefined {
  const b = (i: number): number => bytes[i] ?? -1;
  // JPEG: SOI marker FF D8 followed by another marker (ITU T.81 §B.1.1.3).
  if (b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return 'jpeg';
  // PNG signature (RFC 2083 §3.1).
  if (ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  // WebP: a RIFF container of form type WEBP.
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp';
  if (ascii(bytes, 0, 4) === 'GIF8') return 'gif';
  if (ascii(bytes, 0, 2) === 'BM') return 'bmp';
  if (ascii(bytes, 0, 4) === 'II*\0' || ascii(bytes, 0, 4) === 'MM\0*') return 'tiff';
  if (ascii(bytes, 4, 4) === 'ftyp') {
    const brand = ascii(bytes, 8, 4);
    if (brand === 'avif' || brand === 'avis') return 'avif';
    if (['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1'].includes(brand)) return 'heif';
  }
  if (ascii(bytes, 0, 5) === '%PDF-') return 'pdf';
  const head = ascii(bytes, 0, 256).trimStart().toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return 'svg';
  return undefined;
}
