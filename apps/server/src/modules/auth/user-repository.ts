import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { users } from '../../platform/db/schema.ts';

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
}

/** Inserts a user with a fresh public uid and invite code (retrying the rare collision). */
export async function insertUser(db: DbOrTx, input: NewUser): Promise<UserRow> {
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await db
        .insert(users)
        .values({ ...input, email: input.email?.toLowerCase() ?? null, uid: uid(), inviteCode: inviteCode() })
        .returning();
      return row!;
    } catch (err) {
      const msg = String((err as Error).message ?? err) + String((err as { cause?: Error }).cause?.message ?? '');
      if (attempt < 5 && /users_(uid|invite_code)_unique|users_uid|invite_code/.test(msg)) continue;
      throw err;
    }
  }
}

export async function findUserById(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** The user as the spec's clients see it: email, uid, is_demo, invite_code, id. */
export const publicUser = (u: UserRow) => ({
  id: u.id,
  uid: u.uid,
  email: u.email ?? '',
  mobile: u.mobile ?? '',
  area_id: u.areaId ?? 0,
  is_demo: u.isDemo ? 1 : 0,
  invite_code: u.inviteCode,
});
