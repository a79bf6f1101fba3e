import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

/** Foundation: the shell in hk by default, Arabic mirrors, the login guard keeps the wanted path, desktop frame. */
describe('web shell', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => e2e?.close());

  it('opens in Traditional Chinese by default with the footer tab bar on a phone', async () => {
    // A browser language the app does not offer (Dutch) leaves the default, hk.
    const { context, page } = await newPage(e2e, PHONE, { locale: 'nl-NL' });
    await page.goto('/');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-Hant-HK');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('ltr');
    const tabs = page.getByRole('navigation', { name: '主要分頁' }).or(page.locator('nav').last());
    await expect.poll(() => tabs.getByRole('link').count()).toBe(5);
    // The market list arrives from the real API.
    await page.locator('a[href^="/trade"]').first().waitFor({ timeout: 20_000 });
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('switches to Arabic from the language page and mirrors the layout', async () => {
    const { context, page } = await newPage(e2e, PHONE, { lang: 'en' });
    await page.goto('/');
    const search = page.getByRole('link', { name: /search/i });
    await search.waitFor();
    const ltrBox = (await search.boundingBox())!;
    await page.goto('/language');
    await page.getByText('العربية').click();
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ar-u-nu-latn');
    await page.goto('/');
    const searchAr = page.locator('a[href="/product"]');
    await searchAr.waitFor();
    const rtlBox = (await searchAr.boundingBox())!;
    // In left-to-right the search icon sits at the right edge; mirrored, at the left.
    expect(ltrBox.x).toBeGreaterThan(PHONE.viewport.width / 2);
    expect(rtlBox.x).toBeLessThan(PHONE.viewport.width / 2);
    expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('ar');
    await context.close();
  });

  it('sends a guest from /order to /login keeping the wanted path', async () => {
    const { context, page } = await newPage(e2e, PHONE);
    await page.goto('/order?type=0');
    await page.waitForURL(/\/login\?/);
    const url = new URL(page.url());
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('redirect')).toBe('/order?type=0');
    await context.close();
  });

  it('shows the desktop frame for a desktop browser', async () => {
    const { context, page } = await newPage(e2e, DESKTOP, { lang: 'en' });
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main tabs' }).count()).toBe(0);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
