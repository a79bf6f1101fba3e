import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { AuditRow } from '@tp/contract/schemas/admin';
import type { DbOrTx } from '../../platform/db/client.ts';
import { staff, staffAuditLog } from './schema.ts';

export interface AuditFilter {
  staffId?: number;
  action?: string;
  targetType?: string;
  targetId?: string;
}

/** The staff audit log, newest first; it is append-only (a database trigger refuses changes). */
export async function listAudit(db: DbOrTx, f: AuditFilter, page: number, limit: number): Promise<{ data: AuditRow[]; total: number }> {
  const conds: SQL[] = [];
  if (f.staffId) conds.push(eq(staffAuditLog.staffId, f.staffId));
  if (f.action) conds.push(eq(staffAuditLog.action, f.action));
  if (f.targetType) conds.push(eq(staffAuditLog.targetType, f.targetType));
  if (f.targetId) conds.push(eq(staffAuditLog.targetId, f.targetId));
  const where = conds.length ? and(...conds) : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select({ log: staffAuditLog, email: staff.email })
      .from(staffAuditLog)
      .leftJoin(staff, eq(staff.id, staffAuditLog.staffId))
      .where(where)
      .orderBy(desc(staffAuditLog.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(staffAuditLog).where(where),
  ]);
  return {
    data: rows.map(({ log, email }) => ({
      id: log.id,
      staff_id: log.staffId,
      staff_email: email ?? '',
      action: log.action,
      target_type: log.targetType ?? '',
      target_id: log.targetId ?? '',
      before: log.before,
      after: log.after,
      created_at: log.createdAt.toISOString(),
    })),
    total: Number(counted?.n ?? 0),
  };
}
