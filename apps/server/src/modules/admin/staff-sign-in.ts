import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { STAFF_TOTP_REQUIRED, STAFF_TOTP_SETUP } from '@tp/contract/schemas/admin';
import type { AppContext, AuthStaff } from '../../context.ts';
import { AppError, fail } from '../../http/errors.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { staff, staffRecoveryCodes } from './schema.ts';
import { acceptTotp, newTotpSecret, totpUri } from '../../platform/totp.ts';
import { hashPassword, needsRehash, verifyPassword } from '../auth/index.ts';

type StaffRow = typeof staff.$inferSelect;

/** Failed sign-ins per staff account (any address, every server through the shared throttle). */
const FAILURES_PER_ACCOUNT = 5;
const FAILURE_WINDOW_MS = 15 * 60_000;
const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'Back office';

const hashCode = (code: string) => createHash('sha256').update(code.toLowerCase().replace(/[^0-9a-z]/g, '')).digest('hex');
const newRecoveryCode = () => randomBytes(5).toString('hex').replace(/^(.{5})/, '$1-');

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
  private readonly totpRoles: string[];

  constructor(private readonly ctx: AppContext) {
    this.totpRoles = ctx.config.STAFF_TOTP_ROLES.split(',')
      .map((r) => r.trim())
      .filter(Boolean);
  }

  /** The staff id on success; the recovery codes too when this sign-in turned two-factor on. */
  async signIn(input: StaffSignInInput): Promise<{ staffId: number; recoveryCodes?: string[] }> {
    const email = input.email.trim().toLowerCase();
    const key = `staff-login:${email}`;
    const state = await this.ctx.services.throttle.check(key, FAILURES_PER_ACCOUNT, FAILURE_WINDOW_MS);
    if (!state.allowed) throw fail('login_throttled', { minutes: Math.max(1, Math.ceil(state.retryAfterMs / 60_000)) });
    const refuse = async (why: string) => {
      await this.ctx.services.throttle.hit(key, FAILURES_PER_ACCOUNT, FAILURE_WINDOW_MS);
      return fail(why);
    };

    const [row] = await this.ctx.db.select().from(staff).where(eq(staff.email, email)).limit(1);
    const passwordOk = await verifyPassword(input.password, row?.passwordHash ?? null);
    if (!row || !passwordOk || row.status !== 1) throw await refuse('login_failed');

    let recoveryCodes: string[] | undefined;
    if (row.totpEnabled) {
      if (input.recovery_code) {
        if (!(await this.useRecoveryCode(row.id, input.recovery_code))) throw await refuse('admin.recovery_code_wrong');
      } else if (!input.totp) {
        throw new AppError(STAFF_TOTP_REQUIRED, 'totp_required');
      } else if (!(await this.acceptCode(row, input.totp))) {
        throw await refuse('admin.totp_code_wrong');
      }
    } else if (row.roles.some((r) => this.totpRoles.includes(r))) {
      if (!input.totp) throw new AppError(STAFF_TOTP_SETUP, 'admin.totp_setup_required', {}, await this.setupOf(row));
      const step = row.totpSecret ? acceptTotp(row.totpSecret, input.totp, null) : null;
      if (step === null) throw await refuse('admin.totp_code_wrong');
      recoveryCodes = await this.turnOn(row.id, step);
    }
    await this.ctx.services.throttle.reset(key);
    if (needsRehash(row.passwordHash)) await this.ctx.db.update(staff).set({ passwordHash: await hashPassword(input.password) }).where(eq(staff.id, row.id));
    return { staffId: row.id, recoveryCodes };
  }

  /** Starts (or shows again) TOTP enrolment: the secret is kept, but not required until confirmed with a code. */
  async setup(who: AuthStaff): Promise<{ secret: string; otpauth_url: string }> {
    return this.setupOf(await this.mustFind(who.id));
  }

  private async setupOf(row: StaffRow): Promise<{ secret: string; otpauth_url: string }> {
    if (row.totpEnabled) throw fail('admin.totp_already_enabled');
    let secret = row.totpSecret;
    if (!secret) {
      secret = newTotpSecret();
      await this.ctx.db.update(staff).set({ totpSecret: secret }).where(and(eq(staff.id, row.id), eq(staff.totpEnabled, false)));
    }
    return { secret, otpauth_url: totpUri(secret, ISSUER, row.email) };
  }

  /** Turns TOTP on once the member proves the authenticator works; answers the new recovery codes. */
  async enable(who: AuthStaff, code: string): Promise<string[]> {
    const row = await this.mustFind(who.id);
    if (row.totpEnabled) throw fail('admin.totp_already_enabled');
    if (!row.totpSecret) throw fail('admin.totp_not_set_up');
    const step = acceptTotp(row.totpSecret, code, null);
    if (step === null) throw fail('admin.totp_code_wrong');
    return this.turnOn(row.id, step);
  }

  /** New recovery codes (the old ones stop working), confirmed with a current TOTP code. */
  async renewRecoveryCodes(who: AuthStaff, code: string): Promise<string[]> {
    const row = await this.mustFind(who.id);
    if (!row.totpEnabled) throw fail('admin.totp_not_set_up');
    if (!(await this.acceptCode(row, code))) throw fail('admin.totp_code_wrong');
    return this.ctx.db.transaction(async (tx) => {
      const codes = await this.replaceRecoveryCodes(tx, row.id);
      await this.ctx.services.staff.audit(tx, who, 'staff.recovery_codes_renew', { type: 'staff', id: row.id }, null, { count: codes.length });
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
      await this.ctx.services.staff.audit(tx, { id: staffId }, 'staff.totp_enable', { type: 'staff', id: staffId }, { totp_enabled: false }, { totp_enabled: true });
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
      .where(and(eq(staffRecoveryCodes.staffId, staffId), eq(staffRecoveryCodes.codeHash, hashCode(code)), isNull(staffRecoveryCodes.usedAt)))
      .returning({ id: staffRecoveryCodes.id });
    if (used.length !== 1) return false;
    await this.ctx.services.staff.audit(this.ctx.db, { id: staffId }, 'staff.recovery_code_used', { type: 'staff', id: staffId }, null, null);
    return true;
  }
}
