import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityVerifications, settings } from '../apps/server/src/platform/db/schema.ts';
import { codeFromOutbox, pngFile, seeText, signedInPage } from './account-helpers.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

const shots = process.env.E2E_SHOTS === '1';

/** Issue 8: sign-in, the user centre, identity, demo blocks and language switching. */
describe('sign-in and account', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => e2e?.close());

  it('registers with a code read from the outbox, logs out, and logs in again to the wanted page', async () => {
    const { context, page } = await newPage(e2e, PHONE, { lang: 'en' });
    const email = `reg${Date.now()}@example.com`;
    await page.goto('/register#/register?invite_code=FRIEND42');
    await page.getByRole('button', { name: 'Sign up' }).waitFor();
    // The invite code is read from the query, also after the hash.
    await expect.poll(() => page.getByLabel('Invitation code (optional)').inputValue()).toBe('FRIEND42');
    await page.getByLabel('Invitation code (optional)').fill('');
    // Phone accounts pick their area code from area_list.
    await page.getByRole('tab', { name: 'Phone' }).click();
    await expect.poll(() => page.getByLabel('Country or region code').locator('option').count()).toBeGreaterThan(1);
    await page.getByLabel('Phone number').waitFor();
    await page.getByRole('tab', { name: 'Email' }).click();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('button', { name: /Resend in \d+ s/ }).waitFor();
    const code = await codeFromOutbox(e2e, email);
    await page.getByLabel('Verification code').fill(code);
    await page.getByLabel('Password', { exact: true }).fill('Str0ng-pass-42');
    await page.getByLabel('Confirm password').fill('Str0ng-pass-41');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await seeText(page, 'The passwords do not match');
    await page.getByLabel('Confirm password').fill('Str0ng-pass-42');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const stored = await page.evaluate(
      () => JSON.parse(localStorage.getItem('session') ?? '{}') as { state?: { token?: string; user?: { email?: string } } },
    );
    expect(stored.state?.token).toBeTruthy();
    expect(stored.state?.user?.email).toBe(email);

    // Log out from the settings page, then the login guard keeps the wanted path.
    await page.goto('/mine/system');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/order?type=0');
    await page.waitForURL(/\/login\?redirect=/);
    await page.getByRole('button', { name: 'Log in' }).click();
    await seeText(page, 'Please enter your email or phone number');
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Log in' }).click();
    await seeText(page, 'Please enter your password');
    await page.getByLabel('Password').fill('Str0ng-pass-42');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/order' && url.search === '?type=0');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('resets a forgotten password with an emailed code', async () => {
    const { context, page, user } = await signedInPage(e2e);
    await page.goto('/mine/system');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/forgot/);
    // The login page stays on screen until the forgot page's chunk is in (a router transition), and
    // it has an email field too: wait for the forgot page itself before typing.
    await page.getByRole('button', { name: 'Send code' }).waitFor();
    await page.getByLabel('Email address').fill(user.email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('button', { name: /Resend in/ }).waitFor();
    await page.getByLabel('Verification code').fill(await codeFromOutbox(e2e, user.email));
    await page.getByLabel('New password').fill('N3w-password-77');
    await page.getByLabel('Confirm password').fill('N3w-password-77');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL(/\/login$/);
    await page.getByLabel('Email address').fill(user.email);
    await page.getByLabel('Password').fill('N3w-password-77');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('logs into a demo account, blocks real-account pages and resets the demo', async () => {
    const { context, page } = await newPage(e2e, PHONE, { lang: 'en' });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Try a demo account' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/user');
    await page.getByText('Demo account').first().waitFor();
    await expect.poll(() => page.getByTestId('user-balance').textContent()).toMatch(/^[\d,]+\.\d{2}$/);
    await page.getByRole('button', { name: 'Reset demo account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset demo account' });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'detached' });
    if (shots) await page.screenshot({ path: '/tmp/w2-user-demo-en.png' });
    for (const path of ['/mine/charge', '/mine/withdraw', '/mine/auth', '/mine/invite', '/mine/password', '/mine/wallet']) {
      await page.goto(path);
      await seeText(page, 'This feature is for real accounts only. Please register or log in to a real account.');
      await page.getByRole('alert').getByRole('link', { name: 'Sign up' }).waitFor();
    }
    await page.getByRole('alert').getByRole('link', { name: 'Log in' }).click();
    await page.waitForURL(/\/login/);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('submits identity with one front and one back image, then shows it under review', async () => {
    const { context, page, user } = await signedInPage(e2e, { device: DESKTOP });
    await page.goto('/mine/auth');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await seeText(page, 'Please enter your full name');
    await page.getByLabel('Full name').fill('Chan Tai Man');
    await page.getByLabel('ID number').fill('A1234567');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await seeText(page, 'Please upload one front and one back image');
    await page.getByLabel('Front of ID document').setInputFiles(await pngFile('front.png', { r: 200, g: 40, b: 40 }));
    await page.getByRole('img', { name: 'Front of ID document' }).waitFor();
    await page.getByLabel('Back of ID document').setInputFiles(await pngFile('back.png', { r: 40, g: 40, b: 200 }));
    await page.getByRole('img', { name: 'Back of ID document' }).waitFor();
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.getByRole('heading', { name: 'Under review' }).waitFor();
    await seeText(page, 'Chan Tai Man');
    if (shots) await page.screenshot({ path: '/tmp/w2-identity-desktop-en.png' });

    // Staff reject it: the reason shows above the form again; then approve: verified.
    await e2e.server.ctx.db
      .update(identityVerifications)
      .set({ reviewStatus: 3, rejectReason: 'The photo is blurred' })
      .where(eq(identityVerifications.userId, user.id));
    await page.reload();
    await seeText(page, 'Reason: The photo is blurred');
    await page.getByRole('button', { name: 'Submit for review' }).waitFor();
    await e2e.server.ctx.db
      .update(identityVerifications)
      .set({ reviewStatus: 2, rejectReason: null })
      .where(eq(identityVerifications.userId, user.id));
    await page.reload();
    await page.getByRole('heading', { name: 'Verified' }).waitFor();
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('changes the password with a code, asking to complete and to match first', async () => {
    const { context, page, user } = await signedInPage(e2e);
    await page.goto('/mine/password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await seeText(page, 'Please complete all fields');
    await page.getByLabel('New password', { exact: true }).fill('An0ther-pass-55');
    await page.getByLabel('Confirm new password').fill('An0ther-pass-56');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('button', { name: /Resend in/ }).waitFor();
    await page.getByLabel('Verification code').fill(await codeFromOutbox(e2e, user.email));
    await page.getByRole('button', { name: 'Change password' }).click();
    await seeText(page, 'The passwords do not match');
    await page.getByLabel('Confirm new password').fill('An0ther-pass-55');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL((url) => url.pathname === '/user');
    await context.close();
  });

  it('opens customer service as a copy dialog when service_link_type is 2', async () => {
    await e2e.server.ctx.db.update(settings).set({ value: '2' }).where(eq(settings.key, 'service_link_type'));
    try {
      const { context, page } = await signedInPage(e2e);
      await page.goto('/user');
      await page.getByRole('button', { name: 'Customer service' }).click();
      const dialog = page.getByRole('dialog', { name: 'Customer service' });
      await dialog.getByText('support@tradeplatform.example').waitFor();
      await dialog.getByRole('button', { name: 'Copy' }).click();
      await seeText(page, 'Copied');
      await context.close();
    } finally {
      await e2e.server.ctx.db.update(settings).set({ value: '1' }).where(eq(settings.key, 'service_link_type'));
    }
  });

  it('never follows a stored javascript: service link; it opens the in-app chat instead (issue 17, finding 4)', async () => {
    const set = (key: string, value: string) => e2e.server.ctx.db.update(settings).set({ value }).where(eq(settings.key, key));
    await set('service_link', 'javascript:window.__pwned=1');
    await set('service_link_type', '3');
    try {
      const { context, page } = await signedInPage(e2e);
      await page.goto('/user');
      await page.getByRole('button', { name: 'Customer service' }).click();
      await page.waitForURL((url) => url.pathname === '/mine/chat');
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      await context.close();
    } finally {
      await set('service_link', 'support@tradeplatform.example');
      await set('service_link_type', '1');
    }
  });

  it('switches the user centre to Traditional Chinese and Arabic', async () => {
    const { context, page } = await signedInPage(e2e, { balance: '1234.5' });
    await page.goto('/user');
    await page.getByRole('link', { name: 'Account details' }).waitFor();
    await expect.poll(() => page.getByTestId('user-balance').textContent()).toBe('1,234.50');
    await page.getByRole('link', { name: 'Language' }).click();
    await page.getByText('繁體中文').click();
    await page.waitForFunction(() => document.documentElement.lang === 'zh-Hant-HK');
    await page.goto('/user');
    await page.getByRole('link', { name: '帳戶明細' }).waitFor();
    await seeText(page, '真實帳戶');
    if (shots) await page.screenshot({ path: '/tmp/w2-user-phone-hk.png' });
    await page.goto('/language');
    await page.getByText('العربية').click();
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await page.goto('/user');
    await seeText(page, 'حساب حقيقي');
    if (shots) await page.screenshot({ path: '/tmp/w2-user-phone-ar.png' });
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
