import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { STAFF_TOTP_REQUIRED, STAFF_TOTP_SETUP } from '@tp/contract/schemas/admin';
import type { AppContext, AuthStaff } from '../../context.ts';
import { AppError, fail } from '../../http/errors.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { staff, staffRecoveryCodes } from './schema.ts';
import { acceptTotp, newTotpSecret, totpUri } from '../../platform/totp.ts';
import { hashPassword, needsRehash, SecretGuard, verifyPassword } from '../auth/index.ts';
import { clientKey } from '../../http/client-key.ts';
import { t } from '../../http/i18n.ts';

type StaffRow = typeof staff.$inferSelect;

/** Failed sign-ins per staff account (any address, every server through the shared throttle). */
const FAILURES_PER_ACCOUNT = 5;
const FAILURE_WINDOW_MS = 15 * 60_000;
const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'Back office';

const hashCode = (code: string) =>
  createHash('sha256')
    .update(code.toLowerCase().replace(/[^0-9a-z]/g, ''))
    .digest('hex');
const newRecoveryCode = () =>
  randomBytes(5)
    .toString('hex')
    .replace(/^(.{5})/, '$1-');

export interface StaffSignInInput {
  email: string;
  password: string;
  totp?: string;
  recovery_code?: string;
}

/**
 * Staff sign-in: password, then the second factor. Failures are throttled per account; roles that
 * move money must use TOTP and set it up at their first sign-in; each TOTP step and each recovery
 * code signs in once.
 */
export class StaffSignIn {
  readonly totpRoles: string[];
  private readonly secrets: SecretGuard;

  constructor(private readonly ctx: AppContext) {
    this.totpRoles = ctx.config.STAFF_TOTP_ROLES.split(',')
      .map((r) => r.trim())
      .filter(Boolean);
    this.secrets = new SecretGuard(ctx);
  }

  /**
   * The staff id on success; the recovery codes too when this sign-in turned two-factor on.
   *
   * Each attempt is counted as a failure before any hashing, per address (any e-mail, known or not:
   * unknown ones hash too, so timing tells nothing) and per member (their id once found), atomically,
   * and taken back on success; every outcome is in the audit log.
   */
  async signIn(input: StaffSignInInput, meta: { ip?: string; lang?: string } = {}): Promise<{ staffId: number; recoveryCodes?: string[] }> {
    const email = input.email.trim().toLowerCase().slice(0, 254);
    const throttle = this.ctx.services.throttle;
    const ip = clientKey(meta.ip);
    const ipKey = `staff-login-ip:${ip}`;
    const [row] = await this.ctx.db.select().from(staff).where(eq(staff.email, email)).limit(1);
    const key = row ? `staff-login:${row.id}` : `staff-login:${email}`;
    const audit = (action: string, reason?: string) =>
      this.ctx.services.staff.audit(this.ctx.db, { id: row?.id ?? 0 }, action, { type: 'staff', id: row?.id ?? 0 }, null, {
        email,
        ip: meta.ip ?? null,
        reason: reason ?? null,
      });
    for (const [k, limit] of [
      [ipKey, this.ctx.config.STAFF_LOGIN_FAILURES_PER_IP],
      [key, FAILURES_PER_ACCOUNT],
    ] as const) {
      const state = await throttle.hit(k, limit, FAILURE_WINDOW_MS);
      if (!state.allowed) {
        await audit('staff.sign_in_refused', 'throttled');
        throw fail('login_throttled', { minutes: Math.max(1, Math.ceil(state.retryAfterMs / 60_000)) });
      }
    }
    // The attempt is already counted; a refusal only records why, and the member hears once when
    // their failures reach the lock (the next attempt, the right password too, waits out the window).
    const refuse = async (why: string) => {
      await audit('staff.sign_in_failed', why);
      // Failures counted apart from attempts, in one atomic step: exactly one is the fifth.
      if (row && (await throttle.hit(`${key}:failed`, FAILURES_PER_ACCOUNT, FAILURE_WINDOW_MS)).count === FAILURES_PER_ACCOUNT) {
        this.ctx.log.warn({ staffId: row.id }, 'staff sign-in locked after repeated failures');
        this.ctx.services.codes.notify(
          'email',
          row.email,
          t(meta.lang, 'login_alert_subject'),
          t(meta.lang, 'login_locked_body', { ip: meta.ip ?? '', minutes: FAILURE_WINDOW_MS / 60_000 }),
        );
      }
      return fail(why);
    };
    const release = async () => {
      await throttle.undo(ipKey);
      await throttle.undo(key);
    };

    const passwordOk = await verifyPassword(input.password, row?.passwordHash ?? null);
    if (!row || !passwordOk || row.status !== 1) throw await refuse('login_failed');

    let recoveryCodes: string[] | undefined;
    const owner = async () => ({ email: row.email, lang: meta.lang });
    if (row.totpEnabled) {
      if (input.recovery_code) {
        const code = input.recovery_code;
        if (!(await this.secrets.attempt('staff-2fa', row.id, owner, () => this.useRecoveryCode(row.id, code))))
          throw await refuse('admin.recovery_code_wrong');
      } else if (!input.totp) {
        // Not a failure: the password was right and the client is asked for the second step.
        await release();
        throw new AppError(STAFF_TOTP_REQUIRED, 'totp_required');
      } else {
        const code = input.totp;
        if (!(await this.secrets.attempt('staff-2fa', row.id, owner, () => this.acceptCode(row, code))))
          throw await refuse('admin.totp_code_wrong');
      }
    } else if (row.roles.some((r) => this.totpRoles.includes(r))) {
      if (!input.totp) {
        await release();
        throw new AppError(STAFF_TOTP_SETUP, 'admin.totp_setup_required', {}, await this.setupOf(row));
      }
      const found: { step: number | null } = { step: null };
      const secret = row.totpSecret;
      const right = await this.secrets.attempt('staff-2fa', row.id, owner, async () => {
        found.step = secret ? acceptTotp(secret, input.totp!, null) : null;
        return found.step !== null;
      });
      if (!right || found.step === null) throw await refuse('admin.totp_code_wrong');
      recoveryCodes = await this.turnOn(row.id, found.step);
    }
    await throttle.reset(key);
    await throttle.reset(`${key}:failed`);
    await throttle.undo(ipKey);
    await audit('staff.sign_in');
    if (needsRehash(row.passwordHash))
      await this.ctx.db
        .update(staff)
        .set({ passwordHash: await hashPassword(input.password) })
        .where(eq(staff.id, row.id));
    return { staffId: row.id, recoveryCodes };
  }

  /** Starts (or shows again) TOTP enrolment: the secret is kept, but not required until confirmed with a code. */
  async setup(who: AuthStaff): Promise<{ secret: string; otpauth_url: string }> {
    return this.setupOf(await this.mustFind(who.id));
  }

  private async setupOf(row: StaffRow): Promise<{ secret: string; otpauth_url: string }> {
    if (row.totpEnabled) throw fail('admin.totp_already_enabled');
    // Fresh on every call: a secret someone read earlier is replaced, only the one shown last confirms.
    const secret = newTotpSecret();
    await this.ctx.db
      .update(staff)
      .set({ totpSecret: secret })
      .where(and(eq(staff.id, row.id), eq(staff.totpEnabled, false)));
    return { secret, otpauth_url: totpUri(secret, ISSUER, row.email) };
  }

  /** Turns TOTP on once the member proves the authenticator works; answers the new recovery codes. */
  async enable(who: AuthStaff, code: string): Promise<string[]> {
    const row = await this.mustFind(who.id);
    if (row.totpEnabled) throw fail('admin.totp_already_enabled');
    if (!row.totpSecret) throw fail('admin.totp_not_set_up');
    const secret = row.totpSecret;
    const found: { step: number | null } = { step: null };
    const right = await this.secrets.attempt(
      'staff-2fa',
      row.id,
      async () => ({ email: row.email }),
      async () => {
        found.step = acceptTotp(secret, code, null);
        return found.step !== null;
      },
    );
    if (!right || found.step === null) throw fail('admin.totp_code_wrong');
    return this.turnOn(row.id, found.step);
  }

  /** New recovery codes (the old ones stop working), confirmed with a current TOTP code. */
  async renewRecoveryCodes(who: AuthStaff, code: string): Promise<string[]> {
    const row = await this.mustFind(who.id);
    if (!row.totpEnabled) throw fail('admin.totp_not_set_up');
    if (
      !(await this.secrets.attempt(
        'staff-2fa',
        row.id,
        async () => ({ email: row.email }),
        () => this.acceptCode(row, code),
      ))
    )
      throw fail('admin.totp_code_wrong');
    return this.ctx.db.transaction(async (tx) => {
      const codes = await this.replaceRecoveryCodes(tx, row.id);
      await this.ctx.services.staff.audit(tx, who, 'staff.recovery_codes_renew', { type: 'staff', id: row.id }, null, {
        count: codes.length,
      });
      return codes;
    });
  }

  private async mustFind(id: number): Promise<StaffRow> {
    const [row] = await this.ctx.db.select().from(staff).where(eq(staff.id, id)).limit(1);
    if (!row) throw fail('login_failed');
    return row;
  }

  /** A valid code of a later step than the last accepted one; recording it is atomic, so a code wins once. */
  private async acceptCode(row: StaffRow, code: string): Promise<boolean> {
    const step = row.totpSecret ? acceptTotp(row.totpSecret, code.trim(), row.totpLastStep) : null;
    if (step === null) return false;
    const moved = await this.ctx.db
      .update(staff)
      .set({ totpLastStep: step })
      .where(and(eq(staff.id, row.id), or(isNull(staff.totpLastStep), lt(staff.totpLastStep, step))))
      .returning({ id: staff.id });
    return moved.length === 1;
  }

  private async turnOn(staffId: number, step: number): Promise<string[]> {
    return this.ctx.db.transaction(async (tx) => {
      const [on] = await tx
        .update(staff)
        .set({ totpEnabled: true, totpLastStep: step })
        .where(and(eq(staff.id, staffId), eq(staff.totpEnabled, false)))
        .returning({ id: staff.id });
      if (!on) throw fail('admin.totp_already_enabled');
      const codes = await this.replaceRecoveryCodes(tx, staffId);
      await this.ctx.services.staff.audit(
        tx,
        { id: staffId },
        'staff.totp_enable',
        { type: 'staff', id: staffId },
        { totp_enabled: false },
        { totp_enabled: true },
      );
      return codes;
    });
  }

  private async replaceRecoveryCodes(tx: DbOrTx, staffId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staffId));
    await tx.insert(staffRecoveryCodes).values(codes.map((c) => ({ staffId, codeHash: hashCode(c) })));
    return codes;
  }

  private async useRecoveryCode(staffId: number, code: string): Promise<boolean> {
    const used = await this.ctx.db
      .update(staffRecoveryCodes)
      .set({ usedAt: new Date() })
      .where(
        and(eq(staffRecoveryCodes.staffId, staffId), eq(staffRecoveryCodes.codeHash, hashCode(code)), isNull(staffRecoveryCodes.usedAt)),
      )
      .returning({ id: staffRecoveryCodes.id });
    if (used.length !== 1) return false;
    await this.ctx.services.staff.audit(
      this.ctx.db,
      { id: staffId },
      'staff.recovery_code_used',
      { type: 'staff', id: staffId },
      null,
      null,
    );
    return true;
  }
}
