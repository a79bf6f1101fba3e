import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordHashLoad } from '../src/modules/auth/password.ts';
import { callFrom, randomIp, uniqueEmail } from './auth-helpers.ts';
import { createTestApp, dbTargets, type TestApp } from './test-app.ts';

/** Anyone may ask for a password hash (a sign-in with any e-mail): the server computes a few at once, queues a few, refuses the rest. */
describe.each(dbTargets)('a global cap on password hashes on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '2', PASSWORD_SCRYPT_N: '65536' });
  });
  afterAll(async () => t?.close());

  it('a burst of sign-ins with random e-mails from many addresses: one hash at a time, two waiting, the rest refused with the rate-limit code', async () => {
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, passwordHashLoad().running)), 1);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        callFrom(t, randomIp(), 'POST', '/api/admin/login', { email: uniqueEmail('burst'), password: 'whatever-pass-1' }, { lang: 'en' }),
      ),
    );
    clearInterval(timer);
    const refused = answers.filter((a) => a.code === 1029);
    expect(refused.length).toBeGreaterThanOrEqual(12 - 3 - 2);
    expect(refused[0]!.msg).toMatch(/too many/i);
    expect(answers.filter((a) => a.code === 0).length).toBeGreaterThanOrEqual(3);
    expect(peak).toBeLessThanOrEqual(1);
    // Trader logins share the cap: once the burst is over they hash again.
    expect(passwordHashLoad()).toEqual({ running: 0, waiting: 0 });
  });
});
