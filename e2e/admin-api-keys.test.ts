import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { newUser } from '../apps/server/src/modules/funding/test-helpers.ts';
import { DESKTOP, jsErrors, newPage, startE2E, type E2E } from './harness.ts';
import { seriousAxeFindings } from './axe.ts';

const POLL = { timeout: 15_000 };

/** Staff see a user's API keys (never the secret) with their last use, and revoke one: the key stops working at once. */
describe('a user’s API keys in the back office', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => e2e?.close());

  it.each(['en', 'ar'])('lists and revokes a key (desktop, %s)', async (lang) => {
    const user = await newUser(e2e.server, { verified: true });
    const created = await call(
      e2e.server,
      'POST',
      '/api/user/api_keys/create',
      { name: `Grid bot ${lang}`, scopes: ['read', 'trade'], ip_allow: [] },
      { token: user.token, json: true },
    );
    expect(created.code, created.msg).toBe(1);
    const key = created.data.key as string;
    const balance = () => call(e2e.server, 'GET', '/v1/api/main/wallet/getBalance', {}, { token: `ApiKey ${key}` });
    expect((await balance()).code).toBe(1);

    const { context, page } = await newPage(e2e, DESKTOP, { lang });
    await page.goto('/admin');
    await page.locator('input[autocomplete="username"]').fill('admin@test.local');
    await page.locator('input[type="password"]').fill('admin-password-1');
    await page.locator('button[type="submit"]').click();
    await page.locator('input[type="password"]').waitFor({ state: 'detached', ...POLL });
    await page.goto(`/admin/users/${user.id}`);
    const tab = page.getByRole('tab', { name: lang === 'en' ? 'API keys' : 'مفاتيح API' });
    await tab.click();
    const table = page.getByRole('table');
    const row = table.getByRole('row').filter({ hasText: `Grid bot ${lang}` });
    await row.waitFor(POLL);
    // The key's secret (everything after `tpk_<id>_`; base64url, so it may itself hold '_') is never on the page.
    const secret = /^tpk_\d+_(.+)$/.exec(key)![1]!;
    expect(secret).toHaveLength(43);
    expect(await page.content()).not.toContain(secret);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.screenshot({ path: `/tmp/admin-api-keys-desktop-${lang}.png` });

    await row.getByRole('button').click();
    await page.getByRole('dialog').getByRole('button').last().click();
    await expect.poll(() => row.getByRole('button').count(), POLL).toBe(0);
    expect((await balance()).code).toBe(999);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
