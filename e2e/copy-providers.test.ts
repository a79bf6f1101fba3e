import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser } from '../apps/server/src/modules/funding/test-helpers.ts';
import { actingAs } from '../apps/server/src/modules/social/copier.ts';
import { settings } from '../apps/server/src/platform/db/platform-schema.ts';
import { users } from '../apps/server/src/platform/db/schema.ts';
import { pageFitsWidth, seriousAxeFindings } from './axe.ts';
import { jsErrors, startE2E, type E2E } from './harness.ts';
import { staffMember, staffTab } from './staff-helpers.ts';

/** What the back office says, in the two languages the case uses (the other 16 are checked by the locale tests). */
const TEXT = {
  en: {
    menu: 'Back office menu',
    screen: 'Copy providers',
    suspended: 'Suspended',
    offering: 'Offering copying',
    minimum: 'Closed trades needed to become a provider',
    save: 'Save',
  },
  ar: {
    menu: 'قائمة لوحة الإدارة',
    screen: 'مزوّدو النسخ',
    suspended: 'موقوف',
    offering: 'يتيح النسخ',
    minimum: 'عدد الصفقات المغلقة اللازم لتصبح مزوّدًا',
    save: 'حفظ',
  },
} as const;

describe('back office: copy providers', () => {
  let e2e: E2E;
  let providerId = 0;
  let providerEmail = '';
  beforeAll(async () => {
    e2e = await startE2E();
    const social = e2e.server.ctx.services.social.copy;
    const provider = await newUser(e2e.server, { balance: '10000' });
    await social.enable(actingAs(provider.id), { fee_pct: '15', sub_fee: '20' });
    providerId = provider.id;
    const [row] = await e2e.server.ctx.db.select({ email: users.email }).from(users).where(eq(users.id, provider.id));
    providerEmail = row!.email!;
    const follower = await newUser(e2e.server, { balance: '5000' });
    await social.subscribe(actingAs(follower.id), { provider_id: provider.id, amount: '1000', accept_sub_fee: '20' });
  });
  afterAll(async () => e2e?.close());

  const statusOf = async () =>
    (await e2e.server.ctx.services.social.copy.adminProviders({ page: 1, limit: 50 })).data.find((p) => p.provider_id === providerId)!;
  const minimum = async () =>
    (await e2e.server.ctx.db.select().from(settings).where(eq(settings.key, 'copy_provider_min_trades')))[0]?.value ?? null;

  it('lists providers with followers, assets and fees; risk suspends and resumes one and sets the minimum track record (desktop, en and ar)', async () => {
    const risk = await staffMember(e2e, ['risk'], 'Copy');
    for (const lang of ['en', 'ar'] as const) {
      const text = TEXT[lang];
      const { context, page } = await staffTab(e2e, risk, lang);
      await page.goto('/admin/dashboard');
      await page.getByRole('navigation', { name: text.menu }).getByRole('link', { name: text.screen }).click();
      await page.waitForURL('**/admin/copy_providers');
      await page.getByRole('heading', { level: 1, name: text.screen }).waitFor();
      const table = page.getByRole('table', { name: text.screen });
      const row = table.getByRole('row').filter({ hasText: providerEmail });
      await row.waitFor();
      // One follower with 1,000 allocated; a 15% performance fee; 20 a period, one period paid.
      if (lang === 'en') for (const shown of ['1,000.00', '15.00%', '20.00']) expect(await row.innerText()).toContain(shown);
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      expect(await seriousAxeFindings(page)).toEqual([]);
      expect(await pageFitsWidth(page)).toBe(true);

      // Suspend in one language, resume in the other: asked first, then the row and the follower follow.
      const wasSuspended = (await statusOf()).suspended;
      await row.getByRole('button').click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      expect(await seriousAxeFindings(page)).toEqual([]);
      await dialog.getByRole('button').last().click();
      await row.getByText(wasSuspended ? text.offering : text.suspended).waitFor();
      expect((await statusOf()).suspended).toBe(!wasSuspended);

      // The minimum track record: set it, then back to none.
      const field = page.getByLabel(text.minimum);
      await field.fill(lang === 'en' ? '3' : '0');
      await page.getByRole('button', { name: text.save, exact: true }).click();
      await expect.poll(minimum).toBe(lang === 'en' ? '3' : '0');
      if (process.env.E2E_SCREENSHOTS === '1') await page.screenshot({ path: `/tmp/copy-providers-${lang}.png`, fullPage: true });
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    }
    expect(await statusOf()).toMatchObject({ suspended: false, followers: 1, assets_copied: '1000.000000', sub_fees_earned: '20.000000' });
  });
});
