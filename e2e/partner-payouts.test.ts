import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import arText from '../apps/web/src/features/partners/locales/ar.json';
import enText from '../apps/web/src/features/partners/locales/en.json';
import adminAr from '../apps/web/src/features/admin/locales/ar.json';
import adminEn from '../apps/web/src/features/admin/locales/en.json';
import ordersAr from '../apps/web/src/features/orders/locales/ar.json';
import ordersEn from '../apps/web/src/features/orders/locales/en.json';
import { call } from '../apps/server/test/test-app.ts';
import { symbolId } from '../apps/server/test/trading/test-kit.ts';
import { insertUser } from '../apps/server/src/modules/auth/user-repository.ts';
import { fund, staffToken } from '../apps/server/src/modules/funding/test-helpers.ts';
import * as adminApi from '../packages/contract/src/endpoints/admin.ts';
import * as papi from '../packages/contract/src/endpoints/partners.ts';
import { signedInPage } from './account-helpers.ts';
import { DESKTOP, jsErrors, PHONE, startE2EOnTestPrices, type E2E } from './harness.ts';
import { pageFitsWidth, seriousAxeFindings } from './axe.ts';
import { staffMember, staffTab } from './staff-helpers.ts';

const TEXT = { en: enText, ar: arText } as const;
const ADMIN = { en: adminEn, ar: adminAr } as const;
const ORDERS = { en: ordersEn, ar: ordersAr } as const;
const POLL = { timeout: 10_000 };

/**
 * Issue 34's scheduled payouts, staff reversal of a closed trade and clawback, in the browser: the
 * partner area shows the schedule, a scheduled payout and a commission taken back; finance set a
 * schedule in the back office; a risk member reverses a closed trade from the user page after a
 * confirmation, and the trader's history says so.
 */
describe('scheduled payouts, reversal and clawback', () => {
  let e2e: E2E;
  let finance = '';
  let risk = '';
  let planId = 0;
  beforeAll(async () => {
    e2e = await startE2EOnTestPrices();
    finance = await staffToken(e2e.server, ['finance']);
    risk = await staffToken(e2e.server, ['risk']);
    const saved = await call(
      e2e.server,
      'POST',
      papi.adminSavePlan.path,
      { name: 'Weekly', per_lot: { '*': '10' }, tier_shares: ['100'] },
      { token: finance, json: true },
    );
    expect(saved.code).toBe(1);
    planId = saved.data.id;
    const schedule = await call(
      e2e.server,
      'POST',
      papi.adminSaveSchedule.path,
      { plan_id: planId, schedule: 'weekly', minimum: '1', auto_approve: true },
      { token: finance, json: true },
    );
    expect(schedule.code).toBe(1);
  });
  afterAll(async () => e2e?.close());

  /** A real user (invited by `invitedBy`) who opened and closed one lot of BTCUSDT: answers them and the closed order's id. */
  async function traded(invitedBy: number | null) {
    const user = await insertUser(e2e.server.ctx.db, {
      email: `c${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}@example.com`,
      isDemo: false,
      invitedBy,
    });
    await e2e.server.ctx.services.ledger.openUserAccounts(e2e.server.ctx.db, user.id, false);
    await fund(e2e.server, user.id, '100000');
    const token = await e2e.server.ctx.services.sessions.create({ userId: user.id });
    const opened = await call(
      e2e.server,
      'GET',
      '/v1/api/forex/submit',
      { forex_id: symbolId(e2e.server, 'BTCUSDT'), type: 1, cont: '1', multiple: 10 },
      { token },
    );
    expect(opened.code).toBe(1);
    const closed = await call(e2e.server, 'GET', '/v1/api/forex/close', { id: opened.data.Id }, { token });
    expect(closed.code).toBe(1);
    return { id: user.id, token, orderId: closed.data.Id as number };
  }

  for (const [device, size] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    for (const lang of ['en', 'ar'] as const) {
      it(`the partner area shows the schedule, a scheduled payout and a commission taken back (${device}, ${lang})`, async () => {
        const text = TEXT[lang];
        const { context, page, user } = await signedInPage(e2e, { device: size, lang, verified: true });
        expect((await call(e2e.server, 'POST', papi.apply.path, {}, { token: user.token, json: true })).code).toBe(1);
        const approved = await call(
          e2e.server,
          'POST',
          papi.adminApprove.path,
          { user_id: user.id, approve: 1, plan_id: planId },
          { token: finance, json: true },
        );
        expect(approved.code).toBe(1);
        const client = await traded(user.id);
        await e2e.server.ctx.services.partnerAccrual.run();
        // The week that ended last Monday pays the 10 USD earned, at once (auto-approve).
        expect(await e2e.server.ctx.services.partnerPayouts.run()).toBeGreaterThanOrEqual(1);
        // Staff reverse the client's trade: the commission already paid comes back from the partner's balance.
        const reversed = await call(
          e2e.server,
          'POST',
          adminApi.positionReverse.path,
          { id: client.orderId, reason: 'off-market price' },
          { token: risk, json: true },
        );
        expect(reversed.code).toBe(1);
        await e2e.server.ctx.services.partnerAccrual.run();

        await page.goto('/mine/partner');
        await page.getByTestId('partner-code').waitFor();
        if (lang === 'ar') expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
        const note = page.getByTestId('partner-schedule');
        await note.getByText(text.schedule_weekly).waitFor();
        await note.getByText(text.schedule_auto, { exact: false }).waitFor();
        await page.getByRole('tab', { name: text.tab_payouts }).click();
        await page.getByTestId('partner-payouts').getByTestId('payout-scheduled').getByText(text.scheduled).waitFor();
        await page.getByTestId('partner-payouts').getByText(text.payout_paid).waitFor();
        await page.getByRole('tab', { name: text.tab_commissions }).click();
        await page.getByTestId('partner-commissions').getByText(text.kind_clawback).waitFor();
        await page
          .getByTestId('partner-total')
          .filter({ hasText: /0[.,٫]00/ })
          .waitFor();
        expect(await pageFitsWidth(page)).toBe(true);
        expect(await seriousAxeFindings(page)).toEqual([]);
        if (process.env.E2E_SCREENSHOTS === '1')
          await page.screenshot({ path: `/tmp/partner-schedule-${device}-${lang}.png`, fullPage: true });
        // The partner's balance: paid 10, then 10 clawed back.
        expect((await e2e.server.ctx.services.ledger.balances(e2e.server.ctx.db, user.id)).balance.toString()).toBe('0');
        expect(jsErrors(page)).toEqual([]);
        await context.close();
      });
    }
  }

  for (const lang of ['en', 'ar'] as const) {
    it(`back office: finance set a plan's schedule; a risk member reverses a closed trade after a confirmation (desktop, ${lang})`, async () => {
      const text = ADMIN[lang];
      const member = await staffMember(e2e, ['finance'], `schedules ${lang}`);
      const opened = await staffTab(e2e, member, lang);
      await opened.page.goto('/admin/partners');
      await opened.page.getByRole('tab', { name: text.tab.partner_schedules }).click();
      const form = opened.page.getByTestId('schedule-form');
      await form.getByLabel(text.partners.schedule_plan).selectOption({ label: 'Weekly' });
      await form.getByLabel(text.partners.schedule_label).selectOption({ label: text.partners.schedule.monthly });
      await form.getByLabel(text.partners.minimum).fill('25');
      await form.getByRole('button', { name: text.save }).click();
      await expect
        .poll(async () => (await call(e2e.server, 'GET', papi.adminSchedules.path, {}, { token: finance })).data, POLL)
        .toContainEqual({ plan_id: planId, schedule: 'monthly', minimum: '25.00', auto_approve: true });
      expect(await seriousAxeFindings(opened.page)).toEqual([]);
      // The clawbacks of the partner area's tests above, in the back office's commissions.
      await opened.page.getByRole('tab', { name: text.tab.partner_commissions, exact: true }).click();
      await opened.page.getByLabel(text.partners.kind_filter).selectOption({ label: text.partners.clawbacks_only });
      await opened.page.getByRole('row').filter({ hasText: text.partners.kind.clawback }).first().waitFor(POLL);
      expect(await opened.page.getByRole('row').filter({ hasText: text.partners.kind.lot }).count()).toBe(0);
      expect(await seriousAxeFindings(opened.page)).toEqual([]);
      if (process.env.E2E_SCREENSHOTS === '1') await opened.page.screenshot({ path: `/tmp/partner-clawbacks-${lang}.png` });
      expect(jsErrors(opened.page)).toEqual([]);
      await opened.context.close();
      // Back to weekly for the other tests.
      await call(
        e2e.server,
        'POST',
        papi.adminSaveSchedule.path,
        { plan_id: planId, schedule: 'weekly', minimum: '1', auto_approve: true },
        { token: finance, json: true },
      );

      const traderTab = await signedInPage(e2e, { device: DESKTOP, lang, verified: true, balance: '100000' });
      const trader = traderTab.user;
      const before = (await e2e.server.ctx.services.ledger.balances(e2e.server.ctx.db, trader.id)).balance.toString();
      const opening = await call(
        e2e.server,
        'GET',
        '/v1/api/forex/submit',
        { forex_id: symbolId(e2e.server, 'BTCUSDT'), type: 1, cont: '1', multiple: 10 },
        { token: trader.token },
      );
      expect(opening.code).toBe(1);
      const closed = await call(e2e.server, 'GET', '/v1/api/forex/close', { id: opening.data.Id }, { token: trader.token });
      expect(closed.code).toBe(1);
      const orderId = closed.data.Id as number;

      const riskMember = await staffMember(e2e, ['risk'], `reversal ${lang}`);
      const tab = await staffTab(e2e, riskMember, lang);
      await tab.page.goto(`/admin/users/${trader.id}`);
      await tab.page.getByRole('tab', { name: text.tab.orders }).click();
      await tab.page.getByRole('button', { name: text.reverse_trade_of.replace('{{id}}', String(orderId)) }).click();
      const dialog = tab.page.getByRole('dialog');
      await dialog.waitFor();
      // Nothing moves before the confirmation, which needs a reason.
      expect((await call(e2e.server, 'GET', '/v1/api/forex/my_deal', { status: 3 }, { token: trader.token })).data.data[0].Reversed).toBe(
        0,
      );
      await dialog.getByLabel(text.reverse_reason).fill('filled on an off-market price');
      expect(await seriousAxeFindings(tab.page)).toEqual([]);
      if (process.env.E2E_SCREENSHOTS === '1') await tab.page.screenshot({ path: `/tmp/reverse-trade-${lang}.png` });
      await dialog.getByRole('button').last().click();
      await dialog.waitFor({ state: 'detached', ...POLL });
      await tab.page.getByRole('row').filter({ hasText: text.reversed }).first().waitFor(POLL);
      expect(await tab.page.getByRole('button', { name: text.reverse_trade_of.replace('{{id}}', String(orderId)) }).count()).toBe(0);
      expect((await e2e.server.ctx.services.ledger.balances(e2e.server.ctx.db, trader.id)).balance.toString()).toBe(before);
      expect(jsErrors(tab.page)).toEqual([]);
      await tab.context.close();

      // The trader's history says the broker reversed it.
      const { context, page } = traderTab;
      await page.goto('/order');
      await page.getByRole('tab', { name: ORDERS[lang].history }).click();
      await page.getByText(ORDERS[lang].reversed, { exact: false }).first().waitFor(POLL);
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    });
  }
});
