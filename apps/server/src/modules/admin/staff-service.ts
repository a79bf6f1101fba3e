import { randomBytes } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Staff } from '@tp/contract/schemas/admin';
import type { AppContext, AuthStaff } from '../../context.ts';
import { fail, notFound } from '../../http/errors.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { staff, staffAuditLog } from './schema.ts';
import { hashPassword, isUniqueViolation } from '../auth/index.ts';

export { STAFF_ROLES, type StaffRole } from '@tp/contract/schemas/admin';

type StaffRow = typeof staff.$inferSelect;
export const staffView = (r: StaffRow): Staff => ({
  id: r.id,
  email: r.email,
  name: r.name,
  roles: r.roles,
  totp_enabled: r.totpEnabled,
  status: r.status,
  created_at: r.createdAt.toISOString(),
});

export class StaffService {
  constructor(private readonly ctx: AppContext) {}

  /** The first staff account's generated password, set only by the start that created it (npm start prints it once). */
  generatedPassword: string | undefined;

  /** Creates the first staff account when there is none, with ADMIN_PASSWORD or a generated password. */
  async bootstrap(): Promise<void> {
    const [{ n }] = (await this.ctx.db.select({ n: sql<number>`count(*)::int` }).from(staff)) as [{ n: number }];
    if (n > 0) return;
    const email = this.ctx.config.ADMIN_EMAIL.toLowerCase();
    const generated = !this.ctx.config.ADMIN_PASSWORD;
    const password = this.ctx.config.ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
    const [created] = await this.ctx.db
      .insert(staff)
      .values({ email, name: 'Administrator', passwordHash: await hashPassword(password), roles: ['admin'] })
      .onConflictDoNothing()
      .returning({ id: staff.id });
    if (generated && created) this.generatedPassword = password;
  }

  /** Writes one line of the append-only staff audit log, in the caller's transaction when given. */
  async audit(
    db: DbOrTx,
    who: Pick<AuthStaff, 'id'>,
    action: string,
    target: { type: string; id: string | number },
    before: unknown,
    after: unknown,
  ): Promise<void> {
    await db.insert(staffAuditLog).values({
      staffId: who.id,
      action,
      targetType: target.type,
      targetId: String(target.id),
      before: before ?? null,
      after: after ?? null,
    });
    this.ctx.log.info({ staffId: who.id, action, target: `${target.type}:${target.id}`, after }, 'staff action');
  }

  async list(): Promise<Staff[]> {
    return (await this.ctx.db.select().from(staff).orderBy(asc(staff.id))).map(staffView);
  }

  async create(who: AuthStaff, input: { email: string; name: string; password: string; roles: string[] }): Promise<Staff> {
    const passwordHash = await hashPassword(input.password);
    try {
      return await this.ctx.db.transaction(async (tx) => {
        const [row] = await tx.insert(staff).values({ email: input.email, name: input.name, passwordHash, roles: input.roles }).returning();
        const view = staffView(row!);
        await this.audit(tx, who, 'staff.create', { type: 'staff', id: row!.id }, null, view);
        return view;
      });
    } catch (err) {
      if (isUniqueViolation(err, 'staff_email_unique')) throw fail('admin.staff_email_taken');
      throw err;
    }
  }

  async updateRoles(who: AuthStaff, id: number, roles: string[]): Promise<Staff> {
    if (id === who.id && !roles.includes('admin')) throw fail('admin.cannot_demote_self');
    const view = await this.change(who, id, 'staff.roles', { roles });
    // New powers need a new sign-in (with TOTP where the roles ask for it); lost ones end at once,
    // sockets included (support chats stop reaching a member no longer in support).
    await this.ctx.services.sessions.revokeAllForStaff(id, 'ended_by_staff');
    return view;
  }

  /** Disabling ends the member's sessions at once. */
  async setStatus(who: AuthStaff, id: number, status: number): Promise<Staff> {
    if (id === who.id) throw fail('admin.cannot_disable_self');
    const view = await this.change(who, id, status ? 'staff.enable' : 'staff.disable', { status });
    if (!status) await this.ctx.services.sessions.revokeAllForStaff(id, 'disabled');
    return view;
  }

  private async change(who: AuthStaff, id: number, action: string, set: { roles?: string[]; status?: number }): Promise<Staff> {
    return this.ctx.db.transaction(async (tx) => {
      const [before] = await tx.select().from(staff).where(eq(staff.id, id)).for('update');
      if (!before) throw notFound();
      const [after] = await tx.update(staff).set(set).where(eq(staff.id, id)).returning();
      await this.audit(
        tx,
        who,
        action,
        { type: 'staff', id },
        { roles: before.roles, status: before.status },
        { roles: after!.roles, status: after!.status },
      );
      return staffView(after!);
    });
  }
}

/**
 * An active staff member by id, for auth's staff sessions (see SessionService.useStaffLookup). A
 * member holding a role that must use TOTP, without TOTP on, has no valid session: whatever session
 * they hold was not opened with a second factor.
 */
export async function findActiveStaff(
  db: DbOrTx,
  staffId: number,
  totpRoles: readonly string[] = [],
): Promise<Omit<AuthStaff, 'sessionId' | 'expiresAt'> | undefined> {
  const [row] = await db
    .select({ id: staff.id, email: staff.email, name: staff.name, roles: staff.roles, totpEnabled: staff.totpEnabled })
    .from(staff)
    .where(and(eq(staff.id, staffId), eq(staff.status, 1)))
    .limit(1);
  if (!row) return undefined;
  const { totpEnabled, ...member } = row;
  if (!totpEnabled && member.roles.some((r) => totpRoles.includes(r))) return undefined;
  return member;
}
