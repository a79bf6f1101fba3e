import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deposits } from '../apps/server/src/platform/db/schema.ts';
import { pngFile, seeText, signedInPage } from './account-helpers.ts';
import { DESKTOP, jsErrors, startE2E, type E2E } from './harness.ts';

const shots = process.env.E2E_SHOTS === '1';
const TRC20_ADDRESS = 'TXYZabcdefghijkmnopqrstuvwxyz12345';

/** Issue 8: deposit, withdrawal and receiving accounts, in real Chromium against the real server. */
describe('funding screens', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => e2e?.close());

  it('binds a coin address and deletes it after confirming', async () => {
    const { context, page } = await signedInPage(e2e);
    await page.goto('/mine/coin-address-list');
    await seeText(page, 'No data');
    await page.getByRole('link', { name: 'Add withdrawal address' }).click();
    await page.waitForURL(/\/mine\/withdraw-way\?type=1/);
    await page.getByRole('radio', { name: 'USDT (TRC20)' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await seeText(page, 'Please complete all fields');
    await page.getByLabel('Wallet address').fill(TRC20_ADDRESS);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/mine\/coin-address-list/);
    await seeText(page, TRC20_ADDRESS);
    await page.getByRole('button', { name: `Delete ${TRC20_ADDRESS}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete' });
    await dialog.getByText('Delete this item?').waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await seeText(page, 'No data');
    expect(await page.getByText(TRC20_ADDRESS).count()).toBe(0);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('submits a coin deposit with one proof image and lists it as pending, then rejected with its remark', async () => {
    const { context, page, user } = await signedInPage(e2e);
    await page.goto('/mine/charge');
    await page.getByRole('radio', { name: 'USDT' }).waitFor();
    await page.getByRole('radio', { name: 'TRC20' }).click();
    await seeText(page, 'TNwM7kq3XbR9vDp2HcJf5sLtYe8GaZu4Wx');
    await page.getByRole('img', { name: 'QR code of the deposit address' }).waitFor();
    await page.getByRole('button', { name: 'Copy address' }).click();
    await seeText(page, 'Copied');
    await page.getByLabel('Amount transferred').fill('250');
    await page.getByRole('button', { name: 'Submit deposit' }).click();
    await seeText(page, 'Please complete all fields');
    await page.getByLabel('Transfer proof').setInputFiles(await pngFile('proof.png', { r: 20, g: 160, b: 90 }));
    await page.getByRole('img', { name: 'Transfer proof' }).waitFor();
    if (shots) await page.screenshot({ path: '/tmp/w2-deposit-phone-en.png', fullPage: true });
    await page.getByRole('button', { name: 'Submit deposit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm deposit' });
    await dialog.getByText('Submit a deposit of 250.00 USDT for review?').waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const records = page.getByTestId('deposit-records');
    await records.getByText('250.00 USDT').waitFor();
    await records.getByText('Pending review').waitFor();

    // A rejected deposit shows its status and the remark.
    await e2e.server.ctx.db.update(deposits).set({ status: 2, remark: 'Proof does not match the amount' }).where(eq(deposits.userId, user.id));
    await page.reload();
    await page.getByTestId('deposit-records').getByText('Rejected').waitFor();
    await seeText(page, 'Remark: Proof does not match the amount');

    // The bank tab preselects the first channel (no "No payment channel") and shows the chosen channel's details.
    await page.getByRole('tab', { name: 'Bank transfer' }).click();
    await expect.poll(() => page.getByRole('radio', { name: /Harbourline/ }).getAttribute('aria-checked')).toBe('true');
    await seeText(page, 'HCBLHKHX');
    await page.getByLabel('Amount transferred').fill('100');
    await page.getByRole('button', { name: 'Submit deposit' }).click();
    expect(await page.getByText('No payment channel available').count()).toBe(0);
    await page.getByRole('radio', { name: /Alpenrand/ }).click();
    await seeText(page, 'APRBCHZZ');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('asks to bind first, then requests a withdrawal showing its fee and received amount', async () => {
    const { context, page } = await signedInPage(e2e, { device: DESKTOP, verified: true, balance: '1000' });
    await page.goto('/mine/withdraw');
    await expect.poll(() => page.getByTestId('available-balance').textContent()).toBe('1,000.00 USD');
    await page.getByRole('radio', { name: 'USDT (TRC20)' }).click();
    await page.getByLabel('Withdrawal amount').fill('100');
    // USDT TRC20: a fixed fee of 1 USD; received = (100 - 1) x 1.
    await expect.poll(() => page.getByTestId('withdraw-fee').textContent()).toBe('1.00 USD');
    await expect.poll(() => page.getByTestId('withdraw-received').textContent()).toBe('99.00 USDT');
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    const bindDialog = page.getByRole('dialog', { name: 'Withdraw' });
    await bindDialog.getByText('Please bind a receiving account first').waitFor();
    await bindDialog.getByRole('button', { name: 'Bind now' }).click();
    await page.waitForURL(/\/mine\/withdraw-way\?type=1/);
    await page.getByLabel('Wallet address').fill(TRC20_ADDRESS);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/mine\/coin-address-list/);

    await page.goto('/mine/withdraw');
    await page.getByRole('radio', { name: 'BTC (Bitcoin)' }).click();
    await page.getByRole('radio', { name: 'USDT (TRC20)' }).click();
    await page.getByLabel('Withdrawal address').waitFor();
    await page.getByLabel('Withdrawal amount').fill('200');
    await expect.poll(() => page.getByTestId('withdraw-received').textContent()).toBe('199.00 USDT');
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm withdrawal' });
    await confirm.getByText(TRC20_ADDRESS).waitFor();
    if (shots) await page.screenshot({ path: '/tmp/w2-withdraw-desktop-en.png' });
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    const records = page.getByTestId('withdraw-records');
    await records.getByText('200.00 USD').waitFor();
    await records.getByText('Fee: 1.00 USD · You receive: 199.00 USDT').waitFor();
    await expect.poll(() => page.getByTestId('available-balance').textContent()).toBe('800.00 USD');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
