import { createDecipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@tp/contract/codes';
import { eq } from 'drizzle-orm';
import { settings } from '../../platform/db/platform-schema.ts';
import { call, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { catalogueOf } from '../../http/i18n.ts';
import { demoTrader, submit, symbolId, tick, tradingApp, type Trader } from '../../../test/trading/test-kit.ts';

/**
 * Web Push without a vendor's push service: a local HTTP endpoint stands in for it, each test device
 * has its own P-256 key pair and auth secret, and what reaches the endpoint is decrypted here (RFC 8291,
 * aes128gcm) as the browser would, then read as the notification the trader sees.
 */
const BTC = 'BTCUSDT';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A browser's side of a push subscription: the key pair and auth secret it keeps, and the JSON it hands the app. */
class Device {
  readonly ecdh: ECDH = createECDH('prime256v1');
  readonly auth = randomBytes(16);
  constructor(readonly endpoint: string) {
    this.ecdh.generateKeys();
  }
  json() {
    return {
      endpoint: this.endpoint,
      keys: { p256dh: this.ecdh.getPublicKey().toString('base64url'), auth: this.auth.toString('base64url') },
    };
  }

  /** RFC 8291 (RFC 8188 aes128gcm, one record): the payload the service worker's push event would carry. */
  decrypt(body: Buffer): { title: string; body: string; tag: string; url: string; event: string } {
    const salt = body.subarray(0, 16);
    const idLength = body.readUInt8(20);
    const serverKey = body.subarray(21, 21 + idLength);
    const cipherText = body.subarray(21 + idLength);
    const shared = this.ecdh.computeSecret(serverKey);
    const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), this.ecdh.getPublicKey(), serverKey]);
    const ikm = Buffer.from(hkdfSync('sha256', shared, this.auth, keyInfo, 32));
    const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
    const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(cipherText.subarray(cipherText.length - 16));
    const padded = Buffer.concat([decipher.update(cipherText.subarray(0, cipherText.length - 16)), decipher.final()]);
    // The last record ends with the delimiter 2, then zero padding.
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    expect(padded[end]).toBe(2);
    return JSON.parse(padded.subarray(0, end).toString('utf8'));
  }
}

describe.each(dbTargets)('web push on %s', (target) => {
  let t: TestApp;
  let service: http.Server;
  let origin: string;
  const received: Received[] = [];
  /** Paths the stand-in push service answers 410 Gone (the browser dropped the subscription). */
  const gone = new Set<string>();

  beforeAll(async () => {
    service = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(gone.has(req.url!) ? 410 : 201).end();
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    t = await tradingApp(target, { WEB_PUSH_TEST_ORIGINS: origin, WEB_PUSH_MAX_DEVICES: '3' });
    await t.ctx.services.trading.alerts.start();
  });
  afterAll(async () => {
    await t?.ctx.services.trading.alerts.stop();
    await t?.close();
    await new Promise((resolve) => service?.close(resolve));
  });
  afterEach(() => {
    received.length = 0;
  });

  const post = (trader: Trader, path: string, body: Record<string, unknown>, lang = 'en') =>
    call(t, 'POST', path, body, { token: trader.token, lang, json: true });
  const device = (name: string) => new Device(`${origin}/push/${name}-${randomBytes(4).toString('hex')}`);

  /** A 0.1-lot BTC long at the ask, with a take-profit at 95500: its order id. */
  async function longWithTakeProfit(trader: Trader): Promise<number> {
    const opened = await submit(t, trader, {
      type: 1,
      cont: '0.1',
      forex_id: symbolId(t, BTC),
      multiple: 10,
      target_profit_price: '95500',
    });
    expect(opened.code).toBe(Code.SUCCESS);
    return opened.data.Id as number;
  }

  /** A take-profit close of a 0.1-lot BTC long bought at 95010 and closed at the bid 95600. */
  async function takeProfit(trader: Trader): Promise<number> {
    await tick(t, BTC, '94990', '95010');
    const orderId = await longWithTakeProfit(trader);
    await tick(t, BTC, '95600', '95620');
    await t.ctx.services.webPush.settled();
    return orderId;
  }

  it('gives the same VAPID public key every time, kept in the settings', async () => {
    const trader = await demoTrader(t);
    const first = await call(t, 'GET', '/api/user/push/vapid_public_key', {}, { token: trader.token });
    expect(first.code).toBe(Code.SUCCESS);
    expect(Buffer.from(first.data.public_key, 'base64url')).toHaveLength(65);
    const again = await call(t, 'GET', '/api/user/push/vapid_public_key', {}, { token: trader.token });
    expect(again.data.public_key).toBe(first.data.public_key);
    const [kept] = await t.ctx.db.select().from(settings).where(eq(settings.key, 'web_push_vapid_keys'));
    expect(JSON.parse(kept!.value).publicKey).toBe(first.data.public_key);
    expect((await call(t, 'GET', '/api/user/push/vapid_public_key')).code).toBe(Code.SESSION_EXPIRED);
  });

  it.each([
    ['en', 'Take-profit hit', 'Take-profit hit: BTC/USDT closed at 95,600.00, result +59.00'],
    ['ar', 'تحقق جني الربح', 'تحقق جني الربح: أُغلق BTC/USDT عند \u206695,600.00\u2069، النتيجة \u2066\u200e+59.00\u2069'],
  ])('pushes a take-profit close to every device of the trader, encrypted, in their language (%s)', async (lang, title, body) => {
    const trader = await demoTrader(t);
    const phone = device('phone');
    const laptop = device('laptop');
    for (const d of [phone, laptop]) {
      const subscribed = await post(trader, '/api/user/push/subscribe', d.json(), lang);
      expect(subscribed).toMatchObject({ code: Code.SUCCESS, data: { devices: expect.any(Number) } });
    }
    const key = (await call(t, 'GET', '/api/user/push/vapid_public_key', {}, { token: trader.token })).data.public_key;

    const orderId = await takeProfit(trader);

    for (const d of [phone, laptop]) {
      const got = received.filter((r) => r.path === new URL(d.endpoint).pathname);
      expect(got).toHaveLength(1);
      expect(got[0]!.headers).toMatchObject({ 'content-encoding': 'aes128gcm', urgency: 'high' });
      expect(got[0]!.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${key}$`));
      expect(d.decrypt(got[0]!.body)).toEqual({
        title,
        body,
        tag: `order-${orderId}`,
        url: `/order?type=3&id=${orderId}`,
        event: 'take_profit',
      });
    }
  });

  it.each(['ar', 'en'])('pushes a stop-out, encrypted for the subscription, in the trader’s language (%s)', async (lang) => {
    const trader = await demoTrader(t);
    const phone = device('phone');
    expect((await post(trader, '/api/user/push/subscribe', phone.json(), lang)).code).toBe(Code.SUCCESS);
    await tick(t, BTC, '94990', '95010');
    const opened = await submit(t, trader, { type: 1, cont: '1', forex_id: symbolId(t, BTC), multiple: 2 });
    expect(opened.code).toBe(Code.SUCCESS);
    // At 15,000 the long has lost 80,010 of the 100,000 demo cash: margin level about 42%, below the stop-out level.
    await tick(t, BTC, '15000', '15020');
    await t.ctx.services.webPush.settled();
    const messages = received.filter((r) => r.path === new URL(phone.endpoint).pathname).map((r) => phone.decrypt(r.body));
    const stopOut = messages.find((m) => m.event === 'stop_out');
    expect(stopOut, JSON.stringify(messages)).toBeDefined();
    const isolate = (text: string) => (lang === 'ar' ? `\u2066${text}\u2069` : text);
    expect(stopOut).toMatchObject({
      title: catalogueOf(lang as 'ar')['push.kind_stop_out'],
      tag: `order-${opened.data.Id}`,
      url: `/order?type=3&id=${opened.data.Id}`,
    });
    expect(stopOut!.body).toContain(isolate('15,000.00'));
    // Arabic money carries the locale's left-to-right mark before its sign (Intl, as the web app writes it).
    expect(stopOut!.body).toContain(isolate(lang === 'ar' ? '\u200e-80,010.00' : '-80,010.00'));
    expect(stopOut!.body).toContain('BTC/USDT');
  });

  it('pushes each trader of a burst of take-profits crossed by one tick their own notice, once, and none to the others', async () => {
    await tick(t, BTC, '94990', '95010');
    const traders = await Promise.all(Array.from({ length: 12 }, () => demoTrader(t)));
    const devices = new Map(traders.filter((_, i) => i % 4 === 0).map((trader) => [trader, device('burst')]));
    for (const [trader, d] of devices) expect((await post(trader, '/api/user/push/subscribe', d.json())).code).toBe(Code.SUCCESS);
    const orders = new Map<Trader, number>();
    for (const trader of traders) orders.set(trader, await longWithTakeProfit(trader));
    await tick(t, BTC, '95600', '95620');
    await t.ctx.services.webPush.settled();
    expect(received).toHaveLength(devices.size);
    for (const [trader, d] of devices) {
      const got = received.filter((r) => r.path === new URL(d.endpoint).pathname).map((r) => d.decrypt(r.body));
      expect(got).toEqual([expect.objectContaining({ event: 'take_profit', tag: `order-${orders.get(trader)}` })]);
    }
  });

  it('pushes a fired price alert in the language of the last push call (de), not the one it subscribed in', async () => {
    const trader = await demoTrader(t);
    const tablet = device('tablet');
    await post(trader, '/api/user/push/subscribe', tablet.json(), 'fr');
    await post(trader, '/api/user/push/settings', { events: { stop_loss: 1 } }, 'de');
    await tick(t, 'EURUSD', '1.08000', '1.08020');
    const added = await call(
      t,
      'GET',
      '/v1/api/forex/alert/add',
      { forex_id: symbolId(t, 'EURUSD'), price: '1.09000', side: 'ask' },
      { token: trader.token },
    );
    expect(added.code).toBe(Code.SUCCESS);
    await tick(t, 'EURUSD', '1.08980', '1.09000');
    await t.ctx.services.trading.alerts.idle();
    await t.ctx.services.webPush.settled();
    const got = received.filter((r) => r.path === new URL(tablet.endpoint).pathname);
    expect(got).toHaveLength(1);
    expect(tablet.decrypt(got[0]!.body)).toEqual({
      title: 'Kursalarm · EUR/USD',
      body: 'Preisalarm: EUR/USD Briefkurs hat 1,09000 erreicht (Alarm bei 1,09000)',
      tag: `alert-${added.data.id}`,
      url: '/order?type=alerts',
      event: 'price_alert',
    });
  });

  it('sends nothing for an event the trader switched off, and again once it is on', async () => {
    const trader = await demoTrader(t);
    const phone = device('phone');
    await post(trader, '/api/user/push/subscribe', phone.json());
    const off = await post(trader, '/api/user/push/settings', { events: { take_profit: 0 } });
    expect(off).toMatchObject({ code: Code.SUCCESS, data: { events: { take_profit: 0, stop_loss: 1, price_alert: 1 }, devices: 1 } });
    await takeProfit(trader);
    expect(received.filter((r) => r.path === new URL(phone.endpoint).pathname)).toEqual([]);

    const on = await post(trader, '/api/user/push/settings', { events: { take_profit: 1 } });
    expect(on.data.events.take_profit).toBe(1);
    await takeProfit(trader);
    expect(received.filter((r) => r.path === new URL(phone.endpoint).pathname)).toHaveLength(1);
  });

  it('forgets a device the push service says is gone (410), and one the trader unsubscribes', async () => {
    const trader = await demoTrader(t);
    const stale = device('stale');
    const kept = device('kept');
    gone.add(new URL(stale.endpoint).pathname);
    await post(trader, '/api/user/push/subscribe', stale.json());
    expect((await post(trader, '/api/user/push/subscribe', kept.json())).data.devices).toBe(2);

    const counted = async () => {
      const metric = await t.ctx.metrics.registry.getSingleMetric('tp_web_push_messages_total')!.get();
      return Object.fromEntries(metric.values.map((v) => [v.labels.result, v.value]));
    };
    const before = await counted();
    await takeProfit(trader);
    const after = await call(t, 'GET', '/api/user/push/settings', {}, { token: trader.token });
    expect(after.data.devices).toBe(1);
    const now = await counted();
    expect((now.gone ?? 0) - (before.gone ?? 0)).toBe(1);
    expect((now.sent ?? 0) - (before.sent ?? 0)).toBe(1);

    expect(await post(trader, '/api/user/push/unsubscribe', { endpoint: kept.endpoint })).toMatchObject({ code: Code.SUCCESS, data: null });
    expect((await call(t, 'GET', '/api/user/push/settings', {}, { token: trader.token })).data.devices).toBe(0);
    received.length = 0;
    await takeProfit(trader);
    expect(received).toEqual([]);
  });

  it('refuses endpoints that are not https push services, bad keys, and more devices than the limit', async () => {
    const trader = await demoTrader(t);
    const keys = device('x').json().keys;
    for (const endpoint of [
      'http://push.example.com/x',
      'https://127.0.0.1/x',
      'https://localhost/x',
      'not a url',
      'http://127.0.0.1:1/x',
    ]) {
      const refused = await post(trader, '/api/user/push/subscribe', { endpoint, keys });
      expect(refused, endpoint).toMatchObject({
        code: Code.INVALID_PARAM,
        msg: "The push subscription's endpoint must be an https address",
      });
    }
    const badKeys = await post(trader, '/api/user/push/subscribe', {
      endpoint: 'https://push.example.com/a',
      keys: { ...keys, auth: 'AAAA' },
    });
    expect(badKeys.code).toBe(Code.INVALID_PARAM);

    for (const name of ['a', 'b', 'c'])
      expect((await post(trader, '/api/user/push/subscribe', device(name).json())).code).toBe(Code.SUCCESS);
    const fourth = await post(trader, '/api/user/push/subscribe', device('d').json(), 'de');
    expect(fourth).toMatchObject({ code: Code.FAIL, msg: expect.stringContaining('3') });
    expect(fourth.msg).not.toMatch(/devices already/);
  });
});
