import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../apps/server/src/modules/auth/password.ts';
import { identityVerifications, users } from '../apps/server/src/platform/db/schema.ts';
import { newUser } from '../apps/server/src/modules/funding/test-helpers.ts';
import { pngFile, signedInPage } from './account-helpers.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

const POLL = { timeout: 15_000 };

/** Issue 36, item 10: small defects of the web app, each in the built app in Chromium. */
describe('issue 36 small defects', () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => e2e?.close());

  /** A real user with this e-mail and password, made on the server. */
  async function userWith(email: string, password: string) {
    const made = await newUser(e2e.server, { verified: false });
    await e2e.server.ctx.db
      .update(users)
      .set({ email, passwordHash: await hashPassword(password) })
      .where(eq(users.id, made.id));
    return made;
  }

  const sessionStored = (page: Page) =>
    page.evaluate(() => Boolean((JSON.parse(localStorage.getItem('session') ?? '{}') as { state?: { token?: string } }).state?.token));

  it('a. brings a guest back to the /mine page they were sent to sign in from, and only to in-app paths (phone, en)', async () => {
    const email = `back${Date.now()}@example.com`;
    await userWith(email, 'Str0ng-pass-42');
    const signIn = async (page: Page) => {
      await page.getByLabel('Email address').fill(email);
      await page.getByLabel('Password').fill('Str0ng-pass-42');
      await page.getByRole('button', { name: 'Log in' }).click();
    };
    // Sent by the login guard, or by the page's own "Log in" link: back to the same page after.
    for (const { path, heading, viaLink } of [
      { path: '/mine/notifications', heading: 'Notifications', viaLink: false },
      { path: '/mine/password', heading: 'Change password', viaLink: false },
      { path: '/mine/system', heading: 'Settings', viaLink: true },
    ]) {
      const { context, page } = await newPage(e2e, PHONE, { lang: 'en' });
      await page.goto(path);
      if (viaLink) await page.getByRole('link', { name: 'Log in' }).click();
      await page.waitForURL((url) => url.pathname === '/login', POLL);
      await signIn(page);
      await page.waitForURL((url) => url.pathname === path, POLL);
      await page.getByRole('heading', { name: heading }).first().waitFor();
      expect(await sessionStored(page)).toBe(true);
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    }

    // A crafted redirect to another site lands on the home page, signed in.
    for (const target of ['//evil.example', '/\\evil.example', 'https://evil.example/x', 'javascript:alert(1)']) {
      const guest = await newPage(e2e, PHONE, { lang: 'en' });
      await guest.page.goto(`/login?redirect=${encodeURIComponent(target)}`);
      await guest.page.getByLabel('Email address').fill(email);
      await guest.page.getByLabel('Password').fill('Str0ng-pass-42');
      await guest.page.getByRole('button', { name: 'Log in' }).click();
      await expect.poll(() => sessionStored(guest.page), POLL).toBe(true);
      await guest.page.waitForURL((url) => url.origin === e2e.baseUrl && url.pathname === '/', POLL);
      expect(jsErrors(guest.page)).toEqual([]);
      await guest.context.close();
    }
  });

  it('b. shows the password rule before submitting and checks it without asking the server (phone, ar)', async () => {
    const rule = 'يجب أن يتراوح طول كلمة المرور بين 8 و128 حرفًا';
    const { context, page } = await newPage(e2e, PHONE, { lang: 'ar' });
    const posted: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/user/register') posted.push(req.url());
    });
    await page.goto('/register');
    await page.getByRole('button', { name: 'إنشاء الحساب' }).waitFor();
    // The rule is there before typing anything, tied to the password field.
    await page.getByText(rule).first().waitFor();
    const password = page.getByLabel('كلمة المرور', { exact: true });
    expect(await password.getAttribute('aria-describedby')).toBeTruthy();
    await page.getByLabel('عنوان البريد الإلكتروني').fill(`weak${Date.now()}@example.com`);
    await page.getByLabel('رمز التحقق').fill('123456');
    await password.fill('abc12');
    await page.getByLabel('تأكيد كلمة المرور').fill('abc12');
    await page.getByRole('button', { name: 'إنشاء الحساب' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: rule }).count(), POLL).toBeGreaterThan(0);
    await page.waitForTimeout(500);
    expect(posted).toEqual([]);
    await page.screenshot({ path: '/tmp/issue36-small-password-rule-ar.png' });
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('c. asks before signing out of a demo account, and Cancel keeps the session (phone, en)', async () => {
    const { context, page } = await signedInPage(e2e, { device: PHONE, lang: 'en', demo: true });
    await page.goto('/mine/system');
    await page.getByRole('button', { name: 'Log out' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('The demo account and its trading history will be lost').waitFor();
    await page.screenshot({ path: '/tmp/issue36-small-demo-logout-en.png' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/mine/system');
    expect(await sessionStored(page)).toBe(true);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await sessionStored(page)).toBe(false);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('d. opens /trade from anywhere on a desktop home row, by click and by Enter (desktop, en)', async () => {
    const { context, page } = await newPage(e2e, DESKTOP, { lang: 'en' });
    await page.goto('/');
    const board = page.getByTestId('quote-board');
    const row = board.locator('tr[data-code="ETHUSDT"]');
    await row.waitFor(POLL);
    await row.getByTestId('bid').click();
    await page.waitForURL((url) => url.pathname === '/trade' && url.searchParams.get('symbol') === 'ETHUSDT', POLL);

    await page.goto('/');
    const btc = page.getByTestId('quote-board').locator('tr[data-code="BTCUSDT"]');
    await btc.waitFor(POLL);
    const link = btc.getByRole('link', { name: /BTC\/USDT/ });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/trade' && url.searchParams.get('symbol') === 'BTCUSDT', POLL);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('e. shows a long e-mail left to right from its start, cut at its end, in Arabic (phone, ar)', async () => {
    const email = `a.very.long.mailbox.name.for.testing.${Date.now()}@an-exceedingly-long-domain-name.example.com`;
    const made = await userWith(email, 'Str0ng-pass-42');
    const info = await e2e.server.app.inject({ method: 'GET', url: '/api/user/info', headers: { authorization: made.token } });
    const user = (info.json() as { data: Record<string, unknown> }).data;
    expect(user.email).toBe(email);
    const { context, page } = await newPage(e2e, PHONE, { lang: 'ar' });
    await context.addInitScript(
      (value) => localStorage.setItem('session', value),
      JSON.stringify({ state: { token: made.token, user }, version: 0 }),
    );
    await page.goto('/user');
    const shown = page.getByText(email, { exact: true });
    await shown.waitFor();
    const layout = await shown.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const range = document.createRange();
      range.setStart(el.firstChild!, 0);
      range.setEnd(el.firstChild!, 1);
      const first = range.getBoundingClientRect();
      return {
        direction: getComputedStyle(el).direction,
        boxLeft: box.left,
        boxRight: box.right,
        firstLeft: first.left,
        overflow: el.scrollWidth > el.clientWidth,
        pageWidth: document.documentElement.clientWidth,
      };
    });
    expect(layout.direction).toBe('ltr');
    // Its first character is on screen inside its box: the cut is at the end, not the start.
    expect(layout.firstLeft).toBeGreaterThanOrEqual(layout.boxLeft - 1);
    expect(layout.firstLeft).toBeLessThan(layout.boxRight);
    expect(layout.boxRight).toBeLessThanOrEqual(layout.pageWidth);
    await page.screenshot({ path: '/tmp/issue36-small-long-email-ar.png' });
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
  it('f. brings back what was sent when identity is rejected, to correct rather than retype (phone, ar)', async () => {
    const { context, page, user } = await signedInPage(e2e, { device: PHONE, lang: 'ar' });
    await page.goto('/mine/auth');
    const submit = page.getByRole('button', { name: 'إرسال للمراجعة' });
    await submit.waitFor(POLL);
    await page.getByLabel('الاسم الكامل').fill('Chan Tai Man');
    await page.getByLabel('رقم الهوية').fill('A1234567');
    await page.getByLabel('الوجه الأمامي للوثيقة').setInputFiles(await pngFile('front.png', { r: 200, g: 40, b: 40 }));
    await page.getByRole('img', { name: 'الوجه الأمامي للوثيقة' }).waitFor();
    await page.getByLabel('الوجه الخلفي للوثيقة').setInputFiles(await pngFile('back.png', { r: 40, g: 40, b: 200 }));
    await page.getByRole('img', { name: 'الوجه الخلفي للوثيقة' }).waitFor();
    await submit.click();
    await expect.poll(() => submit.count(), POLL).toBe(0);

    // Staff reject it: the form comes back with the name, the number and both pictures as sent.
    await e2e.server.ctx.db
      .update(identityVerifications)
      .set({ reviewStatus: 3, rejectReason: 'The photo is blurred' })
      .where(eq(identityVerifications.userId, user.id));
    await page.reload();
    await page.getByText('The photo is blurred').first().waitFor(POLL);
    expect(await page.getByLabel('الاسم الكامل').inputValue()).toBe('Chan Tai Man');
    expect(await page.getByLabel('رقم الهوية').inputValue()).toBe('A1234567');
    for (const side of ['الوجه الأمامي للوثيقة', 'الوجه الخلفي للوثيقة']) {
      const img = page.getByRole('img', { name: side });
      await img.waitFor(POLL);
      await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth), POLL).toBeGreaterThan(0);
    }
    // Sent again as it was, it goes back under review.
    await submit.click();
    await expect.poll(() => submit.count(), POLL).toBe(0);
    const [row] = await e2e.server.ctx.db.select().from(identityVerifications).where(eq(identityVerifications.userId, user.id));
    expect(row).toMatchObject({ reviewStatus: 1, name: 'Chan Tai Man', cardId: 'A1234567' });
    await page.screenshot({ path: '/tmp/issue36-small-identity-rejected-ar.png' });
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
  it('g. keeps the one-click row clear of the Sell/Buy bar on a 1440x900 desktop terminal (en and hk)', async () => {
    for (const lang of ['en', 'hk']) {
      const { context, page } = await signedInPage(e2e, { device: DESKTOP, lang, balance: '10000' });
      await page.goto('/trade?symbol=BTCUSDT');
      const toggle = page.getByRole('switch').first();
      await toggle.waitFor(POLL);
      await toggle.scrollIntoViewIfNeeded();
      const layout = await toggle.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const row = el.parentElement!.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        const sell = [...document.querySelectorAll('button')].find((b) => b.querySelector('[data-testid="sell-price"]'));
        const bar = sell!.parentElement!.getBoundingClientRect();
        return {
          hitsToggle: Boolean(hit && (hit === el || el.contains(hit))),
          rowBottom: row.bottom,
          barTop: bar.top,
          viewport: innerHeight,
        };
      });
      await page.screenshot({ path: `/tmp/issue36-small-one-click-desktop-${lang}.png` });
      expect(layout.hitsToggle).toBe(true);
      expect(layout.rowBottom).toBeLessThanOrEqual(layout.barTop + 0.5);
      expect(layout.rowBottom).toBeLessThanOrEqual(layout.viewport);
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    }
  });
  it("h. names the user centre's figure for what it is, the available balance, apart from the orders screen's balance (phone, en and ar)", async () => {
    for (const lang of ['en', 'ar']) {
      const { context, page, user } = await signedInPage(e2e, { device: PHONE, lang, balance: '10000', verified: true });
      const btc = e2e.server.ctx.services.market.symbolByCode('BTCUSDT')!.id;
      const placed = await e2e.server.app.inject({
        method: 'GET',
        url: `/v1/api/forex/submit?type=1&cont=0.01&forex_id=${btc}&multiple=2&t=${Date.now()}`,
        headers: { authorization: user.token, lang },
      });
      expect(placed.json().code).toBe(1);
      // The orders screen's balance holds the margin in use; the user centre's figure is what is free of it.
      await page.goto('/order?type=1');
      // 10,000 less the 0.03 fee; the margin (about 475) is still part of it here.
      await expect.poll(() => page.getByTestId('balance').textContent(), POLL).toBe('9,999.97');
      await page.goto('/user');
      const available = page.getByTestId('user-balance');
      await expect.poll(() => available.textContent(), POLL).not.toBe('--');
      expect(Number((await available.textContent())!.replace(/,/g, ''))).toBeLessThan(9_600);
      const label = await available.evaluate((el) => el.previousElementSibling?.textContent ?? '');
      expect(label).toBe(lang === 'en' ? 'Available balance (USD)' : 'الرصيد المتاح (USD)');
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    }
  });
});
