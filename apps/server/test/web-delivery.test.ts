import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync, brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app.ts';

/** A built web app in miniature: one hashed asset with the .br and .gz the build writes next to it. */
function fakeDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  const js = `export const answer = ${JSON.stringify('x'.repeat(4000))};\n`;
  fs.writeFileSync(path.join(dir, 'assets/boot-abc123.js'), js);
  fs.writeFileSync(path.join(dir, 'assets/boot-abc123.js.gz'), gzipSync(js));
  fs.writeFileSync(path.join(dir, 'assets/boot-abc123.js.br'), brotliCompressSync(js));
  fs.writeFileSync(path.join(dir, 'assets/logo-abc123.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  return dir;
}

describe('web delivery', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fakeDist();
    t = await createTestApp('pglite', {}, { webDist: dist });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('compresses large JSON answers for clients that accept it, with the same envelope inside', async () => {
    const plain = await get('/v1/api/forex/trade_list', '');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().code).toBe(1);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const gz = await get('/v1/api/forex/trade_list', 'gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());

    const br = await get('/v1/api/forex/trade_list', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
  });

  it('answers an API path spelled any other way with the not-found envelope, never the web app', async () => {
    for (const url of ['/API/USER/INFO', '//api//user//info', '/%61pi/user/nope', '/Api/./user/info', '/V1/api/forex/nope']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code, url).toBe(1004);
    }
    const page = await get('/trade');
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });

  it('sends small answers as they are', async () => {
    const res = await get('/v1/api/forex/getCategories', 'gzip');
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().code).toBe(1);
  });

  it('serves the precompressed build files with a year-long immutable cache, and the plain file otherwise', async () => {
    const original = fs.readFileSync(path.join(dist, 'assets/boot-abc123.js'), 'utf8');
    const br = await get('/assets/boot-abc123.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(original);

    const gz = await get('/assets/boot-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(original);

    const plain = await get('/assets/boot-abc123.js', '');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(original);

    // A file the build does not compress (images) comes as it is.
    const png = await get('/assets/logo-abc123.png', 'gzip, deflate, br');
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-encoding']).toBeUndefined();

    // The server's own public files (symbol logos) are cached for five minutes.
    const logo = await get('/logos/eurusd.svg', 'gzip');
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['cache-control']).toBe('public, max-age=300');

    // The page itself is compressed on the way out (it has no precompressed sibling).
    const page = await get('/', 'gzip');
    expect(page.headers['cache-control']).toBe('no-cache');
    const html = page.headers['content-encoding'] === 'gzip' ? gunzipSync(page.rawPayload).toString() : page.body;
    expect(html).toContain('id="root"');
  });
});
