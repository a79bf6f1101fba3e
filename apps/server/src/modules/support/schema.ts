import { bigserial, boolean, index, integer, pgTable, serial, smallint, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

/** The support module's tables: only the support module reads or writes them (other modules go through its service). */

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    /** 'user' or 'staff'. */
    sender: text('sender').notNull(),
    staffId: integer('staff_id'),
    body: text('body').notNull().default(''),
    imageUrl: text('image_url'),
    readByUser: boolean('read_by_user').notNull().default(false),
    readByStaff: boolean('read_by_staff').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('chat_messages_user_idx').on(t.userId, t.id)],
);

export const feedback = pgTable('feedback', {
  id: serial('id').primaryKey(),
  userId: integer('user_id'),
  contact: text('contact').notNull().default(''),
  content: text('content').notNull(),
  status: smallint('status').notNull().default(0),
  createdAt: createdAt(),
});
