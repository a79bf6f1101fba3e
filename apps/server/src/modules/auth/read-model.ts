import { and, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { users } from './schema.ts';

/** What auth publishes of its users for other modules' screens (the back office), read-only. */

export async function countUsersByKind(db: DbOrTx): Promise<{ real: number; demo: number }> {
  const [row] = await db
    .select({
      real: sql<number>`count(*) filter (where ${users.isDemo} = false)::int`,
      demo: sql<number>`count(*) filter (where ${users.isDemo} = true)::int`,
    })
    .from(users);
  return { real: Number(row?.real ?? 0), demo: Number(row?.demo ?? 0) };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Users matching an email, mobile, uid or id, newest first (the back office's user search). */
export async function searchUsers(db: DbOrTx, q: string, page: number, limit: number) {
  const term = q.trim();
  const conds: SQL[] = [];
  if (term) {
    conds.push(ilike(users.email, `%${escapeLike(term)}%`), ilike(users.mobile, `%${escapeLike(term)}%`), eq(users.uid, term));
    if (/^\d{1,9}$/.test(term)) conds.push(eq(users.id, Number(term)));
  }
  const where = conds.length ? or(...conds) : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return { rows, total: Number(counted?.n ?? 0) };
}

export interface UserContact {
  uid: string;
  email: string | null;
  mobile: string | null;
  isDemo: boolean;
}

/** Uid, email, mobile and account kind of each of some users, by id (other modules' lists show who a row belongs to). */
export async function userContacts(db: DbOrTx, userIds: number[]): Promise<Map<number, UserContact>> {
  const ids = [...new Set(userIds)];
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: users.id, uid: users.uid, email: users.email, mobile: users.mobile, isDemo: users.isDemo })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(rows.map(({ id, ...contact }) => [id, contact]));
}

/** Of some users, the real, active ones who have not opted out of the ranking, with what the ranking shows of them. */
export async function rankableUsers(
  db: DbOrTx,
  userIds: number[],
): Promise<Map<number, { displayName: string | null; email: string | null; mobile: string | null; uid: string }>> {
  const ids = [...new Set(userIds)];
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: users.id, displayName: users.displayName, email: users.email, mobile: users.mobile, uid: users.uid })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.isDemo, false), eq(users.rankingOptOut, false), eq(users.status, 1)));
  return new Map(rows.map(({ id, ...shown }) => [id, shown]));
}

/** Who invited each of some users (users nobody invited are absent): the partners module's tree. */
export async function invitersOf(db: DbOrTx, userIds: number[]): Promise<Map<number, number>> {
  const ids = [...new Set(userIds)];
  if (!ids.length) return new Map();
  const rows = await db.select({ id: users.id, invitedBy: users.invitedBy }).from(users).where(inArray(users.id, ids));
  return new Map(rows.flatMap((r) => (r.invitedBy === null ? [] : [[r.id, r.invitedBy] as [number, number]])));
}

/** The real users some users invited, by id, oldest first (a partner's clients). */
export async function realUsersInvitedBy(db: DbOrTx, inviterIds: number[]) {
  const ids = [...new Set(inviterIds)];
  if (!ids.length) return [];
  return db
    .select({
      id: users.id,
      invitedBy: users.invitedBy,
      email: users.email,
      mobile: users.mobile,
      uid: users.uid,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(and(inArray(users.invitedBy, ids), eq(users.isDemo, false)))
    .orderBy(users.id);
}

/** One page of the real users a user invited, newest first, and how many there are. */
export async function invitedPage(db: DbOrTx, inviterId: number, page: number, limit: number) {
  const where = and(eq(users.invitedBy, inviterId), eq(users.isDemo, false));
  const [rows, [counted]] = await Promise.all([
    db
      .select({ id: users.id, email: users.email, mobile: users.mobile, uid: users.uid, createdAt: users.createdAt })
      .from(users)
      .where(where)
      .orderBy(desc(users.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return { rows, total: Number(counted?.n ?? 0) };
}
