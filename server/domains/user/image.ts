/**
 * What an uploaded avatar really is, from its bytes: PNG, JPEG, WebP or GIF (never SVG or anything a
 * browser could run), recognised by its signature and the header that must follow it, with its size
 * in pixels. Pure functions of the bytes; the avatar service (avatar.ts) turns a refusal into a 415.
 */

export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type TAvatarType = (typeof AVATAR_TYPES)[number];

/**
 * The most pixels an avatar may have on a side. Every viewer's browser unpacks it to 4 bytes a pixel:
 * 4 MiB at 1,024 × 1,024 (64 MiB at 4,096, the cap before issue 31: twenty on a list page, over a
 * gigabyte). An avatar is shown at most a few hundred pixels wide.
 */
export const MAX_AVATAR_SIDE = 1024;

/**
 * The most pixels a picture may have for each byte of its file. Deflate, PNG's compression, packs at
 * most 1,032 bytes into one, so a PNG with a byte a pixel cannot beat about 1,000; a photo has a few
 * pixels a byte at most, a flat drawing tens. A header claiming more than the file could hold is a lie
 * about its size (a 45-byte PNG "of 4,096 × 4,096"). Pictures of one colour at one bit a pixel, or a
 * one-colour WebP, can beat it and are refused too: sent smaller, they look the same.
 */
export const MAX_PIXELS_PER_BYTE = 1024;

export interface TSniffedImage {
  type: TAvatarType;
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  return bytes.length >= at + prefix.length && prefix.every((byte, index) => bytes[at + index] === byte);
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return bytes.length >= at + length ? String.fromCharCode(...bytes.subarray(at, at + length)) : '';
}

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const u32be = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) >>> 0) + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);

/** PNG: the signature, then the IHDR chunk (length 13) with the width and height. */
function png(bytes: Uint8Array): TSniffedImage | undefined {
  if (!startsWith(bytes, PNG_SIGNATURE) || bytes.length < 33) return undefined;
  if (u32be(bytes, 8) !== 13 || ascii(bytes, 12, 4) !== 'IHDR') return undefined;
  return { type: 'image/png', width: u32be(bytes, 16), height: u32be(bytes, 20) };
}

/** GIF: GIF87a or GIF89a, then the logical screen's width and height. */
function gif(bytes: Uint8Array): TSniffedImage | undefined {
  const signature = ascii(bytes, 0, 6);
  if ((signature !== 'GIF87a' && signature !== 'GIF89a') || bytes.length < 13) return undefined;
  return { type: 'image/gif', width: u16le(bytes, 6), height: u16le(bytes, 8) };
}

/** WebP: a RIFF container of type WEBP whose first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended). */
function webp(bytes: Uint8Array): TSniffedImage | undefined {
  if (ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WEBP' || bytes.length < 30) return undefined;
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8 ' && startsWith(bytes, [0x9d, 0x01, 0x2a], 23)) {
    return { type: 'image/webp', width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  }
  if (chunk === 'VP8L' && bytes[20] === 0x2f) {
    const bits = (bytes[21]! | (bytes[22]! << 8) | (bytes[23]! << 16) | (bytes[24]! << 24)) >>> 0;
    return { type: 'image/webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { type: 'image/webp', width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
  return undefined;
}

/** JPEG: SOI, then markers up to the first start-of-frame (SOF0-SOF15 but DHT, JPG and DAC), which holds the size. */
function jpeg(bytes: Uint8Array): TSniffedImage | undefined {
  if (!startsWith(bytes, [0xff, 0xd8, 0xff])) return undefined;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { type: 'image/jpeg', height: u16be(bytes, at + 5), width: u16be(bytes, at + 7) };
    }
    // Start of scan before any frame, or end of image: not a picture we can size.
    if (marker === 0xda || marker === 0xd9) return undefined;
    const length = u16be(bytes, at + 2);
    if (length < 2) return undefined;
    at += 2 + length;
  }
  return undefined;
}

/** The image the bytes are, or undefined when they are none of the four types (or a damaged header). */
export function sniffImage(bytes: Uint8Array): TSniffedImage | undefined {
  return png(bytes) ?? jpeg(bytes) ?? webp(bytes) ?? gif(bytes);
}
