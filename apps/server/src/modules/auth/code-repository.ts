import { and, count, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { captchas, verificationCodes } from './schema.ts';
import { outbox } from '../../platform/db/platform-schema.ts';

export interface NewCode {
  channel: string;
  destination: string;
  purpose: number;
  codeHash: string;
  expiresAt: Date;
}

/** Stores a new code for a destination and purpose; any earlier unused one dies with it. */
export async function replaceCode(db: DbOrTx, code: NewCode, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(verificationCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(verificationCodes.destination, code.destination),
          eq(verificationCodes.purpose, code.purpose),
          isNull(verificationCodes.usedAt),
        ),
      );
    await tx.insert(verificationCodes).values(code);
  });
}

/**
 * Spends one try on the live code of a destination (unused, unexpired, fewer than `maxTries`
 * tries) and answers its hash; null when there is none. Counting before comparing means
 * concurrent guesses can never compare more than `maxTries` times.
 */
export async function spendTry(db: DbOrTx, where: { channel: string; destination: string; purpose: number }, now: Date, maxTries: number) {
  const live = db
    .select({ id: verificationCodes.id })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.channel, where.channel),
        eq(verificationCodes.destination, where.destination),
        eq(verificationCodes.purpose, where.purpose),
        isNull(verificationCodes.usedAt),
        gt(verificationCodes.expiresAt, now),
      ),
    )
    .orderBy(desc(verificationCodes.id))
    .limit(1);
  const [row] = await db
    .update(verificationCodes)
    .set({ attempts: sql`${verificationCodes.attempts} + 1` })
    .where(and(eq(verificationCodes.id, sql`(${live})`), lt(verificationCodes.attempts, maxTries), isNull(verificationCodes.usedAt)))
    .returning({ id: verificationCodes.id, codeHash: verificationCodes.codeHash });
  return row ?? null;
}

/** Marks a code used; false if someone else used it first. */
export async function markCodeUsed(db: DbOrTx, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(verificationCodes)
    .set({ usedAt: now })
    .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.usedAt)))
    .returning({ id: verificationCodes.id });
  return rows.length === 1;
}

export async function insertCaptcha(db: DbOrTx, row: { id: string; answerHash: string; expiresAt: Date }): Promise<void> {
  await db.insert(captchas).values(row);
}

/** Uses up a captcha (right or wrong, one try each) and answers its hash; null if unknown, used or expired. */
export async function takeCaptcha(db: DbOrTx, id: string, now: Date): Promise<string | null> {
  const [row] = await db
    .update(captchas)
    .set({ usedAt: now })
    .where(and(eq(captchas.id, id), isNull(captchas.usedAt), gt(captchas.expiresAt, now)))
    .returning({ answerHash: captchas.answerHash });
  return row?.answerHash ?? null;
}

/** Drops codes and captchas that can no longer be used. */
export async function deleteStaleCodes(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(verificationCodes).where(lt(verificationCodes.expiresAt, before));
  await db.delete(captchas).where(or(lt(captchas.expiresAt, before), lt(captchas.usedAt, before)));
}

export async function listOutbox(db: DbOrTx, limit: number, offset: number) {
  const rows = await db.select().from(outbox).orderBy(desc(outbox.id)).limit(limit).offset(offset);
  const [total] = await db.select({ n: count() }).from(outbox);
  return { rows, total: Number(total?.n ?? 0) };
}
