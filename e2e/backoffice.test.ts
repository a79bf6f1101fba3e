import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { callFrom, randomIp } from '../apps/server/test/auth-helpers.ts';
import { hashPassword } from '../apps/server/src/modules/auth/password.ts';
import { outbox, staff, symbols } from '../apps/server/src/platform/db/schema.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';
import { pageFitsWidth, seriousAxeFindings } from './axe.ts';

/** SHOTS=1 keeps screenshots in /tmp for a look by eye. */
const SHOTS = process.env.E2E_SCREENSHOTS === '1';

/**
 * The page scrolls sideways only inside its tables, never as a whole: nothing reaches past the device's
 * width (a phone zooms out to show what overflows, so its window would grow with it).
 */
/** The back office screens of this change: the code outbox, the audit diff, the weekly schedule, translated categories. */
describe('back office: outbox, audit diff, weekly sessions, categories', () => {
  let e2e: E2E;
  let staffCount = 0;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => e2e?.close());

  /** A staff member with these roles, signed in through the real call; answers the token and the stored session. */
  const staffMember = async (roles: string[]) => {
    const email = `bo-${roles.join('-')}-${++staffCount}@test.local`;
    await e2e.server.ctx.db
      .insert(staff)
      .values({ email, name: `BO ${roles.join('+')}`, passwordHash: await hashPassword('staff-password-1'), roles });
    const res = await callFrom(e2e.server, randomIp(), 'POST', '/api/admin/login', { email, password: 'staff-password-1' });
    expect(res.code).toBe(1);
    return {
      token: res.data.token as string,
      session: JSON.stringify({ state: { token: res.data.token, staff: res.data.staff }, version: 0 }),
    };
  };
  /** A back office tab already signed in as that member (the staff session lives in the tab's sessionStorage). */
  const staffTab = async (member: { session: string }, device: typeof DESKTOP | typeof PHONE, lang: string) => {
    const opened = await newPage(e2e, device, { lang });
    await opened.context.addInitScript((value) => sessionStorage.setItem('staff_session', value), member.session);
    return opened;
  };
  const menu = (page: Page) => page.getByRole('navigation', { name: /^(Back office menu|قائمة لوحة الإدارة)$/ });

  it('gives the code outbox its own admin-only screen; other staff neither see it nor reach it', async () => {
    await e2e.server.ctx.db.insert(outbox).values({
      channel: 'email',
      destination: 'kept@example.com',
      subject: 'Your registration code',
      body: 'Your code is 482913. It expires in 10 minutes.',
    });
    const admin = await staffMember(['admin']);
    for (const lang of ['en', 'ar'] as const) {
      const { context, page } = await staffTab(admin, DESKTOP, lang);
      await page.goto('/admin/dashboard');
      const name = lang === 'en' ? 'Code outbox' : 'صندوق الرموز الصادرة';
      await menu(page).getByRole('link', { name }).click();
      await page.waitForURL('**/admin/outbox');
      await page.getByRole('heading', { level: 1, name }).waitFor();
      const table = page.getByRole('table', { name });
      await table.getByText('Your code is 482913').waitFor();
      expect(await table.textContent()).toContain('kept@example.com');
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      expect(await seriousAxeFindings(page)).toEqual([]);
      expect(await pageFitsWidth(page)).toBe(true);
      if (lang === 'en') {
        // No longer at the bottom of "Content and settings".
        await menu(page).getByRole('link', { name: 'Content and settings' }).click();
        await page.getByRole('heading', { level: 1, name: 'Content and settings' }).waitFor();
        await page.getByRole('form', { name: 'Base settings' }).waitFor();
        expect(await page.getByText('Your code is 482913').count()).toBe(0);
        expect(await page.getByRole('heading', { name: 'Code outbox' }).count()).toBe(0);
      }
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    }

    // On a phone (Arabic): the entry is in the menu strip and the screen fits the width.
    const phone = await staffTab(admin, PHONE, 'ar');
    await phone.page.goto('/admin/dashboard');
    await menu(phone.page).getByRole('link', { name: 'صندوق الرموز الصادرة' }).click();
    await phone.page.getByRole('table', { name: 'صندوق الرموز الصادرة' }).getByText('Your code is 482913').waitFor();
    expect(await pageFitsWidth(phone.page)).toBe(true);
    await phone.context.close();

    // Support and content staff: no menu entry, the address leads back to their first screen, the server refuses.
    for (const roles of [['support'], ['content', 'risk', 'finance']]) {
      const member = await staffMember(roles);
      const { context, page } = await staffTab(member, DESKTOP, 'en');
      await page.goto('/admin/dashboard');
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      expect(await menu(page).getByRole('link', { name: 'Code outbox' }).count()).toBe(0);
      await page.goto('/admin/outbox');
      await page.waitForURL('**/admin/dashboard');
      expect(await page.getByText('Your code is 482913').count()).toBe(0);
      expect((await call(e2e.server, 'GET', '/api/admin/outbox', {}, { token: member.token })).code).toBe(1003);
      await context.close();
    }
  });

  it('shows each audit entry as a before/after diff, with the raw JSON behind a details toggle', async () => {
    const admin = await staffMember(['admin']);
    const [gbp] = await e2e.server.ctx.db.select().from(symbols).where(eq(symbols.code, 'GBPUSD'));
    const spreadBefore = (await call(e2e.server, 'GET', '/api/admin/symbols', {}, { token: admin.token })).data.find(
      (s: { id: number }) => s.id === gbp!.id,
    ).spread as string;
    expect(
      (await call(e2e.server, 'POST', '/api/admin/symbols/save', { id: gbp!.id, spread: '0.00077' }, { token: admin.token })).code,
    ).toBe(1);
    // A long value (a notice with no spaces) wraps inside its cell instead of widening the page.
    const longNotice = `https://example.com/${'a-very-long-path-segment/'.repeat(20)}`;
    expect((await call(e2e.server, 'POST', '/api/admin/settings/save', { announcement: longNotice }, { token: admin.token })).code).toBe(1);

    for (const lang of ['en', 'ar'] as const) {
      const { context, page } = await staffTab(admin, DESKTOP, lang);
      await page.goto('/admin/audit');
      const changes = page.getByRole('list', { name: lang === 'en' ? 'Changes' : 'التغييرات' });
      await changes.first().waitFor();
      const spreadLine = page.locator('li', { has: page.locator('code', { hasText: /^spread$/ }) }).first();
      await spreadLine.waitFor();
      const spreadText = (await spreadLine.textContent())!;
      expect(spreadText).toContain(spreadBefore);
      expect(spreadText).toContain('0.00077');
      expect(spreadText).toContain(lang === 'en' ? '→' : '←');
      // Unchanged fields of the symbol are left out.
      expect(await page.locator('li code', { hasText: /^min_lots$/ }).count()).toBe(0);

      const noticeLine = page.locator('li', { has: page.locator('code', { hasText: /^announcement$/ }) }).first();
      expect(await noticeLine.textContent()).toContain(longNotice);
      expect(await pageFitsWidth(page)).toBe(true);

      // The raw JSON: hidden until the details toggle opens it.
      const row = page.getByRole('row').filter({ has: spreadLine });
      const raw = row.locator('pre').first();
      expect(await raw.isVisible()).toBe(false);
      await row.getByText(lang === 'en' ? 'Details (raw JSON)' : 'التفاصيل (JSON الخام)').click();
      await raw.waitFor();
      expect(await row.locator('pre').nth(1).textContent()).toContain('"spread": "0.00077');

      expect(await seriousAxeFindings(page)).toEqual([]);
      if (SHOTS) await page.screenshot({ path: `/tmp/backoffice-audit-${lang}.png`, fullPage: true });
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    }
    // On a phone the diff stays inside the table's own sideways scroll.
    const phone = await staffTab(admin, PHONE, 'en');
    await phone.page.goto('/admin/audit');
    await phone.page
      .locator('li code', { hasText: /^spread$/ })
      .first()
      .waitFor();
    if (SHOTS) await phone.page.screenshot({ path: '/tmp/backoffice-audit-phone.png' });
    expect(await pageFitsWidth(phone.page)).toBe(true);
    await phone.context.close();
  });

  it('edits a symbol’s sessions as a weekly schedule, refuses overlaps, and shows the saved week after a reload', async () => {
    const admin = await staffMember(['admin']);
    const { context, page } = await staffTab(admin, DESKTOP, 'en');
    await page.goto('/admin/trading');
    const edit = () => page.getByRole('button', { name: 'Edit EUR/USD' }).click();
    await edit();
    const dialog = page.getByRole('dialog', { name: 'Edit EUR/USD' });
    await dialog.getByText('Times in America/New_York').waitFor();
    const day = (name: string) => dialog.getByRole('group', { name, exact: true });

    // Stored: Sunday 17:00-24:00, Monday to Thursday all day, Friday 00:00-17:00, Saturday closed.
    expect(await day('Sunday').getByLabel('Opens').inputValue()).toBe('17:00');
    expect(await day('Saturday').getByRole('checkbox', { name: 'Closed all day' }).isChecked()).toBe(true);

    // Wednesday: a break from 12:00 to 13:00, first typed so that the two ranges overlap.
    const wednesday = day('Wednesday');
    await wednesday.getByLabel('Closes').fill('12:00');
    await wednesday.getByRole('button', { name: 'Add hours' }).click();
    await wednesday.getByLabel('Opens').nth(1).fill('11:00');
    await wednesday.getByLabel('Closes').nth(1).fill('24:00');
    await wednesday.getByLabel('Closes').nth(1).blur();
    await wednesday.getByText('These hours overlap other hours of the day.').first().waitFor();
    // A close before its open is named too; saving is refused while anything is wrong.
    await day('Friday').getByLabel('Closes').fill('09:00');
    await day('Friday').getByLabel('Opens').fill('10:00');
    await day('Friday').getByLabel('Opens').blur();
    await day('Friday').getByText('The closing time must be after the opening time.').waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect(await dialog.isVisible()).toBe(true);
    // The refused save moves the focus to the first invalid field (after the click's handlers have run).
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-invalid'))).toBe('true');
    expect(await seriousAxeFindings(page)).toEqual([]);
    if (SHOTS) await dialog.screenshot({ path: '/tmp/backoffice-schedule-errors-en.png' });

    await wednesday.getByLabel('Opens').nth(1).fill('13:00');
    await day('Friday').getByLabel('Opens').fill('00:00');
    await day('Friday').getByLabel('Closes').fill('17:00');
    // Thursday closed all day; Saturday a short session added.
    await day('Thursday').getByRole('checkbox', { name: 'Closed all day' }).check();
    await day('Saturday').getByRole('checkbox', { name: 'Closed all day' }).uncheck();
    await day('Saturday').getByLabel('Opens').fill('09:00');
    await day('Saturday').getByLabel('Closes').fill('10:30');
    expect(await dialog.getByText('These hours overlap').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').first().waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // Stored in the same format as before, in the symbol's time zone.
    const [row] = await e2e.server.ctx.db.select().from(symbols).where(eq(symbols.code, 'EURUSD'));
    expect(row!.schedule).toEqual([
      { day: 0, open: '17:00', close: '24:00' },
      { day: 1, open: '00:00', close: '24:00' },
      { day: 2, open: '00:00', close: '24:00' },
      { day: 3, open: '00:00', close: '12:00' },
      { day: 3, open: '13:00', close: '24:00' },
      { day: 5, open: '00:00', close: '17:00' },
      { day: 6, open: '09:00', close: '10:30' },
    ]);

    await page.reload();
    await edit();
    await dialog.getByText('Times in America/New_York').waitFor();
    expect(
      await day('Wednesday')
        .getByLabel('Opens')
        .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)),
    ).toEqual(['00:00', '13:00']);
    expect(
      await day('Wednesday')
        .getByLabel('Closes')
        .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)),
    ).toEqual(['12:00', '24:00']);
    expect(await day('Thursday').getByRole('checkbox', { name: 'Closed all day' }).isChecked()).toBe(true);
    expect(await day('Thursday').getByLabel('Opens').count()).toBe(0);
    expect(await day('Saturday').getByLabel('Closes').inputValue()).toBe('10:30');
    expect(jsErrors(page)).toEqual([]);
    await context.close();

    // Arabic, right to left: the same week with the day names in Arabic, and nothing serious for axe.
    const ar = await staffTab(admin, DESKTOP, 'ar');
    await ar.page.goto('/admin/trading');
    await ar.page.getByRole('button', { name: 'تعديل EUR/USD' }).click();
    const arDialog = ar.page.getByRole('dialog', { name: 'تعديل EUR/USD' });
    const arWednesday = arDialog.getByRole('group', { name: 'الأربعاء', exact: true });
    await arWednesday.waitFor();
    expect(await arWednesday.getByLabel('يغلق').first().inputValue()).toBe('12:00');
    expect(await ar.page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await seriousAxeFindings(ar.page)).toEqual([]);
    if (SHOTS) await arDialog.screenshot({ path: '/tmp/backoffice-schedule-ar.png' });
    // Around the clock: stored as no sessions at all.
    await arDialog.getByRole('checkbox', { name: 'مفتوح على مدار الساعة كل يوم (بلا جدول أسبوعي)' }).check();
    await arDialog.getByRole('button', { name: 'حفظ' }).click();
    await arDialog.waitFor({ state: 'hidden' });
    const [always] = await e2e.server.ctx.db.select().from(symbols).where(eq(symbols.code, 'EURUSD'));
    expect(always!.schedule).toEqual([]);
    expect(jsErrors(ar.page)).toEqual([]);
    await ar.context.close();
  });

  it('names symbol categories in the staff member’s language, as the trader app does', async () => {
    const risk = await staffMember(['risk']);
    for (const lang of ['en', 'ar', 'de'] as const) {
      const names = (await (await fetch(`${e2e.baseUrl}/v1/api/forex/getCategories`, { headers: { lang } })).json()) as {
        data: { Id: number; NameShowTrans: string }[];
      };
      const forex = names.data.find((c) => c.NameShowTrans === { en: 'Forex', ar: 'الفوركس', de: 'Devisen' }[lang])!;
      expect(forex).toBeTruthy();
      const { context, page } = await staffTab(risk, DESKTOP, lang);
      await page.goto('/admin/trading');
      const categoryTable = page.getByRole('table', { name: { en: 'Categories', ar: 'الفئات', de: 'Kategorien' }[lang] });
      const forexRow = categoryTable.getByRole('row').filter({ hasText: 'forex' });
      await forexRow.getByText(forex.NameShowTrans, { exact: true }).waitFor();
      // The symbols list names each symbol's category the same way.
      const eurusd = page.getByRole('row').filter({ hasText: 'EUR/USD' }).first();
      await eurusd.getByText(forex.NameShowTrans, { exact: true }).waitFor();
      if (lang !== 'en') expect(await eurusd.getByText('forex', { exact: true }).count()).toBe(0);
      if (lang === 'ar') expect(await seriousAxeFindings(page)).toEqual([]);
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    }
  });

  it('shows and edits fee rates and swap rates with their units (USD per lot, × margin, points per lot, % a year)', async () => {
    const risk = await staffMember(['risk']);
    const text = {
      en: {
        perLot: 'USD per lot',
        margin: '× margin',
        points: 'points per lot',
        yearly: '% a year',
        swapLong: 'Swap long (per rollover)',
        swapType: 'Swap type',
        feeType: 'Trading fee type',
      },
      ar: {
        perLot: 'دولار لكل لوت',
        margin: '× الهامش',
        points: 'نقطة لكل لوت',
        yearly: '% سنويًا',
        swapLong: 'سواب الشراء (لكل تبييت)',
        swapType: 'نوع السواب',
        feeType: 'نوع رسوم التداول',
      },
    };
    // The figures are isolated left-to-right (a swap is often negative); the marks are not part of what is read.
    const plain = (s: string | null) => (s ?? '').replace(/[\u2066-\u2069]/g, '');
    const named = (...parts: string[]) => new RegExp(parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*'));
    for (const lang of ['en', 'ar'] as const) {
      const words = text[lang];
      const { context, page } = await staffTab(risk, DESKTOP, lang);
      await page.goto('/admin/trading');
      // Seeded: fees per lot (USD 5 on FX); FX swaps in points per lot, index swaps in percent a year.
      const eurusd = page.getByRole('row').filter({ hasText: 'EUR/USD' }).first();
      await expect.poll(async () => plain(await eurusd.getByTestId('symbol-fee').textContent())).toBe(`5 ${words.perLot}`);
      expect(plain(await eurusd.getByTestId('symbol-swap').textContent())).toBe(`-7.2 / 2.1 ${words.points}`);
      const us30 = page
        .getByRole('row')
        .filter({ has: page.getByText('US30', { exact: false }) })
        .first();
      expect(plain(await us30.getByTestId('symbol-swap').textContent())).toBe(`-6.2 / 1.3 ${words.yearly}`);
      // The column says the unit too.
      expect(await page.getByRole('columnheader').filter({ hasText: words.perLot }).count()).toBe(1);

      // The editor: the swap fields name their unit, and it follows the swap type chosen.
      await eurusd.getByRole('button', { name: /EUR\/USD/ }).click();
      const dialog = page.getByRole('dialog');
      const swapLong = dialog.getByLabel(words.swapLong);
      expect(Number(await swapLong.inputValue())).toBe(-7.2);
      expect(await swapLong.evaluate((el) => el.closest('label')!.textContent)).toContain(words.points);
      await dialog.getByLabel(words.swapType).selectOption('2');
      await expect.poll(() => swapLong.evaluate((el) => el.closest('label')!.textContent)).toContain(words.yearly);
      expect(await dialog.getByRole('textbox', { name: named(words.swapLong, words.yearly) }).count()).toBe(1);
      if (SHOTS) await dialog.screenshot({ path: `/tmp/backoffice-swap-units-${lang}.png` });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // The fees screen: each rate field names its unit, which follows the fee type.
      await page.goto('/admin/fees');
      const rate = page.getByLabel(`EURUSD (${words.perLot})`);
      await expect.poll(async () => Number(await rate.inputValue())).toBe(5);
      const row = page.getByRole('row').filter({ hasText: 'EURUSD' });
      expect(await row.getByTestId('fee-unit').textContent()).toBe(words.perLot);
      await page.getByLabel(words.feeType).selectOption('2');
      await expect.poll(() => row.getByTestId('fee-unit').textContent()).toBe(words.margin);
      expect(await page.getByLabel(`EURUSD (${words.margin})`).count()).toBe(1);
      expect(await seriousAxeFindings(page)).toEqual([]);
      if (SHOTS) await page.screenshot({ path: `/tmp/backoffice-fee-units-${lang}.png` });
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    }
    // Nothing was saved: the seeded terms stand.
    const [eur] = await e2e.server.ctx.db.select().from(symbols).where(eq(symbols.code, 'EURUSD'));
    expect(eur!.swapType).toBe(1);
  });

  it('lets content staff set the ranking’s minimum of closed trades (5 by default)', async () => {
    const content = await staffMember(['content']);
    const { context, page } = await staffTab(content, DESKTOP, 'en');
    await page.goto('/admin/content');
    const field = page.getByLabel('Ranking: minimum closed trades (three weeks)');
    expect(await field.inputValue()).toBe('5');
    await field.fill('2');
    await page.getByRole('form', { name: 'Base settings' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').first().waitFor();
    expect((await call(e2e.server, 'GET', '/api/admin/settings', {}, { token: content.token })).data.ranking_min_trades).toBe('2');
    await context.close();
  });
});
