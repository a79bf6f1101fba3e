import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { cashOf, fund, newUser } from '../apps/server/src/modules/funding/test-helpers.ts';
import { copySubscriptions } from '../apps/server/src/modules/social/schema.ts';
import { settings } from '../apps/server/src/platform/db/platform-schema.ts';
import { users } from '../apps/server/src/platform/db/schema.ts';
import { signedInPage } from './account-helpers.ts';
import { DESKTOP, jsErrors, PHONE, startE2E, type E2E } from './harness.ts';
import { animationsSettled, pageFitsWidth, seriousAxeFindings } from './axe.ts';

/** What the screen says, in the two languages the cases use (the other 16 are checked by the locale tests). */
const TEXT = {
  en: { started: 'You are now copying', confirm: 'Start copying', equity: 'Equity curve', resume: 'Resume', unpaid: 'does not cover' },
  ar: { started: 'أنت الآن تنسخ', confirm: 'بدء النسخ', equity: 'منحنى رأس المال', resume: 'استئناف', unpaid: 'لا يغطي' },
} as const;

describe('following a trader', () => {
  let e2e: E2E;
  let btc: number;
  beforeAll(async () => {
    e2e = await startE2E();
    btc = e2e.server.ctx.services.market.symbolByCode('BTCUSDT')!.id;
    // Every trader with a closed trade is listed (the minimum of trades has its own tests).
    await e2e.server.ctx.db
      .insert(settings)
      .values({ key: 'ranking_min_trades', value: '0' })
      .onConflictDoUpdate({
        target: settings.key,
        set: { value: '0' },
      });
  });
  afterAll(async () => e2e?.close());

  const api = (token: string, method: 'GET' | 'POST', url: string, params: Record<string, unknown> = {}) =>
    call(e2e.server, method, url, params, { token });
  const trade = (token: string) =>
    api(token, 'GET', '/v1/api/forex/submit', { type: 1, cont: '0.1', forex_id: btc, status: 1, multiple: 10 });

  const cases = [
    { lang: 'en', device: PHONE, name: 'phone-en' },
    { lang: 'ar', device: DESKTOP, name: 'desktop-ar' },
    { lang: 'ar', device: PHONE, name: 'phone-ar' },
    { lang: 'en', device: DESKTOP, name: 'desktop-en' },
  ] as const;

  it.each(cases)(
    'opens a trader from the documentary list, copies them, sees the copy, pauses and unfollows ($name)',
    async ({ lang, device, name }) => {
      const text = TEXT[lang];
      // A provider with two closed trades.
      const provider = await newUser(e2e.server, { balance: '100000' });
      const display = `Trader ${name}`;
      await e2e.server.ctx.db.update(users).set({ displayName: display }).where(eq(users.id, provider.id));
      expect((await api(provider.token, 'POST', '/api/follow/provider/enable', { fee_pct: '10' })).code).toBe(1);
      for (let i = 0; i < 2; i++) {
        const opened = await trade(provider.token);
        expect(opened.code, opened.msg).toBe(1);
        expect((await api(provider.token, 'GET', '/v1/api/forex/close', { id: opened.data.Id })).code).toBe(1);
      }
      e2e.server.ctx.services.social.clearRankingCache();

      const { page, context, user } = await signedInPage(e2e, { device, lang, verified: true, balance: '100000' });
      await page.goto('/rank?tab=documentary');
      await page.getByText(display).first().click();
      await page.waitForURL(/\/rank\/trader\?id=\d+/);
      await page.getByTestId('trader-stats').waitFor();
      await page.getByText(text.equity).first().waitFor();
      await page.getByTestId('equity-curve').waitFor();
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      expect(await pageFitsWidth(page)).toBe(true);
      await page.screenshot({ path: `/tmp/copy-profile-${name}.png`, fullPage: true });
      expect(await seriousAxeFindings(page)).toEqual([]);

      // The Copy sheet: an amount, a copy stop-loss, a confirmation.
      await page.getByTestId('trader-copy').click();
      await page.getByTestId('copy-value').fill('20000');
      await page.getByTestId('copy-stop-loss').fill('30');
      // Measured once the sheet has finished sliding and fading in.
      await animationsSettled(page);
      await page.screenshot({ path: `/tmp/copy-sheet-${name}.png` });
      expect(await seriousAxeFindings(page)).toEqual([]);
      await page.getByTestId('copy-submit').click();
      await page.getByRole('dialog').getByRole('button', { name: text.confirm, exact: true }).click();
      await page.getByText(text.started).first().waitFor();
      await page.getByTestId('trader-following').waitFor();

      // The provider trades; the copier (on the leader, within a second) opens the copy for the follower.
      const opened = await trade(provider.token);
      expect(opened.code).toBe(1);
      await expect
        .poll(async () => (await api(user.token, 'GET', '/v1/api/forex/my_deal', { status: 1, page: 1 })).data.total, { timeout: 10_000 })
        .toBe(1);

      await page.getByTestId('trader-following').click();
      await page.waitForURL(/\/rank\/copies/);
      const card = page.getByTestId('copy-card').filter({ hasText: display });
      await card.waitFor();
      await expect.poll(async () => (await card.getByTestId('copy-open-count').textContent())?.trim().startsWith('1')).toBe(true);
      expect(await pageFitsWidth(page)).toBe(true);
      await page.screenshot({ path: `/tmp/copy-mine-${name}.png`, fullPage: true });
      expect(await seriousAxeFindings(page)).toEqual([]);

      await card.getByTestId('copy-pause').click();
      await expect.poll(() => card.getByTestId('copy-status').getAttribute('data-status')).toBe('paused');
      await card.getByTestId('copy-unfollow').click();
      await page.getByTestId('copy-unfollow-close').click();
      await expect.poll(() => card.getByTestId('copy-status').getAttribute('data-status')).toBe('stopped');
      expect((await api(user.token, 'GET', '/v1/api/forex/my_deal', { status: 1, page: 1 })).data.total).toBe(0);
      await page.screenshot({ path: `/tmp/copy-stopped-${name}.png`, fullPage: true });

      // The follower offers their own trades for copying: a fee, a confirmation, the followers' count.
      await page.getByTestId('provider-fee').fill('15');
      await page.getByTestId('provider-enable').click();
      await page.getByRole('dialog').getByRole('button').last().click();
      await page.getByTestId('provider-disable').waitFor();
      expect((await page.getByTestId('provider-followers').textContent())?.trim()).toBe('0');
      expect((await api(user.token, 'GET', '/api/follow/mine')).data.provider).toMatchObject({ enabled: true, fee_pct: '15.00' });
      expect(await pageFitsWidth(page)).toBe(true);
      expect(await seriousAxeFindings(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/copy-provider-${name}.png`, fullPage: true });
      await api(provider.token, 'GET', '/v1/api/forex/close', { id: opened.data.Id });
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    },
  );

  it.each([cases[0], cases[1]])(
    'a trader with a subscription fee: shown and confirmed on the Copy sheet, charged once; unpaid, the copy pauses and resuming pays ($name)',
    async ({ lang, device, name }) => {
      const text = TEXT[lang];
      const provider = await newUser(e2e.server, { balance: '100000' });
      const display = `Fee trader ${name}`;
      await e2e.server.ctx.db.update(users).set({ displayName: display }).where(eq(users.id, provider.id));
      expect((await api(provider.token, 'POST', '/api/follow/provider/enable', { fee_pct: '0', sub_fee: '12.5' })).code).toBe(1);
      const { page, context, user } = await signedInPage(e2e, { device, lang, verified: true, balance: '1000' });
      await page.goto(`/rank/trader?id=${provider.id}`);
      await page.getByTestId('trader-sub-fee').waitFor();
      expect(await page.getByTestId('trader-sub-fee').innerText()).toContain('12.50');

      await page.getByTestId('trader-copy').click();
      await page.getByTestId('copy-value').fill('500');
      expect(await page.getByTestId('copy-sub-fee').innerText()).toContain('12.50');
      expect(await pageFitsWidth(page)).toBe(true);
      expect(await seriousAxeFindings(page)).toEqual([]);
      await page.getByTestId('copy-submit').click();
      const confirm = page.getByRole('dialog');
      expect(await confirm.getByTestId('confirm-sub-fee').innerText()).toContain('12.50');
      await confirm.getByRole('button', { name: text.confirm, exact: true }).click();
      await page.getByText(text.started).first().waitFor();
      expect(await cashOf(e2e.server, user.id)).toBe('987.5');

      // The next period comes and the balance no longer covers it: the copy pauses, with a notice on the card.
      await fund(e2e.server, user.id, '-980');
      await e2e.server.ctx.db
        .update(copySubscriptions)
        .set({ paidUntil: new Date(Date.now() - 1000) })
        .where(eq(copySubscriptions.followerId, user.id));
      expect(await e2e.server.ctx.services.social.copy.subFees.renewDue()).toMatchObject({ unpaid: 1 });
      await page.goto('/rank/copies');
      const card = page.getByTestId('copy-card').filter({ hasText: display });
      await card.getByTestId('copy-fee-unpaid').waitFor();
      expect(await card.getByTestId('copy-sub-fee').innerText()).toContain('12.50');
      expect(await pageFitsWidth(page)).toBe(true);
      expect(await seriousAxeFindings(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/copy-fee-unpaid-${name}.png`, fullPage: true });

      // Resuming asks first (it pays); refused while the money is not there, then paid once.
      await card.getByTestId('copy-pause').click();
      await page.getByRole('dialog').getByRole('button', { name: text.resume, exact: true }).click();
      await page.getByText(text.unpaid).first().waitFor();
      expect(await card.getByTestId('copy-status').getAttribute('data-status')).toBe('paused');
      await fund(e2e.server, user.id, '100');
      await card.getByTestId('copy-pause').click();
      await page.getByRole('dialog').getByRole('button', { name: text.resume, exact: true }).click();
      await expect.poll(() => card.getByTestId('copy-status').getAttribute('data-status')).toBe('active');
      expect(await cashOf(e2e.server, user.id)).toBe('95');
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    },
  );
});
