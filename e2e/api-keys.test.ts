import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { totpCode } from '../apps/server/src/platform/totp.ts';
import { signedInPage } from './account-helpers.ts';
import { DESKTOP, jsErrors, PHONE, startE2E, type E2E } from './harness.ts';

/** What the screen says, in the two languages the cases use (the other 16 are checked by the locale tests). */
const TEXT = {
  en: {
    empty: 'No API keys yet.',
    neverWithdraw: 'A key can never withdraw funds',
    shownOnce: 'it will not be shown again',
    copied: 'Copied',
    active: 'Active',
    revoked: 'Revoked',
    copyKey: 'Copy key',
    revoke: 'Revoke',
    wrongCode: 'The code is not correct',
  },
  ar: {
    empty: 'لا توجد مفاتيح API بعد.',
    neverWithdraw: 'لا يمكن لأي مفتاح سحب الأموال',
    shownOnce: 'لن يُعرض مرة أخرى',
    copied: 'تم النسخ',
    active: 'نشط',
    revoked: 'مُبطَل',
    copyKey: 'نسخ المفتاح',
    revoke: 'إبطال المفتاح',
    wrongCode: null,
  },
} as const;

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');

/** Serious or critical WCAG 2.2 AA findings of axe-core on the page as it is now (the dialog and the rows included). */
async function axeSerious(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const w = window as unknown as {
      axe: { run: (ctx: unknown, o: unknown) => Promise<{ violations: { id: string; impact: string | null }[] }> };
    };
    const result = await w.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  });
}

/** The page fits its width: nothing scrolls sideways at phone or desktop size, ltr or rtl. */
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('API keys in the user centre', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => e2e?.close());

  /** A call with the key, as a bot sends it. */
  const withKey = async (key: string) => {
    const res = await e2e.server.app.inject({
      method: 'GET',
      url: '/v1/api/main/wallet/getBalance',
      headers: { authorization: `ApiKey ${key}`, lang: 'en' },
      remoteAddress: '127.0.0.1',
    });
    return (res.json() as { code: number }).code;
  };

  const cases = [
    { lang: 'en', device: PHONE, name: 'phone-en', twoFactor: false },
    { lang: 'ar', device: DESKTOP, name: 'desktop-ar', twoFactor: true },
    { lang: 'ar', device: PHONE, name: 'phone-ar', twoFactor: false },
    { lang: 'en', device: DESKTOP, name: 'desktop-en', twoFactor: true },
  ] as const;

  it.each(cases)(
    'creates a key, sees it once, lists it and revokes it ($name, two-factor on: $twoFactor)',
    async ({ lang, device, name, twoFactor }) => {
      const text = TEXT[lang];
      const { context, page, user } = await signedInPage(e2e, { device, lang });
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      let secret = '';
      if (twoFactor) {
        const setup = await call(e2e.server, 'POST', '/api/user/totp/setup', {}, { token: user.token });
        secret = setup.data.secret as string;
        expect(
          (await call(e2e.server, 'POST', '/api/user/totp/enable', { code: totpCode(secret, Date.now() - 30_000) }, { token: user.token }))
            .code,
        ).toBe(1);
      }

      await page.goto('/mine/api-keys');
      await page.getByText(text.empty).waitFor();
      await page.getByText(text.neverWithdraw).waitFor();
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      expect(await noSidewaysScroll(page)).toBe(true);
      await page.screenshot({ path: `/tmp/apikeys-empty-${name}.png`, fullPage: true });

      // An empty name is refused in place, before any call.
      await page.getByTestId('api-key-create').click();
      await page.locator('[role=alert]').first().waitFor();

      await page.getByTestId('api-key-name').fill(`bot ${name}`);
      await page.getByTestId('api-key-scope-trade').check();
      await page.getByTestId('api-key-ips').fill('127.0.0.1 10.0.0.0/8');
      await page.getByTestId('api-key-expiry').selectOption('30');
      if (twoFactor) {
        // A wrong second factor is refused with the server's message, in the page's language.
        await page.getByTestId('api-key-totp').fill('000000');
        await page.getByTestId('api-key-create').click();
        const refusal = page.getByTestId('api-key-create-error');
        await refusal.waitFor();
        if (text.wrongCode) expect(await refusal.textContent()).toContain(text.wrongCode);
        else expect((await refusal.textContent())?.trim()).not.toBe('');
        await page.getByTestId('api-key-totp').fill(totpCode(secret, Date.now() + 30_000));
      }
      await page.getByTestId('api-key-create').click();

      // Shown once: the key, a copy button and the warning.
      const shown = page.getByTestId('api-key-secret');
      await shown.waitFor();
      const key = (await shown.textContent())!.trim();
      expect(key).toMatch(/^tpk_\d+_[A-Za-z0-9_-]{43}$/);
      await page.getByRole('dialog').getByText(text.shownOnce).waitFor();
      await page.screenshot({ path: `/tmp/apikeys-shown-${name}.png`, fullPage: true });
      expect(await axeSerious(page)).toEqual([]);
      await page.getByRole('dialog').getByRole('button', { name: text.copyKey, exact: true }).click();
      await page.getByText(text.copied).first().waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      await page.getByTestId('api-key-saved').click();
      await shown.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.body.innerText)).not.toContain(key);

      // Listed without the secret, also after a reload; the key works for its bot.
      expect(await withKey(key)).toBe(1);
      await page.reload();
      const row = page.getByTestId('api-key-row');
      await row.waitFor();
      expect(await row.count()).toBe(1);
      await expect.poll(() => row.getByTestId('api-key-status').textContent()).toBe(text.active);
      const rowText = (await row.textContent())!;
      expect(rowText).toContain(`bot ${name}`);
      expect(rowText).toContain('127.0.0.1, 10.0.0.0/8');
      expect(await page.evaluate(() => document.body.innerText)).not.toContain(key);
      expect(await noSidewaysScroll(page)).toBe(true);
      await page.screenshot({ path: `/tmp/apikeys-listed-${name}.png`, fullPage: true });
      expect(await axeSerious(page)).toEqual([]);

      // Revoked after a confirmation: the key stops working at once.
      await row.getByTestId('api-key-revoke').click();
      const confirm = page.getByRole('dialog');
      await confirm.getByText(`bot ${name}`).waitFor();
      await page.screenshot({ path: `/tmp/apikeys-revoke-${name}.png`, fullPage: true });
      await confirm.getByRole('button', { name: text.revoke, exact: true }).click();
      await expect.poll(() => row.getByTestId('api-key-status').textContent()).toBe(text.revoked);
      expect(await row.getByTestId('api-key-revoke').count()).toBe(0);
      expect(await withKey(key)).toBe(999);
      await page.screenshot({ path: `/tmp/apikeys-revoked-${name}.png`, fullPage: true });
      expect(await axeSerious(page)).toEqual([]);

      expect(jsErrors(page)).toEqual([]);
      await context.close();
    },
  );
});
