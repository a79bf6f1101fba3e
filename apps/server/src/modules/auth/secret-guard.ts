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

/** The message keys of a lock: the refusal, and the subject and body of the owner's notice. */
export interface SecretTexts {
  locked: string;
  subject: string;
  body: string;
  /** More values for the notice's body ({{minutes}} is always given). */
  vars?: Record<string, string | number>;
}

const CODE_TEXTS: SecretTexts = { locked: 'secret_locked', subject: 'secret_locked_subject', body: 'secret_locked_body' };

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
    texts: SecretTexts = CODE_TEXTS,
  ): Promise<boolean> {
    const throttle = this.ctx.services.throttle;
    const key = `secret:${kind}:${ownerId}`;
    const state = await throttle.hit(key, SECRET_FAILURES, SECRET_LOCK_MS);
    if (!state.allowed) throw lockError(texts, state.retryAfterMs);
    let right: boolean;
    try {
      right = await check();
    } catch (err) {
      await throttle.undo(key);
      throw err;
    }
    if (right) {
      await throttle.reset(key);
      await throttle.reset(`${key}:failed`);
      return true;
    }
    // The failures themselves, counted apart from the attempts (which parallel requests raise before
    // their checks end), in one atomic step: exactly one failure is the fifth, and only it tells.
    if ((await throttle.hit(`${key}:failed`, SECRET_FAILURES, SECRET_LOCK_MS)).count === SECRET_FAILURES) {
      this.ctx.log.warn({ kind, ownerId }, 'secret locked after repeated wrong answers');
      const to = await owner();
      if (to) this.tell(to, texts);
    }
    return false;
  }

  /** Whether the secret is locked now (for answers that must not even reach the check). */
  async locked(kind: string, ownerId: number | string): Promise<boolean> {
    return (await this.lockedFor(kind, ownerId)) > 0;
  }

  /** How long the secret stays locked, in ms (0 when it is not), without counting an attempt. */
  async lockedFor(kind: string, ownerId: number | string): Promise<number> {
    const state = await this.ctx.services.throttle.check(`secret:${kind}:${ownerId}`, SECRET_FAILURES, SECRET_LOCK_MS);
    return state.allowed ? 0 : state.retryAfterMs;
  }

  /** Ends a lock and its count (the owner proved who they are another way, e.g. a password reset). */
  async clear(kind: string, ownerId: number | string): Promise<void> {
    await this.ctx.services.throttle.reset(`secret:${kind}:${ownerId}`);
    await this.ctx.services.throttle.reset(`secret:${kind}:${ownerId}:failed`);
  }

  private tell(to: SecretOwner, texts: SecretTexts) {
    const subject = t(to.lang, texts.subject);
    const text = t(to.lang, texts.body, { ...texts.vars, minutes: SECRET_LOCK_MS / 60_000 });
    if (to.email) this.ctx.services.codes.notify('email', to.email, subject, text);
    else if (to.phone) this.ctx.services.codes.notify('sms', to.phone, subject, text);
  }
}

/** The refusal while a secret is locked, with the minutes left (at least 1). */
export const lockError = (texts: Pick<SecretTexts, 'locked'>, retryAfterMs: number) =>
  fail(texts.locked, { minutes: Math.max(1, Math.ceil(retryAfterMs / 60_000)) });
