import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { reencodeImage, sniffImage } from './image.ts';

const solid = () => sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } });

describe('image checks', () => {
  it('tells JPEG, PNG and WebP by their bytes', async () => {
    expect(sniffImage(await solid().png().toBuffer())).toBe('png');
    expect(sniffImage(await solid().jpeg().toBuffer())).toBe('jpeg');
    expect(sniffImage(await solid().webp().toBuffer())).toBe('webp');
    expect(sniffImage(await solid().gif().toBuffer())).toBeNull();
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImage(Buffer.from('GIF89a'))).toBeNull();
  });

  it('re-encodes real images and refuses a disguised or broken one', async () => {
    const webp = await reencodeImage(await solid().webp().toBuffer());
    expect(webp?.format).toBe('webp');
    expect((await sharp(webp!.data).metadata()).format).toBe('webp');
    const png = await solid().png().toBuffer();
    expect(await reencodeImage(Buffer.concat([png.subarray(0, 8), Buffer.from('<html>not really</html>')]))).toBeNull();
    expect(await reencodeImage(await solid().gif().toBuffer())).toBeNull();
  });
});
