import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { userContacts } from '../auth/index.ts';
import { identityVerifications } from './schema.ts';

export type IdentityRow = typeof identityVerifications.$inferSelect;

export async function findIdentity(db: DbOrTx, userId: number): Promise<IdentityRow | undefined> {
  const [row] = await db.select().from(identityVerifications).where(eq(identityVerifications.userId, userId)).limit(1);
  return row;
}

export interface IdentitySubmission {
  userId: number;
  name: string;
  cardId: string;
  frontPic: string;
  reversePic: string;
}

/**
 * Creates the record, or replaces a rejected one; answers null when a record exists that is not
 * rejected (under review or verified), so a submission never overwrites a pending review.
 */
export async function submitIdentity(
  db: DbOrTx,
  s: IdentitySubmission,
  underReview: number,
  rejected: number,
): Promise<IdentityRow | null> {
  const [row] = await db
    .insert(identityVerifications)
    .values({ ...s, reviewStatus: underReview })
    .onConflictDoUpdate({
      target: identityVerifications.userId,
      set: {
        name: s.name,
        cardId: s.cardId,
        frontPic: s.frontPic,
        reversePic: s.reversePic,
        reviewStatus: underReview,
        rejectReason: null,
        submittedAt: sql`now()`,
        reviewedAt: null,
        reviewedBy: null,
      },
      setWhere: eq(identityVerifications.reviewStatus, rejected),
    })
    .returning();
  return row ?? null;
}

/** Moves a record from one status to another only if it is still in `from`; null otherwise. */
export async function reviewIdentity(
  db: DbOrTx,
  userId: number,
  from: number,
  to: number,
  staffId: number,
  rejectReason: string | null,
): Promise<IdentityRow | null> {
  const [row] = await db
    .update(identityVerifications)
    .set({ reviewStatus: to, rejectReason, reviewedAt: sql`now()`, reviewedBy: staffId })
    .where(and(eq(identityVerifications.userId, userId), eq(identityVerifications.reviewStatus, from)))
    .returning();
  return row ?? null;
}

export async function listIdentities(db: DbOrTx, opts: { status?: number; userId?: number; limit: number; offset: number }) {
  const where = and(
    opts.status === undefined ? undefined : eq(identityVerifications.reviewStatus, opts.status),
    opts.userId === undefined ? undefined : eq(identityVerifications.userId, opts.userId),
  );
  const records = await db
    .select()
    .from(identityVerifications)
    .where(where)
    .orderBy(desc(identityVerifications.submittedAt), desc(identityVerifications.userId))
    .limit(opts.limit)
    .offset(opts.offset);
  const [[total], contacts] = await Promise.all([
    db.select({ n: count() }).from(identityVerifications).where(where),
    userContacts(
      db,
      records.map((r) => r.userId),
    ),
  ]);
  const rows = records.flatMap((record) => {
    const who = contacts.get(record.userId);
    return who ? [{ record, uid: who.uid, email: who.email, mobile: who.mobile }] : [];
  });
  return { rows, total: Number(total?.n ?? 0) };
}
