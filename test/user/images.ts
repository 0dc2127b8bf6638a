// Pictures for the avatar suites: the smallest real image of each accepted type, and hostile ones.

/** A 1 × 1 PNG. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
/** A 1 × 1 GIF. */
export const GIF_1X1 = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
/** A 1 × 1 lossless WebP. */
export const WEBP_1X1 = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
/** A JPEG header: SOI, APP0 (JFIF), SOF0 of 2 × 3 pixels, EOI (enough for the type and size). */
export const JPEG_2X3 = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
  0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x03, 0x00, 0x02, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11,
  0x01, 0xff, 0xd9,
]);

const PNG_SIGNATURE = PNG_1X1.subarray(0, 8);
const HTML = Buffer.from('<html><body><script>alert(document.domain)</script></body></html>');

/** The PNG signature followed by HTML: no IHDR, so not a PNG. */
export const FAKE_PNG_HTML = Buffer.concat([PNG_SIGNATURE, HTML]);

/** A real PNG header (signature and IHDR) with HTML after it: a PNG by its bytes, whatever follows. */
export const PNG_HEADER_THEN_HTML = Buffer.concat([PNG_1X1.subarray(0, 33), HTML]);

/** A PNG whose header claims `width` × `height`. */
export function pngOfSize(width: number, height: number): Buffer {
  const copy = Buffer.from(PNG_1X1);
  copy.writeUInt32BE(width, 16);
  copy.writeUInt32BE(height, 20);
  return copy;
}

/**
 * A PNG of exactly `bytes` bytes whose header claims `width` × `height`: the signature and IHDR (33
 * bytes), then zeros. 45 bytes, a header and an IEND chunk's worth, is issue 31's PNG "of 4096 × 4096".
 */
export function pngClaiming(width: number, height: number, bytes = 45): Buffer {
  return Buffer.concat([pngOfSize(width, height).subarray(0, 33), Buffer.alloc(bytes - 33)]);
}

/** A PNG of `bytes` bytes (its header, then padding). */
export function pngOfBytes(bytes: number): Buffer {
  return Buffer.concat([PNG_1X1, Buffer.alloc(bytes - PNG_1X1.length)]);
}

export const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

export function dataUrl(type: string, bytes: Buffer): string {
  return `data:${type};base64,${bytes.toString('base64')}`;
}
