import { createECDH, randomBytes } from 'node:crypto';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { pushPreferences } from '../apps/server/src/platform/db/schema.ts';
import { signedInPage } from './account-helpers.ts';
import { DESKTOP, jsErrors, PHONE, startE2E, type E2E } from './harness.ts';

/**
 * The installable app's push notifications in Chromium: the service worker is registered by the
 * production build, a push is delivered to it through the DevTools protocol (as a push service would),
 * the notification it shows is read back, and its click opens the position's page.
 */
describe('web push in the browser', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => e2e?.close());

  /** The app's service worker registration id, as DevTools knows it, once it controls the page. */
  async function serviceWorkerOf(page: Page, cdp: CDPSession): Promise<string> {
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: typeof registrations }) =>
      registrations.push(...e.registrations),
    );
    await cdp.send('ServiceWorker.enable');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
    await expect.poll(() => registrations.find((r) => r.scopeURL === `${e2e.baseUrl}/`)?.registrationId).toBeTruthy();
    return registrations.find((r) => r.scopeURL === `${e2e.baseUrl}/`)!.registrationId;
  }

  const notificationsOf = (page: Page) =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        data: n.data,
      })),
    );

  it('shows a pushed notification with its title and text, one per order, and a click opens the position', async () => {
    const { context, page } = await signedInPage(e2e, { device: DESKTOP, lang: 'en' });
    await context.grantPermissions(['notifications'], { origin: e2e.baseUrl });
    await page.goto('/');
    const cdp = await context.newCDPSession(page);
    const registrationId = await serviceWorkerOf(page, cdp);

    const push = (payload: object) =>
      cdp.send('ServiceWorker.deliverPushMessage', { origin: e2e.baseUrl, registrationId, data: JSON.stringify(payload) });
    await push({
      title: 'Take-profit hit',
      body: 'Take-profit hit: BTC/USDT closed at 95600.00, result +59.00',
      tag: 'order-7',
      url: '/order?type=3&id=7',
      event: 'take_profit',
    });
    // The first push wakes the service worker's push handler: on a loaded machine that takes more than the default 5 s.
    await expect
      .poll(() => notificationsOf(page), { timeout: 15_000 })
      .toEqual([
        {
          title: 'Take-profit hit',
          body: 'Take-profit hit: BTC/USDT closed at 95600.00, result +59.00',
          tag: 'order-7',
          data: { url: '/order?type=3&id=7', event: 'take_profit' },
        },
      ]);
    // A later event of the same order replaces its notification.
    await push({
      title: 'Stop-loss hit',
      body: 'Stop-loss hit: BTC/USDT closed at 94000.00, result -101.00',
      tag: 'order-7',
      url: '/order?type=3&id=7',
      event: 'stop_loss',
    });
    await expect.poll(async () => (await notificationsOf(page)).map((n) => n.title)).toEqual(['Stop-loss hit']);

    await clickNotification(context, 'order-7');
    await page.waitForURL((url) => url.pathname === '/order' && url.search === '?type=3&id=7');
    await expect.poll(() => notificationsOf(page)).toEqual([]);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  /** The trader clicks the notification: its notificationclick handler runs in the service worker. */
  async function clickNotification(context: BrowserContext, tag: string): Promise<void> {
    const [worker] = context.serviceWorkers();
    expect(worker).toBeDefined();
    await worker!.evaluate(async (t) => {
      const scope = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(e: Event): boolean };
      const [notification] = await scope.registration.getNotifications({ tag: t });
      const NotificationEventOf = (
        self as unknown as { NotificationEvent: new (type: string, init: { notification: Notification }) => Event }
      ).NotificationEvent;
      scope.dispatchEvent(new NotificationEventOf('notificationclick', { notification: notification! }));
    }, tag);
  }
  /**
   * Chromium's push service is Google's, out of reach here: the browser's PushManager hands out a
   * subscription as it would (an https endpoint, the device's keys) and records the server key it was given.
   */
  async function fakePushService(context: BrowserContext): Promise<void> {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const subscription = {
      endpoint: `https://push.example.com/send/${randomBytes(8).toString('hex')}`,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
    };
    await context.addInitScript((json) => {
      const made = () => ({
        endpoint: json.endpoint,
        expirationTime: null,
        toJSON: () => ({ endpoint: json.endpoint, expirationTime: null, keys: json.keys }),
        unsubscribe: async () => {
          localStorage.removeItem('e2e-push');
          return true;
        },
      });
      PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
        const key = new Uint8Array(options!.applicationServerKey as ArrayBuffer);
        localStorage.setItem(
          'e2e-push',
          btoa(String.fromCharCode(...key))
            .replace(/\+/g, '-')
            .replace(/\//g, '_')
            .replace(/=+$/, ''),
        );
        return made() as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () =>
        localStorage.getItem('e2e-push') ? (made() as unknown as PushSubscription) : null;
    }, subscription);
  }

  const TEXTS = {
    en: { on: 'On for this device', hint: /even while the app is closed/, enable: 'Turn on', disable: 'Turn off' },
    ar: { on: 'مفعّلة على هذا الجهاز', hint: /حتى والتطبيق مغلق/, enable: 'تفعيل', disable: 'إيقاف' },
  } as const;

  it.each([
    ['en', DESKTOP, 'desktop-en'],
    ['ar', PHONE, 'phone-ar'],
    ['en', PHONE, 'phone-en'],
    ['ar', DESKTOP, 'desktop-ar'],
  ] as const)('the trader turns push on for this device, picks the events and turns it off (%s, %s)', async (lang, device, name) => {
    const { context, page, user } = await signedInPage(e2e, { device, lang });
    await context.grantPermissions(['notifications'], { origin: e2e.baseUrl });
    await fakePushService(context);
    const settings = async () =>
      (await e2e.server.app.inject({ method: 'GET', url: '/api/user/push/settings', headers: { authorization: user.token } })).json().data;

    await page.goto('/mine/notifications');
    const section = page.getByTestId('push-settings');
    await expect.poll(() => section.getByTestId('push-note').textContent()).toMatch(TEXTS[lang].hint);
    await section.getByRole('button', { name: TEXTS[lang].enable }).click();
    await expect.poll(() => section.getByTestId('push-note').textContent()).toBe(TEXTS[lang].on);
    const key = (
      await e2e.server.app.inject({ method: 'GET', url: '/api/user/push/vapid_public_key', headers: { authorization: user.token } })
    ).json().data.public_key;
    expect(await page.evaluate(() => localStorage.getItem('e2e-push'))).toBe(key);
    expect(await settings()).toMatchObject({ devices: 1, events: { take_profit: 1, price_alert: 1 } });

    const switches = section.getByRole('switch');
    await expect.poll(() => switches.count()).toBe(11); // one per push event (PUSH_EVENTS), copy_close included
    await section.locator('[data-push-event=take_profit]').click();
    await expect.poll(async () => (await settings()).events.take_profit).toBe(0);
    await expect.poll(() => section.locator('[data-push-event=take_profit]').isChecked()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'ar' ? 'rtl' : 'ltr');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `/tmp/webpush-settings-${name}.png`, fullPage: true });

    // A later visit registers the device again (in the language in use) and keeps the choices.
    await page.reload();
    await expect.poll(() => section.getByTestId('push-note').textContent()).toBe(TEXTS[lang].on);
    await expect.poll(() => section.locator('[data-push-event=take_profit]').isChecked()).toBe(false);

    await section.getByRole('button', { name: TEXTS[lang].disable }).click();
    await expect.poll(async () => (await settings()).devices).toBe(0);
    await expect.poll(() => section.getByTestId('push-note').textContent()).toMatch(TEXTS[lang].hint);
    expect(await switches.count()).toBe(0);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('pushes follow the language the trader uses now: opening the app in another language tells the server', async () => {
    const { context, page, user } = await signedInPage(e2e, { device: PHONE, lang: 'en' });
    await context.grantPermissions(['notifications'], { origin: e2e.baseUrl });
    await fakePushService(context);
    const langOnServer = async () =>
      (await e2e.server.ctx.db.select().from(pushPreferences).where(eq(pushPreferences.userId, user.id)))[0]?.lang;
    await page.goto('/mine/notifications');
    await page.getByTestId('push-settings').getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(langOnServer).toBe('en');
    await page.evaluate(() => localStorage.setItem('lang', 'ar'));
    await page.goto('/');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await expect.poll(langOnServer).toBe('ar');
    await context.close();
  });

  it('logging out drops the push subscription of this browser', async () => {
    const { context, page } = await signedInPage(e2e, { device: PHONE, lang: 'en' });
    await context.grantPermissions(['notifications'], { origin: e2e.baseUrl });
    await fakePushService(context);
    await page.goto('/mine/notifications');
    await page.getByTestId('push-settings').getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('e2e-push'))).not.toBeNull();
    await page.goto('/mine/system');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('e2e-push'))).toBeNull();
    await context.close();
  });

  it.each([
    ['en', PHONE, 'You are offline', 'ltr'],
    ['ar', DESKTOP, 'أنت غير متصل بالإنترنت', 'rtl'],
  ] as const)("shows the offline page in the trader's language when a page cannot load (%s)", async (lang, device, title, dir) => {
    const { context, page } = await signedInPage(e2e, { device, lang });
    await page.goto('/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
    await context.setOffline(true);
    await page.goto('/trade').catch(() => undefined);
    await expect.poll(() => page.locator('h1').textContent()).toBe(title);
    expect(await page.evaluate(() => document.documentElement.dir)).toBe(dir);
    await page.screenshot({ path: `/tmp/webpush-offline-${lang}.png` });
    // Back online, the page loads the app by itself (the retry button does the same on a tap).
    await context.setOffline(false);
    // The offline page's h1 is gone as soon as the reload starts, before the app's document is in, so
    // wait for the app itself, rendered past its start shell, at the same address (a read during the
    // navigation counts as not yet).
    const app = () =>
      page
        .evaluate(() => ({
          path: location.pathname,
          offline: document.querySelector('[data-text="title"]') !== null,
          app: (document.getElementById('root')?.childElementCount ?? 0) > 0 && document.querySelector('[data-boot-shell]') === null,
        }))
        .catch(() => null);
    await expect.poll(app, { timeout: 15_000 }).toEqual({ path: '/trade', offline: false, app: true });
    await context.close();
  });
});
