import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import arText from '../apps/web/src/features/partners/locales/ar.json';
import enText from '../apps/web/src/features/partners/locales/en.json';
import adminAr from '../apps/web/src/features/admin/locales/ar.json';
import adminEn from '../apps/web/src/features/admin/locales/en.json';
import { callFrom, randomIp } from '../apps/server/test/auth-helpers.ts';
import { hashPassword } from '../apps/server/src/modules/auth/password.ts';
import { staff } from '../apps/server/src/platform/db/schema.ts';
import { call } from '../apps/server/test/test-app.ts';
import { liveQuotes, symbolId, tick } from '../apps/server/test/trading/test-kit.ts';
import { insertUser } from '../apps/server/src/modules/auth/user-repository.ts';
import { fund, newUser, staffToken } from '../apps/server/src/modules/funding/test-helpers.ts';
import * as papi from '../packages/contract/src/endpoints/partners.ts';
import { signedInPage } from './account-helpers.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';
import { pageFitsWidth, seriousAxeFindings } from './axe.ts';

const TEXT = { en: enText, ar: arText } as const;

describe('the partner area', () => {
  let e2e: E2E;
  let finance = '';
  let planId = 0;
  beforeAll(async () => {
    e2e = await startE2E();
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await liveQuotes(e2e.server);
    await tick(e2e.server, 'BTCUSDT', '95000.00', '95020.00');
    finance = await staffToken(e2e.server, ['finance']);
    const saved = await call(
      e2e.server,
      'POST',
      papi.adminSavePlan.path,
      { name: 'Standard', per_lot: { '*': '10' }, tier_shares: ['100'] },
      { token: finance, json: true },
    );
    expect(saved.code).toBe(1);
    planId = saved.data.id;
  });
  afterAll(async () => e2e?.close());

  /** A client of the partner who traded one lot of BTCUSDT (opened and closed), with the commission accrued. */
  async function clientTraded(partnerId: number) {
    const user = await insertUser(e2e.server.ctx.db, { email: `client${partnerId}@example.com`, isDemo: false, invitedBy: partnerId });
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
    expect((await call(e2e.server, 'GET', '/v1/api/forex/close', { id: opened.data.Id }, { token })).code).toBe(1);
    await e2e.server.ctx.services.partnerAccrual.run();
  }

  it('a verified trader applies from the account screen', async () => {
    const { context, page } = await signedInPage(e2e, { device: PHONE, lang: 'en', verified: true });
    await page.goto('/mine');
    await page.getByRole('link', { name: 'Partner programme' }).click();
    await page.getByRole('button', { name: enText.apply }).click();
    await page.getByTestId('partner-status').filter({ hasText: enText.status_applied }).waitFor();
    expect(await seriousAxeFindings(page)).toEqual([]);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  for (const [device, size] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    for (const lang of ['en', 'ar'] as const) {
      it(`an approved partner sees code, clients and commissions, and requests a payout (${device}, ${lang})`, async () => {
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
        await clientTraded(user.id);

        await page.goto('/mine/partner');
        await page.getByTestId('partner-code').waitFor();
        if (lang === 'ar') expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
        expect(await page.getByTestId('partner-clients-count').textContent()).toBe('1');
        await page
          .getByTestId('partner-payable')
          .filter({ hasText: /10[.,٫]00/ })
          .waitFor();
        // The client, masked.
        await page.getByTestId('partner-clients').getByText('cl***@ex***.com').waitFor();
        await page.getByRole('tab', { name: text.tab_commissions }).click();
        await page.getByTestId('partner-commissions').getByText(text.kind_lot).first().waitFor();
        expect(await pageFitsWidth(page)).toBe(true);
        expect(await seriousAxeFindings(page)).toEqual([]);
        if (process.env.E2E_SCREENSHOTS === '1') await page.screenshot({ path: `/tmp/partner-${device}-${lang}.png`, fullPage: true });

        // A payout asks for confirmation before anything moves.
        await page.getByLabel(text.payout_amount).fill('4');
        await page.getByRole('button', { name: text.payout_request }).click();
        const dialog = page.getByRole('dialog');
        await dialog.waitFor();
        expect(await seriousAxeFindings(page)).toEqual([]);
        await dialog.getByRole('button', { name: text.payout_request }).click();
        await dialog.waitFor({ state: 'hidden' });
        await page.getByRole('tab', { name: text.tab_payouts }).click();
        await page.getByTestId('partner-payouts').getByText(text.payout_requested).waitFor();
        const mine = await call(e2e.server, 'GET', papi.payouts.path, {}, { token: user.token });
        expect(mine.data.data).toEqual([expect.objectContaining({ amount: '4.00', status: 'requested' })]);
        expect(jsErrors(page)).toEqual([]);
        await context.close();
      });
    }
  }

  it('back office: staff approve an application with a plan and pay a payout once (desktop, en and ar)', async () => {
    let n = 0;
    for (const [lang, text] of [
      ['en', adminEn],
      ['ar', adminAr],
    ] as const) {
      const applicant = await newUser(e2e.server, { verified: true });
      expect((await call(e2e.server, 'POST', papi.apply.path, {}, { token: applicant.token, json: true })).code).toBe(1);
      const email = `partners-${lang}-${++n}@test.local`;
      await e2e.server.ctx.db
        .insert(staff)
        .values({ email, name: 'Finance', passwordHash: await hashPassword('staff-password-1'), roles: ['finance'] });
      const login = await callFrom(e2e.server, randomIp(), 'POST', '/api/admin/login', { email, password: 'staff-password-1' });
      const session = JSON.stringify({ state: { token: login.data.token, staff: login.data.staff }, version: 0 });
      const { context, page } = await newPage(e2e, DESKTOP, { lang });
      await context.addInitScript((value) => sessionStorage.setItem('staff_session', value), session);
      await page.goto('/admin/dashboard');
      await page.getByRole('navigation', { name: text.menu }).getByRole('link', { name: text.nav.partners }).click();
      await page.getByRole('heading', { level: 1, name: text.nav.partners }).waitFor();
      const who = (await e2e.server.ctx.services.partners.list(0, 1, 100)).data.find((p) => p.user_id === applicant.id)!.email!;
      await page.getByLabel(text.partners.plan_for.replace('{{who}}', who)).selectOption({ label: 'Standard' });
      await page.getByRole('button', { name: text.approve_for.replace('{{who}}', who) }).click();
      await expect.poll(async () => (await e2e.server.ctx.services.partners.partnerOf(applicant.id))?.status).toBe(1);
      expect((await e2e.server.ctx.services.partners.partnerOf(applicant.id))?.planId).toBe(planId);
      expect(await seriousAxeFindings(page)).toEqual([]);

      await clientTraded(applicant.id);
      const requested = await call(e2e.server, 'POST', papi.requestPayout.path, { amount: '5' }, { token: applicant.token, json: true });
      expect(requested.code).toBe(1);
      await page.getByRole('tab', { name: text.tab.partner_payouts }).click();
      if (process.env.E2E_SCREENSHOTS === '1') await page.screenshot({ path: `/tmp/partners-admin-${lang}.png`, fullPage: true });
      await page.getByRole('button', { name: text.approve_for.replace('{{who}}', who) }).click();
      const dialog = page.getByRole('dialog', { name: text.partners.pay });
      await dialog.waitFor();
      expect(await seriousAxeFindings(page)).toEqual([]);
      await dialog.getByRole('button', { name: text.partners.pay }).click();
      await expect
        .poll(async () => (await call(e2e.server, 'GET', papi.payouts.path, {}, { token: applicant.token })).data.data[0].status)
        .toBe('paid');
      expect((await e2e.server.ctx.services.ledger.balances(e2e.server.ctx.db, applicant.id)).balance.toString()).toBe('5');
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    }
  });
});
