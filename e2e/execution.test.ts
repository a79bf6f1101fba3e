import { sql } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { liveQuotes, tick as kitTick } from '../apps/server/test/trading/test-kit.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

const SHOTS = process.env.E2E_SHOTS ?? '/tmp';

/**
 * Execution a trader can trust (issue 22) in the built app against the real server: no order is sent
 * late, a moved price asks again, stale prices stop trading, a take-profit is announced. The simulated
 * feed is stopped: every price comes from ticks the test publishes.
 */
describe('execution a trader can trust', () => {
  let e2e: E2E;
  const tick = (code: string, bid: string, ask: string) => kitTick(e2e.server, code, bid, ask);
  const symbolId = (code: string) => e2e.server.ctx.services.market.symbolByCode(code)!.id;
  /** A tick a few points from the symbol's current mid (a far jump would be held by the deviation filter). */
  const tickAround = async (code: string, points: number) => {
    const market = e2e.server.ctx.services.market;
    const s = market.symbolByCode(code)!;
    const mid = Number(market.quote(s.id)!.mid);
    const spread = Number(s.spread);
    const bid = mid + points * 10 ** -s.pricePrecision - spread / 2;
    await tick(code, bid.toFixed(s.pricePrecision), (bid + spread).toFixed(s.pricePrecision));
  };

  async function loggedInPage(device: typeof PHONE | typeof DESKTOP, lang = 'en'): Promise<{ context: BrowserContext; page: Page; token: string }> {
    const demo = await call(e2e.server, 'GET', '/api/user/createAccountDemoForU');
    const login = await call(e2e.server, 'POST', '/api/user/loginForU', { demo_id: demo.data.demo_id });
    expect(login.code).toBe(1);
    const session = JSON.stringify({ state: { token: login.data.token, user: login.data.user }, version: 0 });
    const { context, page } = await newPage(e2e, device, { lang });
    await context.addInitScript((value) => localStorage.setItem('session', value), session);
    return { context, page, token: login.data.token };
  }

  const openOrders = async (token: string) => (await call(e2e.server, 'GET', '/v1/api/forex/my_deal', { status: 1 }, { token })).data;

  beforeAll(async () => {
    e2e = await startE2E();
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await liveQuotes(e2e.server);
  });
  afterAll(async () => e2e?.close());

  it.each([
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const)('offline before confirming (%s): the error shows at once, the form stays, nothing is sent after reconnecting, a retry reuses the client order id', async (name, device) => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(device);
    // The client order id of every submit the browser attempts.
    const attempts: (string | null)[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/api/forex/submit')) attempts.push(new URL(request.url()).searchParams.get('client_order_id'));
    });
    await page.goto('/trade?symbol=BTCUSDT');
    await expect.poll(() => page.getByTestId('sell-price').first().textContent()).toBe('95,000.00');
    await page.getByRole('textbox', { name: 'Lots' }).first().fill('0.05');
    await page.getByRole('button', { name: 'Sell', exact: true }).first().click();
    const sheet = page.getByRole('dialog', { name: 'Confirm order' });
    await sheet.waitFor();

    await context.setOffline(true);
    const pressed = Date.now();
    await sheet.getByRole('button', { name: 'Confirm order' }).click();
    await page.getByText('Network error (ERR_NETWORK)').waitFor({ timeout: 3_000 });
    expect(Date.now() - pressed).toBeLessThan(3_000);
    // The sheet stays with the order as it was; the form behind it still holds the lots.
    expect(await sheet.getByRole('button', { name: 'Confirm order' }).isEnabled()).toBe(true);
    await sheet.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('textbox', { name: 'Lots' }).first().inputValue()).toBe('0.05');
    // The live connection is gone too, and the screen says so within 2 seconds.
    await page.getByText('Live prices are disconnected: trading is paused until they return.').first().waitFor({ timeout: 2_000 });
    expect(await page.getByRole('button', { name: 'Sell', exact: true }).first().isDisabled()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/execution-offline-${name}.png` });

    await context.setOffline(false);
    await expect.poll(() => page.getByRole('button', { name: 'Sell', exact: true }).first().isEnabled(), { timeout: 15_000 }).toBe(true);
    await page.waitForTimeout(2_000);
    expect((await openOrders(token)).total).toBe(0);

    // The trader tries the same order again: it carries the same client order id, and opens once.
    await page.getByRole('button', { name: 'Sell', exact: true }).first().click();
    await sheet.getByRole('button', { name: 'Confirm order' }).click();
    await page.getByText('Order placed').first().waitFor();
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toMatch(/.{8,}/);
    expect(attempts[1]).toBe(attempts[0]);
    expect((await openOrders(token)).total).toBe(1);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('a price that moves past the tolerance between the confirm sheet and the confirmation asks again (requote), at the new price', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(PHONE);
    await page.goto('/trade?symbol=BTCUSDT');
    await expect.poll(() => page.getByTestId('buy-price').textContent()).toBe('95,020.00');
    // The category default comes from the deal endpoint; the trader narrows it to 10 points (0.10).
    await expect.poll(() => page.getByTestId('slippage').inputValue()).toMatch(/^\d+$/);
    await page.getByTestId('slippage').fill('10');
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    const sheet = page.getByRole('dialog', { name: 'Confirm order' });
    await sheet.getByText('95,020.00').waitFor();

    await tick('BTCUSDT', '95080.00', '95100.00');
    await sheet.getByRole('button', { name: 'Confirm order' }).click();
    const requote = page.getByRole('dialog', { name: 'Price changed' });
    await requote.waitFor();
    expect(await requote.getByTestId('requote-price').textContent()).toBe('95,100.00');
    await requote.getByText('The price moved more than your tolerance of 10 points. Trade at the new price?').waitFor();
    await page.screenshot({ path: `${SHOTS}/execution-requote-phone.png` });
    expect((await openOrders(token)).total).toBe(0);

    await requote.getByRole('button', { name: 'Trade at new price' }).click();
    await page.getByText('Order placed').waitFor();
    const orders = await openOrders(token);
    expect(orders.total).toBe(1);
    expect(orders.data[0].Price).toBe('95100.00');
    // The tolerance is kept for this trader.
    await page.reload();
    await expect.poll(() => page.getByTestId('slippage').inputValue()).toBe('10');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('stale prices disable Buy and Sell with the reason (a symbol whose quote outlived its MaxQuoteAge), in Arabic too', async () => {
    await e2e.server.ctx.db.execute(sql`update symbols set max_quote_age_sec = 3 where code = 'ETHUSDT'`);
    await e2e.server.ctx.services.market.reloadSymbols();
    for (const [lang, device, buyName, reason] of [
      ['en', DESKTOP, 'Buy', 'No new price for too long: trading is paused until prices update.'],
      ['ar', PHONE, 'شراء', 'لم يصل سعر جديد منذ مدة طويلة: التداول متوقف حتى تتحدث الأسعار.'],
    ] as const) {
      await tickAround('ETHUSDT', 0);
      const { context, page } = await loggedInPage(device, lang);
      await page.goto('/trade?symbol=ETHUSDT');
      const buy = page.getByRole('button', { name: buyName, exact: true }).first();
      await buy.waitFor();
      await tickAround('ETHUSDT', 1);
      await expect.poll(() => buy.isEnabled()).toBe(true);
      // No tick for more than 3 s: stale.
      await page.getByText(reason).first().waitFor({ timeout: 6_000 });
      expect(await buy.isDisabled()).toBe(true);
      await page.getByTestId('prices-stale').first().waitFor();
      await page.screenshot({ path: `${SHOTS}/execution-stale-${lang}.png` });
      // The next tick brings it back.
      await tickAround('ETHUSDT', 2);
      await expect.poll(() => buy.isEnabled(), { timeout: 5_000 }).toBe(true);
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    }
    await e2e.server.ctx.db.execute(sql`update symbols set max_quote_age_sec = 3600 where code = 'ETHUSDT'`);
    await e2e.server.ctx.services.market.reloadSymbols();
  });

  it.each([
    ['en', DESKTOP, 'Take-profit hit: BTC/USDT closed at', 'Notifications'],
    ['ar', PHONE, 'تحقق جني الربح: أُغلق BTC/USDT عند', 'الإشعارات'],
    ['hk', PHONE, '觸發止盈：BTC/USDT 以', '通知'],
  ] as const)('a take-profit hit shows its toast and stays in the notification list (%s)', async (lang, device, toastText, listTitle) => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(device, lang);
    const placed = await call(
      e2e.server,
      'GET',
      '/v1/api/forex/submit',
      { type: 1, cont: '0.01', forex_id: symbolId('BTCUSDT'), status: 1, multiple: 2, target_profit_price: '96000' },
      { token },
    );
    expect(placed.code).toBe(1);
    await page.goto('/trade?symbol=BTCUSDT');
    await expect.poll(() => page.getByTestId('buy-price').first().textContent()).toBe('95,020.00');
    await page.waitForTimeout(1_000);
    await tick('BTCUSDT', '96010.00', '96030.00');
    const toast = page.getByText(toastText).first();
    await toast.waitFor({ timeout: 5_000 });
    expect(await toast.textContent()).toContain('+');
    await page.screenshot({ path: `${SHOTS}/execution-tp-toast-${lang}.png` });

    await page.goto('/user');
    await expect.poll(() => page.getByTestId('unread-count').textContent()).toBe('1');
    await page.getByRole('link', { name: new RegExp(listTitle) }).click();
    await page.getByTestId('notification').first().waitFor();
    expect(await page.getByTestId('notification').first().textContent()).toContain(toastText);
    await page.screenshot({ path: `${SHOTS}/execution-notifications-${lang}.png` });
    // Read now: the count is gone after a reload.
    await page.goto('/user');
    await page.getByRole('link', { name: new RegExp(listTitle) }).waitFor();
    await page.waitForTimeout(500);
    expect(await page.getByTestId('unread-count').count()).toBe(0);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
  it('a price alert that fires shows its toast and joins the notification list', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(DESKTOP);
    const alert = await call(e2e.server, 'GET', '/v1/api/forex/alert/add', { forex_id: symbolId('BTCUSDT'), price: '95500', side: 'bid' }, { token });
    expect(alert.code).toBe(1);
    await page.goto('/trade?symbol=BTCUSDT');
    await expect.poll(() => page.getByTestId('buy-price').first().textContent()).toBe('95,020.00');
    await page.waitForTimeout(1_000);
    await tick('BTCUSDT', '95510.00', '95530.00');
    await page.getByText('Price alert: BTC/USDT bid reached').first().waitFor({ timeout: 5_000 });
    await page.goto('/mine/notifications');
    await expect.poll(() => page.getByTestId('notification').first().textContent()).toContain('Price alert: BTC/USDT bid reached');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('a socket login the server cannot check is retried and shown; once it passes, positions and account figures are fetched again', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page } = await loggedInPage(DESKTOP);
    await page.goto('/trade?symbol=BTCUSDT');
    await expect.poll(() => page.getByTestId('sell-price').first().textContent()).toBe('95,000.00');
    const sessions = e2e.server.ctx.services.sessions as unknown as { resolveUser: (token: string) => Promise<unknown> };
    const resolveUser = sessions.resolveUser;
    let refused = 0;
    // Socket logins fail as if the database were away (the server answers 500); the API's own checks still pass.
    sessions.resolveUser = (token: string) => {
      if (!new Error().stack?.includes('checkLogin')) return resolveUser.call(sessions, token);
      refused += 1;
      return Promise.reject(new Error('Connection terminated unexpectedly'));
    };
    const fetched: string[] = [];
    try {
      // The server drops the connection (a restart): the browser itself stays online, so only the socket knows.
      for (const conn of e2e.server.ctx.services.realtime.connections) conn.ws.terminate();
      await expect.poll(() => refused, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
      // Connected again, but not logged in: the trader is told, and the login is retried.
      await page.getByRole('img', { name: 'Live updates connected but not logged in, retrying' }).first().waitFor({ timeout: 5_000 });
      expect(await page.getByText('Reconnecting…').first().isVisible()).toBe(true);
      await page.screenshot({ path: `${SHOTS}/execution-socket-login-retrying.png` });
      page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    } finally {
      sessions.resolveUser = resolveUser;
    }
    await page.getByRole('img', { name: 'Live prices connected' }).first().waitFor({ timeout: 15_000 });
    expect(await page.getByText('Reconnecting…').count()).toBe(0);
    // Pushes sent while the socket was logged out were missed: the account is read again.
    await expect.poll(() => fetched, { timeout: 5_000 }).toEqual(expect.arrayContaining(['/v1/api/main/account/forexDetail', '/v1/api/forex/my_deal']));
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
