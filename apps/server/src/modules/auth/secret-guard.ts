import type { AppContext } from '../../context.ts';
import { fail } from '../../http/errors.ts';
import { t } from '../../http/i18n.ts';

/** Wrong answers to one secret (a second-factor code, a reset code) of one owner before it locks. */
export const SECRET_FAILURES = 5;
/** How long a lock lasts (the window the failures were counted in). */
export const SECRET_LOCK_MS = 15 * 60_000;

export interface SecretOwner {
  /** Where the owner hears of the lock; nothing is sent when both are missing. */
  email?: string | null;
  /** A full international number (SMS), when the owner has no e-mail. */
  phone?: string | null;
  lang?: string;
}

/**
 * Counts wrong answers to a secret per owner (the user or staff id once found, never the text the
 * client typed), in the shared throttle so every server sees the same count. The attempt is counted
 * BEFORE the secret is checked, atomically, so a burst of parallel guesses cannot all pass a check
 * made before any failure was recorded; a right answer takes its count back and clears the others.
 * At the limit the secret locks for the window and its owner is told once.
 */
export class SecretGuard {
  constructor(private readonly ctx: AppContext) {}

  async attempt(
    kind: string,
    ownerId: number | string,
    owner: () => Promise<SecretOwner | null>,
    check: () => Promise<boolean>,
  ): Promise<boolean> {
    const throttle = this.ctx.services.throttle;
    const key = `secret:${kind}:${ownerId}`;
    const state = await throttle.hit(key, SECRET_FAILURES, SECRET_LOCK_MS);
    if (!state.allowed) throw fail('secret_locked', { minutes: Math.max(1, Math.ceil(state.retryAfterMs / 60_000)) });
    let right = false;
    try {
      right = await check();
    } catch (err) {
      await throttle.undo(key);
      throw err;
    }
    if (right) {
      await throttle.reset(key);
      return true;
    }
    if ((await throttle.count(key)) === SECRET_FAILURES) {
      this.ctx.log.warn({ kind, ownerId }, 'secret locked after repeated wrong answers');
      const to = await owner();
      if (to) this.tell(to);
    }
    return false;
  }

  /** Whether the secret is locked now (for answers that must not even reach the check). */
  async locked(kind: string, ownerId: number | string): Promise<boolean> {
    return !(await this.ctx.services.throttle.check(`secret:${kind}:${ownerId}`, SECRET_FAILURES, SECRET_LOCK_MS)).allowed;
  }

  private tell(to: SecretOwner) {
    const subject = t(to.lang, 'secret_locked_subject');
    const text = t(to.lang, 'secret_locked_body', { minutes: SECRET_LOCK_MS / 60_000 });
    if (to.email) this.ctx.services.codes.notify('email', to.email, subject, text);
    else if (to.phone) this.ctx.services.codes.notify('sms', to.phone, subject, text);
  }
}
