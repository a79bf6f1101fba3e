import fs from 'node:fs';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { registerByEmail, staffSession } from '../../../test/auth-helpers.ts';
import { uploads } from '../../platform/db/schema.ts';

interface FilePart {
  name?: string;
  filename: string;
  type: string;
  data: Buffer;
}

/** A multipart/form-data body with the given files and fields. */
function multipart(files: FilePart[], fields: Record<string, string> = {}) {
  const boundary = `----tp${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${f.name ?? 'file'}"; filename="${f.filename}"\r\ncontent-type: ${f.type}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

const png = (w = 64, h = 48) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .png()
    .toBuffer();

describe.each(dbTargets)('image uploads on %s', (target) => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof registerByEmail>>;
  beforeAll(async () => {
    t = await createTestApp(target);
    owner = await registerByEmail(t);
  });
  afterAll(async () => t?.close());

  const upload = async (files: FilePart[], opts: { token?: string; lang?: string; fields?: Record<string, string> } = {}) => {
    const body = multipart(files, opts.fields);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/common/image_upload',
      headers: { 'content-type': body.contentType, authorization: opts.token ?? owner.token, lang: opts.lang ?? 'en' },
      payload: body.payload,
    });
    return res.json() as { code: number; msg: string; data: { url: string } | null };
  };
  const stored = async () => ({
    rows: Number((await t.ctx.db.select({ n: count() }).from(uploads))[0]!.n),
    files: fs.existsSync(t.config.storageDir) ? fs.readdirSync(t.config.storageDir).length : 0,
  });
  const get = (url: string, token?: string) => t.app.inject({ method: 'GET', url, headers: token ? { authorization: token } : {} });

  it('accepts one PNG, stores it re-encoded under a random key, and answers a signed url', async () => {
    const before = await stored();
    const res = await upload([{ filename: 'front.png', type: 'image/png', data: await png() }]);
    expect(res.code).toBe(1);
    expect(res.data!.url).toMatch(/^\/uploads\/[0-9a-f]{32}\.png\?exp=\d+&sig=[A-Za-z0-9_-]{24}$/);
    expect(await stored()).toEqual({ rows: before.rows + 1, files: before.files + 1 });
    const key = res.data!.url.split('?')[0]!.split('/').pop()!;
    const [row] = await t.ctx.db.select().from(uploads).where(eq(uploads.key, key));
    expect(row).toMatchObject({ userId: owner.user.id, mime: 'image/png' });
    expect(fs.existsSync(`${t.config.storageDir}/${key}`)).toBe(true);
    // The signed url works in an <img> without any header; the bare path needs the owner or staff.
    const signed = await get(res.data!.url);
    expect(signed.statusCode).toBe(200);
    expect(signed.headers['content-type']).toBe('image/png');
    // An uploaded file is sandboxed: its own CSP, not the app's.
    expect(signed.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect((await sharp(signed.rawPayload).metadata()).width).toBe(64);
    const bare = `/uploads/${key}`;
    expect((await get(bare)).statusCode).toBe(404);
    expect((await get(bare, owner.token)).statusCode).toBe(200);
    const stranger = await registerByEmail(t);
    expect((await get(bare, stranger.token)).statusCode).toBe(404);
    expect((await get(bare, await staffSession(t, ['support']))).statusCode).toBe(200);
    // A signature with its first character changed (to one it is not: it was 'A' one time in 64).
    expect((await get(res.data!.url.replace(/sig=(.)/, (_, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`))).statusCode).toBe(404);
    expect((await get(`${bare}?exp=${Math.floor(Date.now() / 1000) - 10}&${res.data!.url.split('&')[1]}`)).statusCode).toBe(404);
  });

  it('judges by content: a JPEG named .png is kept as JPEG, with its metadata and location stripped', async () => {
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c08040' } })
      .withExif({
        IFD0: { Copyright: 'owner-secret', ImageDescription: 'home' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '22/1 17/1 0/1' },
      })
      .jpeg()
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const res = await upload([{ filename: 'id.png', type: 'image/png', data: jpeg }]);
    expect(res.code).toBe(1);
    expect(res.data!.url).toMatch(/\.jpg\?/);
    const file = await get(res.data!.url);
    expect(file.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(file.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    expect(file.rawPayload.includes(Buffer.from('owner-secret'))).toBe(false);
  });

  it('refuses an SVG, HTML renamed .png, a 6 MB image, two files and none, storing nothing', async () => {
    const before = await stored();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    const html = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
    const big = await sharp({
      create: { width: 1500, height: 1400, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(6 * 1024 * 1024);
    const cases: [FilePart[], string][] = [
      [[{ filename: 'a.svg', type: 'image/svg+xml', data: svg }], 'Only JPEG, PNG or WebP images can be uploaded'],
      [[{ filename: 'a.png', type: 'image/png', data: svg }], 'Only JPEG, PNG or WebP images can be uploaded'],
      [[{ filename: 'page.png', type: 'image/png', data: html }], 'Only JPEG, PNG or WebP images can be uploaded'],
      [
        [{ filename: 'trunc.png', type: 'image/png', data: (await png()).subarray(0, 40) }],
        'Only JPEG, PNG or WebP images can be uploaded',
      ],
      [[{ filename: 'big.png', type: 'image/png', data: big }], 'The image is too large (at most 5 MB)'],
      [
        [
          { filename: 'a.png', type: 'image/png', data: await png() },
          { filename: 'b.png', type: 'image/png', data: await png(), name: 'file2' },
        ],
        'Please upload exactly one image',
      ],
      [[], 'Please upload exactly one image'],
    ];
    for (const [files, msg] of cases) {
      const res = await upload(files, { fields: { note: 'x' } });
      expect(res, msg).toMatchObject({ code: 1001, msg, data: null });
      expect((await upload(files, { lang: 'hk', fields: { note: 'x' } })).msg).not.toBe(msg);
    }
    const notMultipart = await t.app.inject({
      method: 'POST',
      url: '/api/common/image_upload',
      headers: { authorization: owner.token, lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'file=abc',
    });
    expect(notMultipart.json()).toMatchObject({ code: 1001, msg: 'Please upload exactly one image' });
    expect(await stored()).toEqual(before);
  });

  it('needs a session', async () => {
    const res = await upload([{ filename: 'a.png', type: 'image/png', data: await png() }], { token: 'nope' });
    expect(res.code).toBe(999);
  });
});
