import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { symbolId, tick as kitTick } from '../apps/server/test/trading/test-kit.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2EOnTestPrices, type E2E } from './harness.ts';
import { pageFitsWidth, seriousAxeFindings } from './axe.ts';
import { staffMember } from './staff-helpers.ts';

/**
 * A trader whose account group adds a spread markup sees the prices they trade on: the trade screen's
 * buy and sell prices, live ticks included, are the quote with the group's markup, and a market buy
 * fills at the ask shown (phone in English, desktop in Arabic).
 */
describe("a trader in a group with a spread markup sees the group's prices", () => {
  let e2e: E2E;
  let groupId = 0;
  let risk = '';
  const tick = (code: string, bid: string, ask: string) => kitTick(e2e.server, code, bid, ask);

  beforeAll(async () => {
    e2e = await startE2EOnTestPrices();
    risk = (await staffMember(e2e, ['risk'], 'Markup')).token;
    // 200 points at 2 decimals: 1.00 off the bid and 1.00 on the ask.
    const symbols = [{ symbol_id: symbolId(e2e.server, 'BTCUSDT'), spread_markup_points: 200 }];
    const saved = await call(
      e2e.server,
      'POST',
      '/api/admin/groups/save',
      { name: 'Wide BTC', kind: 'demo', symbols },
      { token: risk, json: true },
    );
    expect(saved.code, saved.msg).toBe(1);
    if (saved.data.pending_change_id) {
      const second = (await staffMember(e2e, ['risk'], 'Markup')).token;
      expect(
        (await call(e2e.server, 'POST', '/api/admin/changes/approve', { id: saved.data.pending_change_id }, { token: second })).code,
      ).toBe(1);
    }
    const groups = (await call(e2e.server, 'GET', '/api/admin/groups/list', {}, { token: risk })).data as { id: number; name: string }[];
    groupId = groups.find((g) => g.name === 'Wide BTC')!.id;
  });
  afterAll(async () => e2e?.close());

  async function memberPage(device: typeof PHONE | typeof DESKTOP, lang: string) {
    const demo = await call(e2e.server, 'GET', '/api/user/createAccountDemoForU');
    const login = await call(e2e.server, 'POST', '/api/user/loginForU', { demo_id: demo.data.demo_id });
    expect(login.code).toBe(1);
    const moved = await call(
      e2e.server,
      'POST',
      '/api/admin/users/set_group',
      { user_id: demo.data.id, group_id: groupId },
      { token: risk },
    );
    expect(moved.code, moved.msg).toBe(1);
    const session = JSON.stringify({ state: { token: login.data.token, user: login.data.user }, version: 0 });
    const opened = await newPage(e2e, device, { lang });
    await opened.context.addInitScript((value) => localStorage.setItem('session', value), session);
    return { ...opened, token: login.data.token as string };
  }

  it('phone, English: the trade screen shows the marked-up prices, live, and a buy fills at the ask shown', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await memberPage(PHONE, 'en');
    await page.goto('/trade?symbol=BTCUSDT');
    await expect.poll(() => page.getByTestId('buy-price').textContent()).toBe('95,021.00');
    expect(await page.getByTestId('sell-price').textContent()).toBe('94,999.00');
    // A live tick arrives with the group's markup on it.
    await tick('BTCUSDT', '95100.00', '95120.00');
    await expect.poll(() => page.getByTestId('buy-price').textContent()).toBe('95,121.00');
    expect(await page.getByTestId('sell-price').textContent()).toBe('95,099.00');
    expect(await pageFitsWidth(page)).toBe(true);
    if (process.env.E2E_SCREENSHOTS === '1') await page.screenshot({ path: '/tmp/markup-phone-en.png' });

    await page.getByRole('textbox', { name: 'Lots' }).fill('0.10');
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    const sheet = page.getByRole('dialog', { name: 'Confirm order' });
    await sheet.getByText('95,121.00').waitFor(); // at the ask shown
    await sheet.getByRole('button', { name: 'Confirm order' }).click();
    await page.getByText('Order placed').waitFor();
    const open = await call(e2e.server, 'GET', '/v1/api/forex/my_deal', { status: 1 }, { token });
    expect(open.code, open.msg).toBe(1);
    expect((open.data.data as { Price: string }[]).map((o) => o.Price)).toEqual(['95121.00']);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('desktop, Arabic: the same prices, right to left', async () => {
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page } = await memberPage(DESKTOP, 'ar');
    await page.goto('/trade?symbol=BTCUSDT');
    await expect.poll(() => page.getByTestId('buy-price').first().textContent()).toBe('95,021.00');
    expect(await page.getByTestId('sell-price').first().textContent()).toBe('94,999.00');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await seriousAxeFindings(page)).toEqual([]);
    expect(await pageFitsWidth(page)).toBe(true);
    if (process.env.E2E_SCREENSHOTS === '1') await page.screenshot({ path: '/tmp/markup-desktop-ar.png' });
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
