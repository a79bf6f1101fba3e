import fs from 'node:fs';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { liveQuotes, tick as kitTick } from '../apps/server/test/trading/test-kit.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

/**
 * Accessible overlays (issue 21): the order form and its confirm sheet used with the keyboard alone,
 * at 390x844 (bottom sheet) and 1440x900 (Radix dialog), in English and Arabic (and Traditional Chinese on
 * the phone). The sheet takes
 * the focus, keeps it inside, hides and locks the page behind it, closes on Escape with the focus back
 * on the Buy button, and Enter or Space sends the order. Screenshots go to E2E_SHOTS (default /tmp).
 */
const SHOTS = process.env.E2E_SHOTS ?? '/tmp';

type Strings = Record<string, string>;
const json = (file: string) => JSON.parse(fs.readFileSync(new URL(`../apps/web/src/${file}`, import.meta.url), 'utf8'));
/** The strings a person sees, from the app's own locale files. */
const strings = (lang: string) => {
  const shared = json(`locales/${lang}.json`);
  return { trade: json(`features/trade/locales/${lang}.json`) as Strings, messages: shared.messages as Strings };
};
const text = { en: strings('en'), ar: strings('ar'), hk: strings('hk') };

describe('accessible overlays', () => {
  let e2e: E2E;
  const tick = (code: string, bid: string, ask: string) => kitTick(e2e.server, code, bid, ask);
  const positionsOf = async (token: string) =>
    (await call(e2e.server, 'GET', '/v1/api/forex/my_deal', { status: 1 }, { token })).data.data as unknown[];

  async function loggedInPage(
    device: typeof PHONE | typeof DESKTOP,
    lang: string,
  ): Promise<{ context: BrowserContext; page: Page; token: string }> {
    const demo = await call(e2e.server, 'GET', '/api/user/createAccountDemoForU');
    const login = await call(e2e.server, 'POST', '/api/user/loginForU', { demo_id: demo.data.demo_id });
    expect(login.code).toBe(1);
    const session = JSON.stringify({ state: { token: login.data.token, user: login.data.user }, version: 0 });
    const { context, page } = await newPage(e2e, device, { lang });
    await context.addInitScript((value) => localStorage.setItem('session', value), session);
    return { context, page, token: login.data.token };
  }

  /** What has the focus: its accessible label or text, whether it is inside a dialog or the order form. */
  const focused = (page: Page, formLabel: string) =>
    page.evaluate((form) => {
      const el = document.activeElement as HTMLElement | null;
      // Its name as assistive technology reads it: the aria-label, else its text without what is aria-hidden.
      const text = (node: HTMLElement | null) => {
        if (!node) return '';
        const copy = node.cloneNode(true) as HTMLElement;
        for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
        return copy.textContent?.trim() ?? '';
      };
      return {
        label: el?.getAttribute('aria-label') ?? text(el),
        tag: el?.tagName.toLowerCase() ?? '',
        inDialog: Boolean(el?.closest('[role=dialog]')),
        inForm: Boolean(el?.closest(`section[aria-label="${form}"]`)),
      };
    }, formLabel);

  /** Presses Tab until the focus is on the element with this label; every stop on the way is in the order form. */
  async function tabTo(page: Page, formLabel: string, label: string): Promise<number> {
    for (let presses = 1; presses <= 40; presses++) {
      await page.keyboard.press('Tab');
      const now = await focused(page, formLabel);
      expect(now.inForm, `focus left the order form at ${now.tag} "${now.label}"`).toBe(true);
      if (now.label === label) return presses;
    }
    throw new Error(`Tab never reached "${label}"`);
  }

  /** Whether the page behind the overlays is hidden from assistive technology and its scroll locked. */
  const background = (page: Page, formLabel: string) =>
    page.evaluate((form) => {
      const section = document.querySelector(`section[aria-label="${form}"]`);
      return {
        hidden: Boolean(section?.closest('[aria-hidden="true"],[inert]')),
        scrollLocked: document.body.hasAttribute('data-scroll-locked') || getComputedStyle(document.body).overflow === 'hidden',
      };
    }, formLabel);

  /** Waits for the sheet's slide-in to end, so the screenshot shows it in place. */
  const settled = (overlay: Locator) =>
    overlay.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)).then(() => undefined));

  beforeAll(async () => {
    e2e = await startE2E();
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await liveQuotes(e2e.server);
    await tick('BTCUSDT', '95000.00', '95020.00');
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => e2e?.close());

  const cases = [
    { device: PHONE, size: '390', lang: 'en', confirmKey: 'Enter' },
    { device: PHONE, size: '390', lang: 'ar', confirmKey: 'Space' },
    { device: PHONE, size: '390', lang: 'hk', confirmKey: 'Enter' },
    { device: DESKTOP, size: '1440', lang: 'en', confirmKey: 'Space' },
    { device: DESKTOP, size: '1440', lang: 'ar', confirmKey: 'Enter' },
  ] as const;

  for (const { device, size, lang, confirmKey } of cases) {
    it(`opens a position with the keyboard alone through a trapped confirm sheet (${lang}, ${size})`, async () => {
      const l = text[lang];
      const formLabel = l.trade.order_form;
      const { context, page, token } = await loggedInPage(device, lang);
      await page.goto('/trade?symbol=BTCUSDT');
      await expect.poll(() => page.getByTestId('buy-price').first().textContent()).toBe('95,020.00');
      expect(await page.locator('html').getAttribute('dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');

      // Into the form at its first control, then the keyboard only: Tab to the lots field, type, Tab to Buy.
      const form = page.getByRole('region', { name: formLabel });
      await form.getByRole('button', { name: l.trade.market, exact: true }).focus();
      await tabTo(page, formLabel, l.trade.lots);
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('0.02');
      await tabTo(page, formLabel, l.trade.buy);

      // Enter on Buy opens the confirm sheet with the focus on its confirm button.
      await page.keyboard.press('Enter');
      const sheet = page.getByRole('dialog', { name: l.trade.confirm_title });
      await sheet.waitFor();
      await expect.poll(async () => (await focused(page, formLabel)).label).toBe(l.trade.confirm_order);
      await sheet.getByText('0.02', { exact: true }).waitFor();
      // The page behind is hidden from assistive technology and does not scroll.
      expect(await background(page, formLabel)).toEqual({ hidden: true, scrollLocked: true });
      await settled(sheet);
      await page.screenshot({ path: `${SHOTS}/overlays-confirm-${lang}-${size}.png` });

      // Tab and Shift+Tab go round inside the sheet, never to the page.
      for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
        await page.keyboard.press(key);
        const now = await focused(page, formLabel);
        expect(now.inDialog, `${key} moved the focus to ${now.tag} "${now.label}"`).toBe(true);
      }

      // Escape cancels: the sheet goes, nothing is sent, the focus is back on Buy and the page is live again.
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'detached' });
      await expect.poll(async () => (await focused(page, formLabel)).label).toBe(l.trade.buy);
      expect(await background(page, formLabel)).toEqual({ hidden: false, scrollLocked: false });
      expect(await positionsOf(token)).toHaveLength(0);

      // Enter on Buy again, then Enter or Space on the focused confirm button sends the order.
      await page.keyboard.press('Enter');
      await sheet.waitFor();
      await expect.poll(async () => (await focused(page, formLabel)).label).toBe(l.trade.confirm_order);
      await page.keyboard.press(confirmKey);
      await page.getByText(l.messages.order_confirmed).first().waitFor();
      await sheet.waitFor({ state: 'detached' });
      await expect.poll(async () => (await positionsOf(token)).length).toBe(1);
      await expect.poll(async () => (await focused(page, formLabel)).label).toBe(l.trade.buy);
      await page.screenshot({ path: `${SHOTS}/overlays-opened-${lang}-${size}.png` });

      // Another dialog (the one-click acknowledgement): Space opens it, Escape closes it, the focus returns to the switch.
      const toggle = form.getByRole('switch', { name: l.trade.one_click });
      await toggle.focus();
      await page.keyboard.press('Space');
      const ack = page.getByRole('dialog', { name: l.trade.one_click_title });
      await ack.waitFor();
      expect((await focused(page, formLabel)).inDialog).toBe(true);
      expect((await background(page, formLabel)).hidden).toBe(true);
      await settled(ack);
      await page.screenshot({ path: `${SHOTS}/overlays-one-click-${lang}-${size}.png` });
      await page.keyboard.press('Escape');
      await ack.waitFor({ state: 'detached' });
      await expect.poll(async () => (await focused(page, formLabel)).label).toBe(l.trade.one_click);
      expect(await toggle.getAttribute('aria-checked')).toBe('false');

      expect(jsErrors(page)).toEqual([]);
      await context.close();
    });
  }

  it('the confirm sheet slides back after a short drag down and closes after a long one, sending nothing (en, 390)', async () => {
    const l = text.en;
    const { context, page, token } = await loggedInPage(PHONE, 'en');
    await page.goto('/trade?symbol=BTCUSDT');
    await expect.poll(() => page.getByTestId('buy-price').first().textContent()).toBe('95,020.00');
    const form = page.getByRole('region', { name: l.trade.order_form });
    await form.getByRole('button', { name: l.trade.buy }).click();
    const sheet = page.getByRole('dialog', { name: l.trade.confirm_title });
    await sheet.waitFor();
    const title = sheet.getByRole('heading', { name: l.trade.confirm_title });
    const dragTitle = async (dy: number) => {
      const box = (await title.boundingBox())!;
      await page.mouse.move(box.x + 10, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + 10, box.y + box.height / 2 + dy / 2, { steps: 4 });
      await page.mouse.move(box.x + 10, box.y + box.height / 2 + dy, { steps: 4 });
      await page.mouse.up();
    };
    const top = (await sheet.boundingBox())!.y;

    await dragTitle(30);
    await expect.poll(async () => Math.round((await sheet.boundingBox())!.y)).toBe(Math.round(top));
    expect(await sheet.isVisible()).toBe(true);

    await dragTitle(((await sheet.boundingBox())!.height * 2) / 3);
    await sheet.waitFor({ state: 'detached' });
    expect(await positionsOf(token)).toHaveLength(0);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
