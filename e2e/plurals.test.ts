import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryThrottle } from '../apps/server/src/platform/throttle.ts';
import { callFrom, randomIp, registerByEmail } from '../apps/server/test/auth-helpers.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

/**
 * Server messages that count minutes show them in the reader's plural form: a locked sign-in with
 * ten minutes left reads "10 دقائق" in Arabic (not the singular "دقيقة" a number from 11 takes)
 * and "10 minutes" in English.
 */
describe('minutes in their plural form', () => {
  let e2e: E2E;
  // The lock's clock: the failures happen now, the refusal is read five minutes later.
  let skew = 0;

  beforeAll(async () => {
    e2e = await startE2E();
    e2e.server.ctx.services.throttle = new MemoryThrottle(() => Date.now() + skew);
  });
  afterAll(async () => e2e?.close());

  /** An account whose password locked (five wrong passwords, from five addresses, with the captcha solved) five minutes ago. */
  async function lockedFiveMinutesAgo() {
    skew = 0;
    const user = await registerByEmail(e2e.server);
    for (let i = 0; i < 5; i++) {
      const key = (await e2e.server.ctx.services.captcha.create('QWER')).id;
      const answer = await callFrom(e2e.server, randomIp(), 'POST', '/api/user/loginForU', {
        login_type: 'email',
        account: user.email,
        password: `Wrong-${i}-guess`,
        key,
        captcha: 'QWER',
      });
      expect(answer.code).toBe(0);
    }
    // 9 min 50 s left of the 15-minute lock: shown rounded up, as 10 minutes.
    skew = 5 * 60_000 + 10_000;
    return user;
  }

  for (const [device, size, lang, expected, wrong] of [
    [PHONE, 'phone', 'ar', '10 دقائق', /10 دقيقة/],
    [DESKTOP, 'desktop', 'en', '10 minutes', /10 minute\b/],
  ] as const) {
    it(`says how many minutes the lock has left in the language's plural (${size}, ${lang})`, async () => {
      const user = await lockedFiveMinutesAgo();
      const { context, page } = await newPage(e2e, device, { lang });
      await page.goto('/login');
      await page.locator('input[autocomplete=username]').fill(user.email);
      await page.locator('input[type=password]').fill(user.password);
      await page.locator('form button[type=submit]').click();
      const message = page.getByText(expected, { exact: false }).first();
      await message.waitFor();
      const text = (await message.textContent())!;
      expect(text).not.toMatch(wrong);
      await page.screenshot({ path: `/tmp/plurals-${size}-${lang}-locked.png` });
      expect(page.url()).toMatch(/\/login/);
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    });
  }
});
