import { LOGIN_CAPTCHA_REQUIRED } from '@tp/contract/schemas/auth';
import type { AppContext } from '../../context.ts';
import { AppError, fail } from '../../http/errors.ts';
import { clientKey } from '../../http/client-key.ts';

const WINDOW_MS = 15 * 60_000;
/** Failures of one account (from anywhere) after which every login of it needs a captcha. */
const CAPTCHA_AFTER = 3;
/** Failures from one address (any accounts) after which that address waits out the window. */
const FAILURES_PER_SOURCE = 20;
/** Failures from one address on one account after which it waits 1 s, 2 s, 4 s ... (at most the window) between tries. */
const DELAY_AFTER = 5;

/**
 * Password guessing, slowed: failures are counted per account and per source; an account with
 * failures needs a captcha and a source that keeps failing waits longer each time. (The lock after
 * 5 wrong passwords of one account, and the owner's notice, are the SecretGuard's `password` kind.)
 */
export class LoginGuard {
  constructor(private readonly ctx: AppContext) {}

  /**
   * Before the password is checked: refuses a waiting source, counts the attempt against the source
   * and the account, and asks for a captcha when the account has failures.
   */
  async admit(account: string, rawIp: string, captcha: { key?: string; answer?: string }): Promise<void> {
    const throttle = this.ctx.services.throttle;
    const ip = clientKey(rawIp);
    const wait = await throttle.check(`login-wait:${ip}:${account}`, 1, WINDOW_MS);
    if (!wait.allowed) throw this.waitError(wait.retryAfterMs);
    const source = await throttle.hit(`login-ip:${ip}`, FAILURES_PER_SOURCE, WINDOW_MS);
    if (!source.allowed) {
      await throttle.undo(`login-ip:${ip}`);
      throw this.waitError(source.retryAfterMs);
    }
    // Allowed while this attempt is within the first CAPTCHA_AFTER of the window (one atomic count).
    if ((await throttle.hit(`login-account:${account}`, CAPTCHA_AFTER, WINDOW_MS)).allowed) return;
    const refuse = async (key: string) => {
      // Refused before any hashing: the attempt is not a password failure.
      await throttle.undo(`login-ip:${ip}`);
      await throttle.undo(`login-account:${account}`);
      return new AppError(LOGIN_CAPTCHA_REQUIRED, key);
    };
    if (!captcha.key || !captcha.answer) throw await refuse('login_captcha_required');
    if (!(await this.ctx.services.captcha.verify(captcha.key, captcha.answer))) throw await refuse('captcha_invalid');
  }

  /** Counts a failure. */
  async failed(account: string, rawIp: string): Promise<void> {
    const throttle = this.ctx.services.throttle;
    const ip = clientKey(rawIp);
    const pair = `login-pair:${ip}:${account}`;
    await throttle.hit(pair, Number.MAX_SAFE_INTEGER, WINDOW_MS);
    const fromHere = await throttle.count(pair);
    if (fromHere >= DELAY_AFTER) {
      const wait = `login-wait:${ip}:${account}`;
      await throttle.reset(wait);
      await throttle.hit(wait, 1, Math.min(WINDOW_MS, 1000 * 2 ** (fromHere - DELAY_AFTER)));
    }
  }

  /** Takes back an attempt admitted but never checked (refused by a lock, or no hashing slot). */
  async withdraw(account: string, rawIp: string): Promise<void> {
    const throttle = this.ctx.services.throttle;
    await throttle.undo(`login-ip:${clientKey(rawIp)}`);
    await throttle.undo(`login-account:${account}`);
  }

  async succeeded(account: string, rawIp: string): Promise<void> {
    const throttle = this.ctx.services.throttle;
    const ip = clientKey(rawIp);
    await throttle.undo(`login-ip:${ip}`);
    await throttle.reset(`login-account:${account}`);
    await throttle.reset(`login-pair:${ip}:${account}`);
  }

  private waitError(retryAfterMs: number): AppError {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    return seconds >= 60 ? fail('login_throttled', { minutes: Math.ceil(seconds / 60) }) : fail('login_wait', { seconds });
  }
}
