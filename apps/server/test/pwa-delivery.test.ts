import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app.ts';

/** The installable app as the server delivers it: manifest, service worker and offline page, and the headers that let them run. */
describe('installable web app delivery', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-dist-'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><link rel="manifest" href="/manifest.webmanifest"><div id="root"></div>',
    );
    fs.writeFileSync(path.join(dist, 'sw.js'), "self.addEventListener('push', () => {});\n");
    fs.writeFileSync(path.join(dist, 'offline.html'), '<!doctype html><h1>offline</h1>');
    fs.writeFileSync(path.join(dist, 'offline.js'), '// offline\n');
    fs.writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *\n');
    t = await createTestApp('pglite', {}, { webDist: dist });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('serves the service worker and its offline page revalidated on every visit, other files cached for a while', async () => {
    for (const file of ['/sw.js', '/offline.html', '/offline.js']) {
      const res = await t.app.inject({ method: 'GET', url: file });
      expect(res.statusCode, file).toBe(200);
      expect(res.headers['cache-control'], file).toBe('no-cache');
    }
    expect((await t.app.inject({ method: 'GET', url: '/sw.js' })).headers['content-type']).toMatch(/javascript/);
    expect((await t.app.inject({ method: 'GET', url: '/robots.txt' })).headers['cache-control']).toBe('public, max-age=300');
  });

  it("allows the service worker and the manifest from the site's own origin in the page's security policy", async () => {
    const csp = String((await t.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
    const manifest = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.headers['content-type']).toMatch(/application\/manifest\+json/);
    expect(manifest.json()).toMatchObject({ display: 'standalone', start_url: '/', icons: [{ sizes: '192x192' }, { sizes: '512x512' }] });
  });
});
