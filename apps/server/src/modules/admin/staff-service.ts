import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { AppContext, AuthStaff } from '../../context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { staff, staffAuditLog } from '../../platform/db/schema.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { verifyTotp } from './totp.ts';

export const STAFF_ROLES = ['admin', 'finance', 'risk', 'support', 'content'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export class StaffService {
  constructor(private readonly ctx: AppContext) {}

  /** Creates the first staff account when there is none; prints a generated password once. */
  async bootstrap(): Promise<void> {
    const [{ n }] = (await this.ctx.db.select({ n: sql<number>`count(*)::int` }).from(staff)) as [{ n: number }];
    if (n > 0) return;
    const email = this.ctx.config.ADMIN_EMAIL.toLowerCase();
    const generated = !this.ctx.config.ADMIN_PASSWORD;
    const password = this.ctx.config.ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
    await this.ctx.db.insert(staff).values({ email, name: 'Administrator', passwordHash: await hashPassword(password), roles: ['admin'] }).onConflictDoNothing();
    if (generated && this.ctx.config.NODE_ENV !== 'test') {
      // Printed once, on first start only: the operator must keep it.
      process.stdout.write(`\n  Staff account created: ${email}\n  Password (shown once): ${password}\n  Back office: /admin\n\n`);
    }
  }

  /** Checks email, password and (when enabled) the TOTP code; the same refusal for every wrong part. */
  async authenticate(email: string, password: string, totp?: string): Promise<{ ok: true; staffId: number } | { ok: false; needTotp?: boolean }> {
    const [row] = await this.ctx.db.select().from(staff).where(eq(staff.email, email.trim().toLowerCase())).limit(1);
    const passwordOk = await verifyPassword(password, row?.passwordHash ?? null);
    if (!row || !passwordOk || row.status !== 1) return { ok: false };
    if (row.totpEnabled && row.totpSecret) {
      if (!totp) return { ok: false, needTotp: true };
      if (!verifyTotp(row.totpSecret, totp)) return { ok: false };
    }
    return { ok: true, staffId: row.id };
  }

  /** Writes one line of the append-only staff audit log, in the caller's transaction when given. */
  async audit(
    db: DbOrTx,
    who: AuthStaff,
    action: string,
    target: { type: string; id: string | number },
    before: unknown,
    after: unknown,
  ): Promise<void> {
    await db.insert(staffAuditLog).values({ staffId: who.id, action, targetType: target.type, targetId: String(target.id), before: before ?? null, after: after ?? null });
  }
}
