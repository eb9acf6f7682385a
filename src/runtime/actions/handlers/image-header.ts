// An image's format and pixel size from its first bytes: PNG's IHDR, GIF's logical screen, JPEG's
// first start-of-frame segment. No decoding; a file that does not parse as one of these is unknown.

export interface ImageHeader {
  format: 'PNG' | 'GIF' | 'JPEG';
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

function pngHeader(b: Uint8Array, view: DataView): ImageHeader | null {
  // Signature, then the IHDR chunk: length (4), "IHDR", width (4, big-endian), height (4).
  if (b.length < 24 || !startsWith(b, PNG_SIGNATURE)) return null;
  if (String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!) !== 'IHDR') return null;
  return { format: 'PNG', width: view.getUint32(16), height: view.getUint32(20) };
}

function gifHeader(b: Uint8Array, view: DataView): ImageHeader | null {
  const magic = String.fromCharCode(...b.subarray(0, 6));
  if (b.length < 10 || (magic !== 'GIF87a' && magic !== 'GIF89a')) return null;
  return { format: 'GIF', width: view.getUint16(6, true), height: view.getUint16(8, true) };
}

/** SOFn markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegHeader(b: Uint8Array, view: DataView): ImageHeader | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    // Markers without a length: TEM and RSTn.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / start of scan before any frame
    const length = view.getUint16(at + 2);
    if (isStartOfFrame(marker)) return { format: 'JPEG', height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    at += 2 + length;
  }
  return null;
}

export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return pngHeader(bytes, view) ?? gifHeader(bytes, view) ?? jpegHeader(bytes, view);
}
