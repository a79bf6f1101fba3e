import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import { call } from '../apps/server/test/test-app.ts';
import { symbols } from '../apps/server/src/platform/db/schema.ts';
import { jsErrors, startE2E, type E2E } from './harness.ts';
import { seriousAxeFindings } from './axe.ts';
import { staffMember as newStaffMember, staffTab as newStaffTab } from './staff-helpers.ts';

/** E2E_SCREENSHOTS=1 keeps screenshots in /tmp for a look by eye. */
const SHOTS = process.env.E2E_SCREENSHOTS === '1';

/**
 * Four-eyes changes in the back office (FOUR_EYES=on): a risk member's symbol save is sent for approval,
 * a second risk member sees it on the Changes screen with its diff and preview, and approves or rejects it.
 */
describe('back office: four-eyes changes', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ FOUR_EYES: 'on', MARKET_ALWAYS_OPEN: '1' });
  });
  afterAll(async () => e2e?.close());

  const staffMember = (roles: string[]) => newStaffMember(e2e, roles, 'FE');
  const staffTab = (member: { session: string }, lang: string) => newStaffTab(e2e, member, lang);
  const stored = async (code: string) => (await e2e.server.ctx.db.select().from(symbols).where(eq(symbols.code, code)))[0]!;

  it('sends a symbol save for approval; a second risk member approves it on the Changes screen (en)', async () => {
    const proposer = await staffMember(['risk']);
    const approver = await staffMember(['risk']);
    const spreadBefore = dec((await stored('EURUSD')).spread).toString();

    const mine = await staffTab(proposer, 'en');
    await mine.page.goto('/admin/trading');
    await mine.page.getByRole('button', { name: 'Edit EUR/USD' }).click();
    const form = mine.page.getByRole('dialog', { name: 'Edit EUR/USD' });
    await form.getByLabel('Spread').fill('0.0003');
    await form.getByRole('button', { name: 'Save' }).click();
    await mine.page.getByText('Sent for approval').first().waitFor();
    expect(dec((await stored('EURUSD')).spread).toString()).toBe(spreadBefore);

    // The proposer sees the change in the menu's Changes screen, without an Approve button.
    await mine.page.getByRole('navigation', { name: 'Back office menu' }).getByRole('link', { name: 'Changes' }).click();
    await mine.page.getByRole('heading', { level: 1, name: 'Changes' }).waitFor();
    await mine.page.getByText('Your proposal: another member must approve it').waitFor();
    expect(await mine.page.getByRole('button', { name: /^Approve change/ }).count()).toBe(0);
    await mine.context.close();

    const { context, page } = await staffTab(approver, 'en');
    await page.goto('/admin/changes');
    const table = page.getByRole('table', { name: 'Changes' });
    await table.getByText('Symbol terms · EURUSD').waitFor();
    // The diff names the spread, old and new; the preview prices a 1-lot trade now and after.
    const diff = table.getByRole('list', { name: 'Changes' }).first();
    await diff.getByText('spread', { exact: true }).waitFor();
    expect(await diff.locator('li').count()).toBe(1);
    await table.getByText(/^1 lot of EURUSD at \d/).waitFor();
    await table.getByRole('rowheader', { name: 'Margin (USD)' }).waitFor();
    expect(await seriousAxeFindings(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: '/tmp/changes-desktop-en.png', fullPage: true });

    await table.getByRole('button', { name: /^Approve change \d+$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve this change?' });
    await dialog.getByText('It takes effect at once: new orders use the new terms.').waitFor();
    expect(await seriousAxeFindings(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Change approved').first().waitFor();
    await table.getByText('Approved', { exact: true }).waitFor();
    expect(dec((await stored('EURUSD')).spread).toString()).toBe('0.0003');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('rejects a change with a reason on the Changes screen in Arabic; nothing changes', async () => {
    const proposer = await staffMember(['risk']);
    const approver = await staffMember(['risk']);
    const eur = e2e.server.ctx.services.market.symbolByCode('EURUSD')!.id;
    const proposed = await call(e2e.server, 'POST', '/api/admin/symbols/save', { id: eur, max_lots: '7' }, { token: proposer.token });
    expect(proposed.data.pending_change_id).toBeGreaterThan(0);
    const id = proposed.data.pending_change_id as number;

    const { context, page } = await staffTab(approver, 'ar');
    await page.goto('/admin/changes');
    await page.getByRole('heading', { level: 1, name: 'التغييرات' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    const table = page.getByRole('table', { name: 'التغييرات' });
    await table.getByText('max_lots', { exact: true }).waitFor();
    expect(await seriousAxeFindings(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: '/tmp/changes-desktop-ar.png', fullPage: true });

    await table.getByRole('button', { name: `رفض التغيير ${id}` }).click();
    const dialog = page.getByRole('dialog', { name: 'رفض هذا التغيير؟' });
    await dialog.getByLabel('السبب (اختياري)').fill('الحد منخفض جدًا');
    expect(await seriousAxeFindings(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'تأكيد' }).click();
    await page.getByText('تم رفض التغيير').first().waitFor();
    await table.getByText('الحد منخفض جدًا').waitFor();
    expect(dec((await stored('EURUSD')).maxLots).toString()).toBe('50');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
