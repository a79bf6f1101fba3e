import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { symbols } from '../apps/server/src/platform/db/schema.ts';
import { seeText } from './account-helpers.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };

/** Price integrity in the browser: a stale symbol shows as closed on the trade screen; staff see each feed's health. */
describe('price feed health', () => {
  let e2e: E2E;
  let admin: Page;
  beforeAll(async () => {
    e2e = await startE2E({ MARKET_ALWAYS_OPEN: '1' });
    admin = (await newPage(e2e, DESKTOP, { lang: 'en' })).page;
  });
  afterAll(async () => e2e?.close());

  it('shows a silent symbol as closed to traders and as stale, with its suspect ticks, to staff', async () => {
    const market = e2e.server.ctx.services.market;
    const eth = market.symbolByCode('ETHUSDT')!;
    const btc = market.symbolByCode('BTCUSDT')!;
    await expect.poll(() => market.isOpen(eth.id) && market.isOpen(btc.id), { timeout: 15_000 }).toBe(true);
    // The feed stops; ETHUSDT may be silent for one second only.
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await e2e.server.ctx.db.update(symbols).set({ maxQuoteAgeSec: 1 }).where(eq(symbols.id, eth.id));
    await market.reloadSymbols();
    expect(market.publishTick({ symbolId: btc.id, bid: '9.50', ask: '9.50', time: Date.now() })).toBe(false);
    // A suspect level pending pauses the symbol; the next tick back at the accepted level drops it,
    // so BTCUSDT is live again with one suspect tick counted.
    const last = market.quote(btc.id)!;
    expect(market.publishTick({ symbolId: btc.id, bid: last.bid, ask: last.ask, time: Date.now() })).toBe(true);
    expect(market.closedReason(btc.id)).toBeNull();
    await expect.poll(() => market.closedReason(eth.id), { timeout: 5_000 }).toBe('stale');

    // Issue 22: a stale symbol says why trading is paused, and Buy/Sell are disabled, from the first
    // quotes the screen gets (the status timer may not have announced it yet).
    for (const { device, lang, reason, live, buy, sell } of [
      {
        device: PHONE,
        lang: 'en',
        reason: 'No new price for too long: trading is paused until prices update.',
        live: 'Live prices connected',
        buy: 'Buy',
        sell: 'Sell',
      },
      {
        device: DESKTOP,
        lang: 'ar',
        reason: 'لم يصل سعر جديد منذ مدة طويلة: التداول متوقف حتى تتحدث الأسعار.',
        live: 'الأسعار المباشرة متصلة',
        buy: 'شراء',
        sell: 'بيع',
      },
    ]) {
      const { context, page } = await newPage(e2e, device, { lang });
      const errors = jsErrors(page);
      await page.goto('/trade?symbol=ETHUSDT');
      await seeText(page, reason);
      // Once the live connection is up and its first quotes are in: still paused.
      await page.getByRole('img', { name: live }).first().waitFor();
      await page.getByTestId('prices-stale').first().waitFor();
      expect(await page.getByRole('button', { name: buy, exact: true }).first().isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: sell, exact: true }).first().isDisabled()).toBe(true);
      expect(await page.getByText(reason).first().isVisible()).toBe(true);
      await page.screenshot({ path: `/tmp/i16-trade-stale-${device === PHONE ? 'phone' : 'desktop'}-${lang}.png` });
      expect(errors).toEqual([]);
      await context.close();
    }

    await admin.goto('/admin');
    await admin.getByLabel('Email').fill(ADMIN.email);
    await admin.getByLabel('Password').fill(ADMIN.password);
    await admin.getByRole('button', { name: 'Sign in' }).click();
    await admin.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await admin.getByRole('navigation', { name: 'Back office menu' }).getByRole('link', { name: 'Trading' }).click();
    const feeds = admin.getByRole('table', { name: 'Price feeds' });
    const row = (code: string) => feeds.getByRole('row').filter({ has: admin.getByRole('cell', { name: code, exact: true }) });
    await expect.poll(() => row('ETHUSDT').getByRole('cell').nth(1).textContent(), { timeout: 10_000 }).toBe('Stale');
    expect(await row('BTCUSDT').getByRole('cell').nth(1).textContent()).toBe('Live');
    expect(await row('BTCUSDT').getByRole('cell').nth(3).textContent()).toBe('1');
    await admin.getByRole('button', { name: 'Edit BTC/USDT' }).click();
    const form = admin.getByRole('dialog', { name: 'Edit BTC/USDT' });
    expect(await form.getByLabel('Deviation threshold (%)').inputValue()).toBe('10.0000');
    expect(await form.getByLabel('Max quote age (s)').inputValue()).toBe('30');
    await admin.screenshot({ path: '/tmp/i16-admin-symbol-form-desktop-en.png' });
    await admin.keyboard.press('Escape');
    await feeds.scrollIntoViewIfNeeded();
    await admin.screenshot({ path: '/tmp/i16-admin-feed-health-desktop-en.png' });
  });
});
