import sharp from 'sharp';

export type ImageFormat = 'jpeg' | 'png' | 'webp';

export const IMAGE_MIME: Record<ImageFormat, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };
export const IMAGE_EXT: Record<ImageFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp' };

/** Refuses images that would take too much memory to decode (decompression bombs). */
const MAX_PIXELS = 40_000_000;

/** The format by the file's first bytes, whatever its name or declared type says. */
export function sniffImage(buf: Buffer): ImageFormat | null {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/**
 * Decodes and re-encodes a JPEG, PNG or WebP image: orientation applied, every metadata block
 * (EXIF, GPS location, XMP, ICC comments) dropped. Null when the bytes are not such an image.
 */
export async function reencodeImage(buf: Buffer): Promise<{ format: ImageFormat; data: Buffer } | null> {
  const format = sniffImage(buf);
  if (!format) return null;
  try {
    const meta = await sharp(buf, { limitInputPixels: MAX_PIXELS }).metadata();
    if (meta.format !== format || !meta.width || !meta.height) return null;
    const pipeline = sharp(buf, { limitInputPixels: MAX_PIXELS, failOn: 'error' }).rotate();
    const data =
      format === 'jpeg'
        ? await pipeline.jpeg({ quality: 88 }).toBuffer()
        : format === 'png'
          ? await pipeline.png({ compressionLevel: 8 }).toBuffer()
          : await pipeline.webp({ quality: 88 }).toBuffer();
    return { format, data };
  } catch {
    return null;
  }
}
