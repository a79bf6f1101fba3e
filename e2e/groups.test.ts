import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { newUser } from '../apps/server/src/modules/funding/test-helpers.ts';
import { jsErrors, startE2E, type E2E } from './harness.ts';
import { pageFitsWidth, seriousAxeFindings } from './axe.ts';
import { staffMember as newStaffMember, staffTab as newStaffTab } from './staff-helpers.ts';

/** E2E_SCREENSHOTS=1 keeps screenshots in /tmp for a look by eye. */
const SHOTS = process.env.E2E_SCREENSHOTS === '1';

/** The groups table needs no sideways scroll at a desktop's width. */
const tableFits = (page: Page, name: string) => page.getByRole('region', { name }).evaluate((el) => el.scrollWidth <= el.clientWidth);
/**
 * Account groups in the back office (FOUR_EYES=on): a risk member creates a group with per-symbol terms
 * and leverage tiers (sent for approval, with a link to the Changes screen; a refused save keeps what was
 * typed), edits it once approved, and moves a user into it from the user's page; in English and Arabic.
 */
describe('back office: account groups', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ FOUR_EYES: 'on', MARKET_ALWAYS_OPEN: '1' });
  });
  afterAll(async () => e2e?.close());

  const staffMember = (roles: string[]) => newStaffMember(e2e, roles, 'Groups');
  const staffTab = (member: { session: string }, lang: string) => newStaffTab(e2e, member, lang);
  const groups = async (token: string) => (await call(e2e.server, 'GET', '/api/admin/groups/list', {}, { token })).data as any[];
  const profile = async (token: string, userId: number) =>
    (await call(e2e.server, 'GET', '/api/admin/users/profile', { user_id: userId }, { token })).data as { group_id: number };

  it('creates a group with per-symbol terms and tiers (sent for approval), edits it, and moves a user into it (en)', async () => {
    const proposer = await staffMember(['risk']);
    const approver = await staffMember(['risk']);
    const { context, page } = await staffTab(proposer, 'en');
    await page.goto('/admin/groups');
    await page.getByRole('navigation', { name: 'Back office menu' }).getByRole('link', { name: 'Account groups' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Account groups' }).waitFor();
    const table = page.getByRole('table', { name: 'Account groups' });
    await table.getByText('Professional', { exact: true }).first().waitFor();
    await table.getByText('Default group').first().waitFor();
    expect(await tableFits(page, 'Account groups')).toBe(true);

    await page.getByRole('button', { name: 'New group' }).click();
    const form = page.getByRole('form', { name: 'New group' });
    await form.getByLabel('Name').fill('Scalpers');
    await form.getByLabel('Regulatory profile').selectOption('professional');
    await form.getByLabel('Stop-out level').fill('40');
    await form.getByLabel('Stop-out policy').selectOption('partial');
    await form.getByLabel('Symbol to add').selectOption({ label: 'EURUSD' });
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    const eur = form.getByRole('group', { name: 'Terms for EURUSD' });
    await eur.getByLabel('Spread markup · EURUSD').fill('3');
    await eur.getByLabel('Leverages (comma-separated) · EURUSD').fill('100, 50');
    await eur.getByLabel('Commission · EURUSD').selectOption('per_lot');
    await eur.getByText('USD per lot, per side').waitFor();
    await eur.getByLabel('Commission rate · EURUSD').fill('7');
    await eur.getByRole('button', { name: 'Add a leverage tier for EURUSD' }).click();
    await eur.getByLabel('Tier 1 of EURUSD: up to lots').fill('5');
    await eur.getByLabel('Tier 1 of EURUSD: leverage').fill('100');
    await eur.getByRole('button', { name: 'Add a leverage tier for EURUSD' }).click();
    await eur.getByLabel('Tier 2 of EURUSD: leverage').fill('50');
    // A refused save (a margin-call level that is not a number) says why and keeps everything typed.
    await form.getByLabel('Margin-call level').fill('lots');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('alert').getByText('Please enter a valid number').waitFor();
    expect(await eur.getByLabel('Tier 1 of EURUSD: up to lots').inputValue()).toBe('5');
    expect(await form.getByLabel('Name').inputValue()).toBe('Scalpers');
    expect(await seriousAxeFindings(page)).toEqual([]);
    expect(await pageFitsWidth(page)).toBe(true);
    if (SHOTS) await page.screenshot({ path: '/tmp/groups-editor-en.png', fullPage: true });

    await form.getByLabel('Margin-call level').fill('90');
    await form.getByRole('button', { name: 'Save' }).click();
    const sent = page.getByRole('status').filter({ hasText: /^Sent for approval as change #\d+/ });
    await sent.waitFor();
    const id = Number(/#(\d+)/.exec((await sent.textContent()) ?? '')![1]);
    expect((await groups(proposer.token)).some((g) => g.name === 'Scalpers')).toBe(false);
    expect(await seriousAxeFindings(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: '/tmp/groups-sent-en.png', fullPage: true });
    await sent.getByRole('link', { name: 'Open the Changes screen' }).click();
    await page.getByRole('heading', { level: 1, name: 'Changes' }).waitFor();
    await page.getByText(`#${id}`, { exact: false }).first().waitFor();
    const changes = page.getByRole('table', { name: 'Changes' });
    await changes.getByText('Account group · Scalpers').waitFor();
    // A new group's diff: every field added (nothing removed), the tiers among them.
    await changes.getByText('symbols[0].leverage_tiers[0].up_to_lots', { exact: true }).waitFor();
    expect(await changes.getByText('removed', { exact: true }).count()).toBe(0);
    if (SHOTS) await page.screenshot({ path: '/tmp/groups-changes-en.png', fullPage: true });

    // A second risk member approves; the group is listed with its terms.
    expect((await call(e2e.server, 'POST', '/api/admin/changes/approve', { id }, { token: approver.token })).code).toBe(1);
    const made = (await groups(proposer.token)).find((g) => g.name === 'Scalpers');
    expect(made).toMatchObject({
      kind: 'real',
      profile: 'professional',
      stop_out_level: '40',
      margin_call_level: '90',
      stop_out_policy: 'partial',
    });
    expect(made.symbols[0]).toMatchObject({
      code: 'EURUSD',
      spread_markup_points: 3,
      leverages: [50, 100],
      commission_type: 'per_lot',
      leverage_tiers: [
        { up_to_lots: expect.stringMatching(/^5(\.0+)?$/), leverage: 100 },
        { up_to_lots: null, leverage: 50 },
      ],
    });
    await page.goto('/admin/groups');
    await table.getByText('Scalpers').waitFor();
    await table.getByText('Partially, one position at a time').waitFor();

    // Editing shows the stored terms; the edit is sent for approval too.
    await page.getByRole('button', { name: 'Edit Scalpers' }).click();
    const edit = page.getByRole('form', { name: 'Edit Scalpers' });
    expect(await edit.getByLabel('Spread markup · EURUSD').inputValue()).toBe('3');
    expect(await edit.getByLabel('Tier 2 of EURUSD: leverage').inputValue()).toBe('50');
    await edit.getByLabel('Max lot · EURUSD').fill('20');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Sent for approval as change #\d+/ })
      .waitFor();

    // Moving a real user from the default group into the new one, from the user's page.
    const user = await newUser(e2e.server);
    const standard = (await groups(proposer.token)).find((g) => g.name === 'Standard');
    expect((await profile(proposer.token, user.id)).group_id).toBe(standard.id);
    await page.goto(`/admin/users/${user.id}`);
    await page.getByText('Account group', { exact: true }).waitFor();
    await page.getByText('Standard', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Move to group' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move to another group' });
    await dialog.getByText('Open positions keep the terms they were opened on.', { exact: false }).waitFor();
    await dialog.getByLabel('New group').selectOption({ label: 'Scalpers' });
    expect(await seriousAxeFindings(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: '/tmp/groups-move-en.png', fullPage: true });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('User moved to the group').first().waitFor();
    await page.getByText('Scalpers', { exact: true }).waitFor();
    expect((await profile(proposer.token, user.id)).group_id).toBe(made.id);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('shows the groups right-to-left in Arabic, sends an edit for approval and moves a user', async () => {
    const member = await staffMember(['risk']);
    const { context, page } = await staffTab(member, 'ar');
    await page.goto('/admin/groups');
    await page.getByRole('heading', { level: 1, name: 'مجموعات الحسابات' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    const table = page.getByRole('table', { name: 'مجموعات الحسابات' });
    await table.getByText('المجموعة الافتراضية').first().waitFor();
    expect(await tableFits(page, 'مجموعات الحسابات')).toBe(true);
    expect(await seriousAxeFindings(page)).toEqual([]);
    expect(await pageFitsWidth(page)).toBe(true);

    await page.getByRole('button', { name: 'تعديل Professional' }).click();
    const form = page.getByRole('form', { name: 'تعديل Professional' });
    await form.getByLabel('الرمز المراد إضافته').selectOption({ label: 'XAUUSD' });
    await form.getByRole('button', { name: 'إضافة', exact: true }).click();
    const gold = form.getByRole('group', { name: 'شروط XAUUSD' });
    await gold.getByLabel('العمولة · XAUUSD', { exact: true }).selectOption('percent_of_margin');
    await gold.getByText('% من الهامش، لكل جانب').waitFor();
    await gold.getByLabel('سعر العمولة · XAUUSD').fill('0.1');
    await gold.getByLabel('أقصى لوت · XAUUSD').fill('كثير');
    await form.getByRole('button', { name: 'حفظ' }).click();
    await form.getByRole('alert').getByText('يُرجى إدخال رقم صالح').waitFor();
    expect(await gold.getByLabel('سعر العمولة · XAUUSD').inputValue()).toBe('0.1');
    expect(await seriousAxeFindings(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: '/tmp/groups-editor-ar.png', fullPage: true });
    await gold.getByLabel('أقصى لوت · XAUUSD').fill('10');
    await form.getByRole('button', { name: 'حفظ' }).click();
    const sent = page.getByRole('status').filter({ hasText: 'أُرسل للموافقة بصفته التغيير' });
    await sent.waitFor();
    await sent.getByRole('link', { name: 'افتح شاشة التغييرات' }).waitFor();
    expect(await seriousAxeFindings(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: '/tmp/groups-list-ar.png', fullPage: true });

    const user = await newUser(e2e.server);
    await page.goto(`/admin/users/${user.id}`);
    await page.getByText('مجموعة الحساب', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'نقل إلى مجموعة' }).click();
    const dialog = page.getByRole('dialog', { name: 'النقل إلى مجموعة أخرى' });
    await dialog.getByLabel('المجموعة الجديدة').selectOption({ label: 'Professional' });
    expect(await seriousAxeFindings(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: '/tmp/groups-move-ar.png', fullPage: true });
    await dialog.getByRole('button', { name: 'تأكيد' }).click();
    await page.getByText('نُقل المستخدم إلى المجموعة').first().waitFor();
    const professional = (await groups(member.token)).find((g) => g.name === 'Professional');
    expect((await profile(member.token, user.id)).group_id).toBe(professional.id);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
