import { dec } from '@tp/contract/decimal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { liveQuotes, tick as kitTick } from '../apps/server/test/trading/test-kit.ts';
import { fund } from '../apps/server/src/modules/funding/test-helpers.ts';
import { signedInPage } from './account-helpers.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

const POLL = { timeout: 15_000 };

/**
 * One number format: money with 2 decimals and thousands separators, prices at their precision
 * with separators, spreads in points, the spec's 6-decimal profit only on the order screen; the
 * server's messages write money the same way.
 */
describe('one number format', () => {
  let e2e: E2E;
  const tick = (code: string, bid: string, ask: string) => kitTick(e2e.server, code, bid, ask);

  beforeAll(async () => {
    e2e = await startE2E();
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await liveQuotes(e2e.server);
    await tick('BTCUSDT', '95000.00', '95020.00');
  });
  afterAll(async () => e2e?.close());

  it('groups prices on the phone home list, in English and Arabic (Latin digits)', async () => {
    for (const lang of ['en', 'ar']) {
      const { context, page } = await newPage(e2e, PHONE, { lang });
      await page.goto('/');
      const row = page.locator('li').filter({ has: page.getByRole('link', { name: 'BTC/USDT', exact: true }) });
      await expect.poll(() => row.getByTestId('bid').textContent(), POLL).toBe(lang === 'en' ? '95,000.00' : '95,000.00');
      expect(await row.getByTestId('ask').textContent()).toBe('95,020.00');
      // Nothing scrolls sideways with the wider prices.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: `/tmp/numbers-home-phone-${lang}.png` });
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    }
  });

  it('writes account log amounts as money: +265.19, not +265.188 (phone, en)', async () => {
    const { context, page, user } = await signedInPage(e2e, { device: PHONE, lang: 'en', balance: '1000' });
    await fund(e2e.server, user.id, '265.188');
    await page.goto('/mine/history');
    await page.getByText('+265.19').first().waitFor(POLL);
    expect(await page.getByText('+265.188').count()).toBe(0);
    await page.getByText('+1,000.00').first().waitFor(POLL);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('shows a refusal with money as money, in the trader’s language (phone, en and de)', async () => {
    const { user } = await signedInPage(e2e, { device: PHONE, lang: 'en', balance: '100' });
    const btc = e2e.server.ctx.services.market.symbolByCode('BTCUSDT')!.id;
    for (const [lang, pattern] of [
      ['en', /needs [\d,]+\.\d{2} USD, 100\.00 USD is available/],
      ['de', /[\d.]+,\d{2} USD.*100,00 USD/],
    ] as const) {
      const answer = await call(
        e2e.server,
        'GET',
        '/v1/api/forex/submit',
        { type: 1, cont: '1', forex_id: btc, multiple: 2 },
        { token: user.token, lang },
      );
      expect(answer.msg).toMatch(pattern);
      expect(answer.msg).not.toMatch(/\.\d{6} USD/);
    }
  });

  it('keeps the 6-decimal profit on the phone order screen only: money on the trade page (phone, en)', async () => {
    const { context, page, user } = await signedInPage(e2e, { device: PHONE, lang: 'en', balance: '100000', verified: true });
    const btc = e2e.server.ctx.services.market.symbolByCode('BTCUSDT')!.id;
    const placed = await call(
      e2e.server,
      'GET',
      '/v1/api/forex/submit',
      { type: 1, cont: '0.1', forex_id: btc, multiple: 10 },
      { token: user.token },
    );
    expect(placed.code, placed.msg).toBe(1);
    await tick('BTCUSDT', '95500.00', '95520.00');
    await page.goto('/order?type=1');
    const card = page.getByRole('article', { name: /BTC\/USDT order/ });
    await expect.poll(() => card.getByTestId('order-profit').textContent(), POLL).toBe('48.000000');
    expect(await card.getByTestId('order-fee').textContent()).toMatch(/^\d[\d,]*\.\d{2}$/);
    expect(dec(placed.data.TradeFee).isZero()).toBe(false);
    await context.close();
  });

  it('shows spreads in points in the back office (desktop, en)', async () => {
    const { context, page } = await newPage(e2e, DESKTOP, { lang: 'en' });
    await page.goto('/admin');
    await page.getByLabel('Email').fill('admin@test.local');
    await page.getByLabel('Password').fill('admin-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.goto('/admin/trading');
    const symbols = page.getByRole('table', { name: 'Symbols' });
    const eur = symbols.getByRole('row').filter({ hasText: 'EUR/USD' });
    await eur.waitFor(POLL);
    const market = e2e.server.ctx.services.market.symbolByCode('EURUSD')!;
    const points = market.spread.times(10 ** market.pricePrecision).toString();
    await expect.poll(() => eur.textContent(), POLL).toContain(`${points} points`);
    expect(await eur.textContent()).not.toMatch(/0\.000\d+0{3}/);
    await page.screenshot({ path: '/tmp/numbers-admin-spread-desktop-en.png' });
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
