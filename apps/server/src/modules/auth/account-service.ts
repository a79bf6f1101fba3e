import {
  CodePurpose,
  LOGIN_TOTP_REQUIRED,
  type AmendPasswordInputValue,
  type ForgetPasswordInputValue,
  type LoginInputValue,
  type RegisterInputValue,
} from '@tp/contract/schemas/auth';
import { VerifyRegType } from '@tp/contract/constants';
import type { AppContext } from '../../context.ts';
import { AppError, fail, invalid } from '../../http/errors.ts';
import { LoginGuard } from './login-guard.ts';
import { lockError, SecretGuard, type SecretTexts } from './secret-guard.ts';

/** A locked password: the refusal, and the owner's one notice (which says where the last try came from). */
const PASSWORD_TEXTS: SecretTexts = { locked: 'login_locked', subject: 'login_alert_subject', body: 'login_locked_body' };
import { userOwner } from './two-factor-service.ts';
import { type Destination, destinationOf, maskEmail, maskMobile, normalizeEmail, normalizeMobile } from './destination.ts';
import { hashPassword, needsRehash, verifyPassword } from './password.ts';
import { passwordProblem } from './password-policy.ts';
import { getSetting } from './settings-repository.ts';
import {
  findDemoUser,
  findRealUserByInviteCode,
  findUserByDestination,
  findUserById,
  findUsersByMobile,
  insertUser,
  listInvitedBy,
  isUniqueViolation,
  publicUser,
  setPasswordHash,
  type UserRow,
} from './user-repository.ts';

export interface RequestMeta {
  ip: string;
  userAgent?: string;
}

/** Registration, login and passwords: everything that decides who may act as an account. */
export class AccountService {
  private readonly guard: LoginGuard;
  private readonly secrets: SecretGuard;

  constructor(private readonly ctx: AppContext) {
    this.guard = new LoginGuard(ctx);
    this.secrets = new SecretGuard(ctx);
  }

  async register(input: RegisterInputValue, meta: RequestMeta) {
    const dest = await destinationOf(this.ctx.db, input.type, input.account, input.area_id);
    if (input.password !== input.re_password) throw invalid('password_mismatch');
    this.assertAcceptablePassword(input.password);
    const inviter = input.invite_code ? await findRealUserByInviteCode(this.ctx.db, input.invite_code) : undefined;
    if (input.invite_code && !inviter) throw invalid('invite_code_invalid');

    if ((await getSetting(this.ctx.db, 'verify_reg_type')) === String(VerifyRegType.CAPTCHA)) {
      const answer = input.captcha ?? input.sms_code;
      if (!input.key || !answer) throw invalid('captcha_required');
      if (!(await this.ctx.services.captcha.verify(input.key, answer))) throw fail('captcha_invalid');
    } else {
      if (!input.sms_code) throw invalid('code_required');
      if (!(await this.ctx.services.codes.consume(dest, CodePurpose.REGISTER, input.sms_code))) throw fail('code_invalid');
    }

    const passwordHash = await hashPassword(input.password);
    const user = await this.ctx.db
      .transaction(async (tx) => {
        const row = await insertUser(tx, {
          email: dest.channel === 'email' ? dest.email : null,
          mobile: dest.channel === 'sms' ? dest.mobile : null,
          areaId: dest.channel === 'sms' ? dest.areaId : null,
          passwordHash,
          invitedBy: inviter?.id ?? null,
        });
        await this.ctx.services.ledger.openUserAccounts(tx, row.id, false);
        return row;
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err, 'users_email_uq') || isUniqueViolation(err, 'users_mobile_uq')) throw fail('account_exists');
        throw err;
      });
    return this.startSession(user, meta);
  }

  /**
   * Password login, or demo login by demo_id. An unknown account and a wrong password get the same
   * answer after the same work; guessing is slowed per account and per source (LoginGuard), and 5
   * wrong passwords for one account (known or not, so the answer tells nothing) lock its password
   * for 15 minutes, the right one too; the owner is told once. An account with two-factor sign-in
   * on also needs its authenticator code.
   */
  async login(input: LoginInputValue, meta: RequestMeta & { lang?: string }) {
    if (input.demo_id) {
      await this.guard.admit(`demo:${input.demo_id}`, meta.ip, {});
      const demo = await findDemoUser(this.ctx.db, input.demo_id);
      if (!demo || demo.status !== 1) {
        await this.guard.failed(`demo:${input.demo_id}`, meta.ip);
        throw fail('demo_not_found');
      }
      return this.startSession(demo, meta);
    }

    const account = input.account!.trim().toLowerCase();
    const type = input.login_type ?? (account.includes('@') ? 'email' : 'mobile');
    // Failures count per account as the lookup finds it (its id), never per text typed: another
    // area_id or other spacing of the same number is the same account to the counters.
    const user = await this.findLoginUser(type, account, input.area_id);
    const accountKey = user ? `user:${user.id}` : `${type}:${this.normalisedAccount(type, account)}`;
    // A locked password is refused before the captcha, the counters and any hashing.
    const lockedMs = await this.secrets.lockedFor('password', accountKey);
    if (lockedMs) throw lockError(PASSWORD_TEXTS, lockedMs);
    await this.guard.admit(accountKey, meta.ip, { key: input.key, answer: input.captcha });

    let passwordOk: boolean;
    try {
      // Counted before hashing, atomically: a burst of parallel guesses gets 5 checked at most.
      passwordOk = await this.secrets.attempt(
        'password',
        accountKey,
        async () => (user ? userOwner(this.ctx, user, meta.lang) : null),
        () => verifyPassword(input.password!, user?.passwordHash ?? null),
        { ...PASSWORD_TEXTS, vars: { ip: meta.ip ?? '' } },
      );
    } catch (err) {
      // Locked by a parallel attempt, or no hashing slot: not a password failure.
      await this.guard.withdraw(accountKey, meta.ip);
      throw err;
    }
    if (!user || !passwordOk) {
      await this.guard.failed(accountKey, meta.ip);
      throw fail('login_failed');
    }
    if (user.status !== 1) throw fail('account_disabled');
    if (user.totpEnabled) {
      if (!input.totp) throw new AppError(LOGIN_TOTP_REQUIRED, 'totp_required_login');
      if (!(await this.ctx.services.twoFactor.accept(user.id, input.totp, meta.lang))) {
        await this.guard.failed(accountKey, meta.ip);
        throw fail('totp_code_wrong');
      }
    }
    await this.guard.succeeded(accountKey, meta.ip);
    if (needsRehash(user.passwordHash)) await setPasswordHash(this.ctx.db, user.id, await hashPassword(input.password!));
    return this.startSession(user, meta);
  }

  /** Sets a new password with a reset code; every session of the account ends. Unknown accounts fail at the code, like wrong codes. */
  async forgetPassword(input: ForgetPasswordInputValue, lang?: string): Promise<void> {
    const dest = await destinationOf(this.ctx.db, input.type, input.account, input.area_id);
    this.assertAcceptablePassword(input.new_password);
    const user = await findUserByDestination(this.ctx.db, dest);
    const consume = () => this.ctx.services.codes.consume(dest, CodePurpose.RESET, input.auth_code);
    // Wrong reset codes count per account across every code it is sent (each code also dies after 5 tries).
    const right = user ? await this.secrets.attempt('reset', user.id, () => userOwner(this.ctx, user, lang), consume) : await consume();
    if (!right || !user) throw fail('code_invalid');
    await setPasswordHash(this.ctx.db, user.id, await hashPassword(input.new_password));
    // The owner proved who they are with the code: a lock a stranger put on the old password ends.
    await this.secrets.clear('password', `user:${user.id}`);
    await this.ctx.services.sessions.revokeAllForUser(user.id, 'password_changed');
    await this.ctx.services.apiKeys.revokeAllForUser(user.id, 'password_changed');
  }

  /** Changes the logged-in user's password with a code sent to their own email or phone; other sessions end. */
  async amendPassword(userId: number, sessionId: number, input: AmendPasswordInputValue, lang?: string): Promise<void> {
    const user = await findUserById(this.ctx.db, userId);
    if (!user) throw fail('login_failed');
    const dest = await this.ownDestination(user, input.type);
    this.assertAcceptablePassword(input.new_password);
    const consume = () => this.ctx.services.codes.consume(dest, CodePurpose.RESET, input.auth_code);
    if (!(await this.secrets.attempt('reset', user.id, () => userOwner(this.ctx, user, lang), consume))) throw fail('code_invalid');
    await setPasswordHash(this.ctx.db, user.id, await hashPassword(input.new_password));
    await this.ctx.services.sessions.revokeAllForUser(user.id, 'password_changed', sessionId);
    // Bots' keys end too: whoever knew the old password may have made them.
    await this.ctx.services.apiKeys.revokeAllForUser(user.id, 'password_changed');
  }

  /** The people this user invited, masked: enough to recognise, not to contact. */
  async invitees(userId: number, page: number, limit: number) {
    const { rows, total } = await listInvitedBy(this.ctx.db, userId, limit, (page - 1) * limit);
    return {
      data: rows.map((r) => ({
        uid: r.uid,
        email: maskEmail(r.email),
        mobile: maskMobile(r.mobile),
        created_at: r.createdAt.toISOString(),
      })),
      total,
    };
  }

  private async startSession(user: UserRow, meta: RequestMeta) {
    const token = await this.ctx.services.sessions.create({ userId: user.id }, meta);
    this.ctx.log.info({ userId: user.id, demo: user.isDemo, ip: meta.ip }, 'user signed in');
    return { token, user: publicUser(user) };
  }

  private assertAcceptablePassword(password: string) {
    const problem = passwordProblem(password);
    if (problem) throw invalid(problem);
  }

  private normalisedAccount(type: 'email' | 'mobile', account: string): string {
    try {
      return type === 'email' ? normalizeEmail(account) : normalizeMobile(account);
    } catch {
      return account;
    }
  }

  private async findLoginUser(type: 'email' | 'mobile', account: string, areaId: number | undefined): Promise<UserRow | undefined> {
    try {
      if (type === 'email')
        return await findUserByDestination(this.ctx.db, { channel: 'email', email: normalizeEmail(account), key: '', address: '' });
      const mobile = normalizeMobile(account);
      if (areaId) return await findUserByDestination(this.ctx.db, { channel: 'sms', areaId, mobile, key: '', address: '' });
      const matches = await findUsersByMobile(this.ctx.db, mobile);
      return matches.length === 1 ? matches[0] : undefined;
    } catch {
      // A malformed account is simply not found: same answer as a wrong password.
      return undefined;
    }
  }

  private async ownDestination(user: UserRow, type: 'email' | 'mobile'): Promise<Destination> {
    if (type === 'email') {
      if (!user.email) throw fail('email_not_bound');
      return destinationOf(this.ctx.db, 'email', user.email, undefined);
    }
    if (!user.mobile || !user.areaId) throw fail('mobile_not_bound');
    return destinationOf(this.ctx.db, 'mobile', user.mobile, user.areaId);
  }
}
