import {
  CodePurpose,
  type AmendPasswordInputValue,
  type ForgetPasswordInputValue,
  type LoginInputValue,
  type RegisterInputValue,
} from '@tp/contract/schemas/auth';
import { VerifyRegType } from '@tp/contract/constants';
import type { AppContext } from '../../context.ts';
import { fail, invalid } from '../../http/errors.ts';
import { type Destination, destinationOf, maskEmail, maskMobile, normalizeEmail, normalizeMobile } from './destination.ts';
import { hashPassword, verifyPassword } from './password.ts';
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

const LOGIN_WINDOW_MS = 15 * 60_000;
const LOGIN_FAILURES_PER_ACCOUNT = 5;
const LOGIN_FAILURES_PER_IP = 20;

export interface RequestMeta {
  ip: string;
  userAgent?: string;
}

/** Registration, login and passwords: everything that decides who may act as an account. */
export class AccountService {
  constructor(private readonly ctx: AppContext) {}

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
   * answer after the same work; failures are throttled per account and per IP.
   */
  async login(input: LoginInputValue, meta: RequestMeta) {
    const ipKey = `login-ip:${meta.ip}`;
    await this.assertNotThrottled(ipKey, LOGIN_FAILURES_PER_IP);
    if (input.demo_id) {
      const demo = await findDemoUser(this.ctx.db, input.demo_id);
      if (!demo || demo.status !== 1) {
        await this.ctx.services.throttle.hit(ipKey, LOGIN_FAILURES_PER_IP, LOGIN_WINDOW_MS);
        throw fail('demo_not_found');
      }
      return this.startSession(demo, meta);
    }

    const account = input.account!.trim().toLowerCase();
    const type = input.login_type ?? (account.includes('@') ? 'email' : 'mobile');
    const accountKey = `login-account:${type}:${input.area_id ?? '*'}:${account}`;
    await this.assertNotThrottled(accountKey, LOGIN_FAILURES_PER_ACCOUNT);

    const user = await this.findLoginUser(type, account, input.area_id);
    const passwordOk = await verifyPassword(input.password!, user?.passwordHash ?? null);
    if (!user || !passwordOk) {
      await this.ctx.services.throttle.hit(accountKey, LOGIN_FAILURES_PER_ACCOUNT, LOGIN_WINDOW_MS);
      await this.ctx.services.throttle.hit(ipKey, LOGIN_FAILURES_PER_IP, LOGIN_WINDOW_MS);
      throw fail('login_failed');
    }
    if (user.status !== 1) throw fail('account_disabled');
    await this.ctx.services.throttle.reset(accountKey);
    return this.startSession(user, meta);
  }

  /** Sets a new password with a reset code; every session of the account ends. Unknown accounts fail at the code, like wrong codes. */
  async forgetPassword(input: ForgetPasswordInputValue): Promise<void> {
    const dest = await destinationOf(this.ctx.db, input.type, input.account, input.area_id);
    this.assertAcceptablePassword(input.new_password);
    if (!(await this.ctx.services.codes.consume(dest, CodePurpose.RESET, input.auth_code))) throw fail('code_invalid');
    const user = await findUserByDestination(this.ctx.db, dest);
    if (!user) throw fail('code_invalid');
    await setPasswordHash(this.ctx.db, user.id, await hashPassword(input.new_password));
    await this.ctx.services.sessions.revokeAllForUser(user.id, 'password_changed');
  }

  /** Changes the logged-in user's password with a code sent to their own email or phone; other sessions end. */
  async amendPassword(userId: number, sessionId: number, input: AmendPasswordInputValue): Promise<void> {
    const user = await findUserById(this.ctx.db, userId);
    if (!user) throw fail('login_failed');
    const dest = await this.ownDestination(user, input.type);
    this.assertAcceptablePassword(input.new_password);
    if (!(await this.ctx.services.codes.consume(dest, CodePurpose.RESET, input.auth_code))) throw fail('code_invalid');
    await setPasswordHash(this.ctx.db, user.id, await hashPassword(input.new_password));
    await this.ctx.services.sessions.revokeAllForUser(user.id, 'password_changed', sessionId);
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
    return { token, user: publicUser(user) };
  }

  private assertAcceptablePassword(password: string) {
    const problem = passwordProblem(password);
    if (problem) throw invalid(problem);
  }

  private async assertNotThrottled(key: string, limit: number) {
    const state = await this.ctx.services.throttle.check(key, limit, LOGIN_WINDOW_MS);
    if (!state.allowed) throw fail('login_throttled', { minutes: Math.max(1, Math.ceil(state.retryAfterMs / 60_000)) });
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
