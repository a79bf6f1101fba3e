import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { AppContext, AuthUser } from '../../context.ts';
import { demoBlocked, fail } from '../../http/errors.ts';
import { users } from './schema.ts';
import { acceptTotp, newTotpSecret, totpUri } from '../../platform/totp.ts';
import { findUserById, type UserRow } from './user-repository.ts';
import { SecretGuard, type SecretOwner } from './secret-guard.ts';
import { findArea } from './settings-repository.ts';

const ISSUER = 'TradePlatform';

/**
 * A trader's optional two-factor sign-in (real accounts only): set up with a QR code, turned on
 * and off with a code; once on, login and withdrawals need a code, and each code works once.
 */
export class TwoFactorService {
  private readonly guard: SecretGuard;

  constructor(private readonly ctx: AppContext) {
    this.guard = new SecretGuard(ctx);
  }

  async status(who: AuthUser): Promise<{ enabled: boolean }> {
    const user = await this.mustFind(who);
    return { enabled: user.totpEnabled };
  }

  /**
   * A secret to scan, fresh on every call: one read earlier (by whoever held the session then) is
   * replaced, so only the secret shown last can be confirmed.
   */
  async setup(who: AuthUser): Promise<{ secret: string; otpauth_url: string }> {
    const user = await this.mustFind(who);
    if (user.totpEnabled) throw fail('totp_already_enabled');
    const secret = newTotpSecret();
    await this.ctx.db
      .update(users)
      .set({ totpSecret: secret })
      .where(and(eq(users.id, user.id), eq(users.totpEnabled, false)));
    return { secret, otpauth_url: totpUri(secret, ISSUER, user.email ?? user.mobile ?? user.uid) };
  }

  async enable(who: AuthUser, code: string, lang?: string): Promise<void> {
    const user = await this.mustFind(who);
    if (user.totpEnabled) throw fail('totp_already_enabled');
    if (!user.totpSecret) throw fail('totp_not_set_up');
    const secret = user.totpSecret;
    const found: { step: number | null } = { step: null };
    const right = await this.guard.attempt(
      'totp',
      user.id,
      () => userOwner(this.ctx, user, lang),
      async () => {
        found.step = acceptTotp(secret, code, null);
        return found.step !== null;
      },
    );
    const step = found.step;
    if (!right || step === null) throw fail('totp_code_wrong');
    await this.ctx.db
      .update(users)
      .set({ totpEnabled: true, totpLastStep: step })
      .where(and(eq(users.id, user.id), eq(users.totpEnabled, false)));
  }

  async disable(who: AuthUser, code: string, lang?: string): Promise<void> {
    const user = await this.mustFind(who);
    if (!user.totpEnabled) throw fail('totp_not_set_up');
    if (!(await this.accept(user.id, code, lang))) throw fail('totp_code_wrong');
    await this.ctx.db.update(users).set({ totpEnabled: false, totpSecret: null, totpLastStep: null }).where(eq(users.id, user.id));
  }

  /** For a withdrawal: nothing when two-factor is off; otherwise a valid, unused code is required. */
  async require(userId: number, code: string | undefined, lang?: string): Promise<void> {
    const user = await findUserById(this.ctx.db, userId);
    if (!user?.totpEnabled) return;
    if (!code) throw fail('totp_required_withdraw');
    if (!(await this.accept(userId, code, lang))) throw fail('totp_code_wrong');
  }

  /** A valid code of a later step than the last accepted one; recording the step is atomic, so a code wins once. */
  async accept(userId: number, code: string, lang?: string): Promise<boolean> {
    const user = await findUserById(this.ctx.db, userId);
    if (!user) return false;
    // Wrong codes count per user wherever they are tried (sign-in, withdrawal, turning it off).
    return this.guard.attempt(
      'totp',
      userId,
      () => userOwner(this.ctx, user, lang),
      () => this.acceptStep(user, code),
    );
  }

  private async acceptStep(user: UserRow, code: string): Promise<boolean> {
    const userId = user.id;
    const step = user?.totpSecret ? acceptTotp(user.totpSecret, code.trim(), user.totpLastStep) : null;
    if (step === null) return false;
    const moved = await this.ctx.db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id });
    return moved.length === 1;
  }

  private async mustFind(who: AuthUser) {
    if (who.isDemo) throw demoBlocked();
    const user = await findUserById(this.ctx.db, who.id);
    if (!user) throw fail('login_failed');
    return user;
  }
}

/** Where a trader hears about their account: the e-mail, else the full phone number. */
export async function userOwner(ctx: AppContext, user: UserRow, lang?: string): Promise<SecretOwner | null> {
  if (user.email) return { email: user.email, lang };
  if (user.mobile && user.areaId) {
    const area = await findArea(ctx.db, user.areaId);
    if (area) return { phone: `${area.globalCode}${user.mobile}`, lang };
  }
  return null;
}
