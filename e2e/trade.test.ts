import { dec } from '@tp/contract/decimal';
import { sql } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { liveQuotes, tick as kitTick } from '../apps/server/test/trading/test-kit.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

/**
 * Markets, trade and orders (issue 7) in the built app against the real server. The simulated
 * feed is stopped so every price comes from ticks the test publishes: fills, profits and
 * triggers are then exact.
 */
describe('markets, trade and orders', () => {
  let e2e: E2E;

  /** Moves a quote to the bid and ask traders should see (the kit feeds the prices before the spread). */
  const tick = (code: string, bid: string, ask: string) => kitTick(e2e.server, code, bid, ask);

  async function demoUser(): Promise<{ token: string; session: string }> {
    const demo = await call(e2e.server, 'GET', '/api/user/createAccountDemoForU');
    const login = await call(e2e.server, 'POST', '/api/user/loginForU', { demo_id: demo.data.demo_id });
    expect(login.code).toBe(1);
    return { token: login.data.token, session: JSON.stringify({ state: { token: login.data.token, user: login.data.user }, version: 0 }) };
  }

  async function loggedInPage(
    device: typeof PHONE | typeof DESKTOP,
    lang = 'en',
  ): Promise<{ context: BrowserContext; page: Page; token: string }> {
    const { token, session } = await demoUser();
    const { context, page } = await newPage(e2e, device, { lang });
    await context.addInitScript((value) => localStorage.setItem('session', value), session);
    return { context, page, token };
  }

  const balanceOf = async (token: string) =>
    (await call(e2e.server, 'GET', '/v1/api/main/wallet/getBalance', {}, { token })).data.balance as string;

  beforeAll(async () => {
    e2e = await startE2E();
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await liveQuotes(e2e.server);
    await tick('BTCUSDT', '95000.00', '95020.00');
  });
  afterAll(async () => e2e?.close());

  it('home lists the markets with small charts, filters by category, updates live and opens /trade', async () => {
    const { context, page } = await newPage(e2e, PHONE, { lang: 'en' });
    await page.goto('/');
    const btc = page.getByRole('link', { name: 'BTC/USDT', exact: true });
    await btc.waitFor();
    await expect.poll(() => page.getByTestId('sparkline').count()).toBeGreaterThan(3);
    await page.getByRole('button', { name: 'Crypto' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'EUR/USD' }).count()).toBe(0);
    await tick('BTCUSDT', '95100.00', '95120.00');
    // A phone row shows the bid and the ask beside its small chart.
    await expect.poll(() => btc.getByTestId('bid').textContent()).toBe('95,100.00');
    expect(await btc.getByTestId('ask').textContent()).toBe('95,120.00');
    await btc.click();
    await page.waitForURL(/\/trade\?symbol=BTCUSDT/);
    await page.getByTestId('live-price').waitFor();
    expect(await page.getByTestId('live-price').textContent()).toBe('95,110.00');
    // Lightweight-charts attribution stays visible.
    await expect.poll(() => page.locator('a[href*="tradingview.com"]').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('searches symbols on /product and remembers the search', async () => {
    const { context, page } = await newPage(e2e, PHONE, { lang: 'en' });
    await page.goto('/product');
    await page.getByRole('searchbox', { name: 'Search symbols' }).fill('eth');
    await page.getByRole('link', { name: 'ETH/USDT' }).waitFor();
    await expect.poll(() => page.getByRole('link', { name: 'BTC/USDT' }).count()).toBe(0);
    await page.getByRole('searchbox', { name: 'Search symbols' }).press('Enter');
    await page.waitForURL(/symbol=ETHUSDT/);
    await page.goto('/product');
    await page.getByRole('button', { name: 'eth', exact: true }).waitFor();
    await context.close();
  });

  it('mirrors the trade screen in Arabic while the chart stays left-to-right, and speaks Traditional Chinese', async () => {
    const { context, page } = await newPage(e2e, PHONE, { lang: 'ar' });
    await page.goto('/trade?symbol=BTCUSDT');
    const buy = page.getByRole('button', { name: 'شراء', exact: true });
    const sell = page.getByRole('button', { name: 'بيع', exact: true });
    await buy.waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.getByRole('group', { name: 'رسم الشموع اليابانية' }).getAttribute('dir')).toBe('ltr');
    // Sell comes first in reading order, so it sits on the right when mirrored.
    expect((await sell.boundingBox())!.x).toBeGreaterThan((await buy.boundingBox())!.x);
    await context.close();

    const hk = await newPage(e2e, PHONE, { lang: 'hk' });
    await hk.page.goto('/');
    await hk.page.getByRole('button', { name: '全部' }).waitFor();
    await hk.page.getByRole('button', { name: '加密貨幣' }).waitFor();
    expect(jsErrors(hk.page)).toEqual([]);
    await hk.context.close();
  });

  it('sends a guest who presses buy to /login and keeps the way back', async () => {
    const { context, page } = await newPage(e2e, PHONE, { lang: 'en' });
    await page.goto('/trade?symbol=BTCUSDT');
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await page.waitForURL(/\/login\?/);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/trade?symbol=BTCUSDT');
    await context.close();
  });

  it('opens a market buy with TP/SL, follows its live profit, edits TP/SL, closes it and finds it in history', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(PHONE);
    const before = await balanceOf(token);
    await page.goto('/trade?symbol=BTCUSDT');
    await expect.poll(() => page.getByTestId('buy-price').textContent()).toBe('95,020.00');
    expect(await page.getByTestId('sell-price').textContent()).toBe('95,000.00');
    await expect.poll(() => page.getByTestId('available-prepayment').textContent()).toBe('100,000.00');

    // The decrement stops at the minimum.
    expect(await page.getByRole('button', { name: 'Decrease lots' }).isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Lots' }).fill('0.10');
    // Estimates from marginOf/feeOf: 0.1 lot x 1 x 95,010 (mid) / 2, fee 0.1 x 3 per lot.
    expect(await page.getByTestId('estimated-margin').textContent()).toBe('4,750.50');
    expect(await page.getByTestId('estimated-fee').textContent()).toBe('0.30');

    // A take-profit below the price is refused for a buy.
    await page.getByRole('checkbox', { name: 'Take profit' }).check();
    await page.getByRole('spinbutton', { name: 'Take-profit price' }).fill('90000');
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await page.getByText('For a buy, take-profit must be above 95,000.00').waitFor();
    await page.getByRole('spinbutton', { name: 'Take-profit price' }).fill('99000');
    await page.getByRole('checkbox', { name: 'Stop loss' }).check();
    await page.getByRole('spinbutton', { name: 'Stop-loss price' }).fill('90000');
    await page.getByRole('button', { name: 'Buy', exact: true }).click();

    const sheet = page.getByRole('dialog', { name: 'Confirm order' });
    await sheet.waitFor();
    await sheet.getByText('4,751.00').waitFor(); // at the ask
    await sheet.getByText('Buy (long)').waitFor();
    await sheet.getByRole('button', { name: 'Confirm order' }).click();
    await page.getByText('Order placed').waitFor();
    await sheet.waitFor({ state: 'detached' });

    await page.goto('/order?type=1');
    const card = page.getByRole('article', { name: /BTC\/USDT order/ });
    await card.waitFor();
    expect(await card.getByTestId('order-tp').textContent()).toBe('99,000.00');
    expect(await card.getByTestId('order-sl').textContent()).toBe('90,000.00');
    expect(await card.getByTestId('order-fee').textContent()).toBe('0.30');

    // Live floating profit: (95,500 - 95,020) x 0.1 lot x 1 = 48.
    await tick('BTCUSDT', '95500.00', '95520.00');
    await expect.poll(() => card.getByTestId('order-profit').textContent()).toBe('48.000000');
    await expect.poll(() => page.getByTestId('floating-profit').textContent()).toBe('48.000000');

    await card.getByRole('button', { name: 'Edit TP/SL' }).click();
    const stops = page.getByRole('dialog');
    await stops.getByRole('spinbutton', { name: 'Take-profit price' }).fill('99500');
    await stops.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Take profit and stop loss saved').waitFor();
    await expect.poll(() => card.getByTestId('order-tp').textContent()).toBe('99,500.00');

    await card.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('dialog', { name: 'Close position' }).getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Position closed').waitFor();
    await card.waitFor({ state: 'detached' });

    await page.getByRole('tab', { name: 'History' }).click();
    const closed = page.getByRole('article', { name: /BTC\/USDT order/ });
    await closed.waitFor();
    const profit = (await closed.getByTestId('order-profit').textContent())!;
    const fee = (await closed.getByTestId('order-fee').textContent())!;
    expect(profit).toBe('48.000000');
    expect(await closed.getByTestId('order-close-reason').textContent()).toBe('Closed by you');
    await page.getByText('No more').waitFor();

    // The balance moved by exactly the shown profit minus the fee.
    const after = await balanceOf(token);
    expect(dec(after).minus(before).toFixed(6)).toBe(dec(profit.replace(/,/g, '')).minus(fee.replace(/,/g, '')).toFixed(6));
    await page.getByRole('tab', { name: 'Holding' }).click();
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('100,047.70');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('closes the detail sheet when a take-profit closes the position', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(PHONE);
    const placed = await call(
      e2e.server,
      'GET',
      '/v1/api/forex/submit',
      {
        type: 1,
        cont: '0.01',
        forex_id: e2e.server.ctx.services.market.symbolByCode('BTCUSDT')!.id,
        status: 1,
        multiple: 2,
        target_profit_price: '96000',
      },
      { token },
    );
    expect(placed.code).toBe(1);
    await page.goto('/order?type=1');
    await page.getByRole('button', { name: 'Details' }).click();
    const detail = page.getByRole('dialog', { name: 'BTC/USDT order details' });
    await detail.waitFor();
    await tick('BTCUSDT', '96010.00', '96030.00');
    await detail.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'History' }).click();
    await expect.poll(() => page.getByTestId('order-close-reason').first().textContent()).toBe('Take profit');
    await context.close();
  });

  it('places a pending order and cancels it after a confirmation', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(PHONE);
    await page.goto('/trade?symbol=BTCUSDT');
    await page.getByRole('button', { name: 'Pending', exact: true }).click();
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await page.getByText('Enter a price for a pending order').waitFor();
    await page.getByRole('spinbutton', { name: 'Price', exact: true }).fill('90000');
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await page.getByRole('dialog', { name: 'Confirm order' }).getByRole('button', { name: 'Confirm order' }).click();
    await page.getByText('Order placed').waitFor();

    await page.goto('/order?type=0');
    const card = page.getByRole('article', { name: /BTC\/USDT order/ });
    await card.waitFor();
    await card.getByRole('button', { name: 'Cancel order' }).click();
    await page.getByRole('dialog', { name: 'Cancel pending order' }).getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Order cancelled').waitFor();
    await card.waitFor({ state: 'detached' });
    const pending = await call(e2e.server, 'GET', '/v1/api/forex/my_deal', { status: 0 }, { token });
    expect(pending.data.total).toBe(0);
    await page.getByRole('tab', { name: 'History' }).click();
    await expect.poll(() => page.getByTestId('order-close-reason').first().textContent()).toMatch(/^Cancelled/);
    await context.close();
  });

  it('disables buy and sell while the market is closed and says when leverage is missing', async () => {
    const db = e2e.server.ctx.db;
    const today = new Date();
    const days = [-1, 0, 1].map((d) => new Date(today.getTime() + d * 86_400_000).toISOString().slice(0, 10));
    await db.execute(sql`update symbols set holidays = ${JSON.stringify(days)}::jsonb where code = 'DOGEUSDT'`);
    await db.execute(sql`delete from symbol_leverages where symbol_id = (select id from symbols where code = 'LTCUSDT')`);
    await e2e.server.ctx.services.market.reloadSymbols();
    (e2e.server.ctx.services.market as unknown as { checkMarketStatus?: () => void }).checkMarketStatus?.();

    const { context, page } = await loggedInPage(PHONE);
    await page.goto('/trade?symbol=DOGEUSDT');
    await page.getByTestId('market-closed').waitFor();
    expect(await page.getByRole('button', { name: 'Buy', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Sell', exact: true }).isDisabled()).toBe(true);

    await page.goto('/trade?symbol=LTCUSDT');
    await page.getByText('Leverage is not configured for this symbol, so orders cannot be placed.').waitFor();
    expect(await page.getByRole('button', { name: 'Buy', exact: true }).isDisabled()).toBe(true);
    await context.close();
  });

  it('shows the desktop terminal with market list, chart, order form and positions; B opens the buy confirmation', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page } = await loggedInPage(DESKTOP);
    await page.goto('/trade?symbol=BTCUSDT');
    await page.getByRole('complementary', { name: 'Symbols' }).getByRole('button', { name: 'ETH/USDT' }).waitFor();
    await page.getByRole('group', { name: 'Candlestick chart' }).waitFor();
    await page.getByRole('region', { name: 'Positions' }).getByRole('tab', { name: 'Holding' }).waitFor();
    expect(await page.getByRole('separator', { name: 'Resize panel' }).count()).toBe(3);
    await page.keyboard.press('b');
    const sheet = page.getByRole('dialog', { name: 'Confirm order' });
    await sheet.waitFor();
    await page.keyboard.press('Enter');
    await page.getByText('Order placed').waitFor();
    await page
      .getByRole('region', { name: 'Positions' })
      .getByRole('row', { name: /BTC\/USDT order/ })
      .waitFor();
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
