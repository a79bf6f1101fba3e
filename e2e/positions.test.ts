import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { liveQuotes, tick as kitTick } from '../apps/server/test/trading/test-kit.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

/** Lists load over the network on a shared machine: a poll waits up to this long. */
const POLL = { timeout: 15_000 };

/**
 * Position tools (issue 22) in the built app: partial close, close all buys, trailing stop, pending
 * types with expiry and price alerts, at a phone's and a desktop's size, in en, hk and ar. The
 * simulated feed is stopped so every price comes from ticks the test publishes.
 */
describe('position tools, pending types and price alerts', () => {
  let e2e: E2E;
  let btcId: number;
  const shots = '/tmp/w2-positions';

  const tick = (code: string, bid: string, ask: string) => kitTick(e2e.server, code, bid, ask);

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

  const api = (token: string, path: string, params: Record<string, unknown> = {}) => call(e2e.server, 'GET', path, params, { token });
  async function open(token: string, type: 1 | 2, lots: string, extra: Record<string, unknown> = {}) {
    const placed = await api(token, '/v1/api/forex/submit', { type, cont: lots, forex_id: btcId, status: 1, multiple: 2, ...extra });
    expect(placed.code).toBe(1);
    return placed.data as { Id: number };
  }
  const holding = async (token: string) =>
    (await api(token, '/v1/api/forex/my_deal', { status: 1, limit: 100 })).data.data as Record<string, unknown>[];

  beforeAll(async () => {
    e2e = await startE2E();
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await liveQuotes(e2e.server);
    await tick('BTCUSDT', '95000.00', '95020.00');
    btcId = e2e.server.ctx.services.market.symbolByCode('BTCUSDT')!.id;
  });
  afterAll(async () => e2e?.close());

  it('closes part of a position from its card: the rest stays open with its lots and take-profit (phone, en)', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(PHONE, 'en');
    const position = await open(token, 1, '0.10', { target_profit_price: '99000' });
    await page.goto('/order?type=1');
    const card = page.getByRole('article', { name: /BTC\/USDT order/ });
    await card.waitFor();
    await card.getByRole('button', { name: 'Close', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Close position' });
    const lots = dialog.getByRole('textbox', { name: 'Lots to close' });
    // All of it by default; the symbol's lot limits come from the deal call.
    expect(await lots.inputValue()).toBe('0.1');
    await dialog.getByText('Minimum 0.01, step 0.01, up to 0.1 lots').waitFor();
    await lots.fill('0.015');
    await dialog.getByRole('button', { name: 'Confirm close' }).click();
    await dialog.getByText('Lots must be a multiple of 0.01').waitFor();
    await lots.fill('0.04');
    await page.screenshot({ path: `${shots}/partial-close-phone-en.png` });
    await dialog.getByRole('button', { name: 'Confirm close' }).click();
    await page.getByText(/BTC\/USDT: 0\.04 lots closed, profit .*; 0\.06 lots stay open/).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => card.getByText('0.06 lots').count(), POLL).toBe(1);
    expect(await card.getByTestId('order-tp').textContent()).toBe('99,000.00');

    const rest = await holding(token);
    expect(rest).toHaveLength(1);
    expect(rest[0]).toMatchObject({ Id: position.Id, Quantity: '0.06', TargetProfitPrice: '99000.00' });
    await page.getByRole('tab', { name: 'History' }).click();
    await page
      .getByRole('article', { name: /BTC\/USDT order/ })
      .getByText('0.04 lots')
      .waitFor();
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('reverses a position from its detail sheet after a confirmation (phone, en)', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(PHONE, 'en');
    const position = await open(token, 1, '0.02');
    await page.goto('/order?type=1');
    await page.getByRole('button', { name: 'Details' }).click();
    const detail = page.getByRole('dialog', { name: 'BTC/USDT order details' });
    await detail.getByRole('button', { name: 'Reverse' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reverse position' });
    await confirm.getByText('Close the BTC/USDT buy of 0.02 lots and open a sell of 0.02 lots at the market price?').waitFor();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('BTC/USDT reversed: 0.02 lots opened at 95,000.00').waitFor();
    const now = await holding(token);
    expect(now).toHaveLength(1);
    expect(now[0]).toMatchObject({ OrderType: 2, Quantity: '0.02' });
    expect(now[0]!.Id).not.toBe(position.Id);
    await expect
      .poll(
        () =>
          page
            .getByRole('article', { name: /BTC\/USDT order/ })
            .getByText('Sell')
            .count(),
        POLL,
      )
      .toBe(1);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('closes all buys from the bar above the positions after a confirmation with count and floating profit (desktop, en and ar)', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(DESKTOP, 'en');
    await open(token, 1, '0.01');
    await open(token, 1, '0.02');
    const sell = await open(token, 2, '0.03');
    await page.goto('/trade?symbol=BTCUSDT');
    const panel = page.getByRole('region', { name: 'Positions' });
    await expect.poll(() => panel.getByRole('row', { name: /BTC\/USDT order/ }).count(), POLL).toBe(3);
    // The terminal's symbol is the default scope.
    expect(await panel.getByRole('combobox', { name: 'Symbols to close' }).inputValue()).toBe(String(btcId));
    await panel.getByRole('button', { name: 'Close buys' }).click();
    const confirm = page.getByRole('dialog', { name: 'Close buys' });
    await confirm.getByText(/Positions to close: 2 \(BTC\/USDT\)\. Floating profit and loss: \u2066-?[\d,.]+\u2069\./).waitFor();
    await page.screenshot({ path: `${shots}/close-buys-desktop-en.png` });
    await confirm.getByRole('button', { name: 'Confirm close' }).click();
    await page.getByText(/Closed: 2, realised profit/).waitFor();
    await expect.poll(() => panel.getByRole('row', { name: /BTC\/USDT order/ }).count(), POLL).toBe(1);
    const left = await holding(token);
    expect(left.map((o) => o.Id)).toEqual([sell.Id]);
    expect(jsErrors(page)).toEqual([]);
    await context.close();

    const ar = await loggedInPage(DESKTOP, 'ar');
    await open(ar.token, 1, '0.01');
    await open(ar.token, 2, '0.01');
    await ar.page.goto('/trade?symbol=BTCUSDT');
    const arPanel = ar.page.getByRole('region', { name: 'المراكز', exact: true });
    await expect.poll(() => arPanel.getByRole('row', { name: /BTC\/USDT/ }).count(), POLL).toBe(2);
    await arPanel.getByRole('button', { name: 'إغلاق البيع' }).click();
    await ar.page
      .getByRole('dialog', { name: 'إغلاق البيع' })
      .getByText(/المراكز المراد إغلاقها: 1/)
      .waitFor();
    await ar.page.screenshot({ path: `${shots}/close-sells-desktop-ar.png` });
    await ar.page.getByRole('dialog', { name: 'إغلاق البيع' }).getByRole('button', { name: 'تأكيد الإغلاق' }).click();
    await expect.poll(() => arPanel.getByRole('row', { name: /BTC\/USDT/ }).count(), POLL).toBe(1);
    expect(jsErrors(ar.page)).toEqual([]);
    await ar.context.close();
  });

  it('sets a trailing stop in the stops sheet and shows it on the position (phone, ar)', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(PHONE, 'ar');
    const position = await open(token, 1, '0.01');
    await page.goto('/order?type=1');
    const card = page.locator(`[data-order-id="${position.Id}"]`);
    await card.getByRole('button', { name: 'جني/وقف' }).click();
    const sheet = page.getByRole('dialog');
    const trailing = sheet.getByRole('textbox', { name: 'وقف متحرك' });
    await trailing.fill('500');
    await page.screenshot({ path: `${shots}/trailing-phone-ar.png` });
    await sheet.getByRole('button', { name: 'حفظ', exact: true }).click();
    await page.getByText('تم ضبط الوقف المتحرك على 500 نقطة').waitFor();
    await expect.poll(() => card.getByTestId('order-trailing').textContent(), POLL).toBe('500 نقطة');
    const [saved] = await holding(token);
    expect(saved).toMatchObject({ Id: position.Id, TrailingPoints: 500 });
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('places a pending buy limit good for the day and shows its type and expiry (phone, hk)', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(PHONE, 'hk');
    await page.goto('/trade?symbol=BTCUSDT');
    await page.getByRole('button', { name: '掛單', exact: true }).click();
    await page.getByRole('spinbutton', { name: '價格', exact: true }).fill('90000');
    // Auto: the type each side would get is shown live.
    await expect.poll(() => page.getByTestId('derived-pending-type').textContent(), POLL).toBe('買入：買入限價 · 賣出：賣出止損');
    await page.getByRole('combobox', { name: '訂單類型' }).selectOption('buy_limit');
    await page.getByRole('combobox', { name: '有效期' }).selectOption('1');
    await page.screenshot({ path: `${shots}/pending-form-phone-hk.png` });
    // A buy limit is a buy: the sell button says so.
    await page.getByRole('button', { name: '賣出', exact: true }).click();
    await page.getByText('所選訂單類型屬另一方向，請按對應按鈕').waitFor();
    await page.getByRole('button', { name: '買入', exact: true }).click();
    const sheet = page.getByRole('dialog', { name: '確認訂單' });
    await sheet.getByText('買入限價').waitFor();
    await sheet.getByText('當日有效').waitFor();
    await sheet.getByRole('button', { name: '確認下單' }).click();
    await sheet.waitFor({ state: 'detached' });

    const pending = (await api(token, '/v1/api/forex/my_deal', { status: 0 })).data.data as Record<string, unknown>[];
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ PendingType: 'buy_limit' });
    const expireTime = pending[0]!.ExpireTime as number;
    expect(expireTime * 1000).toBeGreaterThan(Date.now());
    expect(expireTime * 1000).toBeLessThan(Date.now() + 25 * 3600_000);

    await page.goto('/order?type=0');
    const card = page.getByRole('article').first();
    await expect.poll(() => card.getByTestId('order-pending-type').textContent(), POLL).toBe('買入限價');
    const expiry = (await card.getByTestId('order-expiry').textContent())!;
    expect(expiry).not.toBe('取消前有效');
    expect(expiry).toMatch(/\d/);
    await page.screenshot({ path: `${shots}/pending-card-phone-hk.png` });
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('sets a price alert from the trade screen and shows it fired after the price moves (desktop en, phone hk)', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(DESKTOP, 'en');
    await page.goto('/trade?symbol=BTCUSDT');
    await expect.poll(() => page.getByTestId('sell-price').textContent(), POLL).toBe('95,000.00');
    await page.getByRole('button', { name: 'Set a price alert' }).click();
    const form = page.getByRole('dialog', { name: 'Price alert · BTC/USDT' });
    const price = form.getByRole('textbox', { name: 'Alert price' });
    expect(await price.inputValue()).toBe('95000.00');
    await price.fill('95500');
    // A demo account has no email address: the server's refusal is shown in the form, translated.
    await form.getByRole('checkbox', { name: 'Also tell me by email' }).check();
    await form.getByRole('button', { name: 'Set alert' }).click();
    await form.getByRole('alert').getByText('Your account has no email address; add one or choose push only').waitFor();
    await page.screenshot({ path: `${shots}/alert-form-desktop-en.png` });
    await form.getByRole('checkbox', { name: 'Also tell me by email' }).uncheck();
    await form.getByRole('button', { name: 'Set alert' }).click();
    await page.getByText('Alert set: BTC/USDT Bid at 95,500.00').waitFor();

    const panel = page.getByRole('region', { name: 'Positions' });
    await panel.getByRole('tab', { name: 'Alerts' }).click();
    const row = panel.getByTestId('alert-row');
    await row.getByText('Bid rises to 95500.00').waitFor();
    expect(await row.getByTestId('alert-state').textContent()).toBe('Waiting for the price');

    await tick('BTCUSDT', '95600.00', '95620.00');
    await expect.poll(() => row.getByTestId('alert-state').textContent(), POLL).toMatch(/^Fired at 95600\.00/);
    await page.screenshot({ path: `${shots}/alert-fired-desktop-en.png` });
    const alerts = (await api(token, '/v1/api/forex/alerts')).data.data as Record<string, unknown>[];
    expect(alerts[0]!.fired_at).toBeGreaterThan(0);

    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete alert' }).getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => panel.getByTestId('alert-row').count(), POLL).toBe(0);
    expect(jsErrors(page)).toEqual([]);
    await context.close();

    const hk = await loggedInPage(PHONE, 'hk');
    await hk.page.goto('/trade?symbol=BTCUSDT');
    await hk.page.getByRole('button', { name: '設定價格提醒' }).click();
    const hkForm = hk.page.getByRole('dialog', { name: '價格提醒 · BTC/USDT' });
    await hkForm.getByRole('radio', { name: '買價' }).click();
    expect(await hkForm.getByRole('textbox', { name: '提醒價格' }).inputValue()).toBe('95620.00');
    await hkForm.getByRole('textbox', { name: '提醒價格' }).fill('97000');
    await hk.page.screenshot({ path: `${shots}/alert-form-phone-hk.png` });
    await hkForm.getByRole('button', { name: '設定提醒' }).click();
    await hkForm.waitFor({ state: 'detached' });
    await hk.page.goto('/order?type=alerts');
    await hk.page.getByTestId('alert-row').getByText('等待價格').waitFor();
    await hk.page.screenshot({ path: `${shots}/alerts-list-phone-hk.png` });
    expect(jsErrors(hk.page)).toEqual([]);
    await hk.context.close();
  });
});
