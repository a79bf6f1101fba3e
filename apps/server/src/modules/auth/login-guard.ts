import { LOGIN_CAPTCHA_REQUIRED } from '@tp/contract/schemas/auth';
import type { AppContext } from '../../context.ts';
import { AppError, fail } from '../../http/errors.ts';

const WINDOW_MS = 15 * 60_000;
/** Failures of one account (from anywhere) after which every login of it needs a captcha. */
const CAPTCHA_AFTER = 3;
/** Failures from one address (any accounts) after which that address waits out the window. */
const FAILURES_PER_SOURCE = 20;
/** Failures from one address on one account after which it waits 1 s, 2 s, 4 s ... (at most the window) between tries. */
const DELAY_AFTER = 5;
/** Failures of one account at which its owner is told by email or SMS (once per window). */
const ALERT_AT = 5;

/**
 * Password guessing, as OWASP advises: no lock a stranger can put on an account. Failures are
 * counted per account and per source; an account with failures needs a captcha, a source that
 * keeps failing waits longer each time, and the owner hears of repeated failures.
 */
export class LoginGuard {
  constructor(private readonly ctx: AppContext) {}

  /** Before the password is checked: refuses a waiting source, asks for a captcha when the account needs one. */
  async admit(account: string, ip: string, captcha: { key?: string; answer?: string }): Promise<void> {
    const throttle = this.ctx.services.throttle;
    for (const [key, limit] of [
      [`login-ip:${ip}`, FAILURES_PER_SOURCE],
      [`login-wait:${ip}:${account}`, 1],
    ] as const) {
      const state = await throttle.check(key, limit, WINDOW_MS);
      if (!state.allowed) throw this.waitError(state.retryAfterMs);
    }
    if ((await throttle.count(`login-account:${account}`)) < CAPTCHA_AFTER) return;
    if (!captcha.key || !captcha.answer) throw new AppError(LOGIN_CAPTCHA_REQUIRED, 'login_captcha_required');
    if (!(await this.ctx.services.captcha.verify(captcha.key, captcha.answer))) throw new AppError(LOGIN_CAPTCHA_REQUIRED, 'captcha_invalid');
  }

  /** Counts a failure; `alert` tells the account's owner, when there is one. */
  async failed(account: string, ip: string, alert?: () => Promise<void>): Promise<void> {
    const throttle = this.ctx.services.throttle;
    await throttle.hit(`login-ip:${ip}`, FAILURES_PER_SOURCE, WINDOW_MS);
    await throttle.hit(`login-account:${account}`, Number.MAX_SAFE_INTEGER, WINDOW_MS);
    const pair = `login-pair:${ip}:${account}`;
    await throttle.hit(pair, Number.MAX_SAFE_INTEGER, WINDOW_MS);
    const fromHere = await throttle.count(pair);
    if (fromHere >= DELAY_AFTER) {
      const wait = `login-wait:${ip}:${account}`;
      await throttle.reset(wait);
      await throttle.hit(wait, 1, Math.min(WINDOW_MS, 1000 * 2 ** (fromHere - DELAY_AFTER)));
    }
    if (alert && (await throttle.count(`login-account:${account}`)) === ALERT_AT) await alert();
  }

  async succeeded(account: string, ip: string): Promise<void> {
    const throttle = this.ctx.services.throttle;
    await throttle.reset(`login-account:${account}`);
    await throttle.reset(`login-pair:${ip}:${account}`);
  }

  private waitError(retryAfterMs: number): AppError {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    return seconds >= 60 ? fail('login_throttled', { minutes: Math.ceil(seconds / 60) }) : fail('login_wait', { seconds });
  }
}
