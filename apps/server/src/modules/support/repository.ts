import { and, count, desc, eq, lt, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { users } from '../auth/schema.ts';
import { uploads } from '../identity/schema.ts';
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
      select c.user_id, u.uid, u.email, u.mobile, u.is_demo, c.unread::int as unread,
             m.id, m.sender, m.body, m.image_url, m.created_at
      from conv c
      join chat_messages m on m.id = c.last_id
      join users u on u.id = c.user_id
      order by c.last_id desc
      limit ${limit} offset ${offset}
    `),
    db.select({ n: sql<number>`count(distinct ${chatMessages.userId})::int` }).from(chatMessages),
  ]);
  return { rows: (list as unknown as { rows: ConversationRow[] }).rows, total: Number(totals[0]?.n ?? 0) };
}

/** Whether `key` is a stored upload, of `ownerId` when given. */
export async function uploadExists(db: DbOrTx, key: string, ownerId: number | null): Promise<boolean> {
  const where = ownerId === null ? eq(uploads.key, key) : and(eq(uploads.key, key), eq(uploads.userId, ownerId));
  const [row] = await db.select({ id: uploads.id }).from(uploads).where(where).limit(1);
  return !!row;
}

export async function insertFeedback(
  db: DbOrTx,
  values: { userId: number | null; contact: string; content: string },
): Promise<FeedbackRow> {
  const [row] = await db.insert(feedback).values(values).returning();
  return row!;
}

export async function listFeedback(db: DbOrTx, status: number | undefined, limit: number, offset: number) {
  const where = status === undefined ? undefined : eq(feedback.status, status);
  const [rows, [total]] = await Promise.all([
    db
      .select({ row: feedback, uid: users.uid, email: users.email })
      .from(feedback)
      .leftJoin(users, eq(users.id, feedback.userId))
      .where(where)
      .orderBy(desc(feedback.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(feedback).where(where),
  ]);
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
