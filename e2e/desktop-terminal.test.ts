import fs from 'node:fs';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { liveQuotes, tick as kitTick } from '../apps/server/test/trading/test-kit.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

/** Lists load over the network on a shared machine: a poll waits up to this long. */
const POLL = { timeout: 15_000 };
const SHOTS = process.env.E2E_SCREENSHOTS === '1';
const SHOT_DIR = '/tmp/e2e-desktop-terminal';

const FULL_HD = { ...DESKTOP, viewport: { width: 1920, height: 1080 } };
type Device = typeof DESKTOP | typeof PHONE;

/** What the tests read in each language (the positions table's headers, the region and a few buttons). */
const TEXT = {
  en: {
    chart: 'Candlestick chart',
    positions: 'Positions',
    current: 'Current price',
    profit: 'Profit and loss',
    swap: 'Swap',
    partial: 'Partial close',
    stops: 'Edit TP/SL',
    save: 'Save',
    buy: 'Buy',
    sell: 'Sell',
  },
  hk: {
    chart: 'K線圖',
    positions: '持倉',
    current: '現價',
    profit: '盈虧',
    swap: '隔夜利息',
    partial: '部分平倉',
    stops: '止盈/止損',
    save: '儲存',
    buy: '買入',
    sell: '賣出',
  },
  ar: {
    chart: 'رسم الشموع اليابانية',
    positions: 'المراكز',
    current: 'السعر الحالي',
    profit: 'الربح والخسارة',
    swap: 'فائدة التبييت',
    partial: 'إغلاق جزئي',
    stops: 'جني/وقف',
    save: 'حفظ',
    buy: 'شراء',
    sell: 'بيع',
  },
} as const;

/**
 * Issue 21's desktop terminal in the built app at 1920x1080 and 1440x900, in en, hk and ar: the
 * terminal takes the whole window width, resized panels are remembered across a reload, the
 * positions tab is a table with a live current price and profit in money and points, and the row
 * actions (partial close, edit stops) work. Prices come only from ticks the test publishes.
 */
describe('desktop terminal', () => {
  let e2e: E2E;
  let btcId: number;
  const tick = (code: string, bid: string, ask: string) => kitTick(e2e.server, code, bid, ask);
  const digits = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));
  const shot = async (page: Page, name: string) => {
    if (!SHOTS) return;
    fs.mkdirSync(SHOT_DIR, { recursive: true });
    await page.screenshot({ path: `${SHOT_DIR}/${name}.png` });
  };

  async function loggedInPage(device: Device, lang: string): Promise<{ context: BrowserContext; page: Page; token: string }> {
    const demo = await call(e2e.server, 'GET', '/api/user/createAccountDemoForU');
    const login = await call(e2e.server, 'POST', '/api/user/loginForU', { demo_id: demo.data.demo_id });
    expect(login.code).toBe(1);
    const session = JSON.stringify({ state: { token: login.data.token, user: login.data.user }, version: 0 });
    const { context, page } = await newPage(e2e, device, { lang });
    await context.addInitScript((value) => localStorage.setItem('session', value), session);
    return { context, page, token: login.data.token };
  }
  const api = (token: string, path: string, params: Record<string, unknown> = {}) => call(e2e.server, 'GET', path, params, { token });
  async function open(token: string, type: 1 | 2, lots: string, extra: Record<string, unknown> = {}) {
    const placed = await api(token, '/v1/api/forex/submit', { type, cont: lots, forex_id: btcId, status: 1, multiple: 2, ...extra });
    expect(placed.code).toBe(1);
    return placed.data as { Id: number };
  }
  const holding = async (token: string) =>
    (await api(token, '/v1/api/forex/my_deal', { status: 1, limit: 100 })).data.data as Record<string, unknown>[];
  const box = async (locator: Locator) => (await locator.boundingBox())!;

  beforeAll(async () => {
    e2e = await startE2E();
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await liveQuotes(e2e.server);
    await tick('BTCUSDT', '95000.00', '95020.00');
    btcId = e2e.server.ctx.services.market.symbolByCode('BTCUSDT')!.id;
  });
  afterAll(async () => e2e?.close());

  it.each([
    { device: FULL_HD, lang: 'en' as const },
    { device: FULL_HD, lang: 'hk' as const },
    { device: FULL_HD, lang: 'ar' as const },
    { device: DESKTOP, lang: 'en' as const },
    { device: DESKTOP, lang: 'hk' as const },
    { device: DESKTOP, lang: 'ar' as const },
  ])('fills the $device.viewport.width px window and shows the positions as a live table ($lang)', async ({ device, lang }) => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { width, height } = device.viewport;
    const { context, page, token } = await loggedInPage(device, lang);
    await open(token, 1, '0.10', { target_profit_price: '99000', stop_loss_price: '90000' });
    await page.goto('/trade?symbol=BTCUSDT');
    const terminal = page.getByTestId('trade-terminal');
    await terminal.waitFor();
    // The whole window: edge to edge, down to the bottom, with no page scroll.
    const frame = await box(terminal);
    expect(frame.x).toBe(0);
    expect(frame.width).toBe(width);
    expect(frame.y + frame.height).toBeLessThanOrEqual(height);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
    // The chart takes what the side panels leave: far wider than the old 1,100 px column allowed.
    const chart = await box(page.getByRole('group', { name: TEXT[lang].chart }));
    expect(chart.width).toBeGreaterThan(width - 260 - 300 - 20);

    const panel = page.getByRole('region', { name: TEXT[lang].positions, exact: true });
    // Buy and Sell are in full view above the positions panel even where the order form's column has to scroll.
    const panelTop = (await box(panel)).y;
    for (const name of [TEXT[lang].buy, TEXT[lang].sell]) {
      const button = await box(page.getByRole('button', { name, exact: true }));
      expect(button.y + button.height, name).toBeLessThanOrEqual(panelTop);
    }
    const table = panel.getByRole('table');
    await table.waitFor(POLL);
    for (const name of [TEXT[lang].current, TEXT[lang].profit, TEXT[lang].swap])
      await table.getByRole('columnheader', { name, exact: true }).waitFor();
    expect(await table.getByRole('columnheader').count()).toBe(12);
    const row = table.getByRole('row', { name: /BTC\/USDT/ });
    await expect.poll(() => row.count(), POLL).toBe(1);
    expect(digits(await row.getByTestId('order-tp').textContent())).toBe(99000);
    expect(digits(await row.getByTestId('order-sl').textContent())).toBe(90000);

    // The current price and the profit follow the ticks: a buy from the ask 95,020 is worth the bid.
    await tick('BTCUSDT', '95500.00', '95520.00');
    await expect.poll(() => row.getByTestId('order-update-price').textContent(), POLL).toBe('95,500.00');
    // (95,500 - 95,020) x 0.1 lot x 1 = 48.00, 48,000 points at 2 decimals.
    await expect.poll(() => row.getByTestId('order-profit-money').textContent(), POLL).toBe('48.00');
    expect(digits(await row.getByTestId('order-points').textContent())).toBe(48000);
    if (lang === 'en') expect(await row.getByTestId('order-points').textContent()).toBe('\u206648,000\u2069 points');

    // The header stays on top while the rows scroll inside the panel.
    const frameBox = page.getByTestId('orders-table-frame');
    expect(await frameBox.evaluate((node) => getComputedStyle(node).overflowY)).toBe('auto');
    expect(await table.locator('thead').evaluate((node) => getComputedStyle(node).position)).toBe('sticky');

    // The symbol list is at the start side: left in ltr, right in Arabic.
    const list = await box(page.getByRole('complementary', { name: /./ }).first());
    if (lang === 'ar') {
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      expect(list.x + list.width).toBeCloseTo(width, -1);
    } else expect(list.x).toBe(0);
    await shot(page, `terminal-${lang}-${width}`);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it.each([
    { device: DESKTOP, lang: 'en' as const },
    { device: FULL_HD, lang: 'ar' as const },
  ])('remembers the panel sizes the trader drags or keys across a reload ($lang, $device.viewport.width px)', async ({ device, lang }) => {
    const { context, page } = await newPage(e2e, device, { lang });
    await page.goto('/trade?symbol=BTCUSDT');
    const handles = page.getByRole('separator');
    await expect.poll(() => handles.count(), POLL).toBe(2); // a guest has no positions panel
    const list = page.getByRole('complementary').first();
    const form = page.getByRole('complementary').nth(1);
    const before = await box(list);
    expect(before.width).toBe(260);

    // Drag the list's edge 100 px toward the chart (to the left in Arabic).
    const handle = await box(handles.first());
    const start = { x: handle.x + handle.width / 2, y: handle.y + 200 };
    const toward = lang === 'ar' ? -1 : 1;
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x + toward * 50, start.y, { steps: 5 });
    await page.mouse.move(start.x + toward * 100, start.y, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await box(list)).width).toBe(360);
    // The form: Home makes it the smallest, then it grows by arrow keys (two steps of 16 px toward the chart).
    await handles.nth(1).focus();
    await page.keyboard.press('Home');
    await expect.poll(async () => (await box(form)).width).toBe(260);
    await page.keyboard.press(lang === 'ar' ? 'ArrowRight' : 'ArrowLeft');
    await page.keyboard.press(lang === 'ar' ? 'ArrowRight' : 'ArrowLeft');
    await expect.poll(async () => (await box(form)).width).toBe(292);
    expect(await handles.nth(1).getAttribute('aria-valuenow')).toBe('292');
    await shot(page, `terminal-resized-${lang}-${device.viewport.width}`);

    await page.reload();
    await page.getByRole('complementary').first().waitFor();
    await expect.poll(async () => (await box(page.getByRole('complementary').first())).width, POLL).toBe(360);
    expect((await box(page.getByRole('complementary').nth(1))).width).toBe(292);
    // Dragging can not squeeze the chart: the list stops at its maximum.
    const again = await box(page.getByRole('separator').first());
    await page.mouse.move(again.x + 2, again.y + 200);
    await page.mouse.down();
    await page.mouse.move(again.x + 2 + toward * 1500, again.y + 200, { steps: 5 });
    await page.mouse.up();
    const max = Number(await page.getByRole('separator').first().getAttribute('aria-valuemax'));
    expect(max).toBeLessThanOrEqual(device.viewport.width - 360 - 292);
    await expect.poll(async () => (await box(page.getByRole('complementary').first())).width).toBe(max);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('remembers the positions panel height and fits it to a smaller window', async () => {
    const { context, page } = await loggedInPage(FULL_HD, 'en');
    await page.goto('/trade?symbol=BTCUSDT');
    const panel = page.getByRole('region', { name: 'Positions', exact: true });
    await panel.waitFor(POLL);
    expect((await box(panel)).height).toBe(300);
    const handle = page.getByRole('separator').nth(2);
    expect(await handle.getAttribute('aria-orientation')).toBe('horizontal');
    const h = await box(handle);
    await page.mouse.move(h.x + 400, h.y + 2);
    await page.mouse.down();
    await page.mouse.move(h.x + 400, h.y + 2 - 200, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => (await box(panel)).height).toBe(500);
    await page.reload();
    await expect.poll(async () => (await box(page.getByRole('region', { name: 'Positions', exact: true }))).height, POLL).toBe(500);
    // In a 1440x900 window the chart keeps its 240 px: the panel is shown smaller, the choice kept.
    await page.setViewportSize({ width: 1440, height: 700 });
    const terminalHeight = (await box(page.getByTestId('trade-terminal'))).height;
    await expect
      .poll(async () => (await box(page.getByRole('region', { name: 'Positions', exact: true }))).height)
      .toBe(terminalHeight - 240);
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('terminal-layout')!).state.positionsHeight)).toBe(500);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it.each([
    { device: DESKTOP, lang: 'en' as const },
    { device: FULL_HD, lang: 'hk' as const },
    { device: DESKTOP, lang: 'ar' as const },
  ])('closes part of a position and edits its stops from its row ($lang, $device.viewport.width px)', async ({ device, lang }) => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(device, lang);
    const position = await open(token, 1, '0.10', { target_profit_price: '99000', stop_loss_price: '90000' });
    await page.goto('/trade?symbol=BTCUSDT');
    const text = TEXT[lang];
    const row = page.getByRole('region', { name: text.positions, exact: true }).getByRole('row', { name: /BTC\/USDT/ });
    await row.waitFor(POLL);

    await row.getByRole('button', { name: text.partial, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `${text.partial} · BTC/USDT` });
    await dialog.waitFor();
    const lots = dialog.getByRole('textbox');
    // Focused with its text selected, so typing replaces it.
    await expect.poll(() => lots.evaluate((node) => node === document.activeElement)).toBe(true);
    await page.keyboard.type('0.04');
    expect(await lots.inputValue()).toBe('0.04');
    await shot(page, `terminal-partial-${lang}-${device.viewport.width}`);
    await dialog.getByRole('button').last().click();
    await dialog.waitFor({ state: 'detached', ...POLL });
    await expect.poll(() => row.locator('td').nth(1).textContent(), POLL).toBe('0.06');
    await expect.poll(async () => (await holding(token)).map((o) => o.Quantity), POLL).toEqual(['0.06']);

    await row.getByRole('button', { name: text.stops, exact: true }).click();
    const stops = page.getByRole('dialog');
    await stops.waitFor();
    await stops.getByRole('spinbutton').first().fill('99500');
    await shot(page, `terminal-stops-${lang}-${device.viewport.width}`);
    await stops.getByRole('button', { name: text.save, exact: true }).click();
    await expect.poll(() => row.getByTestId('order-tp').textContent(), POLL).toBe('99,500.00');
    expect((await holding(token))[0]).toMatchObject({ Id: position.Id, TargetProfitPrice: '99500.00', TargetLossPrice: '90000.00' });
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('shows pending orders and history as tables with their own columns (ar)', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(DESKTOP, 'ar');
    const pending = await api(token, '/v1/api/forex/submit', {
      type: 1,
      cont: '0.01',
      forex_id: btcId,
      status: 0,
      target_price: '90000',
      multiple: 2,
    });
    expect(pending.code).toBe(1);
    const closed = await open(token, 2, '0.02');
    expect((await api(token, '/v1/api/forex/close', { id: closed.Id })).code).toBe(1);
    await page.goto('/trade?symbol=BTCUSDT');
    const panel = page.getByRole('region', { name: TEXT.ar.positions, exact: true });
    await panel.getByRole('tab', { name: 'المعلّقة' }).click();
    const pendingRow = panel.getByRole('table').getByRole('row', { name: /BTC\/USDT/ });
    await pendingRow.waitFor(POLL);
    // Waiting at 90,000 to buy: the current price is the live ask.
    await expect.poll(() => pendingRow.getByTestId('order-update-price').textContent(), POLL).toBe('95,020.00');
    expect(await panel.getByRole('table').getByRole('columnheader').count()).toBe(10);
    await shot(page, 'terminal-pending-ar-1440');
    await panel.getByRole('tab', { name: 'السجل' }).click();
    const historyRow = panel.getByRole('table').getByRole('row', { name: /BTC\/USDT/ });
    await historyRow.first().waitFor(POLL);
    expect(await panel.getByRole('table').getByRole('columnheader').count()).toBe(13);
    expect(await historyRow.first().getByTestId('order-close-reason').textContent()).not.toBe('');
    await shot(page, 'terminal-history-ar-1440');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('shows the positions as a table on the desktop orders page too, scrolling inside its frame', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(DESKTOP, 'en');
    for (let i = 0; i < 14; i++) await open(token, i % 2 ? 2 : 1, '0.01');
    await page.goto('/order?type=1');
    const table = page.getByRole('table', { name: 'Holding' });
    await expect.poll(() => table.getByRole('row', { name: /BTC\/USDT order/ }).count(), POLL).toBe(14);
    const frame = page.getByTestId('orders-table-frame');
    // More rows than fit: the frame scrolls and the header stays in view.
    expect(await frame.evaluate((node) => node.scrollHeight > node.clientHeight)).toBe(true);
    await frame.evaluate((node) => node.scrollTo(0, node.scrollHeight));
    const header = await box(table.locator('thead'));
    const frameBox = await box(frame);
    expect(header.y).toBeCloseTo(frameBox.y, 0);
    expect(await page.getByRole('article').count()).toBe(0);
    await shot(page, 'orders-page-en-1440');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it.each(['en', 'ar'])('shows one header on the desktop home page (%s)', async (lang) => {
    const { context, page } = await newPage(e2e, DESKTOP, { lang });
    await page.goto('/');
    await page.getByTestId('quote-board').waitFor(POLL);
    expect(await page.locator('header').count()).toBe(1);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    // Search moved into the bar; the board starts right under it, in the centred column.
    await page
      .getByRole('banner')
      .getByRole('link', { name: lang === 'en' ? 'Search symbols' : /./ })
      .last()
      .waitFor();
    await shot(page, `home-${lang}-1440`);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it.each(['en', 'ar', 'hk'])('keeps the phone order cards inside a 390 px screen (%s)', async (lang) => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(PHONE, lang);
    const position = await open(token, 1, '0.10', { target_profit_price: '99000', stop_loss_price: '90000' });
    expect((await api(token, '/v1/api/forex/set_trailing', { id: position.Id, points: 500 })).code).toBe(1);
    await page.goto('/order?type=1');
    const card = page.getByRole('article', { name: /BTC\/USDT/ });
    await card.waitFor(POLL);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const cardBox = await box(card);
    expect(cardBox.x).toBeGreaterThanOrEqual(0);
    expect(cardBox.x + cardBox.width).toBeLessThanOrEqual(390);
    // No figure, label or button is clipped.
    const clipped = await card.evaluate((node) =>
      [...node.querySelectorAll('dt, dd, button, h2, h3, span')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.textContent),
    );
    expect(clipped).toEqual([]);
    await shot(page, `order-cards-${lang}-390`);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
