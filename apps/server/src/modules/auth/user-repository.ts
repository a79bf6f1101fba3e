import { randomInt } from 'node:crypto';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { User } from '@tp/contract/schemas/auth';
import type { DbOrTx } from '../../platform/db/client.ts';
import { users } from './schema.ts';
import type { Destination } from './destination.ts';

export type UserRow = typeof users.$inferSelect;

const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const inviteCode = () => Array.from({ length: 8 }, () => INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)]).join('');
const uid = () => String(randomInt(10_000_000, 99_999_999));

export interface NewUser {
  email?: string | null;
  mobile?: string | null;
  areaId?: number | null;
  passwordHash?: string | null;
  isDemo?: boolean;
  demoId?: string | null;
  invitedBy?: number | null;
  /** The account group; by default the default group of the user's kind (demo or real). */
  groupId?: number;
}

/** The default account group of a kind (account_groups, the trading module's table, read by its name only). */
const defaultGroup = (isDemo: boolean) =>
  sql<number>`(select id from account_groups where kind = ${isDemo ? 'demo' : 'real'} and is_default)`;

/** Inserts a user with a fresh public uid and invite code (retrying the rare collision of either). */
export async function insertUser(db: DbOrTx, input: NewUser): Promise<UserRow> {
  for (let attempt = 0; ; attempt++) {
    try {
      // A savepoint per attempt: a collision inside the caller's transaction does not abort it.
      return await db.transaction(async (sp) => {
        const [row] = await sp
          .insert(users)
          .values({
            ...input,
            groupId: input.groupId ?? defaultGroup(input.isDemo ?? false),
            email: input.email?.toLowerCase() ?? null,
            uid: uid(),
            inviteCode: inviteCode(),
          })
          .returning();
        return row!;
      });
    } catch (err) {
      if (attempt < 5 && (isUniqueViolation(err, 'users_uid_unique') || isUniqueViolation(err, 'users_invite_code_unique'))) continue;
      throw err;
    }
  }
}

/** The account groups of these users. */
export async function userGroupIds(db: DbOrTx, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db.select({ id: users.id, groupId: users.groupId }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, r.groupId]));
}

/** Moves a user to another account group; the row as it is now, undefined when no such user. */
export async function setUserGroup(db: DbOrTx, id: number, groupId: number): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set({ groupId }).where(eq(users.id, id)).returning();
  return row;
}

export async function findUserById(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** The user as the spec's clients see it: email, uid, is_demo, invite_code, id. */
export const publicUser = (u: UserRow): User => ({
  id: u.id,
  uid: u.uid,
  email: u.email ?? '',
  mobile: u.mobile ?? '',
  area_id: u.areaId ?? 0,
  is_demo: u.isDemo ? 1 : 0,
  invite_code: u.inviteCode,
});

/** The account an email or an area and phone number belongs to (demo users have neither). */
export async function findUserByDestination(db: DbOrTx, dest: Destination): Promise<UserRow | undefined> {
  const where =
    dest.channel === 'email'
      ? eq(sql`lower(${users.email})`, dest.email)
      : and(eq(users.areaId, dest.areaId), eq(users.mobile, dest.mobile));
  const [row] = await db.select().from(users).where(where).limit(1);
  return row;
}

/** Users with this phone number in any area (login without an area). */
export async function findUsersByMobile(db: DbOrTx, mobile: string): Promise<UserRow[]> {
  return db.select().from(users).where(eq(users.mobile, mobile)).limit(2);
}

export async function findDemoUser(db: DbOrTx, demoId: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.demoId, demoId), eq(users.isDemo, true)))
    .limit(1);
  return row;
}

export async function findRealUserByInviteCode(db: DbOrTx, code: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.inviteCode, code.toUpperCase()), eq(users.isDemo, false)))
    .limit(1);
  return row;
}

export async function setPasswordHash(db: DbOrTx, userId: number, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

export async function listInvitedBy(db: DbOrTx, userId: number, limit: number, offset: number) {
  const rows = await db
    .select({ uid: users.uid, email: users.email, mobile: users.mobile, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.invitedBy, userId))
    .orderBy(desc(users.id))
    .limit(limit)
    .offset(offset);
  const [total] = await db.select({ n: count() }).from(users).where(eq(users.invitedBy, userId));
  return { rows, total: Number(total?.n ?? 0) };
}

/** Whether an insert failed on the named unique constraint (PostgreSQL code 23505, through drizzle's wrapper). */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  for (let e = err as { code?: string; constraint?: string; message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505' && (e.constraint === constraint || String(e.message).includes(constraint))) return true;
  }
  return false;
}

/** Staff enable (1) or disable (0) a trader. */
export async function setUserStatus(db: DbOrTx, id: number, status: number): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set({ status }).where(eq(users.id, id)).returning();
  return row;
}
