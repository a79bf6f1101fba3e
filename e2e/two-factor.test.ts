import { STAFF_TOTP_ROLES_DEFAULT } from '@tp/contract/schemas/admin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByEmail } from '../apps/server/test/auth-helpers.ts';
import { hashPassword } from '../apps/server/src/modules/auth/password.ts';
import { staff } from '../apps/server/src/platform/db/schema.ts';
import { totpCode } from '../apps/server/src/platform/totp.ts';
import { seeText } from './account-helpers.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

/** Issue 17: staff whose roles move money set up TOTP at their first sign-in; traders may turn two-factor on. */
describe('two-factor sign-in', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ STAFF_TOTP_ROLES: STAFF_TOTP_ROLES_DEFAULT });
  });
  afterAll(async () => e2e?.close());

  const cases = [
    ['en', DESKTOP, 'desktop-en'],
    ['ar', PHONE, 'phone-ar'],
    ['en', PHONE, 'phone-en'],
    ['ar', DESKTOP, 'desktop-ar'],
  ] as const;

  it.each(cases)('a finance member sets up TOTP at the first sign-in and keeps the recovery codes (%s, %s)', async (lang, device, name) => {
    const email = `fin.${name}.${Date.now()}@test.local`;
    await e2e.server.ctx.db.insert(staff).values({ email, name: 'Finance', passwordHash: await hashPassword('finance-pass-1'), roles: ['finance'] });
    const { context, page } = await newPage(e2e, device, { lang });
    await page.goto('/admin');
    await page.locator('input[type=email]').fill(email);
    await page.locator('input[type=password]').fill('finance-pass-1');
    await page.locator('form button[type=submit]').click();
    await page.getByTestId('totp-secret').waitFor();
    await page.locator('form img').waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent())!;
    await page.screenshot({ path: `/tmp/i17-staff-setup-${name}.png`, fullPage: true });
    await page.locator('input[autocomplete=one-time-code]').fill(totpCode(secret));
    await page.locator('form button[type=submit]').click();
    const codes = page.getByTestId('recovery-codes').locator('li');
    await expect.poll(() => codes.count()).toBe(10);
    await page.screenshot({ path: `/tmp/i17-staff-recovery-${name}.png`, fullPage: true });
    await page.getByTestId('recovery-codes').getByRole('button').click();
    await page.locator('nav a[href="/admin/dashboard"]').waitFor();
    if (lang === 'en') await seeText(page, 'Dashboard');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it.each(cases)('a trader turns two-factor on in the user center and signs in with a code (%s, %s)', async (lang, device, name) => {
    const { email, password } = await registerByEmail(e2e.server);
    const { context, page } = await newPage(e2e, device, { lang });
    await page.goto('/login');
    await page.locator('input[autocomplete=username]').fill(email);
    await page.locator('input[type=password]').fill(password);
    await page.locator('form button[type=submit]').click();
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto('/mine/two-factor');
    await page.getByTestId('totp-status').waitFor();
    await page.getByTestId('totp-start').click();
    await page.getByTestId('totp-secret').waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent())!;
    await page.screenshot({ path: `/tmp/i17-trader-setup-${name}.png`, fullPage: true });
    await page.locator('input[autocomplete=one-time-code]').fill(totpCode(secret));
    await page.locator('form button[type=submit]').click();
    await page.getByTestId('totp-secret').waitFor({ state: 'detached' });
    if (lang === 'en') await expect.poll(() => page.getByTestId('totp-status').textContent()).toBe('Two-factor sign-in is on');
    await page.screenshot({ path: `/tmp/i17-trader-on-${name}.png`, fullPage: true });

    await page.evaluate(() => localStorage.removeItem('session'));
    await page.goto('/login');
    await page.locator('input[autocomplete=username]').fill(email);
    await page.locator('input[type=password]').fill(password);
    await page.locator('form button[type=submit]').click();
    const code = page.locator('input[autocomplete=one-time-code]');
    await code.waitFor();
    await code.fill(totpCode(secret, Date.now() + 30_000));
    await page.screenshot({ path: `/tmp/i17-trader-login-${name}.png`, fullPage: true });
    await page.locator('form button[type=submit]').click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
