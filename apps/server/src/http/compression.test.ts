import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbTargets, type TestApp } from '../../test/test-app.ts';

/** What a client gets: JSON answers over 1 KB compressed as it accepts, small ones and prebuilt files as they are. */
describe.each(dbTargets)('response compression on %s', (target) => {
  let t: TestApp;
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-web-'));
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
  beforeAll(async () => {
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>t</title>');
    fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), script);
    fs.writeFileSync(path.join(webDist, 'assets', 'app.js.br'), brotliCompressSync(script));
    t = await createTestApp(target, {}, { webDist });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) => t.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('sends a JSON answer over 1 KB as brotli, else gzip, else plain', async () => {
    const br = await get('/v1/api/forex/trade_list', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    const list = JSON.parse(brotliDecompressSync(br.rawPayload).toString());
    expect(list.code).toBe(1);
    expect(Buffer.byteLength(JSON.stringify(list))).toBeGreaterThan(1024);

    const gz = await get('/v1/api/forex/trade_list', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(list);

    const plain = await get('/v1/api/forex/trade_list');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(list);
  });

  it('sends a small JSON answer as it is', async () => {
    const res = await get('/health/live', 'br');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.statusCode).toBe(200);
  });

  it("serves a build file's precompressed .br as it is, not compressed twice", async () => {
    const res = await get('/assets/app.js', 'br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });
});
