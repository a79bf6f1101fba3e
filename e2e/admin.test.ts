import { dec } from '@tp/contract/decimal';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { totpCode } from '../apps/server/src/platform/totp.ts';
import { depositNetworks, withdrawCurrencies } from '../apps/server/src/platform/db/schema.ts';
import { pngFile, seeText, signedInPage } from './account-helpers.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

const TRC20_ADDRESS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };

/** Issue 9: the back office in real Chromium against the real server. */
describe('back office', () => {
  let e2e: E2E;
  let admin: Page;
  let secret = '';
  let recoveryCodes: string[] = [];
  beforeAll(async () => {
    e2e = await startE2E({ MARKET_ALWAYS_OPEN: '1' });
    admin = (await newPage(e2e, DESKTOP, { lang: 'en' })).page;
  });
  afterAll(async () => e2e?.close());

  const signIn = async (page: Page, totp?: () => string) => {
    await page.goto('/admin');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    if (totp) {
      await page.getByLabel('Authentication code').fill(totp());
      await page.getByRole('button', { name: 'Sign in' }).click();
    }
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  };
  const open = async (name: string) => {
    await admin.getByRole('navigation', { name: 'Back office menu' }).getByRole('link', { name }).click();
    await admin.getByRole('heading', { name, level: 1 }).waitFor();
  };
  /** Uploads a real image as the trader, like the app's image picker does. */
  const upload = async (token: string, color: { r: number; g: number; b: number }) => {
    const file = await pngFile('id.png', color);
    const form = new FormData();
    form.append('file', new Blob([file.buffer], { type: file.mimeType }), file.name);
    const res = await fetch(`${e2e.baseUrl}/api/common/image_upload`, { method: 'POST', headers: { authorization: token }, body: form });
    return ((await res.json()) as { data: { url: string } }).data.url;
  };
  /**
   * A new tab of the signed-in back office (the staff session is per tab): staff sign-in is limited
   * to 10 requests a minute per address, so screens that are not about signing in reuse the session.
   */
  const signedInTab = async (device: typeof PHONE | typeof DESKTOP, lang: string) => {
    const session = await admin.evaluate(() => sessionStorage.getItem('staff_session'));
    const opened = await newPage(e2e, device, { lang });
    await opened.context.addInitScript((value) => sessionStorage.setItem('staff_session', value), session!);
    return opened;
  };
  /** Signs in with the password and a one-time recovery code (each TOTP step signs in once). */
  const signInWithRecoveryCode = async (page: Page) => {
    await page.goto('/admin');
    await page.locator('input[type=email]').fill(ADMIN.email);
    await page.locator('input[type=password]').fill(ADMIN.password);
    await page.locator('form button[type=submit]').click();
    await page.locator('form button[type=button]').click();
    await page.locator('input[autocomplete=one-time-code]').fill(recoveryCodes.shift()!);
    await page.locator('form button[type=submit]').click();
    await page.locator('nav a[href="/admin/dashboard"]').waitFor();
  };
  const confirm = (page: Page, title: string) => page.getByRole('dialog', { name: title }).getByRole('button', { name: 'Confirm' }).click();

  it('enrols two-factor sign-in and then signs in with the TOTP step', async () => {
    await signIn(admin);
    await open('Two-factor sign-in');
    await admin.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await admin.getByRole('img', { name: 'QR code to scan with the authenticator app' }).waitFor();
    secret = (await admin.getByTestId('totp-secret').textContent())!;
    await admin.getByLabel('Authentication code').fill(totpCode(secret));
    await admin.getByRole('button', { name: 'Turn on' }).click();
    // The recovery codes are shown once, then the screen says two-factor is on.
    await admin.getByTestId('recovery-codes').waitFor();
    recoveryCodes = await admin.getByTestId('recovery-codes').locator('li').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await admin.getByRole('button', { name: 'I have saved them' }).click();
    await admin.getByRole('main').getByRole('status').filter({ hasText: 'Two-factor sign-in is on' }).waitFor();

    await admin.getByRole('button', { name: 'Sign out' }).click();
    await admin.getByLabel('Email').fill(ADMIN.email);
    await admin.getByLabel('Password').fill(ADMIN.password);
    await admin.getByRole('button', { name: 'Sign in' }).click();
    await seeText(admin, 'Enter the 6-digit code from your authenticator app');
    await admin.getByLabel('Authentication code').fill('000000' === totpCode(secret) ? '111111' : '000000');
    await admin.getByRole('button', { name: 'Sign in' }).click();
    await admin.getByRole('alert').first().waitFor();
    // The code that turned it on was used once; the next step's code signs in.
    await admin.getByLabel('Authentication code').fill(totpCode(secret, Date.now() + 30_000));
    await admin.getByRole('button', { name: 'Sign in' }).click();
    await admin.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await seeText(admin, 'Net exposure per symbol');
    await admin.screenshot({ path: '/tmp/w3-admin-dashboard-desktop-en.png', fullPage: true });
  });

  it('approves an identity, approves a deposit and rejects a withdrawal; the trader sees the balance move', async () => {
    const server = e2e.server;
    const { context, page, user } = await signedInPage(e2e, { device: DESKTOP, balance: '1000' });
    const real = await call(
      server,
      'POST',
      '/api/user_real/real_name',
      {
        name: 'Chan Tai Man',
        card_id: 'A1234567',
        front_pic: await upload(user.token, { r: 30, g: 120, b: 200 }),
        reverse_pic: await upload(user.token, { r: 200, g: 90, b: 40 }),
      },
      { token: user.token },
    );
    expect(real.code).toBe(1);

    await open('Identity reviews');
    await admin.getByRole('img', { name: 'Front of the ID of Chan Tai Man' }).waitFor();
    await admin.getByRole('img', { name: 'Back of the ID of Chan Tai Man' }).waitFor();
    await admin.screenshot({ path: '/tmp/w3-admin-identity-desktop-en.png', fullPage: true });
    await admin.getByRole('button', { name: 'Approve Chan Tai Man' }).click();
    await confirm(admin, 'Approve');
    await seeText(admin, 'No data');
    expect((await call(server, 'GET', '/api/user_real/center', {}, { token: user.token })).data.review_status).toBe(2);

    const [network] = (await server.ctx.db.select().from(depositNetworks)).filter(
      (n) => n.currencyCode === 'USDT' && n.protocolCode === 'TRC20',
    );
    const deposit = await call(
      server,
      'POST',
      '/api/quickCharge/submit',
      { number: '250', proofImg: await upload(user.token, { r: 40, g: 180, b: 90 }), charge_id: network!.id },
      { token: user.token },
    );
    expect(deposit.code).toBe(1);
    await page.goto('/mine/withdraw');
    await expect.poll(() => page.getByTestId('available-balance').textContent(), { timeout: 10_000 }).toBe('1,000.00 USD');

    await open('Deposits');
    await admin.getByRole('img', { name: `Payment proof of ${user.email}` }).waitFor();
    await admin.screenshot({ path: '/tmp/w3-admin-deposits-desktop-en.png', fullPage: true });
    await admin.getByRole('button', { name: `Approve ${user.email}` }).click();
    const approveDialog = admin.getByRole('dialog', { name: 'Approve' });
    await expect.poll(() => approveDialog.getByLabel('Confirmed amount').inputValue(), { timeout: 10_000 }).toBe('250');
    await confirm(admin, 'Approve');
    await seeText(admin, 'No data');
    await page.reload();
    await expect.poll(() => page.getByTestId('available-balance').textContent(), { timeout: 10_000 }).toBe('1,250.00 USD');

    const [currency] = (await server.ctx.db.select().from(withdrawCurrencies)).filter((c) => c.code === 'USDT' && c.protocol === 'TRC20');
    const bound = await call(
      server,
      'POST',
      '/api/wallet/bind_draw_method',
      { type: 1, draw_id: currency!.id, dc_address: TRC20_ADDRESS },
      { token: user.token },
    );
    const draw = await call(
      server,
      'POST',
      '/api/account/draw',
      { draw_currency_id: currency!.id, number: '100', draw_method_id: bound.data.id },
      { token: user.token },
    );
    expect(draw.code).toBe(1);
    await page.reload();
    await expect.poll(() => page.getByTestId('available-balance').textContent(), { timeout: 10_000 }).toBe('1,150.00 USD');

    await open('Withdrawals');
    await seeText(admin, TRC20_ADDRESS, 10_000);
    await admin.getByRole('button', { name: `Reject ${user.email}` }).click();
    await confirm(admin, 'Reject');
    await seeText(admin, 'Please fill in all fields');
    await admin.getByRole('dialog', { name: 'Reject' }).getByLabel('Remark').fill('Address could not be verified');
    await confirm(admin, 'Reject');
    await seeText(admin, 'No data');
    await page.reload();
    await expect.poll(() => page.getByTestId('available-balance').textContent(), { timeout: 10_000 }).toBe('1,250.00 USD');

    await open('Users');
    await admin.getByLabel('Email, mobile, UID or ID').fill(user.email);
    await admin.getByRole('button', { name: 'Search' }).click();
    await admin.getByRole('button', { name: user.email }).click();
    await seeText(admin, '1,250.00');
    await seeText(admin, 'Verified');
    await admin.getByRole('tab', { name: 'Ledger' }).click();
    await seeText(admin, '+250.00');
    // Entry types in words, not the stored codes (deposit, margin_lock...).
    const ledger = admin.getByRole('table', { name: 'Ledger' });
    await ledger.getByRole('cell', { name: 'Deposit', exact: true }).first().waitFor();
    expect(await ledger.getByRole('cell', { name: 'deposit', exact: true }).count()).toBe(0);
    await admin.screenshot({ path: '/tmp/w3-admin-user-ledger-desktop-en.png', fullPage: true });
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('flags a deposit whose proof picture backs another claim, in English and Arabic, on a desktop and a phone', async () => {
    const server = e2e.server;
    const { context, user } = await signedInPage(e2e, { device: DESKTOP, verified: true });
    const [network] = (await server.ctx.db.select().from(depositNetworks)).filter(
      (n) => n.currencyCode === 'USDT' && n.protocolCode === 'TRC20',
    );
    const claim = async (proofImg: string) =>
      (await call(server, 'POST', '/api/quickCharge/submit', { number: '75', proofImg, charge_id: network!.id }, { token: user.token }))
        .data.id as number;
    // The same picture twice: once the same upload, once uploaded again. Both claims are accepted.
    const proof = await upload(user.token, { r: 90, g: 60, b: 160 });
    const first = await claim(proof);
    const second = await claim(proof);
    const third = await claim(await upload(user.token, { r: 90, g: 60, b: 160 }));
    await context.close();
    const expected = {
      en: [`⚠ Also the proof of claim #${second}, #${third}`, `⚠ Also the proof of claim #${first}, #${third}`],
      ar: [`⚠ هذا الإثبات مستخدم أيضًا في الطلب #${second}, #${third}`, `⚠ هذا الإثبات مستخدم أيضًا في الطلب #${first}, #${third}`],
    };
    const flags = async (page: Page) => {
      const row = (id: number) => page.getByRole('row').filter({ has: page.getByRole('cell', { name: `#${id}`, exact: true }) });
      await row(first).getByTestId('proof-reused').waitFor({ timeout: 10_000 });
      return [await row(first).getByTestId('proof-reused').textContent(), await row(second).getByTestId('proof-reused').textContent()];
    };

    await open('Deposits');
    expect(await flags(admin)).toEqual(expected.en);
    await admin.screenshot({ path: '/tmp/guards2-proof-reused-desktop-en.png', fullPage: true });
    for (const [lang, device, name] of [
      ['en', PHONE, 'phone-en'],
      ['ar', DESKTOP, 'desktop-ar'],
      ['ar', PHONE, 'phone-ar'],
    ] as const) {
      const { context, page } = await signedInTab(device, lang);
      await page.goto('/admin/deposits');
      expect(await flags(page)).toEqual(expected[lang]);
      await page.screenshot({ path: `/tmp/guards2-proof-reused-${name}.png`, fullPage: true });
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    }
  });

  it("changes a symbol's spread and the trade page's buy and sell prices follow", async () => {
    const { context, page } = await newPage(e2e, PHONE, { lang: 'en' });
    const spreadOnPage = async () => {
      const ask = (await page.getByTestId('buy-price').textContent())!.replace(/,/g, '');
      const bid = (await page.getByTestId('sell-price').textContent())!.replace(/,/g, '');
      return /^\d/.test(ask) && /^\d/.test(bid) ? dec(ask).minus(bid).toString() : '';
    };
    await page.goto('/trade?symbol=BTCUSDT');
    await expect.poll(spreadOnPage, { timeout: 15_000 }).not.toBe('');
    expect(await spreadOnPage()).not.toBe('50');

    await open('Trading');
    await admin.getByRole('button', { name: 'Edit BTC/USDT' }).click();
    const form = admin.getByRole('dialog', { name: 'Edit BTC/USDT' });
    await form.getByLabel('Spread').fill('50');
    await admin.screenshot({ path: '/tmp/w3-admin-symbol-edit-desktop-en.png' });
    await form.getByRole('button', { name: 'Save' }).click();
    await seeText(admin, 'Saved');
    await expect.poll(spreadOnPage, { timeout: 15_000 }).toBe('50');
    await page.getByTestId('buy-price').scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/w3-trade-after-spread-phone-en.png' });
    await context.close();
  });

  it('opens every screen without errors', async () => {
    for (const name of ['Users', 'Funding setup', 'News', 'Content and settings', 'Support desk', 'Staff', 'Audit log', 'Dashboard']) {
      await open(name);
      await admin
        .getByRole('status')
        .or(admin.getByRole('table'))
        .or(admin.getByText('No data'))
        .or(admin.getByRole('form'))
        .first()
        .waitFor();
    }
    await open('Funding setup');
    await admin.getByRole('table', { name: 'Withdraw currencies' }).waitFor();
    await admin.screenshot({ path: '/tmp/w3-admin-funding-desktop-en.png', fullPage: true });
    await open('News');
    await admin.getByRole('button', { name: 'Add' }).click();
    await admin.getByRole('textbox', { name: 'Content' }).waitFor();
    await admin.screenshot({ path: '/tmp/w3-admin-news-editor-desktop-en.png' });
    await admin.keyboard.press('Escape');
    await open('Audit log');
    await seeText(admin, 'symbol.save');
    expect(jsErrors(admin)).toEqual([]);
  });

  it('shows the back office in Traditional Chinese and Arabic, on a phone too', async () => {
    for (const [lang, device, name, signIn] of [
      ['hk', DESKTOP, 'desktop-hk', true],
      ['ar', DESKTOP, 'desktop-ar', true],
      ['hk', PHONE, 'phone-hk', false],
    ] as const) {
      const { context, page } = signIn ? await newPage(e2e, device, { lang }) : await signedInTab(device, lang);
      if (signIn) await signInWithRecoveryCode(page);
      else await page.goto('/admin/dashboard');
      await page.locator('dl').waitFor();
      await page.screenshot({ path: `/tmp/w3-admin-dashboard-${name}.png`, fullPage: true });
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    }
  });
});
