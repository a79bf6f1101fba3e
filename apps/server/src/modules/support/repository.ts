import { and, count, desc, eq, lt, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { userContacts } from '../auth/index.ts';
import { chatMessages, feedback } from './schema.ts';

export type ChatRow = typeof chatMessages.$inferSelect;
export type NewChat = Omit<typeof chatMessages.$inferInsert, 'id' | 'createdAt'>;
export type FeedbackRow = typeof feedback.$inferSelect;
export type Sender = 'user' | 'staff';

export async function insertMessage(db: DbOrTx, values: NewChat): Promise<ChatRow> {
  const [row] = await db.insert(chatMessages).values(values).returning();
  return row!;
}

/** Up to `limit` messages before `beforeId` (newest of them first), plus whether older ones remain. */
export async function messagesBefore(db: DbOrTx, userId: number, beforeId: number | undefined, limit: number) {
  const where = beforeId ? and(eq(chatMessages.userId, userId), lt(chatMessages.id, beforeId)) : eq(chatMessages.userId, userId);
  const rows = await db
    .select()
    .from(chatMessages)
    .where(where)
    .orderBy(desc(chatMessages.id))
    .limit(limit + 1);
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

export async function countMessages(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(chatMessages).where(eq(chatMessages.userId, userId));
  return Number(row?.n ?? 0);
}

/** Marks the other side's messages up to `uptoId` as read by `reader`. */
export async function markRead(db: DbOrTx, userId: number, reader: Sender, uptoId: number): Promise<void> {
  const from: Sender = reader === 'user' ? 'staff' : 'user';
  const flag = reader === 'user' ? chatMessages.readByUser : chatMessages.readByStaff;
  await db
    .update(chatMessages)
    .set(reader === 'user' ? { readByUser: true } : { readByStaff: true })
    .where(and(eq(chatMessages.userId, userId), eq(chatMessages.sender, from), lte(chatMessages.id, uptoId), eq(flag, false)));
}

export async function unreadByUser(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(chatMessages)
    .where(and(eq(chatMessages.userId, userId), eq(chatMessages.sender, 'staff'), eq(chatMessages.readByUser, false)));
  return Number(row?.n ?? 0);
}

export interface ConversationRow {
  user_id: number;
  uid: string;
  email: string | null;
  mobile: string | null;
  is_demo: boolean;
  unread: number;
  id: number;
  sender: Sender;
  body: string;
  image_url: string | null;
  created_at: string | Date;
}

/** One row per user who has chatted: their last message and how many of their messages staff have not read. */
export async function conversations(db: DbOrTx, limit: number, offset: number) {
  const [list, totals] = await Promise.all([
    db.execute(sql`
      with conv as (
        select user_id, max(id) as last_id, count(*) filter (where sender = 'user' and not read_by_staff) as unread
        from chat_messages group by user_id
      )
      select c.user_id, c.unread::int as unread, m.id, m.sender, m.body, m.image_url, m.created_at
      from conv c
      join chat_messages m on m.id = c.last_id
      order by c.last_id desc
      limit ${limit} offset ${offset}
    `),
    db.select({ n: sql<number>`count(distinct ${chatMessages.userId})::int` }).from(chatMessages),
  ]);
  const messages = (list as unknown as { rows: Omit<ConversationRow, 'uid' | 'email' | 'mobile' | 'is_demo'>[] }).rows;
  const contacts = await userContacts(
    db,
    messages.map((m) => m.user_id),
  );
  const rows: ConversationRow[] = messages.flatMap((m) => {
    const who = contacts.get(m.user_id);
    return who ? [{ ...m, uid: who.uid, email: who.email, mobile: who.mobile, is_demo: who.isDemo }] : [];
  });
  return { rows, total: Number(totals[0]?.n ?? 0) };
}

/** Whether `key` is a stored upload, of `ownerId` when given (the identity module owns uploads). */
export { uploadExists } from '../identity/index.ts';

export async function insertFeedback(
  db: DbOrTx,
  values: { userId: number | null; contact: string; content: string },
): Promise<FeedbackRow> {
  const [row] = await db.insert(feedback).values(values).returning();
  return row!;
}

export async function listFeedback(db: DbOrTx, status: number | undefined, limit: number, offset: number) {
  const where = status === undefined ? undefined : eq(feedback.status, status);
  const [list, [total]] = await Promise.all([
    db.select().from(feedback).where(where).orderBy(desc(feedback.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(feedback).where(where),
  ]);
  const contacts = await userContacts(
    db,
    list.flatMap((f) => (f.userId === null ? [] : [f.userId])),
  );
  const rows = list.map((row) => {
    const who = row.userId === null ? undefined : contacts.get(row.userId);
    return { row, uid: who?.uid ?? null, email: who?.email ?? null };
  });
  return { rows, total: Number(total?.n ?? 0) };
}

/** Moves feedback from `from` to `to` status once; undefined when it is not in `from` (or does not exist). */
export async function changeFeedbackStatus(db: DbOrTx, id: number, from: number, to: number): Promise<FeedbackRow | undefined> {
  const [row] = await db
    .update(feedback)
    .set({ status: to })
    .where(and(eq(feedback.id, id), eq(feedback.status, from)))
    .returning();
  return row;
}

export async function findFeedback(db: DbOrTx, id: number): Promise<FeedbackRow | undefined> {
  const [row] = await db.select().from(feedback).where(eq(feedback.id, id)).limit(1);
  return row;
}

/** The user's newest `limit` messages from staff (replies, for their notifications), and how many there are. */
export async function staffReplies(db: DbOrTx, userId: number, limit: number): Promise<{ rows: { createdAt: Date }[]; total: number }> {
  const where = and(eq(chatMessages.userId, userId), eq(chatMessages.sender, 'staff'));
  const [rows, [counted]] = await Promise.all([
    db.select({ createdAt: chatMessages.createdAt }).from(chatMessages).where(where).orderBy(desc(chatMessages.id)).limit(limit),
    db.select({ n: count() }).from(chatMessages).where(where),
  ]);
  return { rows, total: Number(counted?.n ?? 0) };
}
