import { pgTable, serial, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

/** Tables of the platform layer, open to every module: key/value settings and the outbox of unsent messages. */

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** Messages that would have been sent without a mail or SMS provider; the back office reads them. */
export const outbox = pgTable('outbox', {
  id: serial('id').primaryKey(),
  channel: text('channel').notNull(),
  destination: text('destination').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  createdAt: createdAt(),
});
