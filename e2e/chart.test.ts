import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { liveQuotes, tick as kitTick } from '../apps/server/test/trading/test-kit.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

/**
 * The chart on /trade (issue 21): indicators and chart type remembered, 4H and 1W bars, the
 * trader's orders as lines, and a TP dragged on the chart saved after the stops form confirms it.
 */
describe('chart', () => {
  let e2e: E2E;
  const tick = (code: string, bid: string, ask: string) => kitTick(e2e.server, code, bid, ask);
  const btcId = () => e2e.server.ctx.services.market.symbolByCode('BTCUSDT')!.id;

  async function loggedInPage(device: typeof PHONE | typeof DESKTOP, lang: string): Promise<{ context: BrowserContext; page: Page; token: string; userId: number }> {
    const demo = await call(e2e.server, 'GET', '/api/user/createAccountDemoForU');
    const login = await call(e2e.server, 'POST', '/api/user/loginForU', { demo_id: demo.data.demo_id });
    expect(login.code).toBe(1);
    const session = JSON.stringify({ state: { token: login.data.token, user: login.data.user }, version: 0 });
    const { context, page } = await newPage(e2e, device, { lang });
    await context.addInitScript((value) => localStorage.setItem('session', value), session);
    return { context, page, token: login.data.token, userId: login.data.user.id };
  }

  const openPosition = async (token: string, tp: string, sl: string) => {
    const placed = await call(e2e.server, 'GET', '/v1/api/forex/submit', { type: 1, cont: '0.01', forex_id: btcId(), status: 1, multiple: 2, target_profit_price: tp, stop_loss_price: sl }, { token });
    expect(placed.code).toBe(1);
    return placed.data.Id as number;
  };

  /** The y (from the chart's top) where the pointer picks up a draggable line: the chart shows a resize cursor there. */
  async function findDraggableLine(page: Page): Promise<{ x: number; y: number; top: number } | null> {
    const chart = page.getByTestId('kline-chart');
    const box = (await chart.boundingBox())!;
    const x = box.x + box.width * 0.4;
    for (let y = box.y + 4; y < box.y + box.height - 30; y += 3) {
      await page.mouse.move(x, y);
      if ((await chart.evaluate((el) => (el as HTMLElement).style.cursor)) === 'ns-resize') return { x, y, top: box.y };
    }
    return null;
  }

  const chartRows = (page: Page) => page.getByTestId('kline-chart').locator('table tr').count();

  beforeAll(async () => {
    e2e = await startE2E();
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await liveQuotes(e2e.server);
    await tick('BTCUSDT', '95000.00', '95020.00');
  });
  afterAll(async () => e2e?.close());

  it('remembers indicators and the chart type per user after a reload, and loads 4H and 1W bars (desktop, en)', async () => {
    const { context, page, userId } = await loggedInPage(DESKTOP, 'en');
    await page.goto('/trade?symbol=BTCUSDT');
    const chart = page.getByTestId('kline-chart');
    await chart.waitFor();
    await expect.poll(() => chartRows(page)).toBeGreaterThan(0);
    const rowsBefore = await chartRows(page);
    await page.getByRole('button', { name: 'SMA', exact: true }).click();
    await page.getByRole('button', { name: 'RSI', exact: true }).click();
    await page.getByRole('button', { name: 'MACD', exact: true }).click();
    await page.getByRole('button', { name: 'Line', exact: true }).click();
    // RSI and MACD each add a pane below the price.
    await expect.poll(() => chartRows(page)).toBeGreaterThan(rowsBefore);
    const rowsWith = await chartRows(page);
    expect(JSON.parse((await page.evaluate((key) => localStorage.getItem(key), `chart-prefs:${userId}`))!)).toEqual({ type: 'line', indicators: ['sma', 'rsi', 'macd'] });
    await page.screenshot({ path: '/tmp/chart-desktop-en-indicators.png' });

    await page.reload();
    await chart.waitFor();
    for (const name of ['SMA', 'RSI', 'MACD', 'Line']) await expect.poll(() => page.getByRole('button', { name, exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('button', { name: 'EMA', exact: true }).getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => chartRows(page)).toBe(rowsWith);
    await expect.poll(() => chart.getAttribute('data-chart-type')).toBe('line');

    for (const [label, period] of [
      ['4H', '240min'],
      ['1W', '1week'],
    ] as const) {
      const answer = page.waitForResponse((r) => r.url().includes('/v1/api/forex/kline') && r.url().includes(`period=${period}`));
      await page.getByRole('group', { name: 'Chart period' }).getByRole('button', { name: label, exact: true }).click();
      const body = await (await answer).json();
      expect(body.code).toBe(1);
      expect(body.data.length).toBeGreaterThan(5);
      expect(body.data.every((b: { Period: string }) => b.Period === period)).toBe(true);
      await expect.poll(() => page.getByRole('group', { name: 'Candlestick chart' }).getByText('No data').count()).toBe(0);
    }
    await page.screenshot({ path: '/tmp/chart-desktop-en-1w.png' });
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('draws an open position with its TP and SL, and a dragged TP is saved after the stops form confirms it (desktop, en)', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(DESKTOP, 'en');
    await page.addInitScript(() => localStorage.setItem('trade-period', '1min'));
    const id = await openPosition(token, '95600.00', '94400.00');
    await page.goto('/trade?symbol=BTCUSDT');
    await expect.poll(() => page.getByTestId('chart-order-line').count(), { timeout: 15_000 }).toBe(1);
    const text = await page.getByTestId('chart-order-line').textContent();
    expect(text).toContain('Buy 0.01');
    expect(text).toContain('TP 95,600.00');
    expect(text).toContain('SL 94,400.00');
    await expect.poll(() => page.locator('a[href*="tradingview.com"]').isVisible()).toBe(true);
    await page.screenshot({ path: '/tmp/chart-desktop-en-lines.png' });

    const grab = await findDraggableLine(page);
    expect(grab, 'a TP or SL line the pointer can pick up').not.toBeNull();
    // The upper one of the two dashed lines of a buy is its TP: drag it 25 px up (a higher price).
    await page.mouse.down();
    await page.mouse.move(grab!.x, grab!.y - 12, { steps: 3 });
    await page.mouse.move(grab!.x, grab!.y - 25, { steps: 3 });
    await page.mouse.up();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const tpInput = dialog.getByRole('spinbutton').first();
    const proposed = await tpInput.inputValue();
    expect(Number(proposed)).toBeGreaterThan(95600);
    await page.screenshot({ path: '/tmp/chart-desktop-en-drag-confirm.png' });
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const holding = await call(e2e.server, 'GET', '/v1/api/forex/my_deal', { status: 1 }, { token });
    const order = holding.data.data.find((o: { Id: number }) => o.Id === id);
    expect(Number(order.TargetProfitPrice)).toBe(Number(proposed));
    expect(order.TargetLossPrice).toBe('94400.00');
    await expect.poll(() => page.getByTestId('chart-order-line').textContent()).toContain(`TP ${Number(proposed).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('shows order lines and indicators on the phone in Arabic, the chart left-to-right', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(PHONE, 'ar');
    await openPosition(token, '95500.00', '94500.00');
    await page.goto('/trade?symbol=BTCUSDT');
    await expect.poll(() => page.getByTestId('chart-order-line').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByTestId('chart-order-line').textContent()).toContain('شراء 0.01');
    await page.getByRole('button', { name: 'BB', exact: true }).click();
    await page.getByRole('button', { name: 'RSI', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'RSI', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('group', { name: 'الفترة الزمنية للرسم' }).getByRole('button', { name: '4H', exact: true }).click();
    await expect.poll(() => page.getByTestId('kline-chart').locator('table tr').count()).toBeGreaterThan(1);
    expect(await page.getByTestId('kline-chart').evaluate((el) => getComputedStyle(el.parentElement!).direction)).toBe('ltr');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: '/tmp/chart-phone-ar.png' });
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('draws a pending order at its price and speaks Traditional Chinese (desktop, hk)', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(DESKTOP, 'hk');
    const placed = await call(e2e.server, 'GET', '/v1/api/forex/submit', { type: 1, cont: '0.02', forex_id: btcId(), status: 0, target_price: '94800', multiple: 2 }, { token });
    expect(placed.code).toBe(1);
    await page.goto('/trade?symbol=BTCUSDT');
    await expect.poll(() => page.getByTestId('chart-order-line').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByTestId('chart-order-line').textContent()).toBe('買入 0.02 · 掛單');
    for (const name of ['蠟燭圖', '美國線', '折線']) await page.getByRole('button', { name, exact: true }).waitFor();
    await page.getByRole('button', { name: '美國線', exact: true }).click();
    await page.getByRole('button', { name: 'EMA', exact: true }).click();
    await page.getByRole('button', { name: 'BB', exact: true }).click();
    await page.getByRole('button', { name: '1MN', exact: true }).click();
    await expect.poll(() => page.getByTestId('kline-chart').getAttribute('data-chart-type')).toBe('bars');
    await page.screenshot({ path: '/tmp/chart-desktop-hk.png' });
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
