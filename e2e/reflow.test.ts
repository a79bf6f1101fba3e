import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { liveQuotes, tick as kitTick } from '../apps/server/test/trading/test-kit.ts';
import { DESKTOP, jsErrors, newPage, startE2E, type E2E } from './harness.ts';

const POLL = { timeout: 15_000 };

/** The desktop frame's navigation and the phone's footer tabs, by their accessible names. */
const TEXT = {
  en: { desktopNav: 'Main navigation', phoneTabs: 'Main tabs' },
  ar: { desktopNav: 'التنقل الرئيسي', phoneTabs: 'علامات التبويب الرئيسية' },
} as const;

/** Routes a user reaches at 320 CSS px wide (the phone's tabs and the user centre, news, login). */
const ROUTES = ['/', '/trade?symbol=BTCUSDT', '/order', '/news', '/rank', '/user', '/login'];

/**
 * Issue 36, "Layouts that reflow" (WCAG 1.4.10): a desktop browser (desktop user agent) narrowed
 * to 320 CSS px (1280 px at 400% zoom) gets the phone layout live, without a reload, no route
 * scrolls sideways, and the signed-in session, the route and the open symbol survive; widened
 * again it gets the desktop terminal back.
 */
describe('reflow', () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await liveQuotes(e2e.server);
    await kitTick(e2e.server, 'BTCUSDT', '95000.00', '95020.00');
  });
  afterAll(async () => e2e?.close());

  /** Client-side navigation in the same document (no reload), as a link or the back button does. */
  const navigate = (page: Page, to: string) =>
    page.evaluate((path) => {
      window.history.pushState({}, '', path);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    }, to);
  const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

  it.each(['en', 'ar'] as const)(
    'switches between the desktop terminal and the phone layout as the window narrows and widens (%s)',
    async (lang) => {
      const demo = await call(e2e.server, 'GET', '/api/user/createAccountDemoForU');
      const login = await call(e2e.server, 'POST', '/api/user/loginForU', { demo_id: demo.data.demo_id });
      expect(login.code).toBe(1);
      const session = JSON.stringify({ state: { token: login.data.token, user: login.data.user }, version: 0 });
      const { context, page } = await newPage(e2e, DESKTOP, { lang });
      await context.addInitScript((value) => {
        if (!sessionStorage.getItem('e2e-session-set')) {
          localStorage.setItem('session', value);
          sessionStorage.setItem('e2e-session-set', '1');
        }
      }, session);
      const text = TEXT[lang];
      const desktopNav = page.getByRole('navigation', { name: text.desktopNav });
      const phoneTabs = page.getByRole('navigation', { name: text.phoneTabs });
      const terminal = page.getByTestId('trade-terminal');
      try {
        await page.goto('/trade?symbol=BTCUSDT');
        await terminal.waitFor(POLL);
        await desktopNav.waitFor(POLL);
        expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'ar' ? 'rtl' : 'ltr');
        // A marker that a reload would lose: the test sees the same document throughout.
        await page.evaluate(() => ((window as unknown as { reflowMarker: number }).reflowMarker = 1));

        await page.setViewportSize({ width: 320, height: 800 });
        await phoneTabs.waitFor(POLL);
        expect(await terminal.count()).toBe(0);
        expect(await desktopNav.count()).toBe(0);
        // The route and the open symbol survive the switch.
        expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/trade?symbol=BTCUSDT');
        await page.getByText('BTC/USDT').first().waitFor(POLL);

        for (const route of ROUTES) {
          await navigate(page, route);
          await expect.poll(() => new URL(page.url()).pathname, POLL).toBe(route.split('?')[0]);
          await page.waitForTimeout(400);
          expect(await desktopNav.count(), route).toBe(0);
          expect(await scrollWidth(page), route).toBeLessThanOrEqual(320);
        }
        // Still signed in: the session is the same one (nothing logged the user out on the switch).
        expect(await page.evaluate(() => JSON.parse(localStorage.getItem('session') ?? '{}').state?.token)).toBe(login.data.token);

        await navigate(page, '/trade?symbol=BTCUSDT');
        await page.setViewportSize({ width: 1440, height: 900 });
        await terminal.waitFor(POLL);
        await desktopNav.waitFor(POLL);
        expect(await phoneTabs.count()).toBe(0);
        expect(new URL(page.url()).search).toBe('?symbol=BTCUSDT');
        expect(await page.evaluate(() => (window as unknown as { reflowMarker?: number }).reflowMarker)).toBe(1);
        expect(await scrollWidth(page)).toBeLessThanOrEqual(1440);
        expect(jsErrors(page)).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it.each(['en', 'ar'] as const)(
    'opens in the phone layout when a desktop browser starts at 320 px wide, with no route scrolling sideways (%s)',
    async (lang) => {
      const { context, page } = await newPage(e2e, { ...DESKTOP, viewport: { width: 320, height: 800 } }, { lang });
      try {
        for (const route of ROUTES) {
          await page.goto(route);
          await page.getByRole('navigation', { name: TEXT[lang].desktopNav }).or(page.locator('main')).first().waitFor(POLL);
          await page.waitForTimeout(400);
          expect(await page.getByRole('navigation', { name: TEXT[lang].desktopNav }).count(), route).toBe(0);
          expect(await scrollWidth(page), route).toBeLessThanOrEqual(320);
        }
        expect(jsErrors(page)).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
