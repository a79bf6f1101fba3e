import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRoutes } from '../src/http/route.ts';
import { randomIp } from './auth-helpers.ts';
import { createTestApp, dbTargets, type TestApp } from './test-app.ts';

/**
 * A hostile client writes a route's path in every way the router may still match: percent-encoded
 * letters, doubled slashes, trailing dots, mixed case. Whatever reaches a handler counts against the
 * same limit as the plain path; whatever the router does not match is a 404.
 */

const encodeAll = (p: string) =>
  p
    .split('/')
    .map((seg) => (seg.startsWith(':') ? seg : [...seg].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')))
    .join('/');
const encodeFirst = (p: string) => p.replace(/^\/a/, '/%61').replace(/^\/v/, '/%76');

export const variantsOf = (p: string) => [
  encodeFirst(p),
  encodeAll(p),
  encodeFirst(p)
    .toUpperCase()
    .replace(/%([0-9A-F]{2})/g, (m) => m.toLowerCase()),
  `/${p}`,
  p.replace(/\//g, '//'),
  `${p}.`,
  `${p}/.`,
  `${p}%2e`,
  p.toUpperCase(),
  p.replace(/^\/api\//, '/Api/'),
  p.replace(/^\/api\//, '/api/./'),
  p.replace(/^\/api\//, '/api/%2f'),
  `${p}%20`,
];

const concrete = (p: string) => p.replace(/:[a-z_]+/gi, '1');

describe.each(dbTargets)('limits decide on the routed path on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { RATE_LIMIT_MAX: '1000' });
  });
  afterAll(async () => t?.close());

  it('every route, written any way that still routes, carries the same limit headers; the rest is a 404', async () => {
    const escaped: string[] = [];
    for (const def of declaredRoutes(t.ctx)) {
      const method = (Array.isArray(def.method) ? def.method[0] : def.method) as 'GET' | 'POST';
      const plainPath = concrete(def.url);
      const plain = await t.app.inject({ method, url: plainPath, remoteAddress: randomIp() });
      const limit = plain.headers['x-ratelimit-limit'];
      for (const variant of variantsOf(plainPath)) {
        const res = await t.app.inject({ method, url: variant, remoteAddress: randomIp() });
        if (res.statusCode === 404) continue;
        if (res.headers['x-ratelimit-limit'] !== limit)
          escaped.push(`${method} ${variant} (${res.statusCode}, limit ${res.headers['x-ratelimit-limit']} != ${limit})`);
      }
    }
    expect(escaped).toEqual([]);
  });

  it('send_sms through encoded paths is refused once the plain limit is used up', async () => {
    const ip = randomIp();
    const paths = variantsOf('/api/notify/send_sms');
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: [paths[0]!, paths[1]!, '/api/notify/send_sms'][i % 3]!,
        remoteAddress: ip,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `to=${5550000 + i}&area_id=1&type=1`,
      });
      answers.push(res.statusCode === 404 ? 404 : (res.json() as { code: number }).code);
    }
    // The code-send limit of the plain path holds: the last ones are refused with the rate-limit code.
    expect(answers.slice(-2)).toEqual([1029, 1029]);
  });

  it('IPv6 clients of one /64 share their limits; another /64 has its own', async () => {
    const a = '2001:db8:1:2:aaaa::1';
    const b = '2001:db8:1:2:bbbb::2';
    const other = '2001:db8:1:3::1';
    const send = (ip: string) =>
      t.app.inject({ method: 'GET', url: '/api/user/captcha', remoteAddress: ip }).then((r) => (r.json() as { code: number }).code);
    const codes: number[] = [];
    for (let i = 0; i < 16; i++) codes.push(await send(a), await send(b));
    expect(codes.filter((c) => c === 1029).length).toBe(2);
    expect(await send(other)).toBe(1);
  });
});
