import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { orders } from '../apps/server/src/platform/db/schema.ts';
import { signedInPage } from './account-helpers.ts';
import { DESKTOP, type E2E, jsErrors, newPage, PHONE, startE2E } from './harness.ts';

const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };

/** Issue 16: trade-fee governance in the back office, and the swap on a trader's position. */
describe('fees and swaps', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ MARKET_ALWAYS_OPEN: '1' });
    const market = e2e.server.ctx.services.market;
    expect(market.publishTick({ symbolId: market.symbolByCode('EURUSD')!.id, bid: '1.08500', ask: '1.08512', time: Date.now() })).toBe(
      true,
    );
  });
  afterAll(async () => e2e?.close());

  it('previews a fee change, refuses one out of range, and saves after a confirmation', async () => {
    const { page } = await newPage(e2e, DESKTOP, { lang: 'en' });
    await page.goto('/admin');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByRole('navigation', { name: 'Back office menu' }).getByRole('link', { name: 'Trade fees' }).click();
    await page.getByRole('heading', { name: 'Trade fees', level: 1 }).waitFor();

    await page.getByLabel('Trading fee type').selectOption('2');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText('Out of range (at most 0.05)').first().waitFor();
    expect(await page.getByRole('button', { name: 'Save fees' }).isDisabled()).toBe(true);
    await page.screenshot({ path: '/tmp/i16-fees-out-of-range-desktop-en.png', fullPage: true });

    await page.getByLabel('Trading fee type').selectOption('1');
    await page.getByLabel('Fee rate of EURUSD').fill('4');
    await page.getByRole('button', { name: 'Preview' }).click();
    const row = page.getByRole('row').filter({ hasText: 'EURUSD' }).first();
    await row.getByText('4', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Save fees' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change the trade fees?' });
    await dialog.getByText('Symbols whose 1-lot fee changes: 1.').waitFor();
    await page.screenshot({ path: '/tmp/i16-fees-confirm-desktop-en.png' });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'detached' });
    const fees = await call(
      e2e.server,
      'GET',
      '/api/admin/fees',
      {},
      { token: (await call(e2e.server, 'POST', '/api/admin/login', ADMIN)).data.token },
    );
    expect(fees.data.rows.find((r: { code: string }) => r.code === 'EURUSD')).toMatchObject({ fee_rate: '4', fee_before: '4' });
    expect(jsErrors(page)).toEqual([]);
  });

  it('shows the swap charged at the rollover on the position card, in Arabic too', async () => {
    for (const lang of ['en', 'ar']) {
      const { page, user } = await signedInPage(e2e, { device: PHONE, lang, balance: '5000' });
      const opened = await call(
        e2e.server,
        'GET',
        '/v1/api/forex/submit',
        { type: 1, cont: '1', forex_id: e2e.server.ctx.services.market.symbolByCode('EURUSD')!.id, multiple: 100 },
        { token: user.token },
      );
      expect(opened.code).toBe(1);
      await e2e.server.ctx.db
        .update(orders)
        .set({ openedAt: new Date('2026-11-24T12:00:00Z') })
        .where(inArray(orders.id, [opened.data.Id]));
      await e2e.server.ctx.services.trading.swaps.charge(Date.parse('2026-11-24T22:30:00Z'));
      await page.goto('/order?type=1');
      const card = page.getByRole('article').first();
      await card.waitFor();
      // Right to left, the number keeps its sign on the left behind a left-to-right mark.
      expect(await card.getByTestId('order-swap').textContent()).toContain('-7.20');
      await page.screenshot({ path: `/tmp/i16-order-swap-phone-${lang}.png` });
      expect(jsErrors(page)).toEqual([]);
    }
  });
});
